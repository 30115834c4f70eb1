"""Exudyn's ``itemInterface``: the item classes, their short aliases and visualization classes."""
from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn._unknown import module_getattr
from floatframe.exudyn.utilities import UNSUPPORTED_NAMES

globals().update({cls.__name__: cls for cls in ITEM_CLASSES})
globals().update(SHORT_NAMES)
globals().update(VISUALIZATION_CLASSES)

__all__ = [cls.__name__ for cls in ITEM_CLASSES] + list(SHORT_NAMES) + list(VISUALIZATION_CLASSES)


__getattr__ = module_getattr("floatframe.exudyn.itemInterface", __all__, UNSUPPORTED_NAMES)
