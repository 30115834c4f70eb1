"""Names that Exudyn's test suite and Examples use, as exudyn 1.13.6 has them (issue 28, item 3): config.Version with
details, graphics.material, MainSystem.GetDictionary / SetDictionary, the Abaqus import of an instance whose name
the script gives wrongly."""
import re
import warnings

import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn.FEM import FEMinterface as FloatframeFEM


@pytest.mark.exudyn
def test_config_version_with_details_has_exudyns_form():
    exu = pytest.importorskip("exudyn")
    form = r"^(?P<version>[^;]+); Python\d+\.\d+\.\d+; \w+ \w+ FLOAT64$"
    assert re.match(form, exu.config.Version(True))
    ours = re.match(form, ffexu.config.Version(addDetails=True))
    assert ours and ours.group("version") == ffexu.config.Version() == ffexu.GetVersionString()
    assert ffexu.GetVersionString(True) == ffexu.config.Version(True)


@pytest.mark.exudyn
def test_graphics_material_is_exudyns():
    exu_graphics = pytest.importorskip("exudyn.graphics")
    names = [name for name in dir(exu_graphics.material) if not name.startswith("_")]
    assert len(names) == 21
    for name in names:
        assert getattr(ffexu.graphics.material, name) == getattr(exu_graphics.material, name), name


def small_system(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 2, 3], initialVelocities=[0.5, 0, 0]))
    mbs.AddObject(items.ObjectMassPoint(nodeNumber=node, mass=2.0))
    marker = mbs.AddMarker(items.MarkerNodePosition(nodeNumber=node))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[0, 0, -4.0]))
    mbs.AddSensor(items.SensorNode(nodeNumber=node, outputVariableType=exu.OutputVariableType.Position,
                                   storeInternal=True))
    mbs.variables["mass"] = 2.0
    return mbs


def solved_end(exu, mbs):
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 10
    settings.timeIntegration.endTime = 0.1
    settings.solution.file.write = False
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings)
    return mbs.GetSensorStoredData(0)[-1]


@pytest.mark.exudyn
def test_get_dictionary_has_exudyns_entries_and_set_dictionary_rebuilds_the_system():
    """Top-level keys, the item dicts' values (visualization keys aside), variables as the same dict; a system
    built from the dict by SetDictionary (twice: it replaces, not appends) ends where the original does."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    theirs, ours = small_system(exu, items).GetDictionary(), None
    mbs = small_system(ffexu, ffitems)
    ours = mbs.GetDictionary()
    assert list(ours) == list(theirs)
    assert ours["__version__"] == theirs["__version__"] == "1.13.6"
    assert ours["userFunctions"] == theirs["userFunctions"] and ours["settings"] == theirs["settings"]
    assert ours["variables"] is mbs.variables and ours["systemVariables"] is mbs.sys
    for family in ("node", "object", "marker", "load", "sensor"):
        key = f"{family}List"
        assert len(ours[key]) == len(theirs[key]) == 1, key
        for name, value in theirs[key][0].items():
            if name.startswith("V") or callable(value):
                continue
            if isinstance(value, (str, bool)) or value is None:
                assert str(ours[key][0][name]) == str(value), (key, name)
            else:
                np.testing.assert_allclose(np.asarray(ours[key][0][name], dtype=float),
                                           np.asarray(value, dtype=float), err_msg=f"{key} {name}")
    copy = ffexu.SystemContainer().AddSystem()
    copy.SetDictionary(ours)
    copy.SetDictionary(ours)
    assert copy.systemData.NumberOfNodes() == 1 and copy.variables == {"mass": 2.0}
    np.testing.assert_allclose(solved_end(ffexu, copy), solved_end(ffexu, mbs), rtol=0, atol=1e-15)


@pytest.mark.exudyn
def test_the_abaqus_import_reads_the_first_instance_whatever_name_the_script_gives(tmp_path):
    """Exudyn's abaqusImportTest asks for 'rotor-1' in files whose instance is 'block-1': exudyn reads the first
    *Instance regardless, and so does the layer (it refused before)."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    path = tmp_path / "tet.inp"
    path.write_text("*Heading\n*Part, name=block\n*End Part\n*Assembly, name=Assembly\n"
                    "*Instance, name=block-1, part=block\n*Node\n"
                    "      1,           0.,           0.,           0.\n      2,           1.,           0.,           0.\n"
                    "      3,           0.,           1.,           0.\n      4,           0.,           0.,           1.\n"
                    "      5,           1.,           1.,           1.\n"
                    "*Element, type=C3D4\n1, 1, 2, 3, 4\n2, 2, 3, 4, 5\n*End Instance\n*End Assembly\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = exudyn_fem.FEMinterface()
        their_nodes = theirs.ImportFromAbaqusInputFile(str(path), typeName="Instance", name="rotor-1")
    ours = FloatframeFEM()
    our_nodes = ours.ImportFromAbaqusInputFile(str(path), typeName="Instance", name="rotor-1")
    np.testing.assert_array_equal(our_nodes, their_nodes)
    np.testing.assert_array_equal(ours.elements[0]["Tet4"], theirs.elements[0]["Tet4"])
    no_instance = tmp_path / "part.inp"
    no_instance.write_text("*Heading\n*Part, name=block\n*Node\n1, 0., 0., 0.\n*End Part\n")
    with pytest.raises(ValueError, match="did not find keyword '\\*Instance'"):
        FloatframeFEM().ImportFromAbaqusInputFile(str(no_instance), typeName="Instance", name="rotor-1")
