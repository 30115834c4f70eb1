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


def spinning_block(exu, ii, fem_module, ngsolve_mesh, basis):
    """A free Netgen block (Tet4) spinning at 50 rad/s about z, reduced to ``basis``, with the stress modes of
    ComputePostProcessingModes; SensorSuperElement StressLocal at two corners, 40 steps of 1e-4 s."""
    fem = fem_module.FEMinterface()
    fem.ImportMeshFromNGsolve(ngsolve_mesh, density=RHO, youngsModulus=E * 1e-2, poissonsRatio=NU)
    fem.modeBasis = {"matrix": basis, "type": "NormalModes"}
    fem.ComputePostProcessingModes(material=fem_module.KirchhoffMaterial(E * 1e-2, NU, RHO),
                                   outputVariableType=exu.OutputVariableType.StressLocal)
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem)
    mbs = exu.SystemContainer().AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, initialAngularVelocity=[0, 0, 50.0])
    sensors = [mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body["oFFRFreducedOrder"], storeInternal=True,
                                                   meshNodeNumber=fem.GetNodeAtPoint(corner),
                                                   outputVariableType=exu.OutputVariableType.StressLocal))
               for corner in ([0, 0, 0], [0.3, 0.1, 0.05])]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 40
    settings.timeIntegration.endTime = 40 * 1e-4
    settings.solution.file.write = False
    settings.solution.sensors.writePeriod = 1e-4
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.newton.absoluteTolerance = 1e-14
    exu.SolveDynamic(mbs, settings)
    final = mbs.GetObjectOutputSuperElement(body["oFFRFreducedOrder"], exu.OutputVariableType.StressLocal,
                                            meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0]))
    return [mbs.GetSensorStoredData(sensor) for sensor in sensors] + [np.atleast_2d(np.r_[0.0, final])]


@pytest.mark.exudyn
def test_stress_sensors_of_a_reduced_body_with_stress_modes_are_exudyns():
    """FEMinterface.ComputePostProcessingModes, then ObjectFFRFreducedOrderInterface passes the modes as
    outputVariableModeBasis, and SensorSuperElement reads StressLocal = S_i zeta at a mesh node. Measured:
    4.6e-10 of the scale (27 kPa)."""
    exu = pytest.importorskip("exudyn")
    pytest.importorskip("ngsolve")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items
    from netgen.occ import Box, OCCGeometry
    import ngsolve

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    netgen_mesh = OCCGeometry(Box((0, 0, 0), (0.3, 0.1, 0.05))).GenerateMesh(maxh=0.05)
    fem = layer_fem.FEMinterface()
    fem.ImportMeshFromNGsolve(ngsolve.Mesh(netgen_mesh.Copy()), density=RHO, youngsModulus=E * 1e-2, poissonsRatio=NU)
    fem.ComputeEigenmodes(6, excludeRigidBodyModes=6, useSparseSolver=False)
    basis = fem.modeBasis["matrix"]
    reference = spinning_block(exu, exudyn_items, exudyn_fem, ngsolve.Mesh(netgen_mesh.Copy()), basis)
    ours = spinning_block(ffexu, ffitems, layer_fem, ngsolve.Mesh(netgen_mesh.Copy()), basis)
    np.testing.assert_array_equal(ours[2][0, 1:], ours[0][-1, 1:])     # GetObjectOutputSuperElement: the last state
    for theirs, mine in zip(reference, ours):
        assert mine.shape == theirs.shape and mine.shape[1] == 7
        scale = np.abs(theirs[:, 1:]).max()
        assert scale > 1e3                                   # the spin stresses the block
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], atol=1e-8 * scale, rtol=0)


def test_stress_output_without_stress_modes_is_an_error():
    import floatframe as ff
    from floatframe.components.base import ModelError

    mesh = block_mesh(0.3, 0.1, 0.05, 3, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, E, NU, RHO)
    system = ff.System()
    body = ff.add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 3))
    system.add(ff.SensorSuperElement(body, 0, "StressLocal"))
    with pytest.raises(ModelError, match="mesh nodes have no output variable 'StressLocal'"):
        system.assemble()
    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    mbs = ffexu.SystemContainer().AddSystem()
    cms = layer_fem.ObjectFFRFreducedOrderInterface(interface_with_matrices(mesh, mass, stiffness))
    added = cms.AddObjectFFRFreducedOrder(mbs)
    mbs.AddSensor(ffitems.SensorSuperElement(bodyNumber=added["oFFRFreducedOrder"], meshNodeNumber=0,
                                             outputVariableType=ffexu.OutputVariableType.StressLocal))
    with pytest.raises(layer_fem.ExudynLayerError, match="unknown output variable 'StressLocal'"):
        mbs.Assemble()
    with pytest.raises(ModelError, match=r"output_variable_modes must be \(n_mesh_nodes, 6 n_modes\) = \(16, 18\)"):
        ff.add_reduced_ffrf_body(ff.System(), mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 3),
                                 output_variable_modes=np.zeros((16, 6)), output_variable_type="StressLocal")


def test_stress_sensor_of_a_reduced_body_is_the_modal_combination():
    import floatframe as ff

    mesh = block_mesh(0.3, 0.1, 0.05, 3, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, E * 1e-3, NU, RHO)
    modes = eigenmodes(mass, stiffness, 4)
    stress_modes = post_processing_modes(mesh, modes.vectors, E * 1e-3, NU)
    system = ff.System()
    body = ff.add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, angular_velocity=(0, 0, 50.0),
                                    output_variable_modes=stress_modes, output_variable_type="StressLocal")
    sensor = system.add(ff.SensorSuperElement(body, 5, "StressLocal"))
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), 0.004, 8)
    expected = nodal_stresses_of(mesh, modes.vectors @ result.q[:, 7:].T)[:, 5]
    assert np.abs(expected).max() > 1e3
    np.testing.assert_allclose(result.sensor(sensor), expected, rtol=1e-10, atol=1e-9 * np.abs(expected).max())


def nodal_stresses_of(mesh, displacement_columns):
    """Full-body stress recovery (k, N, 6) of displacement columns (3 N, k), the test's material."""
    from floatframe.fem.stress import nodal_stresses

    return nodal_stresses(mesh, displacement_columns.T, E * 1e-3, NU)


def interface_with_matrices(mesh, mass, stiffness):
    """A layer FEMinterface of ``mesh`` with its matrices and 3 eigenmodes, without post-processing modes."""
    fem = layer_fem.FEMinterface()
    fem._mesh, fem._mass, fem._stiffness = mesh, mass, stiffness
    fem.nodes = {"Position": mesh.nodes}
    fem.elements = [{"Name": "block", **mesh.elements}]
    fem.ComputeEigenmodes(3, excludeRigidBodyModes=6, useSparseSolver=False)
    return fem
