"""``SC.renderer.materials``: Exudyn's list of graphics materials, kept and not rendered.

Scripts read a material, change it and write it back (``mat = SC.renderer.materials.Get(5); mat.alpha = 0.5;
SC.renderer.materials.Set(5, mat)``); the layer keeps the list so that such scripts run, and nothing is drawn.
The ten default materials and the defaults of a new one are those of Exudyn 1.13.6.
"""
from __future__ import annotations

import copy

from floatframe.exudyn._names import ExudynLayerError

MATERIAL_FIELDS = ("name", "alpha", "baseColor", "emission", "ior", "reflectivity", "shininess", "specular")

# name, alpha, baseColor, emission, ior, reflectivity, shininess, specular (Exudyn 1.13.6's defaults)
DEFAULT_MATERIALS = [
    ("default", 1.0, [0.4, 0.4, 0.9], [0.0, 0.0, 0.0], 1.0, 0.0, 32.0, [0.6, 0.6, 0.6]),
    ("matt", 1.0, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], 1.0, 0.0, 5.0, [0.3, 0.3, 0.3]),
    ("steel", 1.0, [0.6, 0.6, 0.6], [0.0, 0.0, 0.0], 1.0, 0.1, 25.0, [0.3, 0.33, 0.4]),
    ("plastic", 1.0, [1.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0, 0.1, 20.0, [0.4, 0.45, 0.45]),
    ("chrome", 1.0, [0.75, 0.75, 0.75], [0.0, 0.0, 0.0], 1.0, 0.25, 60.0, [0.6, 0.62, 0.67]),
    ("shiny", 1.0, [1.0, 0.5, 0.0], [0.0, 0.0, 0.0], 1.0, 0.5, 100.0, [0.7, 0.65, 0.7]),
    ("transparent", 0.3, [0.75, 0.75, 0.75], [0.0, 0.0, 0.0], 1.05, 0.0, 20.0, [0.4, 0.4, 0.45]),
    ("glass", 0.15, [0.8, 0.8, 0.8], [0.0, 0.0, 0.0], 1.5, 0.6, 50.0, [0.6, 0.68, 0.63]),
    ("mirror", 1.0, [0.8, 0.8, 0.8], [0.0, 0.0, 0.0], 1.0, 0.8, 50.0, [0.4, 0.4, 0.4]),
    ("emission", 1.0, [0.85, 0.85, 0.7], [0.8, 0.8, 0.7], 1.0, 0.0, 20.0, [0.6, 0.6, 0.6]),
]
NEW_MATERIAL = ("undefined", 1.0, [0.5, 0.5, 0.5], [0.0, 0.0, 0.0], 1.0, 0.0, 32.0, [0.5, 0.5, 0.5])


class VSettingsMaterial:
    """One graphics material (name, alpha, baseColor, emission, ior, reflectivity, shininess, specular)."""

    def __init__(self, values=NEW_MATERIAL):
        for field, value in zip(MATERIAL_FIELDS, values):
            setattr(self, field, copy.copy(value))

    def __setattr__(self, name, value):
        if name not in MATERIAL_FIELDS:
            raise ExudynLayerError(f"VSettingsMaterial has no field '{name}'; fields: {list(MATERIAL_FIELDS)}")
        object.__setattr__(self, name, value)

    def GetDict(self) -> dict:
        return {field: copy.copy(getattr(self, field)) for field in MATERIAL_FIELDS}

    def __repr__(self):
        return "VSettingsMaterial(" + ", ".join(f"{field}={getattr(self, field)!r}" for field in MATERIAL_FIELDS) + ")"


class GraphicsMaterialList:
    """``SC.renderer.materials``: Get (a copy) and Set by index or name, Append, New, Reset, GetDict."""

    def __init__(self):
        self.Reset()

    def Reset(self):
        """Back to the ten default materials."""
        self._materials = [VSettingsMaterial(values) for values in DEFAULT_MATERIALS]

    def _index(self, indexOrName) -> int:
        if isinstance(indexOrName, str):
            names = [material.name for material in self._materials]
            if indexOrName not in names:
                raise ExudynLayerError(f"renderer.materials: no material named {indexOrName!r}; names: {names}")
            return names.index(indexOrName)
        index = int(indexOrName)
        if not 0 <= index < len(self._materials):
            raise ExudynLayerError(f"renderer.materials: index {index} is out of range (0..{len(self._materials) - 1})")
        return index

    @staticmethod
    def _material(material) -> VSettingsMaterial:
        """A material from a VSettingsMaterial or a dict (the fields not given as in a new material)."""
        if isinstance(material, VSettingsMaterial):
            return copy.deepcopy(material)
        if not isinstance(material, dict):
            raise ExudynLayerError(f"renderer.materials: a material is a VSettingsMaterial or a dict, got "
                                   f"{type(material).__name__}")
        result = VSettingsMaterial()
        for field, value in material.items():
            setattr(result, field, copy.copy(value))
        return result

    def Get(self, indexOrName) -> VSettingsMaterial:
        """A copy of the material (changing it changes the list only through Set)."""
        return copy.deepcopy(self._materials[self._index(indexOrName)])

    def GetDict(self, indexOrName) -> dict:
        return self._materials[self._index(indexOrName)].GetDict()

    def Set(self, indexOrName, material):
        self._materials[self._index(indexOrName)] = self._material(material)

    def Append(self, material) -> int:
        """Add a material; returns its index."""
        self._materials.append(self._material(material))
        return len(self._materials) - 1

    @staticmethod
    def New() -> VSettingsMaterial:
        """A new material with the defaults (not in the list until appended)."""
        return VSettingsMaterial()
