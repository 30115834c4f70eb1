"""Meshes, mesh generators, Abaqus import and linear-elastic FE matrices.

DOF ordering everywhere: coordinate ``3 * i + k`` is displacement component k (x, y, z) of
node i (0-based). All matrices are ``scipy.sparse.csr_matrix``.
"""

from .abaqus import read_abaqus_inp, read_abaqus_mtx
from .forms import lame_parameters
from .matrices import (FORMULATIONS, add_node_mass, linear_elastic_matrices, lumped_mass_matrix, mass_matrix,
                       rigid_body_modes, stiffness_matrix)
from .mesh import Mesh, block_mesh, hex_corner_jacobians, rotor_disc_mesh
from .modes import ModeBasis, canonical_basis, craig_bampton_modes, eigenmodes

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
    "read_abaqus_inp",
    "read_abaqus_mtx",
    "rigid_body_modes",
    "rotor_disc_mesh",
    "stiffness_matrix",
]
