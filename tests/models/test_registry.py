"""Claims about the one table of ready models (floatframe.models.registry): every command takes its model list from
it, every code reference in it resolves, and the same name means the same model in every command."""
import subprocess
import sys

import pytest

from floatframe import command_line
from floatframe.compare import load_model
from floatframe.models.registry import MODELS_BY_NAME, READY_MODELS, load, model_names
from floatframe.pictures.cli import MODE_MODELS
from floatframe.study import STUDY_MODELS
from floatframe.study import models as study_models


def test_names_are_hyphenated_and_unique():
    names = [model.name for model in READY_MODELS]
    assert len(names) == len(set(names))
    assert all(name == name.lower().replace("_", "-") for name in names)


@pytest.mark.parametrize("model", READY_MODELS, ids=lambda model: model.name)
def test_every_code_reference_of_a_row_resolves(model):
    assert model.commands and set(model.commands) <= {"run", "compare", "study", "modes"}
    for command, reference in (("run", model.run), ("compare", model.compare)):
        assert (reference is not None) == (command in model.commands), (model.name, command)
        if reference is not None:
            assert callable(load(reference))
    assert (model.study is not None) == ("study" in model.commands)
    if model.study is not None:
        assert STUDY_MODELS[model.name] is getattr(study_models, model.study)


def test_each_command_offers_exactly_the_rows_that_name_it():
    assert command_line.RUN_MODELS == model_names("run")
    assert set(command_line.MECHANISMS) == {"double-pendulum", "slider-crank", "flexible-arm"}
    assert set(STUDY_MODELS) == set(model_names("study"))
    assert MODE_MODELS == model_names("modes")
    assert set(command_line.MODELS) == set(model_names("run")) | set(model_names("compare"))


def test_run_help_lists_every_run_model_including_spin_up_beam():
    shown = subprocess.run([sys.executable, "-m", "floatframe", "run", "--help"], capture_output=True, text=True,
                           check=True).stdout
    flat = " ".join(shown.split())
    for name in model_names("run"):
        assert f"{name}:" in flat.replace("- ", "-"), name


def test_compare_builds_a_row_by_its_name_and_names_its_rows_for_another():
    model = load_model("pendulum")
    assert model.name == "pendulum" and model.t_end == 2.0 and model.n_outputs == 40
    assert model.system.n_coordinates == 7
    with pytest.raises(ValueError, match="give rotor-disc, rotor-disc-constrained, pendulum, andrews, car-axis or a Python file"):
        load_model("double-pendulum")


def test_the_spin_up_beam_row_runs_its_own_command_line():
    assert MODELS_BY_NAME["spin-up-beam"].kind == "spin-up"
    shown = subprocess.run([sys.executable, "-m", "floatframe", "run", "spin-up-beam", "--help"],
                           capture_output=True, text=True, check=True).stdout
    assert "--spin" in shown and "--no-stiffening" in shown
