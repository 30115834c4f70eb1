"""Meshes (Tet4, Tet10, Hex8, Hex20), mesh generators, Abaqus and meshio import, linear-elastic FE matrices.

DOF ordering everywhere: coordinate ``3 * i + k`` is displacement component k (x, y, z) of
node i (0-based). All matrices are ``scipy.sparse.csr_matrix``.
"""

from .abaqus import read_abaqus_inp, read_abaqus_mtx
from .forms import lame_parameters
from .matrices import (FORMULATIONS, add_node_mass, linear_elastic_matrices, lumped_mass_matrix, mass_matrix,
                       rigid_body_modes, stiffness_matrix)
from .mesh import (Mesh, block_mesh, hex_corner_jacobians, mesh_from_meshio, quadratic_mesh, read_mesh,
                   rotor_disc_mesh)
from .modes import ModeBasis, canonical_basis, craig_bampton_modes, eigenmodes, tisserand_basis

__all__ = [
    "FORMULATIONS",
    "Mesh",
    "ModeBasis",
    "add_node_mass",
    "block_mesh",
    "canonical_basis",
    "craig_bampton_modes",
    "eigenmodes",
    "hex_corner_jacobians",
    "lame_parameters",
    "linear_elastic_matrices",
    "lumped_mass_matrix",
    "mass_matrix",
    "mesh_from_meshio",
    "quadratic_mesh",
    "read_abaqus_inp",
    "read_abaqus_mtx",
    "read_mesh",
    "rigid_body_modes",
    "rotor_disc_mesh",
    "stiffness_matrix",
    "tisserand_basis",
]
