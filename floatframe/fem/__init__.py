"""Meshes (Tet4, Tet10, Hex8, Hex20), mesh generators, Abaqus, meshio and Netgen/NGSolve import, linear-elastic
FE matrices, geometric stiffness and its load cases, stress and strain recovery.

DOF ordering everywhere: coordinate ``3 * i + k`` is displacement component k (x, y, z) of
node i (0-based). All matrices are ``scipy.sparse.csr_matrix``.
"""

from .abaqus import read_abaqus_inp, read_abaqus_mtx
from .forms import lame_parameters
from .geometric_stiffness import (GeometricStiffnessCases, geometric_stiffness_cases, geometric_stiffness_matrix,
                                  stress_geometric_stiffness_matrix)
from .matrices import (FORMULATIONS, add_node_mass, center_of_mass, gyroscopic_matrix, linear_elastic_matrices,
                       lumped_mass_matrix, mass_matrix, rigid_body_modes, stiffness_matrix)
from .mesh import (Mesh, block_mesh, hex_corner_jacobians, mesh_from_meshio, quadratic_mesh, read_mesh,
                   rotor_disc_mesh)
from .modes import ModeBasis, RigidBodyModeCountError, canonical_basis, craig_bampton_modes, eigenmodes, tisserand_basis
from .ngsolve_mesh import boundary_node_sets, mesh_from_ngsolve
from .stress import (elasticity_matrix, modal_field, nodal_strains, nodal_stresses, post_processing_modes,
                     strain_recovery_matrix, von_mises)

__all__ = [
    "FORMULATIONS",
    "GeometricStiffnessCases",
    "Mesh",
    "ModeBasis",
    "RigidBodyModeCountError",
    "add_node_mass",
    "block_mesh",
    "boundary_node_sets",
    "canonical_basis",
    "center_of_mass",
    "craig_bampton_modes",
    "eigenmodes",
    "elasticity_matrix",
    "geometric_stiffness_cases",
    "geometric_stiffness_matrix",
    "gyroscopic_matrix",
    "hex_corner_jacobians",
    "lame_parameters",
    "linear_elastic_matrices",
    "lumped_mass_matrix",
    "mass_matrix",
    "mesh_from_meshio",
    "mesh_from_ngsolve",
    "modal_field",
    "nodal_strains",
    "nodal_stresses",
    "post_processing_modes",
    "quadratic_mesh",
    "read_abaqus_inp",
    "read_abaqus_mtx",
    "read_mesh",
    "rigid_body_modes",
    "rotor_disc_mesh",
    "stiffness_matrix",
    "stress_geometric_stiffness_matrix",
    "strain_recovery_matrix",
    "tisserand_basis",
    "von_mises",
]
