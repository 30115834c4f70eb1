"""FEMinterface.ComputePostProcessingModesNGsolve, GetBoundaryNodeSetsAsLists and GetNodePositionsMean against
exudyn 1.13.6 on a Netgen box of two regions (skipped without ngsolve or exudyn).

Claims: with the same mode basis, the stress and strain modes equal exudyn's (mesh order 1 and 2, one material and a
material per region); the boundary node sets and the mean positions equal exudyn's."""
import functools
import importlib.util

import numpy as np
import pytest

import floatframe.exudyn.FEM as layer_fem

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ngsolve") is None
                                or importlib.util.find_spec("exudyn") is None, reason="needs ngsolve and exudyn")
STEEL = dict(density=7800.0, youngsModulus=2.1e11, poissonsRatio=0.3)
REGIONS = {"steel": STEEL, "alu": dict(density=2700.0, youngsModulus=7e10, poissonsRatio=0.33)}


@functools.cache
def generated_bar():
    """A 0.3 x 0.05 x 0.05 m bar of two regions (steel, alu), end faces 'left' and 'right', maxh 0.04 m."""
    from netgen.occ import Box, Glue, OCCGeometry, X

    steel, alu = Box((0, 0, 0), (0.15, 0.05, 0.05)), Box((0.15, 0, 0), (0.3, 0.05, 0.05))
    steel.mat("steel")
    alu.mat("alu")
    steel.faces.Min(X).name = "left"
    alu.faces.Max(X).name = "right"
    return OCCGeometry(Glue([steel, alu])).GenerateMesh(maxh=0.04)


def both(order, materials):
    """(ours, exudyn's) FEMinterface with the bar imported, exudyn's eigenmodes in both; and the two fes."""
    import ngsolve
    import exudyn.FEM as exudyn_fem

    result = []
    for module in (layer_fem, exudyn_fem):
        fem = module.FEMinterface()
        arguments = dict(materials=REGIONS) if materials else STEEL
        [_, _, fes] = fem.ImportMeshFromNGsolve(ngsolve.Mesh(generated_bar().Copy()), meshOrder=order, **arguments)
        result.append((fem, fes))
    (ours, our_fes), (theirs, their_fes) = result
    theirs.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=False)
    ours.modeBasis = {"matrix": theirs.modeBasis["matrix"].copy(), "type": "NormalModes"}
    return ours, our_fes, theirs, their_fes, exudyn_fem


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("materials", [False, True])
def test_stress_and_strain_modes_equal_exudyns(order, materials):
    ours, our_fes, theirs, their_fes, exudyn_fem = both(order, materials)
    for output in ("OutputVariableType.StressLocal", "OutputVariableType.StrainLocal"):
        if materials:
            our_material = layer_fem.KirchhoffMaterial(materials=REGIONS, fes=our_fes)
            their_material = exudyn_fem.KirchhoffMaterial(materials=REGIONS, fes=their_fes)
        else:
            our_material, their_material = layer_fem.KirchhoffMaterial(**STEEL), exudyn_fem.KirchhoffMaterial(**STEEL)
        ours.ComputePostProcessingModesNGsolve(our_fes, material=our_material, outputVariableType=output)
        theirs.ComputePostProcessingModesNGsolve(their_fes, material=their_material, outputVariableType=output)
        mine, reference = ours.postProcessingModes["matrix"], theirs.postProcessingModes["matrix"]
        assert mine.shape == reference.shape == (our_fes.ndof // 3, 6 * 8)
        assert abs(mine - reference).max() <= 1e-10 * abs(reference).max()
        assert ours.postProcessingModes["outputVariableType"] == output


def test_post_processing_modes_need_a_material_for_stress_and_refuse_unknown_outputs():
    ours, our_fes, *_ = both(1, False)
    with pytest.raises(ValueError, match="if material=0, outputVariableType must be StrainLocal"):
        ours.ComputePostProcessingModesNGsolve(our_fes)
    with pytest.raises(ValueError, match="invalid outputVariableType"):
        ours.ComputePostProcessingModesNGsolve(our_fes, outputVariableType="OutputVariableType.Position")
    material = layer_fem.KirchhoffMaterial(materials=REGIONS, fes=our_fes)
    with pytest.raises(layer_fem.ExudynLayerError, match="material per mesh region.*NGsolve only"):
        ours.ComputePostProcessingModes(material)


def test_boundary_node_sets_and_mean_positions_equal_exudyns():
    ours, _, theirs, _, _ = both(2, False)
    our_nodes, our_weights = ours.GetBoundaryNodeSetsAsLists()
    their_nodes, their_weights = theirs.GetBoundaryNodeSetsAsLists()
    assert len(our_nodes) == len(their_nodes) == 3      # left, the other faces (default), right
    for a, b, wa, wb in zip(our_nodes, their_nodes, our_weights, their_weights):
        assert sorted(a) == sorted(b)
        order_a, order_b = np.argsort(a), np.argsort(b)
        np.testing.assert_allclose(np.asarray(wa)[order_a], np.asarray(wb)[order_b], rtol=1e-12, atol=0)
        np.testing.assert_allclose(ours.GetNodePositionsMean(a), theirs.GetNodePositionsMean(b), rtol=1e-14)


class FakeSystem:
    """The three MainSystem calls CMSObjectComputeNorm makes, answering with fixed arrays."""

    def __init__(self, output_type, rng):
        self.parameters = {"nodeNumbers": [0, 1], "outputVariableTypeModeBasis": output_type,
                           "outputVariableModeBasis": rng.normal(size=(7, 6 * 3)), "modeBasis": rng.normal(size=(21, 3))}
        self.outputs = {"Coordinates": rng.normal(size=3), "Coordinates_t": rng.normal(size=3)}

    def GetObjectParameter(self, number, name):
        return self.parameters[name]

    def GetNodeOutput(self, number, variableType):
        return self.outputs[str(variableType).split(".")[-1]]


def test_cms_object_compute_norm_equals_exudyns():
    import exudyn
    import exudyn.FEM as exudyn_fem

    rng = np.random.default_rng(5)
    variables = exudyn.OutputVariableType
    system = FakeSystem(variables.StressLocal, rng)
    for variable in (variables.StressLocal, variables.DisplacementLocal, variables.VelocityLocal):
        for norm in ("max", "min", "maxNorm", "Mises"):
            for nodes in ([], [1, 4, 6]):
                if norm == "Mises" and variable != variables.StressLocal:
                    with pytest.raises(ValueError, match="'Mises' only possible"):
                        layer_fem.CMSObjectComputeNorm(system, 0, variable, norm, nodes)
                    continue
                ours = layer_fem.CMSObjectComputeNorm(system, 0, variable, norm, nodes)
                theirs = exudyn_fem.CMSObjectComputeNorm(system, 0, variable, norm, nodes)
                np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0)
    with pytest.raises(ValueError, match="illegal outputVariableType"):
        layer_fem.CMSObjectComputeNorm(system, 0, variables.Position)


def test_linear_fem_generic_ode2_equals_exudyns():
    """CreateLinearFEMObjectGenericODE2 on the bar, its left end on elastic supports, a force at the right end:
    50 steps, the node coordinates equal exudyn's to 1e-9 of their scale."""
    import exudyn
    import ngsolve
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items
    import floatframe.exudyn as layer
    import floatframe.exudyn.itemInterface as layer_items

    results, sizes = [], []
    for exu, module, items in ((layer, layer_fem, layer_items), (exudyn, exudyn_fem, exudyn_items)):
        fem = module.FEMinterface()
        fem.ImportMeshFromNGsolve(ngsolve.Mesh(generated_bar().Copy()), meshOrder=1, **STEEL)
        for node in fem.GetNodesInPlane([0, 0, 0], [1, 0, 0]):
            fem.AddElasticSupportAtNode(node, springStiffness=[1e8, 1e8, 1e8])
        mbs = exu.SystemContainer().AddSystem()
        body, nodes = fem.CreateLinearFEMObjectGenericODE2(mbs)
        tip = fem.GetNodeAtPoint([0.3, 0.05, 0.05])
        mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerNodePosition(nodeNumber=nodes[tip])),
                                          loadVector=[0, -200.0, 50.0]))
        mbs.Assemble()
        settings = exu.SimulationSettings()
        settings.timeIntegration.numberOfSteps = 50
        settings.timeIntegration.endTime = 0.005
        settings.timeIntegration.newton.relativeTolerance = 1e-12
        settings.solution.file.write = False
        exu.SolveDynamic(mbs, settings)
        results.append(np.asarray(mbs.systemData.GetODE2Coordinates()))
        sizes.append(len(nodes))
    ours, theirs = results
    assert sizes[0] == sizes[1] and ours.shape == theirs.shape
    assert np.abs(theirs).max() > 1e-7
    assert np.abs(ours - theirs).max() <= 1e-9 * np.abs(theirs).max()
