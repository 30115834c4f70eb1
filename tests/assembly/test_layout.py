"""Claims about the assembly package's public face: the old module names still import (with a warning naming the
new module), and the components' post-assembly checks run through one declared hook, in order, with deferral
until every Parameter has a value."""
import importlib

import pytest

import floatframe as ff
from floatframe.assembly import AssembledSystem, RedundantConstraintsWarning, System
from floatframe.components.base import ModelError
from floatframe.parameters import Parameter


@pytest.mark.parametrize("old, name, new", [
    ("floatframe.system", "System", System),
    ("floatframe.system", "AssembledSystem", AssembledSystem),
    ("floatframe.system", "RedundantConstraintsWarning", RedundantConstraintsWarning),
    ("floatframe.system_functions", "sparse_jacobian", "floatframe.assembly.functions"),
    ("floatframe.user_function_terms", "UserFunctionTerms", "floatframe.assembly.user_function_terms"),
])
def test_an_old_module_name_gives_the_same_object_and_names_its_new_module(old, name, new):
    with pytest.warns(DeprecationWarning, match=r"moved to floatframe\.assembly"):
        found = getattr(importlib.import_module(old), name)
    expected = new if not isinstance(new, str) else getattr(importlib.import_module(new), name)
    assert found is expected
    assert ff.System is System and ff.AssembledSystem is AssembledSystem


def test_an_unknown_name_of_an_old_module_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        importlib.import_module("floatframe.system").Nothing


class Recorder(ff.ObjectMassPoint):
    """A mass point that records when its post-assembly check runs, and can defer it or fail."""

    def __init__(self, node, log, mode):
        super().__init__(node, 1.0)
        self.log, self.mode = log, mode

    def check(self, assembled):
        self.log.append((self.index, self.mode))
        if self.mode == "fail":
            raise self.error("refuses the assembled system")
        if self.mode == "defer":
            assembled.defer_check(lambda later: self.log.append((self.index, "deferred ran")))


def points(modes, mass=None):
    system, log = System(), []
    for mode in modes:
        system.add(Recorder(system.add(ff.NodePoint([0, 0, 0])), log, mode))
    if mass is not None:  # a Parameter without value keeps deferred checks waiting
        system.add(ff.ObjectMassPoint(system.add(ff.NodePoint([1, 0, 0])), mass))
    return system, log


def test_post_assembly_checks_run_once_each_in_the_order_of_the_items():
    system, log = points(["ok", "ok", "ok"])
    system.assemble()
    assert log == [(0, "ok"), (1, "ok"), (2, "ok")]


def test_a_failing_check_stops_the_assembly_with_the_component_named():
    system, log = points(["ok", "fail", "ok"])
    with pytest.raises(ModelError, match="ObjectMassPoint 1.*refuses the assembled system"):
        system.assemble()
    assert log == [(0, "ok"), (1, "fail")]


def test_a_deferred_check_runs_when_the_last_parameter_gets_its_value():
    system, log = points(["defer"], mass=Parameter("m", size=1))
    assembled = system.assemble()
    assert log == [(0, "defer")]
    assembled.set_parameter("m", 2.0)
    assert log == [(0, "defer"), (0, "deferred ran")]
    assert assembled.pending_checks == []
