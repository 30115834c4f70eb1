"""The Exudyn layer's FEMinterface.ComputePostProcessingModes and KirchhoffMaterial give Exudyn 1.13.6's numbers
(Tet4, the element type Exudyn computes) and its errors; floatframe also computes Hex8 meshes."""
import numpy as np
import pytest

from floatframe.exudyn import FEM as layer_fem
from floatframe.exudyn import OutputVariableType
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
from floatframe.fem.stress import post_processing_modes

E, NU, RHO = 7e10, 0.33, 2700.0


def interface(fem_module, mesh, kind, modes):
    fem = fem_module.FEMinterface()
    fem.nodes = {"Position": mesh.nodes}
    fem.elements = [{"Name": "part", kind: mesh.elements[kind]}]
    fem.modeBasis = {"matrix": modes}
    return fem


@pytest.fixture(scope="module")
def tet_block():
    mesh = block_mesh(0.3, 0.1, 0.05, 3, 2, 1, element="Tet4")
    mass, stiffness = linear_elastic_matrices(mesh, E, NU, RHO)
    return mesh, eigenmodes(mass, stiffness, 5).vectors


@pytest.mark.exudyn
@pytest.mark.parametrize("variable", ["StressLocal", "StrainLocal"])
def test_post_processing_modes_equal_exudyns(tet_block, variable):
    exudyn = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem

    mesh, modes = tet_block
    results = []
    for fem_module, variables in ((exudyn_fem, exudyn.OutputVariableType), (layer_fem, OutputVariableType)):
        fem = interface(fem_module, mesh, "Tet4", modes)
        material = fem_module.KirchhoffMaterial(E, NU, RHO) if variable == "StressLocal" else 0
        fem.ComputePostProcessingModes(material=material, outputVariableType=getattr(variables, variable))
        results.append(fem.postProcessingModes)
    reference, ours = results
    assert ours["matrix"].shape == reference["matrix"].shape == (mesh.n_nodes, 30)
    np.testing.assert_allclose(ours["matrix"], reference["matrix"], rtol=0,
                               atol=1e-10 * np.abs(reference["matrix"]).max())
    assert str(ours["outputVariableType"]) == str(reference["outputVariableType"]) == f"OutputVariableType.{variable}"


@pytest.mark.exudyn
def test_kirchhoff_material_stress_vector_equals_exudyns():
    import exudyn.FEM as exudyn_fem

    strain = np.array([1e-3, -2e-4, 5e-4, 1e-4, -3e-4, 2e-4])
    np.testing.assert_allclose(layer_fem.KirchhoffMaterial(E, NU, RHO).StrainVector2StressVector(strain),
                               exudyn_fem.KirchhoffMaterial(E, NU, RHO).StrainVector2StressVector(strain), rtol=1e-12)


def test_stress_modes_need_a_material_and_a_mode_basis(tet_block):
    mesh, modes = tet_block
    fem = interface(layer_fem, mesh, "Tet4", modes)
    with pytest.raises(ValueError, match="if material=0, outputVariableType must be StrainLocal"):
        fem.ComputePostProcessingModes(outputVariableType=OutputVariableType.StressLocal)
    with pytest.raises(ValueError, match="invalid outputVariableType"):
        fem.ComputePostProcessingModes(outputVariableType=OutputVariableType.Displacement)
    fem.modeBasis = {}
    with pytest.raises(ValueError, match="modeBasis needs to be computed"):
        fem.ComputePostProcessingModes(outputVariableType=OutputVariableType.StrainLocal)
    with pytest.raises(layer_fem.ExudynLayerError, match="multi-domain"):
        layer_fem.KirchhoffMaterial(materials={"steel": {}}, fes=object())


def test_hex_meshes_are_computed_too():
    mesh = block_mesh(0.3, 0.1, 0.05, 3, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, E, NU, RHO)
    modes = eigenmodes(mass, stiffness, 3).vectors
    fem = interface(layer_fem, mesh, "Hex8", modes)
    fem.ComputePostProcessingModes(layer_fem.KirchhoffMaterial(E, NU, RHO), OutputVariableType.StressLocal)
    np.testing.assert_array_equal(fem.postProcessingModes["matrix"], post_processing_modes(mesh, modes, E, NU))
    assert np.abs(fem.postProcessingModes["matrix"]).max() > 1e6
