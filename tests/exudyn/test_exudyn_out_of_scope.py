"""Exudyn features outside floatframe's scope are refused naming the scope (docs/exudyn.md, "Out of scope").

Claims: items, their visualization classes, MainSystem extensions and top-level names of ANCF/beams, contact,
kinematic trees and hydraulics raise an ExudynLayerError that names the scope, where a script would otherwise stop
at a NameError; names of features that are merely missing do not claim a scope; every visualization placeholder is
an Exudyn 1.13.6 name."""
import pytest

import floatframe.exudyn as exu
import floatframe.exudyn.itemInterface as ii
import floatframe.exudyn.utilities as ffu

CASES = [("ObjectANCFCable2D", "beams as bodies"), ("VObjectBeamGeometricallyExact2D", "beams as bodies"),
         ("ObjectContactSphereSphere", "contact"), ("VObjectContactCoordinate", "contact"),
         ("VRollingDiscPenalty", "contact"), ("ObjectKinematicTree", "kinematic trees"),
         ("ObjectConnectorHydraulicActuatorSimple", "hydraulics")]


@pytest.mark.parametrize("name, scope", CASES)
def test_star_imported_items_and_their_visualizations_name_the_scope(name, scope):
    namespace = {}
    exec("from floatframe.exudyn.utilities import *", namespace)
    with pytest.raises(exu.ExudynLayerError, match=rf"{name}\b.*; {scope}.*outside floatframe's scope"):
        namespace[name](show=False)


def test_module_attributes_and_extensions_name_the_scope():
    with pytest.raises(exu.ExudynLayerError, match="'GeneralContact'.*; contact.*outside floatframe's scope"):
        exu.GeneralContact
    with pytest.raises(exu.ExudynLayerError, match="itemInterface.ObjectANCFCable.*; beams as bodies"):
        ii.ObjectANCFCable(nodeNumbers=[0, 1])   # a placeholder: refused where it is used
    mbs = exu.SystemContainer().AddSystem()
    with pytest.raises(exu.ExudynLayerError, match="mbs.CreateKinematicTree.*; kinematic trees: outside"):
        mbs.CreateKinematicTree()
    with pytest.raises(exu.ExudynLayerError, match="mbs.CreateSphereSphereContact.*; contact"):
        mbs.CreateSphereSphereContact()
    with pytest.raises(exu.ExudynLayerError, match="mbs.CreateDistanceSensor.*; add the items") as missing:
        mbs.CreateDistanceSensor()
    assert "scope" not in str(missing.value)
    with pytest.raises(exu.ExudynLayerError) as missing:
        ffu.RoundMatrix(1)
    assert "scope" not in str(missing.value)
    with pytest.raises(exu.ExudynLayerError, match="MainSystem function 'AddGeneralContact'.*; contact.*outside"):
        mbs.AddGeneralContact()   # a MainSystem function the layer lacks: refused with its scope, not a crash
    assert not hasattr(mbs, "AddGeneralContact")   # (also an AttributeError)


def test_visualization_placeholders_are_exudyn_names():
    exudyn_utilities = pytest.importorskip("exudyn.utilities")
    placeholders = [name for name in ffu.UNSUPPORTED_NAMES if name[0] == "V" and name[1].isupper()]
    assert len(placeholders) >= 40
    assert set(placeholders) <= set(exudyn_utilities.__all__)


@pytest.mark.parametrize("module, name", [("beams", "GenerateStraightLineANCFCable2D"), ("beams", "CreateReevingCurve"),
                                          ("shells", "ShellMesh")])
def test_beam_and_shell_generators_are_placeholders_that_name_the_scope(module, name):
    namespace = {}
    exec(f"from floatframe.exudyn.{module} import *", namespace)
    with pytest.raises(exu.ExudynLayerError, match=rf"exudyn\.{module}\.{name}; beams as bodies.*outside"):
        namespace[name]()


def test_beam_and_shell_generators_are_exudyns_names():
    import importlib

    for module in ("beams", "shells"):
        theirs = importlib.import_module(f"exudyn.{module}") if importlib.util.find_spec("exudyn") else None
        if theirs is None:
            pytest.skip("exudyn is not installed")
        ours = importlib.import_module(f"floatframe.exudyn.{module}")
        public = {n for n in dir(theirs) if not n.startswith("_") and callable(getattr(theirs, n))
                  and getattr(getattr(theirs, n), "__module__", "") == f"exudyn.{module}"}
        assert set(ours.EXUDYN_NAMES) == public


def test_a_star_import_of_the_item_interface_gives_placeholders_that_name_the_scope():
    """``from exudyn.itemInterface import *`` then an ANCF node (Exudyn's computeODE2EigenvaluesTest): refused with the
    item and its scope where the script uses it, not a NameError."""
    namespace = {}
    exec("from floatframe.exudyn.itemInterface import *", namespace)
    with pytest.raises(exu.ExudynLayerError, match="itemInterface.Point2DS1 .*beams as bodies.*outside floatframe's "
                                                   "scope"):
        namespace["Point2DS1"](referenceCoordinates=[0, 0, 1, 0])
    assert namespace["MassPoint"] is ii.MassPoint   # the supported names are the items themselves


def test_exudyns_machines_module_refuses_on_import_naming_the_scope():
    """``from exudyn.machines import CreateBallBearing`` (ballBearingTest): an ExudynLayerError with the scope, not a
    ModuleNotFoundError."""
    import importlib
    import sys
    with pytest.raises(exu.ExudynLayerError, match="exudyn.machines; contact.*outside floatframe's scope"):
        importlib.import_module("floatframe.exudyn.machines")
    assert "floatframe.exudyn.machines" not in sys.modules   # a failed import leaves nothing behind


@pytest.mark.parametrize("submodule, scope", [("special", ""), ("models", ""), ("future", ""), ("rosInterface", ""),
                                              ("mobile", "; contact"), ("utilities", "; contact")])
def test_robotics_submodules_beyond_serial_robots_refuse_on_import(submodule, scope):
    """exudyn.robotics itself (serial robots in redundant coordinates, robotics.motion) is supported; its other
    submodules are refused on import, naming what the layer covers and, for the ones on contact, the scope."""
    import importlib
    import sys
    with pytest.raises(exu.ExudynLayerError, match=f"exudyn.robotics.{submodule} .*covers serial robots in redundant "
                                                   f"coordinates.*robotics.motion{scope}"):
        importlib.import_module(f"floatframe.exudyn.robotics.{submodule}")
    assert f"floatframe.exudyn.robotics.{submodule}" not in sys.modules


def test_robotics_kinematic_tree_parts_name_the_scope():
    """Robot.CreateKinematicTree (serialRobotKinematicTree) and exudyn's JointType names through the robotics
    module refuse naming the kinematic-tree scope."""
    import floatframe.exudyn.robotics as robotics
    robot = robotics.Robot()
    robot.AddLink(robotics.RobotLink(mass=1, COM=[0, 0, 0], inertia=[[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    with pytest.raises(exu.ExudynLayerError, match="Robot.CreateKinematicTree: .*kinematic trees: outside "
                                                   "floatframe's scope"):
        robot.CreateKinematicTree(exu.SystemContainer().AddSystem())
    with pytest.raises(exu.ExudynLayerError, match="dictJointTypeText2Exudyn: .*kinematic trees"):
        robotics.dictJointTypeText2Exudyn
