"""The one table of ready models: each model's name (hyphenated, the same in every command), what it is, which
commands offer it, and where its code is. ``run``, ``compare``, ``study``, ``modes`` (and the check of
``animate``/``plot`` that a model name is not a saved run) take their model lists from here; adding a ready model
is one row here plus its module.

A row's code references are "module:function" strings, imported only when the model is used, so that the
command line starts without building or importing any model.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ReadyModel:
    """One ready model.

    ``commands``: the subcommands that offer it (run, compare, study, modes). ``run``: "module:function" that
    builds it for ``floatframe run`` (mechanisms: called with modes and stiffness_scale); ``compare``:
    "module:function" returning a ``floatframe.compare.ComparisonModel`` (called with ``compare_options`` and the
    user's options); ``study``: the name of its study function in ``floatframe.study.models``; ``kind``:
    "rotor", "mechanism", "bracket", "spin-up" or "study" (how ``run`` drives it)."""

    name: str
    description: str
    commands: tuple[str, ...]
    kind: str
    run: str | None = None
    compare: str | None = None
    compare_options: dict = field(default_factory=dict)
    study: str | None = None


READY_MODELS = (
    ReadyModel("rotor-disc", "a spinning flexible rotor with a disc on spring-damper supports, Tisserand frame "
               "(built-in Hex8 mesh)", ("run", "compare", "study", "modes"), "rotor",
               run="floatframe.models.rotor_disc:build_rotor_disc",
               compare="floatframe.models.rotor_disc:comparison", compare_options={"setup": "tisserand"},
               study="rotor_disc_response"),
    ReadyModel("rotor-disc-constrained", "the same rotor with 6 mesh-coordinate constraints instead of the "
               "Tisserand frame", ("run", "compare"), "rotor", run="floatframe.models.rotor_disc:build_rotor_disc",
               compare="floatframe.models.rotor_disc:comparison", compare_options={"setup": "constrained"}),
    ReadyModel("double-pendulum", "a rigid and a flexible link on revolute joints under gravity", ("run",),
               "mechanism", run="floatframe.models.double_pendulum:build_double_pendulum"),
    ReadyModel("slider-crank", "a crank driven by a torque, a flexible connecting rod and a piston", ("run",),
               "mechanism", run="floatframe.models.slider_crank:build_slider_crank"),
    ReadyModel("flexible-arm", "a rigid upper link and a flexible forearm on revolute joints, driven by joint "
               "torques", ("run",), "mechanism", run="floatframe.models.flexible_arm:build_flexible_arm"),
    ReadyModel("bracket", "a Netgen-meshed L bracket on Craig-Bampton modes of its bolt holes, swinging on a hinge "
               "at one hole with a weight at the other", ("run",), "bracket", run="floatframe.models.bracket:build"),
    ReadyModel("spin-up-beam", "Kane's spin-up beam, with and without geometric stiffening (options: --spin, "
               "--no-stiffening, --full; see run spin-up-beam --help)", ("run",), "spin-up",
               run="floatframe.models.spin_up_beam:spin_up_main"),
    ReadyModel("pendulum", "a rigid pendulum on a spherical joint", ("compare", "study"), "benchmark",
               compare="floatframe.models.pendulum:comparison", study="pendulum_period"),
    ReadyModel("andrews", "Andrews' squeezing mechanism of the IVP test set, 7 bodies on revolute joints",
               ("compare",), "benchmark", compare="floatframe.models.andrews:comparison"),
    ReadyModel("car-axis", "the car axis of the IVP test set: two mass points on an axle over a bumpy road, index 3",
               ("compare",), "benchmark", compare="floatframe.models.car_axis:comparison"),
    ReadyModel("rotor-disc-supports", "the rotor disc's largest displacement against its supports' stiffness and "
               "damping, built once per worker", ("study",), "study", study="rotor_disc_supports"),
    ReadyModel("oscillator", "a spring-mass oscillator with a stiffness fit", ("study",), "study",
               study="oscillator_response"),
)
MODELS_BY_NAME = {model.name: model for model in READY_MODELS}


def model_names(command: str, kind: str | None = None) -> tuple[str, ...]:
    """The names of the ready models that ``command`` offers (of ``kind`` only, if given), in table order."""
    return tuple(model.name for model in READY_MODELS
                 if command in model.commands and (kind is None or model.kind == kind))


def descriptions(command: str) -> dict[str, str]:
    """name -> description of the ready models that ``command`` offers."""
    return {model.name: model.description for model in READY_MODELS if command in model.commands}


def load(reference: str):
    """The object that a "module:name" reference names (imported now)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)
