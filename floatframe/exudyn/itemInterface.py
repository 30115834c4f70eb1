"""Exudyn's ``itemInterface``: the item classes, their short aliases and visualization classes."""
from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn._unknown import Unsupported, module_getattr
from floatframe.exudyn.utilities import UNSUPPORTED_NAMES

globals().update({cls.__name__: cls for cls in ITEM_CLASSES})
globals().update(SHORT_NAMES)
globals().update(VISUALIZATION_CLASSES)

__all__ = [cls.__name__ for cls in ITEM_CLASSES] + list(SHORT_NAMES) + list(VISUALIZATION_CLASSES)

# Exudyn's item classes that the layer does not have are placeholders here too, so that a script importing them
# with ``from exudyn.itemInterface import *`` is refused where it uses one (naming the item and its scope), not
# stopped by a NameError.
PLACEHOLDERS = [name for name in UNSUPPORTED_NAMES if "UserFunction" not in name and name not in __all__]
globals().update({name: Unsupported(name, "exudyn.itemInterface", __all__) for name in PLACEHOLDERS})
__all__ += PLACEHOLDERS


__getattr__ = module_getattr("floatframe.exudyn.itemInterface", __all__, UNSUPPORTED_NAMES)
