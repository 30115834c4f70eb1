"""FEMinterface's Ansys readers and ObjectFFRFreducedOrderInterface.SaveToFile/LoadFromFile against Exudyn 1.13.6.

The Ansys rotor files are Exudyn's TestModels/testData, read from the local copy of Exudyn's repository (skipped
where it is absent); the small files are written here.
"""
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.exudyn import FEM as ffem
from floatframe.exudyn._names import ExudynLayerError

MIRROR = Path("/work/.mirror/jgerstmayr+EXUDYN/repo")
ROTOR_FILES = ("MassMatrixSparse", "StiffnessMatrixSparse", "MatrixDofMappingVector", "NodalCoordinates", "Elements")


@pytest.fixture(scope="module")
def rotor(tmp_path_factory):
    """Path prefix of Exudyn's rotorAnsys test data, copied out of the repository copy."""
    if not MIRROR.is_dir() or shutil.which("git") is None:
        pytest.skip(f"Exudyn's repository copy not found at {MIRROR}")
    folder = tmp_path_factory.mktemp("ansys")
    for name in ROTOR_FILES:
        content = subprocess.run(["git", f"--git-dir={MIRROR}", "show",
                                  f"HEAD:main/pythonDev/TestModels/testData/rotorAnsys{name}.txt"],
                                 capture_output=True, check=False).stdout
        if not content:
            pytest.skip(f"rotorAnsys{name}.txt not in Exudyn's repository copy")
        (folder / f"rotorAnsys{name}.txt").write_bytes(content)
    return str(folder / "rotorAnsys")


def _read_rotor(fem_module, prefix):
    fem = fem_module.FEMinterface()
    mapping = prefix + "MatrixDofMappingVector.txt"
    fem.ReadMassMatrixFromAnsys(fileName=prefix + "MassMatrixSparse.txt", dofMappingVectorFile=mapping)
    fem.ReadStiffnessMatrixFromAnsys(fileName=prefix + "StiffnessMatrixSparse.txt", dofMappingVectorFile=mapping)
    fem.ReadNodalCoordinatesFromAnsys(fileName=prefix + "NodalCoordinates.txt")
    fem.ReadElementsFromAnsys(fileName=prefix + "Elements.txt")
    return fem


def _assert_same_sparse(ours, theirs):
    assert sp.issparse(ours) and ours.shape == theirs.shape
    assert (sp.csr_matrix(ours) != sp.csr_matrix(theirs)).nnz == 0


def test_rotor_matrices_nodes_elements_equal_exudyn(rotor):
    exu_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = _read_rotor(ffem, rotor), _read_rotor(exu_fem, rotor)
    _assert_same_sparse(ours.GetMassMatrix(), theirs.GetMassMatrix())
    _assert_same_sparse(ours.GetStiffnessMatrix(), theirs.GetStiffnessMatrix())
    assert ours.GetMassMatrix().shape == (345, 345) and ours.GetStiffnessMatrix().nnz == 13659
    assert np.array_equal(ours.nodes["Position"], theirs.nodes["Position"])
    assert ours.NumberOfNodes() == 115
    assert [sorted(item) for item in ours.elements] == [sorted(item) for item in theirs.elements]
    assert np.array_equal(ours.elements[0]["Hex8"], theirs.elements[0]["Hex8"])
    assert ours.metaData["source"] == theirs.metaData["source"] == "Ansys"
    # the surface: the same boundary nodes and area (the quads may be split along the other diagonal)
    ours_trigs, theirs_trigs = (np.asarray(fem.surface[0]["Trigs"]) for fem in (ours, theirs))
    assert ours.surface[0]["Name"] == theirs.surface[0]["Name"] == "meshSurface"
    assert set(ours_trigs.ravel()) == set(theirs_trigs.ravel())
    positions = ours.nodes["Position"]

    def area(trigs):
        corners = positions[trigs]
        return 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1).sum()

    assert area(ours_trigs) == pytest.approx(area(theirs_trigs), rel=1e-12)
    point = [0.0, 0.19598444, 0.15]   # the unbalance node of objectFFRFreducedOrderStressModesTest
    assert ours.GetNodeAtPoint(point) == theirs.GetNodeAtPoint(point)
    assert ours.GetNodesInPlane([0, 0, 0], [0, 0, 1]) == list(theirs.GetNodesInPlane([0, 0, 0], [0, 0, 1]))


MAPPING = """%%MatrixMarket matrix array integer general
% This is a 2 x 1 Matrix
2 1
2
1
"""
# a 6 x 6 symmetric matrix as its lower triangle: Ansys coordinates 0-2 are node 2, 3-5 node 1
SYMMETRIC = """%%MatrixMarket matrix coordinate real symmetric
% comment
6 6 5
1 1 4.0
2 2 5.5
4 1 -1.25
6 6 7.0
5 3 0.5
"""


def test_small_matrix_files_mapped_as_exudyn(tmp_path):
    (tmp_path / "map.txt").write_text(MAPPING)
    (tmp_path / "k.txt").write_text(SYMMETRIC)
    dense = np.arange(36, dtype=float).reshape(6, 6) / 8 - 1
    dense[2, 4] = 0.0
    np.savetxt(tmp_path / "m.csv", dense, delimiter=",")
    fem = ffem.FEMinterface()
    fem.ReadStiffnessMatrixFromAnsys(str(tmp_path / "k.txt"), str(tmp_path / "map.txt"))
    fem.ReadMassMatrixFromAnsys(str(tmp_path / "m.csv"), str(tmp_path / "map.txt"), sparse=False)
    # closed form: file coordinate i is mesh coordinate mapping[i] = [3, 4, 5, 0, 1, 2][i]
    mapping = [3, 4, 5, 0, 1, 2]
    expected_k = np.zeros((6, 6))
    for i, j, value in [(0, 0, 4.0), (1, 1, 5.5), (3, 0, -1.25), (0, 3, -1.25), (5, 5, 7.0), (4, 2, 0.5),
                        (2, 4, 0.5)]:
        expected_k[mapping[i], mapping[j]] = value
    assert np.array_equal(fem.GetStiffnessMatrix(sparse=False), expected_k)
    expected_m = np.zeros((6, 6))
    expected_m[np.ix_(mapping, mapping)] = dense
    assert np.array_equal(fem.GetMassMatrix(sparse=False), expected_m)
    exu_fem = pytest.importorskip("exudyn.FEM")
    theirs = exu_fem.FEMinterface()
    theirs.ReadStiffnessMatrixFromAnsys(str(tmp_path / "k.txt"), str(tmp_path / "map.txt"))
    theirs.ReadMassMatrixFromAnsys(str(tmp_path / "m.csv"), str(tmp_path / "map.txt"), sparse=False)
    _assert_same_sparse(fem.GetStiffnessMatrix(), theirs.GetStiffnessMatrix())
    _assert_same_sparse(fem.GetMassMatrix(), theirs.GetMassMatrix())


NODES = ("Knotennummer\tX-Position (m)\tY-Position (m)\tZ-Position (m)\t\n"
         "3\t1,5\t0,\t2,e-001\t\n1\t0,\t0,\t0,\t\n2\t-4,996003611e-016\t1,0\t0,25\t\n")


def test_small_node_file_sorted_as_exudyn(tmp_path):
    (tmp_path / "nodes.txt").write_text(NODES)
    fem = ffem.FEMinterface()
    fem.ReadNodalCoordinatesFromAnsys(str(tmp_path / "nodes.txt"))
    expected = np.array([[0.0, 0.0, 0.0], [-4.996003611e-16, 1.0, 0.25], [1.5, 0.0, 0.2]])
    assert np.array_equal(fem.GetNodePositionsAsArray(), expected)
    exu_fem = pytest.importorskip("exudyn.FEM")
    theirs = exu_fem.FEMinterface()
    theirs.ReadNodalCoordinatesFromAnsys(str(tmp_path / "nodes.txt"))
    assert np.array_equal(fem.nodes["Position"], theirs.nodes["Position"])


def test_faulty_files_refused_naming_the_fault(tmp_path):
    (tmp_path / "nodes.txt").write_text("header\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n")
    (tmp_path / "gap.txt").write_text("header\n1\tTet4\t1\t2\t3\t4\n3\tTet4\t1\t2\t3\t4\n")
    (tmp_path / "wedge.txt").write_text("header\n1\tWedge6\t1\t2\t3\t4\t1\t2\n")
    (tmp_path / "far.txt").write_text("header\n1\tTet4\t1\t2\t3\t9\n")
    fem = ffem.FEMinterface()
    with pytest.raises(ExudynLayerError, match="ReadNodalCoordinatesFromAnsys first"):
        fem.ReadElementsFromAnsys(str(tmp_path / "gap.txt"))
    fem.ReadNodalCoordinatesFromAnsys(str(tmp_path / "nodes.txt"))
    with pytest.raises(ValueError, match="line 3: element number 3, expected 2"):
        fem.ReadElementsFromAnsys(str(tmp_path / "gap.txt"))
    with pytest.raises(ValueError, match="element type 'Wedge6' is not supported"):
        fem.ReadElementsFromAnsys(str(tmp_path / "wedge.txt"))
    with pytest.raises(ExudynLayerError, match="does not fit the nodes"):
        fem.ReadElementsFromAnsys(str(tmp_path / "far.txt"))
    assert fem.elements == []
    (tmp_path / "map.txt").write_text(MAPPING.replace("2 1\n2\n1\n", "1 1\n1\n"))
    (tmp_path / "k.txt").write_text(SYMMETRIC)
    with pytest.raises(ValueError, match="do not fit"):
        fem.ReadStiffnessMatrixFromAnsys(str(tmp_path / "k.txt"), str(tmp_path / "map.txt"))


@pytest.fixture(scope="module")
def rotor_cms(rotor):
    fem = _read_rotor(ffem, rotor)
    fem.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    return ffem.ObjectFFRFreducedOrderInterface(fem)


FILE_KEYS = ("modeBasis", "trigList", "massMatrixReduced", "stiffnessMatrixReduced", "xRef", "inertiaLocal", "Mtt",
             "totalMass", "chiU", "chiUtilde", "mPsiTildePsi", "mPsiTildePsiTilde", "mPhitTPsi", "mPhitTPsiTilde",
             "mXRefTildePsi", "mXRefTildePsiTilde")
INFO = ("nModes", "nNodes", "dim3D", "nODE2rot", "nODE2rigid", "nODE2FFRFreduced")


def _assert_same_cms(loaded, original):
    for key in FILE_KEYS:
        assert np.array_equal(np.asarray(getattr(loaded, key)), np.asarray(getattr(original, key))), key
    assert [int(getattr(loaded, key)) for key in INFO] == [int(getattr(original, key)) for key in INFO]
    assert str(loaded.rigidBodyNodeType) == str(original.rigidBodyNodeType)
    assert dict(loaded.postProcessingModes).keys() == dict(original.postProcessingModes).keys()


@pytest.mark.parametrize("suffix", ["", ".pkl"])
def test_cms_save_load_round_trip(rotor_cms, tmp_path, suffix):
    name = str(tmp_path / "sub" / "cms") + suffix
    rotor_cms.SaveToFile(name)
    assert (tmp_path / "sub" / ("cms" + (suffix or ".npz"))).is_file()
    loaded = ffem.ObjectFFRFreducedOrderInterface()
    assert loaded.LoadFromFile(name) == 1
    _assert_same_cms(loaded, rotor_cms)
    assert rotor_cms.nModes == 4 and rotor_cms.nNodes == 115 and rotor_cms.nODE2FFRFreduced == 11
    assert isinstance(loaded.trigList, list) and isinstance(loaded.totalMass, float)


def test_cms_files_read_by_either_package(rotor_cms, tmp_path):
    exu_fem = pytest.importorskip("exudyn.FEM")
    rotor_cms.SaveToFile(str(tmp_path / "ours"))
    theirs = exu_fem.ObjectFFRFreducedOrderInterface()
    theirs.LoadFromFile(str(tmp_path / "ours"))
    _assert_same_cms(theirs, rotor_cms)
    theirs.SaveToFile(str(tmp_path / "theirs"))
    loaded = ffem.ObjectFFRFreducedOrderInterface()
    assert loaded.LoadFromFile(str(tmp_path / "theirs.npz"), mode="NPZ") == 1
    _assert_same_cms(loaded, theirs)


def test_cms_file_faults_refused(rotor_cms, tmp_path):
    empty = ffem.ObjectFFRFreducedOrderInterface()
    with pytest.raises(ExudynLayerError, match="ObjectFFRFreducedOrderInterface.SaveToFile: the interface is empty"):
        empty.SaveToFile(str(tmp_path / "empty"))
    with pytest.raises(ExudynLayerError, match="only fileVersion 1"):
        rotor_cms.SaveToFile(str(tmp_path / "v2"), fileVersion=2)
    with pytest.raises(ExudynLayerError, match="ObjectFFRFreducedOrderInterface.SaveToFile: '.hdf5' files"):
        rotor_cms.SaveToFile(str(tmp_path / "cms.hdf5"))
    with pytest.raises(ExudynLayerError, match="not found"):
        empty.LoadFromFile(str(tmp_path / "missing"))
    fem = ffem.FEMinterface()
    fem.SaveToFile(str(tmp_path / "fem"))
    with pytest.raises(ExudynLayerError, match="is not an ObjectFFRFreducedOrderInterface file"):
        empty.LoadFromFile(str(tmp_path / "fem"))
