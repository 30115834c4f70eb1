"""Exudyn's ``FEM`` module for FFRF scripts: FEMinterface and ObjectFFRFinterface on floatframe.fem.

FEMinterface reads Abaqus meshes and matrices with :func:`floatframe.fem.read_abaqus_inp` and
:func:`floatframe.fem.read_abaqus_mtx` and answers node queries through :class:`floatframe.fem.Mesh`.
ObjectFFRFinterface adds the frame node, the mesh nodes, the ObjectFFRF and (optionally) the
Tisserand-frame constraint to a MainSystem, as Exudyn's does.
"""
from __future__ import annotations

import pickle
import warnings
from enum import Enum
from pathlib import Path

import casadi as ca
import numpy as np
import scipy.linalg
import scipy.sparse as sp

from floatframe import fem as core_fem
from floatframe import rotations
from floatframe.buffers import BufferedFunction
from floatframe.exudyn import _items as items
from floatframe.exudyn._matrix import MatrixContainer
from floatframe.exudyn._names import ExudynLayerError
from floatframe.components.ffrf import tisserand_rows
from floatframe.components.ffrf_reduced import ReducedOrderInvariants
from floatframe.exudyn.rigidBodyUtilities import (AngularVelocity2EulerParameters_t, AngularVelocity2RotXYZ_t,
                                                  RotationMatrix2RotXYZ, Skew)
from floatframe.fem.ansys import read_ansys_elements, read_ansys_matrix, read_ansys_nodes
from floatframe.fem.mesh import NODES_PER_ELEMENT

# outward triangles of the faces of positively oriented elements (Abaqus/VTK node order)
_HEX_TRIANGLES = [[0, 3, 2], [0, 2, 1], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5],
                  [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]
_TET_TRIANGLES = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]


def ScipySparseCSRtoCSR(scipyCSR) -> np.ndarray:
    """A scipy sparse matrix as Exudyn's sparse triplets: an (nnz, 3) array of rows [row, column, value]."""
    coo = sp.coo_matrix(scipyCSR)
    return np.column_stack([coo.row, coo.col, coo.data]).astype(float)


def SparseTripletsToScipySparseCSR(sparseTriplets):
    """Sparse triplets [row, column, value] (a list or an (nnz, 3) array) as a scipy CSR matrix; the shape is
    given by the largest row and column index, duplicates add up."""
    if sp.issparse(sparseTriplets) or not isinstance(sparseTriplets, (list, tuple, np.ndarray)):
        raise ValueError("SparseTripletsToScipySparseCSR: requires sparse triplets as input")
    triplets = np.asarray(sparseTriplets, dtype=float).reshape(-1, 3)
    return sp.csr_matrix((triplets[:, 2], (triplets[:, 0].astype(int), triplets[:, 1].astype(int))))


def CSRtoScipySparseCSR(sparseMatrixCSR):
    """Deprecated in Exudyn (warns): as :func:`SparseTripletsToScipySparseCSR`; a scipy sparse matrix is returned
    as it is."""
    if sp.issparse(sparseMatrixCSR):
        return sparseMatrixCSR
    warnings.warn("CSRtoScipySparseCSR is deprecated in Exudyn; use SparseTripletsToScipySparseCSR",
                  DeprecationWarning, stacklevel=2)
    return SparseTripletsToScipySparseCSR(sparseMatrixCSR)


def _variable_name(value) -> str:
    return str(getattr(value, "name", value)).split(".")[-1]


def _von_mises(stresses: np.ndarray) -> np.ndarray:
    """Von Mises stress of rows (xx, yy, zz, yz, xz, xy)."""
    xx, yy, zz, yz, xz, xy = stresses.T
    return np.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3 * (yz ** 2 + xz ** 2 + xy ** 2))


def CMSObjectComputeNorm(mbs, objectNumber, outputVariableType, norm="max", nodeNumberList=[]):  # noqa: B006
    """A norm over the mesh nodes of an ObjectFFRFreducedOrder's current nodal values, as Exudyn's.

    outputVariableType: the body's ``outputVariableTypeModeBasis`` (StressLocal or StrainLocal: the post-processing
    modes times the modal coordinates, 6 components per node), DisplacementLocal or VelocityLocal (the mode basis
    times the modal coordinates or their rates); ``nodeNumberList`` restricts the nodes (empty: all). norm: 'max'
    and 'min' component-wise over the nodes, 'maxNorm' the largest Euclidean norm of a node's values, 'Mises' the
    largest von Mises stress (StressLocal only).
    """
    modal_node = mbs.GetObjectParameter(objectNumber, "nodeNumbers")[1]
    wanted = _variable_name(outputVariableType)
    if _variable_name(mbs.GetObjectParameter(objectNumber, "outputVariableTypeModeBasis")) == wanted:
        coordinates = np.asarray(mbs.GetNodeOutput(modal_node, "Coordinates"), dtype=float).reshape(-1)
        modes = np.asarray(mbs.GetObjectParameter(objectNumber, "outputVariableModeBasis"), dtype=float)
        values = modes.reshape(modes.shape[0], -1, 6).transpose(0, 2, 1) @ coordinates          # (nodes, 6)
    elif wanted in ("DisplacementLocal", "VelocityLocal"):
        rates = "Coordinates" if wanted == "DisplacementLocal" else "Coordinates_t"
        coordinates = np.asarray(mbs.GetNodeOutput(modal_node, rates), dtype=float).reshape(-1)
        basis = np.asarray(mbs.GetObjectParameter(objectNumber, "modeBasis"), dtype=float)
        values = (basis @ coordinates).reshape(-1, 3)
    else:
        raise ValueError("CMSObjectComputeNorm: illegal outputVariableType")
    if len(nodeNumberList):
        values = values[np.asarray(nodeNumberList, dtype=int)]
    if norm == "max":
        return np.max(values, axis=0)
    if norm == "min":
        return np.min(values, axis=0)
    if norm == "maxNorm":
        return np.max(np.linalg.norm(values, axis=1))
    if norm == "Mises":
        if wanted != "StressLocal":
            raise ValueError("CMSObjectComputeNorm: norm = 'Mises' only possible for outputVariableType == StressLocal")
        return np.max(_von_mises(values))
    raise ValueError(f"CMSObjectComputeNorm: unknown norm {norm!r} (max, min, maxNorm, Mises)")


def ConvertHexToTrigs(nodeNumbers) -> list:
    """The 12 surface triangles (node-number triples) of one 8-node hexahedron (corner nodes only)."""
    return [[int(nodeNumbers[i]) for i in triangle] for triangle in _HEX_TRIANGLES]


def ConvertTetToTrigs(nodeNumbers) -> list:
    """The 4 surface triangles of one tetrahedron (corner nodes only)."""
    return [[int(nodeNumbers[i]) for i in triangle] for triangle in _TET_TRIANGLES]


class HCBstaticModeSelection(Enum):
    """Static modes of FEMinterface.ComputeHurtyCraigBamptonModes (Exudyn's values): RBE2 (each interface
    moves rigidly), RBE3 (each interface's weighted mean motion), allBoundaryNodes (one static mode per
    boundary coordinate), noStaticModes (fixed-interface eigenmodes only)."""

    allBoundaryNodes = 1
    RBE2 = 2
    RBE3 = 3
    noStaticModes = 4


_FILE_KEYS = ("metaData", "nodes", "elements", "massMatrix", "stiffnessMatrix", "surface", "nodeSets",
              "elementSets", "modeBasis", "eigenValues", "postProcessingModes")


def first_instance_name(path) -> str:
    """The name of the first ``*Instance`` card of an Abaqus input file (Exudyn reads that one, whatever name the
    script gives); ValueError where the file has none, with Exudyn's message."""
    with open(path) as stream:
        for line in stream:
            if line.startswith("*Instance"):
                parameters = dict(part.split("=", 1) for part in (p.strip() for p in line.split(",")[1:]) if "=" in part)
                return parameters.get("name", "").strip()
    raise ValueError("ImportFromAbaqusInputFile: did not find keyword '*Instance'")


class FEMinterface:
    """Mesh, mass and stiffness matrices of a finite-element model, with Exudyn's method names.

    Attributes as in Exudyn: ``nodes`` ({'Position': (n, 3)}), ``elements`` (list of dicts with
    'Hex8'/'Hex20'/'Tet4'/'Tet10' connectivities, 0-based), ``modeBasis``, ``eigenValues``, and (stored in files only)
    ``surface``, ``nodeSets``, ``elementSets``, ``postProcessingModes``, ``metaData``.
    """

    def __init__(self):
        self.nodes = {}
        self.elements = []
        self.modeBasis = {}
        self.eigenValues = []
        self.surface = []
        self.nodeSets = []
        self.elementSets = []
        self.postProcessingModes = {}
        self.metaData = {"source": "unknown"}
        self._mesh = None
        self._mass = None
        self._stiffness = None

    # --- import ---------------------------------------------------------------------------------
    def ImportFromAbaqusInputFile(self, fileName, typeName="Part", name="Part-1", verbose=False,
                                  createSurfaceTrigs=True, surfaceTrigsAll=False) -> np.ndarray:
        """Read nodes and Hex8, Hex20, Tet4, Tet10 elements (Abaqus C3D8*, C3D20*, C3D4*, C3D10*);
        ``typeName='Instance'`` reads the first ``*Instance`` of the file, whatever ``name`` says, as Exudyn does
        (its ``name`` is not compared); ``'Part'`` the first section with nodes. The surface triangles join
        corner nodes; a mesh of Tet10 elements also gets, as in Exudyn, the 6-node triangles ``'Trigs6'``
        (corners, then the nodes on the edges 0-1, 1-2, 2-0).

        Returns the node positions (n, 3).
        """
        instance = first_instance_name(fileName) if str(typeName).lower() == "instance" else None
        self._mesh = core_fem.read_abaqus_inp(fileName, instance=instance)
        self.nodes = {"Position": self._mesh.nodes.copy()}
        self.elements = [dict(Name=name, **{kind: c.copy() for kind, c in self._mesh.elements.items()})]
        if createSurfaceTrigs:
            triangles = self._mesh.surface_triangles()
            self.surface = [dict(Name=name, Trigs=triangles)]
            if set(self._mesh.elements) == {"Tet10"}:
                mids = self._mesh.mid_edge_nodes(triangles[:, [0, 1, 1, 2, 2, 0]]).reshape(-1, 3)
                self.surface[0]["Trigs6"] = np.hstack([triangles, mids])
        return self.nodes["Position"]

    def ImportMeshFromNGsolve(self, mesh, density=None, youngsModulus=None, poissonsRatio=None, materials=None,
                              createBoundaryNodeSets=True, boundaryNamesList=None, verbose=False, meshOrder=1,
                              **kwargs) -> list:
        """Nodes, tetrahedra, surface, boundary node sets and the mass and stiffness matrices of an ngsolve.Mesh,
        as Exudyn's (needs the ``ngsolve`` extra). Returns [bfM, bfK, fes], NGSolve's bilinear forms and space.

        As Exudyn: NGSolve assembles the matrices (VectorH1 order 1, or NodalFESpace order 2 after
        ``mesh.ngmesh.SecondOrder()`` with ``meshOrder=2``), reordered to x0 y0 z0 x1 ...; ``elements`` holds
        Netgen's tetrahedra (corners, 0-based, Netgen's orientation) as 'Tet4'; ``surface`` the 'Trigs' (with
        meshOrder 2 each 6-node triangle split into 4, and 'Trigs6'); ``nodeSets`` one set per boundary name with
        surface-area weights. ``materials``: {region: {'youngsModulus', 'poissonsRatio', 'density'}}. The
        mesh for node queries and stress modes is :func:`floatframe.fem.ngsolve_mesh.mesh_from_ngsolve` (Tet10
        for meshOrder 2). ``verbose`` and further keyword arguments are ignored.
        """
        from floatframe.fem.ngsolve_mesh import boundary_node_sets, mesh_from_ngsolve
        from floatframe.optional import require

        ngs = require("ngsolve", "FEMinterface.ImportMeshFromNGsolve", "ngsolve")
        if meshOrder not in (1, 2):
            raise ValueError("mesh order > 1 or mesh order < 2 not supported!")
        if meshOrder == 2:
            mesh.ngmesh.SecondOrder()
        space = ngs.VectorH1(mesh, order=1) if meshOrder == 1 else ngs.NodalFESpace(mesh, order=2) ** 3
        if materials is not None:
            if density is not None or youngsModulus is not None or poissonsRatio is not None:
                raise ValueError('ImportMeshFromNGsolve: if arg "materials" is defined, then density, youngsModulus '
                                 'and poissonsRatio must be None')
            missing = [region for region in mesh.GetMaterials() if region not in materials]
            if missing:
                raise ValueError(f'ImportMeshFromNGsolve: mesh contains material "{missing[0]}" which could not be '
                                 f'found in arg materials')
            density, youngsModulus, poissonsRatio = (
                ngs.CoefficientFunction([materials[region][key] for region in mesh.GetMaterials()])
                for key in ("density", "youngsModulus", "poissonsRatio"))
        u, v = space.TrialFunction(), space.TestFunction()
        mu = youngsModulus / 2 / (1 + poissonsRatio)
        lam = youngsModulus * poissonsRatio / ((1 + poissonsRatio) * (1 - 2 * poissonsRatio))
        strain_u, strain_v = ngs.Sym(ngs.Grad(u)), ngs.Sym(ngs.Grad(v))
        stiffness_form, mass_form = ngs.BilinearForm(space), ngs.BilinearForm(space)
        stiffness_form += ngs.InnerProduct(2 * mu * strain_u + lam * ngs.Trace(strain_u) * ngs.Id(3), strain_v) * ngs.dx
        mass_form += density * u * v * ngs.dx
        with ngs.TaskManager():
            stiffness_form.Assemble()
            mass_form.Assemble()
        interleaved = self._interleaved
        self._mass, self._stiffness = (interleaved(sp.csr_matrix(form.mat.CSR(), copy=True))
                                       for form in (mass_form, stiffness_form))
        ngmesh = mesh.ngmesh
        positions = np.array(ngmesh.Coordinates(), dtype=float).reshape(-1, 3)
        tetrahedra = ngmesh.Elements3D().NumPy()["nodes"][:, :4].astype(np.int64) - 1
        surface = ngmesh.Elements2D().NumPy()["nodes"].astype(np.int64) - 1
        self._mesh = mesh_from_ngsolve(mesh)
        self.nodes = {"Position": positions[:self._mesh.n_nodes] if meshOrder == 1 else positions}
        self.elements = [{"Name": "NGsolve", "Tet4": tetrahedra}]
        if meshOrder == 1:
            self.surface = [{"Name": "meshSurface", "Trigs": surface[:, :3]}]
        else:
            corners_and_mids = surface[:, [0, 1, 2, 5, 3, 4]]   # mid nodes of 0-1, 1-2, 2-0 (Netgen: 1-2, 2-0, 0-1)
            a, b, c, ab, bc, ca = corners_and_mids.T
            quarters = ((a, ab, ca), (ab, b, bc), (ab, bc, ca), (ca, bc, c))
            split = np.stack([np.column_stack(quarter) for quarter in quarters], axis=1)
            self.surface = [{"Name": "meshSurface", "Trigs": split.reshape(-1, 3), "Trigs6": corners_and_mids}]
        if createBoundaryNodeSets:
            self.nodeSets = [{"Name": name, "NodeNumbers": numbers,
                              "NodeWeights": self.GetNodeWeightsFromSurfaceAreas(numbers), "type": "boundary"}
                             for name, numbers in boundary_node_sets(mesh, boundaryNamesList).items()]
        self.metaData["source"] = "NGsolve"
        return [mass_form, stiffness_form, space]

    @staticmethod
    def _interleaved(matrix):
        """A matrix in NGSolve's x0 x1 ... y0 ... z0 ... order, reordered to x0 y0 z0 x1 ..."""
        n = matrix.shape[0]
        order = np.arange(n).reshape(3, n // 3).T.ravel()   # new coordinate 3 j + c is old coordinate c N + j
        return matrix[order][:, order].tocsr()

    def GetNodeWeightsFromSurfaceAreas(self, nodeList, normalizeWeights=True) -> np.ndarray:
        """Weights of the nodes in ``nodeList``: a third of the area of each surface triangle ('Trigs') whose three
        nodes are all in the list, summed per node; normalized to sum 1 if ``normalizeWeights``."""
        if len(self.surface) != 1 or "Trigs" not in self.surface[0]:
            raise ValueError("GetNodeWeightsFromSurfaces: expected one surface triangle list in FEM, but received: "
                             + str(len(self.surface)))
        nodes = np.asarray(nodeList, dtype=np.int64)
        positions = self.nodes["Position"]
        local = -np.ones(len(positions), dtype=np.int64)
        local[nodes] = np.arange(nodes.size)
        triangles = np.asarray(self.surface[0]["Trigs"], dtype=np.int64)
        triangles = triangles[np.all(local[triangles] >= 0, axis=1)]
        corners = positions[triangles]
        areas = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
        weights = np.bincount(local[triangles].ravel(), weights=np.repeat(areas / 3, 3), minlength=nodes.size)
        if weights.sum() == 0:
            raise ValueError("GetNodeWeightsFromSurfaces: no according triangle surfaces found!")
        return weights / weights.sum() if normalizeWeights else weights

    def ReadMassMatrixFromAbaqus(self, fileName, type="SparseRowColumnValue"):
        self._mass = self._read_matrix(fileName, type, "ReadMassMatrixFromAbaqus")

    def ReadStiffnessMatrixFromAbaqus(self, fileName, type="SparseRowColumnValue"):
        self._stiffness = self._read_matrix(fileName, type, "ReadStiffnessMatrixFromAbaqus")

    def _read_matrix(self, fileName, kind, what):
        if kind != "SparseRowColumnValue":
            raise ExudynLayerError(f"FEMinterface.{what}: type '{kind}' is not supported "
                                   f"(closest supported name: 'SparseRowColumnValue')")
        size = self.NumberOfCoordinates() if self._mesh is not None else None
        return core_fem.read_abaqus_mtx(fileName, size=size)

    def ReadMassMatrixFromAnsys(self, fileName, dofMappingVectorFile, sparse=True, verbose=False):
        """Read the mass matrix exported from Ansys (Matrix Market file, or a dense comma-separated one with
        ``sparse=False``) and bring it into mesh coordinate order with the DOF mapping vector file
        (:func:`floatframe.fem.ansys.read_ansys_matrix`). ``verbose`` is ignored."""
        self._mass = read_ansys_matrix(fileName, dofMappingVectorFile, dense=not sparse)

    def ReadStiffnessMatrixFromAnsys(self, fileName, dofMappingVectorFile, sparse=True, verbose=False):
        """Read the stiffness matrix exported from Ansys; as :meth:`ReadMassMatrixFromAnsys`."""
        self._stiffness = read_ansys_matrix(fileName, dofMappingVectorFile, dense=not sparse)

    def ReadNodalCoordinatesFromAnsys(self, fileName, verbose=False):
        """Read the node positions of an Ansys nodal coordinates export (text, one header line, 'node x y z' per
        line, decimal commas allowed), in increasing node number. ``verbose`` is ignored."""
        self.nodes = {"Position": read_ansys_nodes(fileName)}
        self._mesh = self._mesh_of_elements()
        self.metaData["source"] = "Ansys"

    def ReadElementsFromAnsys(self, fileName, verbose=False):
        """Add the elements of an Ansys element export (text, one header line, 'number type node ...' per line;
        types Hex8, Hex20, Tet4, Tet10) as one more entry of ``elements`` ({'Name': 'elements', type: array}) and
        make the surface ('meshSurface': 'Trigs', and 'Trigs6' for a Tet10 mesh) of all elements, as Exudyn does.
        Needs the nodes first (ReadNodalCoordinatesFromAnsys). ``verbose`` is ignored."""
        if "Position" not in self.nodes:
            raise ExudynLayerError("FEMinterface.ReadElementsFromAnsys: no nodes; call ReadNodalCoordinatesFromAnsys "
                                   "first")
        elements = read_ansys_elements(fileName)
        self.elements = list(self.elements) + [dict(Name="elements", **elements)]
        try:
            self._mesh = self._mesh_of_elements()
        except ValueError as error:
            self.elements = self.elements[:-1]
            raise ExudynLayerError(f"FEMinterface.ReadElementsFromAnsys: '{fileName}' does not fit the nodes: "
                                   f"{error}") from None
        triangles = self._mesh.surface_triangles()
        surface = {"Name": "meshSurface", "Trigs": triangles}
        if set(self._mesh.elements) == {"Tet10"}:
            surface["Trigs6"] = np.hstack([triangles, self._mesh.mid_edge_nodes(
                triangles[:, [0, 1, 1, 2, 2, 0]]).reshape(-1, 3)])
        self.surface = [item for item in self.surface if item.get("Name") != "meshSurface"] + [surface]
        self.metaData["source"] = "Ansys"

    def _mesh_of_elements(self):
        """The mesh of ``nodes`` and all connectivities in ``elements``."""
        connectivity = {}
        for item in self.elements:
            for kind, value in item.items():
                if kind in NODES_PER_ELEMENT:
                    connectivity.setdefault(kind, []).append(np.asarray(value, dtype=np.int64))
        return core_fem.Mesh(self.nodes["Position"], {kind: np.vstack(c) for kind, c in connectivity.items()})

    # --- matrices -------------------------------------------------------------------------------
    def _require(self, attribute, what):
        value = getattr(self, attribute)
        if value is None:
            source = "ImportFromAbaqusInputFile" if attribute == "_mesh" else f"Read{what}MatrixFromAbaqus"
            raise ExudynLayerError(f"FEMinterface: no {what.lower()} data; call {source} first")
        return value

    def ScaleStiffnessMatrix(self, factor):
        self._stiffness = (self._require("_stiffness", "Stiffness") * float(factor)).tocsr()

    def ScaleMassMatrix(self, factor):
        self._mass = (self._require("_mass", "Mass") * float(factor)).tocsr()

    def AddElasticSupportAtNode(self, nodeNumber, springStiffness=[1e8, 1e8, 1e8]):  # noqa: B006 (Exudyn's default)
        """Add a spring to ground at a node: springStiffness[i] [N/m] on the diagonal entry of its coordinate i."""
        stiffness = self._require("_stiffness", "Stiffness").tolil()
        values = np.asarray(springStiffness, dtype=float).reshape(-1)
        if values.size != 3:
            raise ExudynLayerError(f"FEMinterface.AddElasticSupportAtNode: springStiffness needs 3 values (one per "
                                   f"coordinate of a node), got {values.size}")
        for i, value in enumerate(values):
            stiffness[3 * int(nodeNumber) + i, 3 * int(nodeNumber) + i] += value
        self._stiffness = stiffness.tocsr()

    def AddNodeMass(self, nodeNumber, addedMass):
        """Add a point mass [kg] to the three diagonal entries of a node."""
        self._mass = core_fem.add_node_mass(self._require("_mass", "Mass"), int(nodeNumber), float(addedMass))

    def GetMassMatrix(self, sparse=True):
        matrix = self._require("_mass", "Mass")
        return matrix.copy() if sparse else matrix.toarray()

    def GetGyroscopicMatrix(self, rotationAxis=2, sparse=True):
        """G = (I kron skew(e)) M (3 N, 3 N) for spin about axis ``rotationAxis`` (0, 1, 2), as Exudyn forms it
        (:func:`floatframe.fem.gyroscopic_matrix`); scipy.sparse CSR, or a dense array with ``sparse=False``."""
        matrix = core_fem.gyroscopic_matrix(self._require("_mass", "Mass"), int(rotationAxis))
        return matrix if sparse else matrix.toarray()

    def GetStiffnessMatrix(self, sparse=True):
        matrix = self._require("_stiffness", "Stiffness")
        return matrix.copy() if sparse else matrix.toarray()

    # --- nodes ----------------------------------------------------------------------------------
    def GetNodePositionsAsArray(self) -> np.ndarray:
        return self._require("_mesh", "Mesh").nodes.copy()

    def NumberOfNodes(self) -> int:
        return self._require("_mesh", "Mesh").n_nodes

    def NumberOfCoordinates(self) -> int:
        return self._require("_mesh", "Mesh").n_coordinates

    def GetNodeAtPoint(self, point, tolerance=1e-5, raiseException=True) -> int:
        """Number of the node at ``point`` (within ``tolerance`` in every coordinate); -1 if none and
        ``raiseException`` is False."""
        nodes = self._require("_mesh", "Mesh").nodes
        inside = np.flatnonzero(np.all(np.abs(nodes - np.asarray(point, dtype=float)) <= tolerance, axis=1))
        if inside.size:
            return int(inside[0])
        if raiseException:
            raise ExudynLayerError(f"FEMinterface.GetNodeAtPoint: no node within {tolerance} of {list(point)}")
        return -1

    def GetNodesInPlane(self, point, normal, tolerance=1e-5) -> list:
        return [int(i) for i in self._require("_mesh", "Mesh").nodes_in_plane(point, normal, tol=tolerance)]

    def GetNodesOnCylinder(self, p1, p2, radius, tolerance=1e-5) -> list:
        """Nodes on the cylinder surface of ``radius`` about the axis through p1 and p2, between them."""
        mesh = self._require("_mesh", "Mesh")
        p1, p2 = np.asarray(p1, dtype=float), np.asarray(p2, dtype=float)
        axis = p2 - p1
        candidates = mesh.nodes_on_cylinder(p1, axis, radius, tol=tolerance)
        along = (mesh.nodes[candidates] - p1) @ axis / (axis @ axis)
        return [int(i) for i, s in zip(candidates, along) if -tolerance <= s <= 1 + tolerance]

    def GetSurfaceTriangles(self) -> np.ndarray:
        return self._require("_mesh", "Mesh").surface_triangles()

    # --- modes ----------------------------------------------------------------------------------
    def ComputeEigenmodes(self, nModes, excludeRigidBodyModes=0, useSparseSolver=True):
        """Lowest ``nModes`` eigenmodes of K x = omega^2 M x after the first ``excludeRigidBodyModes``
        (:func:`floatframe.fem.eigenmodes`: mass-normalised, canonical where eigenvalues repeat, and the
        excluded ones checked to be zero). As in Exudyn, ``eigenValues`` holds |omega^2| of the returned modes
        with the sparse solver and of all n eigenpairs with the dense one (``useSparseSolver=False``).

        Where the excluded eigenpairs are not the mesh's zero-frequency modes (a supported mesh with
        ``excludeRigidBodyModes=6``), Exudyn drops them all the same: so does this method, with a warning that
        names the eigenvalues dropped."""
        mass, stiffness = self._require("_mass", "Mass"), self._require("_stiffness", "Stiffness")
        positions = self._mesh.nodes if self._mesh is not None else None   # deflates the rigid-body modes
        n_modes, n_excluded = int(nModes), int(excludeRigidBodyModes)
        solver = "sparse" if useSparseSolver else "dense"
        try:
            modes = core_fem.eigenmodes(mass, stiffness, n_modes, n_excluded, solver=solver, node_positions=positions)
        except core_fem.RigidBodyModeCountError as error:
            lowest = core_fem.eigenmodes(mass, stiffness, n_modes + n_excluded, 0, solver=solver)
            warnings.warn(f"FEMinterface.ComputeEigenmodes: excludeRigidBodyModes={n_excluded}, but {error}; as Exudyn "
                          f"does, the {n_excluded} lowest eigenpairs (omega^2 = "
                          f"{np.array2string(lowest.eigenvalues[:n_excluded], precision=4)}) are dropped all the same",
                          stacklevel=2)
            modes = core_fem.ModeBasis(lowest.vectors[:, n_excluded:], lowest.eigenvalues[n_excluded:])
        if useSparseSolver:
            self.eigenValues = np.abs(modes.eigenvalues)
        else:
            self.eigenValues = np.abs(scipy.linalg.eigh(sp.csr_matrix(stiffness).toarray(),
                                                        sp.csr_matrix(mass).toarray(), eigvals_only=True))
        self.modeBasis = {"matrix": modes.vectors, "type": "NormalModes"}

    def ComputeEigenmodesNGsolve(self, bfM, bfK, nModes, maxEigensolveIterations=40, excludeRigidBodyModes=0,
                                 verbose=False):
        """Lowest ``nModes`` eigenmodes of K x = omega^2 M x after the first ``excludeRigidBodyModes``, with M and
        K taken from the assembled NGSolve bilinear forms ``bfM`` and ``bfK`` (as ImportMeshFromNGsolve returns
        them; needs the ``ngsolve`` extra). Stored as by :meth:`ComputeEigenmodes`: ``modeBasis`` (coordinates
        reordered from NGSolve's x0 x1 ... y0 ... z0 ... to x0 y0 z0 x1 ..., mass-normalised) and ``eigenValues``
        (|omega^2|, as Exudyn).

        The eigenpairs are computed to convergence (:func:`floatframe.fem.eigenmodes`, the 6 rigid-body modes of a
        free mesh deflated), not by Exudyn's fixed number of preconditioned inverse iterations, so
        ``maxEigensolveIterations`` is not used; Exudyn's eigenvalues approach these as it grows. A free mesh with
        another ``excludeRigidBodyModes`` than 0 or 6 is an error (Exudyn keeps the remaining rigid-body modes).
        ``verbose`` prints the eigenfrequencies."""
        from floatframe.optional import require

        require("ngsolve", "FEMinterface.ComputeEigenmodesNGsolve", "ngsolve")
        space = bfK.space
        try:
            n_components = len(space.components)
        except Exception:   # NGSolve raises for spaces that are no product of spaces
            n_components = 1
        if n_components != 3:
            raise ExudynLayerError(f"FEMinterface.ComputeEigenmodesNGsolve: the space of bfK has {n_components} "
                                   f"component(s); displacements need a space of 3 (VectorH1, or a scalar space ** 3)")
        mass, stiffness = (self._interleaved(_ngsolve_form_matrix(form, name, space.ndof))
                           for form, name in ((bfM, "bfM"), (bfK, "bfK")))
        n_rigid = int(excludeRigidBodyModes)
        positions = _space_node_positions(space, stiffness) if n_rigid == 6 else None
        modes = core_fem.eigenmodes(mass, stiffness, int(nModes), n_rigid, node_positions=positions)
        self.eigenValues = np.abs(modes.eigenvalues)
        self.modeBasis = {"matrix": modes.vectors, "type": "NormalModes"}
        if verbose:
            print("ComputeEigenmodesNGsolve: eigenfrequencies [Hz]", self.GetEigenFrequenciesHz())

    def ComputeHurtyCraigBamptonModes(self, boundaryNodesList, nEigenModes, useSparseSolver=True,
                                      computationMode=HCBstaticModeSelection.RBE2, boundaryNodesWeights=[],
                                      excludeRigidBodyMotion=True, RBE3secondMomentOfAreaWeighting=True,
                                      numberOfRigidBodyModes=None, verboseMode=False, timerTreshold=20000):
        """Craig-Bampton basis (:func:`floatframe.fem.craig_bampton_modes`): with RBE2 and RBE3 6 static modes
        per boundary node list (the first one's dropped if ``excludeRigidBodyMotion``), with allBoundaryNodes
        one per boundary coordinate (``excludeRigidBodyMotion`` does not apply), with noStaticModes none;
        then ``nEigenModes`` fixed-interface eigenmodes (boundary nodes held; Exudyn 1.13.6 raises an
        AttributeError for noStaticModes). ``modeBasis['matrix']`` holds all columns, ``eigenValues`` the fixed-interface omega^2
        only, as in Exudyn. ``verboseMode``, ``timerTreshold`` only print in Exudyn and are ignored."""
        variants = {HCBstaticModeSelection.RBE2: "RBE2", HCBstaticModeSelection.RBE3: "RBE3",
                    HCBstaticModeSelection.allBoundaryNodes: "coordinates", HCBstaticModeSelection.noStaticModes: "none"}
        if computationMode not in variants:
            raise ExudynLayerError(f"FEMinterface.ComputeHurtyCraigBamptonModes: computationMode {computationMode!r} "
                                   f"is no HCBstaticModeSelection (RBE2, RBE3, allBoundaryNodes, noStaticModes)")
        if not RBE3secondMomentOfAreaWeighting:
            raise ExudynLayerError("FEMinterface.ComputeHurtyCraigBamptonModes: RBE3secondMomentOfAreaWeighting=False "
                                   "is not supported (only the second-moment weighting W = -sum w skew(p)^2)")
        if len(boundaryNodesList) == 0:
            raise ExudynLayerError("FEMinterface.ComputeHurtyCraigBamptonModes: boundaryNodesList is empty; give "
                                   "at least one boundary node list, or use ComputeEigenmodes for free-free modes")
        modes = core_fem.craig_bampton_modes(
            self._require("_mass", "Mass"), self._require("_stiffness", "Stiffness"),
            self._require("_mesh", "Mesh").nodes, boundaryNodesList, int(nEigenModes),
            variant=variants[computationMode], solver="sparse" if useSparseSolver else "dense",
            boundary_weights=list(boundaryNodesWeights) or None, exclude_rigid_body_motion=bool(excludeRigidBodyMotion))
        self.modeBasis = {"matrix": modes.vectors, "type": "HCBmodes"}
        self.eigenValues = np.abs(modes.eigenvalues[modes.n_static:])

    def GetEigenFrequenciesHz(self) -> np.ndarray:
        """Frequencies [Hz] of ``eigenValues`` (after Craig-Bampton: of the fixed-interface modes only)."""
        return np.sqrt(np.asarray(self.eigenValues)) / (2 * np.pi)

    def ComputePostProcessingModes(self, material=0, outputVariableType="OutputVariableType.StressLocal",
                                   numberOfThreads=1):
        """Stress (or strain) field of each mode of ``modeBasis`` at the mesh nodes, in ``postProcessingModes``
        = {'matrix': (n, 6 nModes), column 6 j + c component c (xx, yy, zz, yz, xz, xy) of mode j,
        'outputVariableType': ...} (:func:`floatframe.fem.stress.post_processing_modes`).

        As Exudyn: element strains averaged at the nodes over the attached elements, engineering shear strains;
        ``material`` a KirchhoffMaterial (needed for StressLocal). Exudyn computes Tet4 meshes only; floatframe
        also Tet10, Hex8 and Hex20 (strains at the element's own nodes). ``numberOfThreads`` is ignored (one
        sparse product)."""
        from floatframe.fem.stress import post_processing_modes

        output = {"OutputVariableType.StressLocal": "stress", "OutputVariableType.StrainLocal": "strain"}.get(
            str(outputVariableType))
        if output is None:
            raise ValueError("ComputePostProcessingModes invoked with invalid outputVariableType")
        if "matrix" not in self.modeBasis:
            raise ValueError("ComputePostProcessingModes(...): modeBasis needs to be computed in FEMinterface prior "
                             "to calling ComputePostProcessingModes; use e.g. ComputeEigenmodes(...)")
        if output == "stress" and not isinstance(material, MaterialBaseClass):
            raise ValueError("ComputePostProcessingModes: if material=0, outputVariableType must be StrainLocal")
        if output == "stress":
            material._single("ComputePostProcessingModes")
        elastic = dict(youngs_modulus=material.youngsModulus, poissons_ratio=material.poissonsRatio) \
            if output == "stress" else {}
        matrix = post_processing_modes(self._element_mesh(), np.asarray(self.modeBasis["matrix"], dtype=float),
                                       output=output, **elastic)
        self.postProcessingModes = {"matrix": matrix, "outputVariableType": outputVariableType}

    def ComputePostProcessingModesNGsolve(self, fes, material=0, outputVariableType="OutputVariableType.StressLocal",
                                          verbose=False):
        """As :meth:`ComputePostProcessingModes`, computed by NGSolve on its finite-element space ``fes`` (the third
        item ImportMeshFromNGsolve returns), as Exudyn does: for each mode the stress 2 mu eps + lambda tr(eps) I
        (or the strain eps, tensor shear components) is set into a symmetric-matrix-valued H1 space of the mesh's
        order (NGSolve's ``GridFunction.Set``, an element-wise projection averaged at the nodes) and read at the
        nodes; components xx, yy, zz, yz, xz, xy. ``material`` may hold a material per mesh region
        (KirchhoffMaterial(materials=..., fes=...)). Needs the ``ngsolve`` extra."""
        from floatframe.optional import require

        ngs = require("ngsolve", "FEMinterface.ComputePostProcessingModesNGsolve", "ngsolve")
        output = {"OutputVariableType.StressLocal": "stress", "OutputVariableType.StrainLocal": "strain"}.get(
            str(outputVariableType))
        if output is None:
            raise ValueError("ComputePostProcessingModes invoked with invalid outputVariableType")
        if "matrix" not in self.modeBasis:
            raise ValueError("ComputePostProcessingModesNGsolve(...): modeBasis needs to be computed in FEMinterface "
                             "prior to calling it; use e.g. ComputeEigenmodes(...)")
        if output == "stress" and not isinstance(material, MaterialBaseClass):
            raise ValueError("ComputePostProcessingModes: if material=0, outputVariableType must be StrainLocal")
        modes = np.asarray(self.modeBasis["matrix"], dtype=float)
        n_nodes = fes.ndof // 3
        if modes.shape[0] != 3 * n_nodes:
            raise ExudynLayerError(f"FEMinterface.ComputePostProcessingModesNGsolve: the mode basis has "
                                   f"{modes.shape[0]} rows, the space fes {fes.ndof} coordinates")
        order = fes.components[0].globalorder
        scalar = ngs.H1(fes.mesh, order=order) if order == 1 else ngs.NodalFESpace(fes.mesh, order=order)
        field = ngs.GridFunction(ngs.MatrixValued(scalar, symmetric=True))
        displacement = ngs.GridFunction(fes)
        if output == "stress":
            mu, lam = material.LameParameters()
            tensor = lambda strain: 2 * mu * strain + lam * ngs.Trace(strain) * ngs.Id(3)  # noqa: E731
        else:
            tensor = lambda strain: strain  # noqa: E731
        # NGSolve stores a symmetric 3x3 field as the blocks xx, xy, yy, xz, yz, zz of n_nodes values each
        blocks = [0, 2, 5, 4, 3, 1]                          # block of xx, yy, zz, yz, xz, xy
        result = np.zeros((n_nodes, 6 * modes.shape[1]))
        with ngs.TaskManager():
            for j in range(modes.shape[1]):
                displacement.vec.FV().NumPy()[:] = modes[:, j].reshape(n_nodes, 3).T.ravel()
                field.Set(tensor(ngs.Sym(ngs.Grad(displacement))))
                values = field.vec.FV().NumPy()
                for c, block in enumerate(blocks):
                    result[:, 6 * j + c] = values[block * n_nodes:(block + 1) * n_nodes]
        self.postProcessingModes = {"matrix": result, "outputVariableType": outputVariableType}

    def CreateLinearFEMObjectGenericODE2(self, mbs, color=[0.9, 0.4, 0.4, 1.0]):  # noqa: B006 (Exudyn's default)
        """The linear FE model as an ObjectGenericODE2 on one NodePoint per mesh node (sparse M and K), as Exudyn;
        returns [object number, node numbers]."""
        nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=list(position)))
                 for position in self.GetNodePositionsAsArray()]
        mass, stiffness = MatrixContainer(), MatrixContainer()
        mass.SetWithSparseMatrix(self.GetMassMatrix(sparse=True))
        stiffness.SetWithSparseMatrix(self.GetStiffnessMatrix(sparse=True))
        number = mbs.AddObject(items.ObjectGenericODE2(
            nodeNumbers=nodes, massMatrix=mass, stiffnessMatrix=stiffness,
            visualization=dict(triangleMesh=self.GetSurfaceTriangles(), color=list(color))))
        return [number, nodes]

    def GetBoundaryNodeSetsAsLists(self) -> list:
        """[node number lists, node weight lists] of the node sets of type 'boundary' (ImportMeshFromNGsolve makes
        one per boundary name), in their order: the arguments ComputeHurtyCraigBamptonModes takes."""
        boundary = [node_set for node_set in self.nodeSets if "NodeNumbers" in node_set and "NodeWeights" in node_set
                    and node_set.get("type") == "boundary"]
        return [[node_set["NodeNumbers"] for node_set in boundary], [node_set["NodeWeights"] for node_set in boundary]]

    def GetNodePositionsMean(self, nodeNumberList) -> np.ndarray:
        """Mean reference position of the nodes ``nodeNumberList``."""
        return np.mean(self.GetNodePositionsAsArray()[np.asarray(nodeNumberList, dtype=int)], axis=0)

    def _element_mesh(self):
        """The imported mesh (an NGSolve mesh of meshOrder 2 as Tet10), or that of ``nodes`` and ``elements`` as
        they were set by hand."""
        if self._mesh is not None and len(self.nodes.get("Position", ())) == self._mesh.n_nodes:
            return self._mesh
        connectivity = {}
        for item in self.elements:
            for kind, value in item.items():
                if kind in NODES_PER_ELEMENT:
                    connectivity.setdefault(kind, []).append(np.asarray(value, dtype=np.int64))
        if "Position" not in self.nodes or not connectivity:
            raise ExudynLayerError("FEMinterface: no mesh; import one first (e.g. ImportFromAbaqusInputFile)")
        return core_fem.Mesh(self.nodes["Position"], {kind: np.vstack(c) for kind, c in connectivity.items()})

    # --- node selection -------------------------------------------------------------------------
    def GetNodesOnCircle(self, point, normal, r, tolerance=1e-5) -> list:
        """Nodes within ``tolerance`` of the plane through ``point`` with ``normal`` (taken as given, not
        normalised) whose squared distance from ``point`` is r^2 within tolerance^2."""
        offsets = self._require("_mesh", "Mesh").nodes - np.asarray(point, dtype=float)
        in_plane = np.abs(offsets @ np.asarray(normal, dtype=float)) <= tolerance
        on_radius = np.abs(np.einsum("ij,ij->i", offsets, offsets) - float(r) ** 2) <= tolerance ** 2
        return [int(i) for i in np.flatnonzero(in_plane & on_radius)]

    def GetNodesInCube(self, pMin, pMax) -> list:
        """Nodes with pMin <= x <= pMax in every coordinate (bounds included)."""
        nodes = self._require("_mesh", "Mesh").nodes
        inside = np.all((nodes >= np.asarray(pMin, dtype=float)) & (nodes <= np.asarray(pMax, dtype=float)), axis=1)
        return [int(i) for i in np.flatnonzero(inside)]

    # --- files ----------------------------------------------------------------------------------
    def SaveToFile(self, fileName, fileVersion=4, mode=None):
        """Write mesh, matrices and modes as Exudyn 1.13.6 does: one dictionary of the keys metaData, nodes,
        elements, massMatrix, stiffnessMatrix (scipy csr_matrix), surface, nodeSets, elementSets, modeBasis,
        eigenValues, postProcessingModes, fileVersion and type='FEMinterface', in a NumPy .npz (default)
        or a pickle (.pkl). Each file can be read by either package."""
        path, mode = _file_name_and_mode(fileName, mode, "SaveToFile")
        if int(fileVersion) < 1:
            raise ExudynLayerError(f"FEMinterface.SaveToFile: fileVersion must be at least 1, got {fileVersion}")
        data = {key: value for key, value in zip(_FILE_KEYS, self._file_contents())}
        data.update(fileVersion=int(fileVersion), type="FEMinterface")
        _write_file(path, mode, data)

    def LoadFromFile(self, fileName, forceVersion=None, mode=None):
        """Read a file of SaveToFile (floatframe's or Exudyn's, .npz or .pkl); returns its fileVersion."""
        path, mode = _file_name_and_mode(fileName, mode, "LoadFromFile")
        if not path.is_file():
            raise ExudynLayerError(f"FEMinterface.LoadFromFile: file '{path}' not found")
        data = _read_file(path, mode)
        missing = [key for key in ("nodes", "elements", "massMatrix", "stiffnessMatrix") if key not in data]
        if missing:
            raise ExudynLayerError(f"FEMinterface.LoadFromFile: '{path}' is not a FEMinterface file (no {missing})")
        self._set_file_contents(data)
        return int(data["fileVersion"]) if forceVersion is None and "fileVersion" in data else forceVersion

    def _file_contents(self):
        matrices = [None if m is None else sp.csr_matrix(m) for m in (self._mass, self._stiffness)]
        return (dict(self.metaData), dict(self.nodes), list(self.elements), matrices[0], matrices[1],
                list(self.surface), list(self.nodeSets), list(self.elementSets), dict(self.modeBasis),
                np.asarray(self.eigenValues), dict(self.postProcessingModes))

    def _set_file_contents(self, data):
        nodes = dict(data["nodes"])
        if set(nodes) != {"Position"}:
            raise ExudynLayerError(f"FEMinterface.LoadFromFile: only 'Position' nodes are supported, the file has "
                                   f"{sorted(nodes)}")
        self.elements = [{key: np.asarray(value) if key != "Name" else value for key, value in dict(item).items()}
                         for item in data["elements"]]
        connectivity = {}
        for item in self.elements:
            for kind, value in item.items():
                if kind in NODES_PER_ELEMENT:
                    connectivity.setdefault(kind, []).append(np.asarray(value, dtype=np.int64))
        self.nodes = {"Position": np.asarray(nodes["Position"], dtype=float)}
        self._mesh = core_fem.Mesh(self.nodes["Position"], {kind: np.vstack(c) for kind, c in connectivity.items()})
        self._mass, self._stiffness = (None if data[key] is None else sp.csr_matrix(data[key], dtype=float)
                                       for key in ("massMatrix", "stiffnessMatrix"))
        self.surface = [dict(item) for item in data.get("surface", [])]
        self.nodeSets = list(data.get("nodeSets", []))
        self.elementSets = list(data.get("elementSets", []))
        self.modeBasis = dict(data.get("modeBasis", {}))
        self.eigenValues = np.asarray(data.get("eigenValues", []), dtype=float)
        self.postProcessingModes = dict(data.get("postProcessingModes", {}))
        self.metaData = dict(data.get("metaData", {"source": "unknown"}))


def _ngsolve_form_matrix(form, name, size) -> sp.csr_matrix:
    """The assembled matrix of the NGSolve bilinear form ``form`` as scipy CSR in NGSolve's coordinate order (a
    matrix stored as its lower triangle is completed)."""
    matrix = getattr(form, "mat", None)
    if matrix is None or not hasattr(matrix, "CSR"):
        raise ExudynLayerError(f"FEMinterface.ComputeEigenmodesNGsolve: {name} needs to be an assembled NGSolve "
                               f"BilinearForm with a sparse matrix (got {type(matrix).__name__})")
    if matrix.height != size:
        raise ExudynLayerError(f"FEMinterface.ComputeEigenmodesNGsolve: {name} has {matrix.height} coordinates, "
                               f"the space of bfK {size}; both forms need the same space")
    values, columns, rows = matrix.CSR()
    result = sp.csr_matrix((np.array(values, dtype=float), np.array(columns), np.array(rows)), shape=(size, size))
    if sp.triu(result, 1).nnz == 0 and sp.tril(result, -1).nnz > 0:
        result = (result + sp.tril(result, -1).T).tocsr()
    return result


def _space_node_positions(space, stiffness):
    """Positions (n, 3) of the nodes of a nodal vector space (the coordinates x, y, z interpolated into it); None
    where the space is not nodal, i.e. where these rigid-body motions are not in the null space of ``stiffness``
    (its coordinates x0 y0 z0 x1 ...)."""
    import ngsolve as ngs

    field = ngs.GridFunction(space)
    for component, coordinate in zip(field.components, (ngs.x, ngs.y, ngs.z)):
        component.Set(coordinate)
    positions = field.vec.FV().NumPy().reshape(3, -1).T.copy()
    rigid = core_fem.rigid_body_modes(positions)
    forces = np.abs(stiffness @ rigid).max(axis=0)
    scale = (abs(stiffness) @ np.abs(rigid)).max(axis=0)
    return positions if np.all(forces <= 1e-9 * scale) else None


def _file_name_and_mode(fileName, mode, what, owner="FEMinterface"):
    """The path with its extension and the format, 'NPZ' (default, '.npz') or 'PKL' ('.pkl')."""
    extensions = {".npz": "NPZ", ".pkl": "PKL"}
    path = Path(str(fileName))
    if mode is not None and mode not in extensions.values():
        raise ExudynLayerError(f"{owner}.{what}: mode {mode!r} is not supported (supported: 'NPZ', 'PKL')")
    suffix = path.suffix.lower()
    if suffix in (".npy", ".hdf5"):
        raise ExudynLayerError(f"{owner}.{what}: '{suffix}' files are not supported (use '.npz' or '.pkl')")
    if suffix in extensions:
        if mode is not None and extensions[suffix] != mode:
            raise ExudynLayerError(f"{owner}.{what}: extension '{suffix}' and mode {mode!r} disagree")
        return path, extensions[suffix]
    mode = mode or "NPZ"
    return path.with_name(path.name + "." + mode.lower()), mode


def _write_file(path, mode: str, data: dict) -> None:
    """``data`` to ``path`` as .npz (mode "NPZ") or pickle (mode "PKL"), folders made as needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode == "NPZ":
        np.savez(path, **data)
    else:
        with open(path, "wb") as file:
            pickle.dump(data, file)


def _read_file(path, mode: str) -> dict:
    """The dict that ``_write_file`` (or Exudyn) wrote to ``path``."""
    if mode == "NPZ":
        with np.load(path, allow_pickle=True) as stored:
            return {key: _unpack_npz(stored[key]) for key in stored.files}
    with open(path, "rb") as file:
        return pickle.load(file)


def _unpack_npz(value):
    """An entry of np.load: 0-d object arrays hold a dict, a matrix or None; 1-d object arrays a list."""
    if value.dtype == object:
        return value.item() if value.ndim == 0 else value.tolist()
    return value if value.ndim else value.item()


class MaterialBaseClass:
    """Material parameters with Exudyn's names: youngsModulus [Pa], poissonsRatio [-], density [kg/m^3]."""

    def __init__(self, youngsModulus, poissonsRatio, density):
        self.youngsModulus = youngsModulus
        self.poissonsRatio = poissonsRatio
        self.density = density


class KirchhoffMaterial(MaterialBaseClass):
    """Isotropic linear-elastic (Kirchhoff) material, as Exudyn's.

    One material (``youngsModulus``, ``poissonsRatio``, ``density``), or, as in Exudyn, one per region of an NGsolve
    mesh: ``materials`` = {region: {'youngsModulus', 'poissonsRatio', 'density'}} with the ``fes`` of
    ImportMeshFromNGsolve; the three parameters are then NGSolve CoefficientFunctions, usable by
    ComputePostProcessingModesNGsolve (not by ComputePostProcessingModes or StrainVector2StressVector)."""

    def __init__(self, youngsModulus=None, poissonsRatio=None, density=0, materials=None, fes=None,
                 planeStress=True):
        self.planeStress = planeStress
        self.useMaterials = materials is not None
        if self.useMaterials:
            if (density is not None and density != 0) or youngsModulus is not None or poissonsRatio is not None:
                raise ValueError('KirchhoffMaterial: if arg "materials" is used, then density, youngsModulus and '
                                 'poissonsRatio must be None')
            if fes is None:
                raise ValueError('KirchhoffMaterial: if arg "materials" is used, then fes has to be provided as '
                                 'returned by ImportMeshFromNGsolve')
            if not hasattr(fes, "mesh") or not hasattr(fes.mesh, "GetMaterials"):
                raise ExudynLayerError(f"KirchhoffMaterial: multi-domain 'materials' need as fes the NGSolve space "
                                       f"that ImportMeshFromNGsolve returns; got {type(fes).__name__}")
            from floatframe.optional import require

            ngs = require("ngsolve", "KirchhoffMaterial(materials=...)", "ngsolve")
            regions = list(fes.mesh.GetMaterials())
            missing = [region for region in regions if region not in materials]
            if missing:
                raise ValueError(f'KirchhoffMaterial: mesh contains material "{missing[0]}" which could not be '
                                 f'found in arg materials')
            self.materials, self.fes = materials, fes
            super().__init__(*(ngs.CoefficientFunction([materials[region][key] for region in regions])
                               for key in ("youngsModulus", "poissonsRatio", "density")))
            return
        values = (youngsModulus, poissonsRatio, density)
        if not all(isinstance(v, (int, float, np.integer, np.floating)) and v >= 0 for v in values):
            raise ValueError('KirchhoffMaterial: if arg "materials" is None, density, youngsModulus and '
                             'poissonsRatio must be valid positive float values')
        super().__init__(float(youngsModulus), float(poissonsRatio), float(density))

    def LameParameters(self) -> list:
        """[mu, lambda] [Pa] of the material (CoefficientFunctions with ``materials``)."""
        e, nu = self.youngsModulus, self.poissonsRatio
        return [e / (2 * (1 + nu)), e * nu / ((1 + nu) * (1 - 2 * nu))]

    def _single(self, what: str):
        if self.useMaterials:
            raise ExudynLayerError(f"KirchhoffMaterial: {what} needs a single material; a material per mesh region "
                                   f"('materials') works with ComputePostProcessingModesNGsolve only")

    def StrainVector2StressVector(self, strainVector) -> np.ndarray:
        """Voigt stress (xx, yy, zz, yz, xz, xy) [Pa] of a Voigt strain with engineering shear strains."""
        from floatframe.fem.stress import elasticity_matrix

        self._single("StrainVector2StressVector")
        return elasticity_matrix(self.youngsModulus, self.poissonsRatio) @ np.asarray(strainVector, dtype=float)


class ObjectFFRFinterface:
    """Builds an ObjectFFRF with its nodes (and the Tisserand-frame constraint) from a FEMinterface."""

    def __init__(self, femInterface: FEMinterface):
        self.fem = femInterface
        self.xRef = femInterface.GetNodePositionsAsArray().reshape(-1)
        n = femInterface.NumberOfNodes()
        self.massMatrix = femInterface.GetMassMatrix(sparse=True)
        self.Phit = sp.kron(np.ones((n, 1)), sp.identity(3), format="csr")
        self.PhitTM = np.asarray((self.Phit.T @ self.massMatrix).todense())

    def AddObjectFFRF(self, exu, mbs, positionRef=(0, 0, 0), eulerParametersRef=(1, 0, 0, 0),
                      initialVelocity=(0, 0, 0), initialAngularVelocity=(0, 0, 0), gravity=(0, 0, 0),
                      constrainRigidBodyMotion=True, massProportionalDamping=0, stiffnessProportionalDamping=0,
                      color=(0.1, 0.9, 0.1, 1.0)) -> dict:
        """Add frame node, mesh nodes, ObjectFFRF and, if ``constrainRigidBodyMotion``, the Tisserand
        constraint (mean displacement and mean rotation of the mesh w.r.t. the frame vanish, weighted
        with M). ``gravity`` is stored only, as in Exudyn. Returns the numbers of what was added."""
        fem = self.fem
        ep0 = np.asarray(eulerParametersRef, dtype=float)
        theta_t = AngularVelocity2EulerParameters_t(initialAngularVelocity, ep0)
        self.gravity = list(gravity)
        self.nRigidBody = mbs.AddNode(items.NodeRigidBodyEP(
            referenceCoordinates=list(positionRef) + list(ep0),
            initialVelocities=list(initialVelocity) + list(theta_t)))
        self.nodeList = [mbs.AddNode(items.NodePoint(referenceCoordinates=list(p)))
                         for p in fem.GetNodePositionsAsArray()]
        stiffness = fem.GetStiffnessMatrix(sparse=True)
        damping = []
        if massProportionalDamping or stiffnessProportionalDamping:
            damping = MatrixContainer(massProportionalDamping * self.massMatrix
                                      + stiffnessProportionalDamping * stiffness)
        surface = fem.GetSurfaceTriangles() if fem._mesh is not None and fem._mesh.elements else []
        self.oFFRF = mbs.AddObject(items.ObjectFFRF(
            nodeNumbers=[self.nRigidBody] + self.nodeList, massMatrixFF=MatrixContainer(self.massMatrix),
            stiffnessMatrixFF=MatrixContainer(stiffness), dampingMatrixFF=damping,
            visualization=dict(show=True, color=list(color), triangleMesh=np.asarray(surface), showNodes=False)))
        self.oRigidBodyConstraint = None
        if constrainRigidBodyMotion:
            self.oRigidBodyConstraint = self._add_tisserand_constraint(mbs)
        return {"nRigidBody": self.nRigidBody, "nodeList": self.nodeList, "oFFRF": self.oFFRF,
                "oRigidBodyConstraint": self.oRigidBodyConstraint}

    def _add_tisserand_constraint(self, mbs) -> int:
        """S q_obj = S q_ref_obj with S = [[0, Phi_t^T M], [0, x_ref~^T M]] (zero on the frame node)."""
        n_flexible = self.xRef.size
        scaling = np.zeros((6, 7 + n_flexible))
        scaling[:, 7:] = tisserand_rows(self.massMatrix, self.xRef)
        offset = scaling[:, 7:] @ self.xRef
        marker_object = mbs.AddMarker(items.MarkerObjectODE2Coordinates(objectNumber=self.oFFRF))
        ground = mbs.AddNode(items.NodePointGround(referenceCoordinates=[0.0, 0.0, 0.0]))
        marker_ground = mbs.AddMarker(items.MarkerNodeCoordinates(nodeNumber=ground))
        return mbs.AddObject(items.ObjectConnectorCoordinateVector(
            markerNumbers=[marker_ground, marker_object], scalingMarker1=scaling, offset=offset))


def _round_small_entries(matrix: np.ndarray, relative: float) -> np.ndarray:
    """Exudyn's rounding of reduced matrices: entries below ``relative`` x max |entry| set to zero."""
    rounded = np.array(matrix, dtype=float)
    rounded[np.abs(rounded) < relative * np.abs(rounded).max(initial=0.0)] = 0.0
    return rounded


class ObjectFFRFreducedOrderInterface:
    """Builds an ObjectFFRFreducedOrder (CMS body) with its two nodes from a FEMinterface with a mode basis.

    The invariants are computed by :class:`floatframe.components.ReducedOrderInvariants`; their Exudyn
    names are kept as attributes (``massMatrixReduced``, ``mPsiTildePsi``, ..., ``totalMass``, ``chiU``).
    The frame node has Euler parameters or Tait-Bryan angles (rigidBodyNodeType NodeType.RotationRxyz). Reduced mass
    and stiffness matrices are rounded as Exudyn rounds them (entries below 1e-13 of the largest set to zero).
    """

    def __init__(self, femInterface: FEMinterface | None = None,
                 rigidBodyNodeType="NodeType.RotationEulerParameters", roundMassMatrix=1e-13,
                 roundStiffnessMatrix=1e-13):
        kind = str(rigidBodyNodeType).split(".")[-1]
        if kind not in ("RotationEulerParameters", "RotationRxyz"):
            raise ExudynLayerError(f"ObjectFFRFreducedOrderInterface: rigidBodyNodeType {rigidBodyNodeType} is not "
                                   f"supported; the frame node has Euler parameters (NodeType.RotationEulerParameters) "
                                   f"or Tait-Bryan angles (NodeType.RotationRxyz)")
        self.rigidBodyNodeType = f"NodeType.{kind}"
        self.postProcessingModes = {}
        self.trigList = []
        self.oFFRFreducedOrder = None
        self.gravity, self._gravity_function = [0.0, 0.0, 0.0], None
        self._ffrf_buffered = None   # the body's ffrf_function through buffers (a DM call cost 45 us)
        if femInterface is None:
            return
        if not femInterface.modeBasis or "matrix" not in femInterface.modeBasis:
            raise ExudynLayerError("ObjectFFRFreducedOrderInterface: the FEMinterface has no mode basis; call "
                                   "ComputeEigenmodes(...) or ComputeHurtyCraigBamptonModes(...) first")
        positions = femInterface.GetNodePositionsAsArray()
        invariants = ReducedOrderInvariants.from_fe_matrices(
            femInterface.GetMassMatrix(sparse=True), femInterface.GetStiffnessMatrix(sparse=True),
            femInterface.modeBasis["matrix"], positions, what="ObjectFFRFreducedOrderInterface",
            rigid_motion="defer")   # as Exudyn: such a basis needs the frame held (the body checks at assembly)
        self.modeBasis = invariants.mode_basis
        self.postProcessingModes = dict(femInterface.postProcessingModes)
        self.trigList = (femInterface.GetSurfaceTriangles().tolist()
                         if femInterface._mesh is not None and femInterface._mesh.elements else [])
        self.massMatrixReduced = _round_small_entries(invariants.mass_reduced, roundMassMatrix)
        self.stiffnessMatrixReduced = _round_small_entries(invariants.stiffness_reduced, roundStiffnessMatrix)
        self.nModes, self.nNodes, self.dim3D = invariants.n_modes, len(positions), 3
        self.nODE2rot = 3 if self.rigidBodyNodeType == "NodeType.RotationRxyz" else 4
        self.nODE2rigid = 3 + self.nODE2rot
        self.nODE2FFRFreduced = self.nODE2rigid + self.nModes
        self.xRef = invariants.reference_positions
        self.inertiaLocal = invariants.inertia
        self.totalMass = invariants.mass
        self.Mtt = invariants.mass * np.eye(3)
        self.chiU = invariants.center_of_mass
        self.chiUtilde = Skew(self.chiU)
        for name, field in items.REDUCED_ORDER_MATRICES.items():
            setattr(self, name, getattr(invariants, field))

    def AddObjectFFRFreducedOrderWithUserFunctions(self, exu, mbs, positionRef=(0, 0, 0), initialVelocity=(0, 0, 0),
                                                   rotationMatrixRef=(), initialAngularVelocity=(0, 0, 0),
                                                   gravity=(0, 0, 0), UFforce=0, UFmassMatrix=0,
                                                   massProportionalDamping=0, stiffnessProportionalDamping=0,
                                                   color=(0.1, 0.9, 0.1, 1.0), eulerParametersRef=(), name="") -> dict:
        """Add the frame node (NodeRigidBodyEP), the modal node (NodeGenericODE2) and the ObjectFFRFreducedOrder.

        As in Exudyn: without both user functions the body computes its FFRF terms itself (no Python call in the
        Newton loop); with both, computeFFRFterms is False and the two functions provide mass matrix and forces
        (e.g. through :meth:`UFmassFFRFreducedOrder` and :meth:`UFforceFFRFreducedOrder`). Rayleigh damping acts on
        the modal coordinates. Returns {'nRigidBody', 'nGenericODE2', 'oFFRFreducedOrder', 'loadGravity'}.
        """
        if len(rotationMatrixRef) and len(eulerParametersRef):
            raise ExudynLayerError("AddObjectFFRFreducedOrderWithUserFunctions: give rotationMatrixRef or "
                                   "eulerParametersRef, not both")
        if len(eulerParametersRef) and self.rigidBodyNodeType != "NodeType.RotationEulerParameters":
            raise ExudynLayerError("AddObjectFFRFreducedOrderWithUserFunctions: eulerParametersRef needs "
                                   f"rigidBodyNodeType NodeType.RotationEulerParameters, not {self.rigidBodyNodeType}")
        if len(eulerParametersRef):
            warnings.warn("AddObjectFFRFreducedOrderWithUserFunctions: eulerParametersRef is deprecated; use "
                          "rotationMatrixRef", DeprecationWarning, stacklevel=2)
            theta = np.asarray(eulerParametersRef, dtype=float)
        else:
            rotation = np.eye(3) if not len(rotationMatrixRef) else np.asarray(rotationMatrixRef, dtype=float)
            theta = rotations.euler_parameters_from_rotation_matrix(rotation)
        node_class = items.NodeRigidBodyEP
        if self.rigidBodyNodeType == "NodeType.RotationRxyz":   # Tait-Bryan angles of the rotation and their rates
            node_class, theta = items.NodeRigidBodyRxyz, RotationMatrix2RotXYZ(rotation)
            self.rotationParameters_t0 = list(AngularVelocity2RotXYZ_t(initialAngularVelocity, theta))
        else:
            self.rotationParameters_t0 = list(AngularVelocity2EulerParameters_t(initialAngularVelocity, theta))
        self.rotationParameters0 = list(theta)
        self.nRigidBody = mbs.AddNode(node_class(
            name=f"NodeRigidBody:{name}" if name else "", referenceCoordinates=list(positionRef) + list(theta),
            initialVelocities=list(initialVelocity) + self.rotationParameters_t0))
        self.nGenericODE2 = mbs.AddNode(items.NodeGenericODE2(
            name=f"NodeGeneric:{name}" if name else "", numberOfODE2Coordinates=self.nModes,
            referenceCoordinates=[0.0] * self.nModes, initialCoordinates=[0.0] * self.nModes,
            initialCoordinates_t=[0.0] * self.nModes))
        self.gravity, self.loadGravity, self._gravity_function = list(gravity), None, None
        self.dampingMatrixReduced = (massProportionalDamping * self.massMatrixReduced
                                     + stiffnessProportionalDamping * self.stiffnessMatrixReduced)
        damped = bool(massProportionalDamping or stiffnessProportionalDamping)
        user_functions = not (UFmassMatrix == 0 or UFforce == 0)
        output_modes = {}
        if "matrix" in self.postProcessingModes:   # as Exudyn: the stress or strain modes become mesh-node outputs
            output_modes = dict(outputVariableModeBasis=np.asarray(self.postProcessingModes["matrix"], dtype=float),
                                outputVariableTypeModeBasis=self.postProcessingModes["outputVariableType"])
        self.oFFRFreducedOrder = mbs.AddObject(items.ObjectFFRFreducedOrder(
            name=name, nodeNumbers=[self.nRigidBody, self.nGenericODE2],
            massMatrixReduced=MatrixContainer(self.massMatrixReduced),
            stiffnessMatrixReduced=MatrixContainer(self.stiffnessMatrixReduced),
            dampingMatrixReduced=MatrixContainer(self.dampingMatrixReduced) if damped else [],
            modeBasis=self.modeBasis, referencePositions=self.xRef, mass=self.totalMass, inertia=self.inertiaLocal,
            centerOfMass=self.chiU, forceUserFunction=UFforce, massMatrixUserFunction=UFmassMatrix,
            computeFFRFterms=not user_functions, **output_modes,
            **{name_: getattr(self, name_) for name_ in items.REDUCED_ORDER_MATRICES},
            visualization=dict(show=True, color=list(color), triangleMesh=np.asarray(self.trigList), showNodes=True)))
        if np.any(np.asarray(gravity, dtype=float) != 0) and not user_functions:   # else UFforce... adds it
            body_mass = mbs.AddMarker(items.MarkerBodyMass(bodyNumber=self.oFFRFreducedOrder))
            self.loadGravity = mbs.AddLoad(items.LoadMassProportional(markerNumber=body_mass,
                                                                      loadVector=list(gravity)))
        return {"nRigidBody": self.nRigidBody, "nGenericODE2": self.nGenericODE2,
                "oFFRFreducedOrder": self.oFFRFreducedOrder, "loadGravity": self.loadGravity}

    def AddObjectFFRFreducedOrder(self, mbs, positionRef=(0, 0, 0), initialVelocity=(0, 0, 0), rotationMatrixRef=(),
                                  initialAngularVelocity=(0, 0, 0), massProportionalDamping=0,
                                  stiffnessProportionalDamping=0, gravity=(0, 0, 0), color=(0.1, 0.9, 0.1, 1.0),
                                  name="") -> dict:
        """The body without user functions (its FFRF terms computed natively); see
        :meth:`AddObjectFFRFreducedOrderWithUserFunctions`."""
        return self.AddObjectFFRFreducedOrderWithUserFunctions(
            None, mbs, positionRef=positionRef, initialVelocity=initialVelocity, rotationMatrixRef=rotationMatrixRef,
            initialAngularVelocity=initialAngularVelocity, massProportionalDamping=massProportionalDamping,
            stiffnessProportionalDamping=stiffnessProportionalDamping, gravity=gravity, color=color, name=name)

    _FILE_KEYS = ("modeBasis", "trigList", "postProcessingModes", "massMatrixReduced", "stiffnessMatrixReduced",
                  "infoList", "rigidBodyNodeType", "xRef", "inertiaLocal", "Mtt", "totalMass", "chiU", "chiUtilde",
                  *items.REDUCED_ORDER_MATRICES)

    def SaveToFile(self, fileName, fileVersion=1):
        """Write the reduced body as Exudyn 1.13.6 does (file version 1): one dictionary of modeBasis, trigList,
        postProcessingModes, massMatrixReduced, stiffnessMatrixReduced, infoList ([nModes, nNodes, dim3D,
        nODE2rot, nODE2rigid, nODE2FFRFreduced]), rigidBodyNodeType, xRef, inertiaLocal, Mtt, totalMass, chiU,
        chiUtilde and the six mass-weighted mode products, with fileVersion and
        type='ObjectFFRFreducedOrderInterface', in a NumPy .npz (default, no extension given) or a pickle
        (.pkl). Either package reads the other's files."""
        owner = "ObjectFFRFreducedOrderInterface"
        path, mode = _file_name_and_mode(fileName, None, "SaveToFile", owner)
        if int(fileVersion) != 1:
            raise ExudynLayerError(f"{owner}.SaveToFile: only fileVersion 1 is defined, got {fileVersion}")
        if not hasattr(self, "modeBasis"):
            raise ExudynLayerError(f"{owner}.SaveToFile: the interface is empty (made without a FEMinterface "
                                   f"and not loaded)")
        data = {key: getattr(self, key) for key in self._FILE_KEYS if key != "infoList"}
        data.update(trigList=np.array(self.trigList), rigidBodyNodeType=str(self.rigidBodyNodeType),
                    infoList=np.array([self.nModes, self.nNodes, self.dim3D, self.nODE2rot, self.nODE2rigid,
                                       self.nODE2FFRFreduced]),
                    fileVersion=1, type=owner)
        _write_file(path, mode, data)

    def LoadFromFile(self, fileName, mode=None):
        """Read a file of SaveToFile (floatframe's or Exudyn's, .npz or .pkl, file version 1) into this interface;
        returns the file version (None for a .npz/.pkl without one, read as version 1)."""
        owner = "ObjectFFRFreducedOrderInterface"
        path, mode = _file_name_and_mode(fileName, mode, "LoadFromFile", owner)
        if not path.is_file():
            raise ExudynLayerError(f"{owner}.LoadFromFile: file '{path}' not found")
        data = _read_file(path, mode)
        if data.get("type", owner) != owner:
            raise ExudynLayerError(f"{owner}.LoadFromFile: '{path}' is not an {owner} file (type {data['type']!r})")
        version = data.get("fileVersion")
        if version is not None and int(version) != 1:
            raise ExudynLayerError(f"{owner}.LoadFromFile: '{path}' has fileVersion {version}; only 1 is supported")
        missing = [key for key in self._FILE_KEYS if key not in data]
        if missing:
            raise ExudynLayerError(f"{owner}.LoadFromFile: '{path}' is not an {owner} file (no {missing})")
        kind = str(data["rigidBodyNodeType"]).split(".")[-1]
        if kind not in ("RotationEulerParameters", "RotationRxyz"):
            raise ExudynLayerError(f"{owner}.LoadFromFile: '{path}' has rigidBodyNodeType {kind}; supported are "
                                   f"NodeType.RotationEulerParameters and NodeType.RotationRxyz")
        for key in self._FILE_KEYS:
            setattr(self, key, data[key])
        self.rigidBodyNodeType = f"NodeType.{kind}"
        self.trigList = np.asarray(data["trigList"]).tolist()
        self.postProcessingModes = dict(data["postProcessingModes"])
        self.nModes, self.nNodes, self.dim3D, self.nODE2rot, self.nODE2rigid, self.nODE2FFRFreduced = (
            int(value) for value in np.asarray(data["infoList"]).reshape(-1))
        self.totalMass = float(self.totalMass)
        self.oFFRFreducedOrder, self._ffrf_buffered, self._gravity_function = None, None, None
        return None if version is None else int(version)

    def _body(self, mbs):
        if self.oFFRFreducedOrder is None or mbs._core is None:
            raise ExudynLayerError("ObjectFFRFreducedOrderInterface: the user functions need the body added "
                                   "(AddObjectFFRFreducedOrderWithUserFunctions) and the system assembled")
        return mbs._core.objects[self.oFFRFreducedOrder]

    def _ffrf_terms(self, mbs, qReduced, qReduced_t):
        function = self._body(mbs).ffrf_function()
        if self._ffrf_buffered is None or self._ffrf_buffered.function is not function:
            self._ffrf_buffered = BufferedFunction(function)
        mass, force = self._ffrf_buffered(np.asarray(qReduced, dtype=float).reshape(-1),
                                          np.asarray(qReduced_t, dtype=float).reshape(-1))
        return mass.reshape(force.size, force.size, order="F").copy(), force.copy()

    def UFmassFFRFreducedOrder(self, exu, mbs, t, qReduced, qReduced_t) -> np.ndarray:
        """Mass matrix (7 + n_m, 7 + n_m) of the body at (qReduced, qReduced_t), frame and modal coordinates."""
        return self._ffrf_terms(mbs, qReduced, qReduced_t)[0]

    def UFforceFFRFreducedOrder(self, exu, mbs, t, qReduced, qReduced_t) -> np.ndarray:
        """Quadratic velocity vector minus elastic and damping forces, plus the gravity of
        AddObjectFFRFreducedOrderWithUserFunctions (7 + n_m,), as Exudyn's user function: its gravity moment is
        that of the undeformed centre of mass (``mass_proportional_force(deformed_moment=False)``)."""
        force = self._ffrf_terms(mbs, qReduced, qReduced_t)[1]
        if np.any(np.asarray(self.gravity, dtype=float) != 0):
            body = self._body(mbs)
            if self._gravity_function is None:   # its force densified, evaluated through buffers
                function = body.mass_proportional_force_function(deformed_moment=False)
                arguments = function.mx_in()
                self._gravity_function = BufferedFunction(ca.Function(
                    function.name(), arguments, [ca.densify(function.call(arguments)[0])]))
            gravity = self._gravity_function(np.asarray(qReduced, dtype=float).reshape(-1),
                                             np.asarray(self.gravity, dtype=float).reshape(-1))[0]
            force = force + gravity
        return force

