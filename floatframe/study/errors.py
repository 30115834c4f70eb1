"""The error of a study that cannot start or cannot go on."""


class StudyError(ValueError):
    """A study that cannot start: the message names the parameter, sample or file at fault."""
