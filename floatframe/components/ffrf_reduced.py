"""ObjectFFRFReducedOrder: an FFRF body whose mesh deformation is a combination of a few modes.

Coordinates (specification ObjectFFRFreducedOrder): q = [q_t (3, global), theta (4 Euler parameters),
zeta (n_m modal coordinates)], owned by a NodeRigidBodyEP (the frame) and a NodeGenericODE2. The body-fixed
nodal displacements are q_f = Psi zeta, with the mode basis Psi (n_f, n_m).

The equations are those of ObjectFFRF reduced with H = blockdiag(I_3, I_4, Psi). They are written
with the constant invariants of :class:`ReducedOrderInvariants` only, so the symbolic graph does not depend on
the size of the mesh. The products with the n_m x n_m invariants are either written into the SX graph
(O(n_m^2) nodes; few modes) or made one MX Function of matrix products with a hand-derived exact Jacobian
(:meth:`ObjectFFRFReducedOrder.frame_terms`; many modes): option ``modal_products``. With Z = zeta (x) I_3 (3 n_m, 3), p~ = x_ref~ + Psi~ Z
the stacked skew matrices of the deformed nodal positions, and

    S = Phi_t^T M p~      = m chi~ + M_PhitPsi~ Z                                            (3, 3)
    B = p~^T M Psi        = M_xPsi + Z^T M_Psi~Psi                                           (3, n_m)
    J = p~^T M p~         = Theta_u + M_xPsi~ Z + (M_xPsi~ Z)^T + Z^T M_Psi~Psi~ Z            (3, 3)

(omega, alpha: body-fixed angular velocity and acceleration of the frame) the left-hand side is

    row t:  m a_t + A [M_PhitPsi zeta_tt - S alpha - omega~ S omega + 2 omega~ M_PhitPsi zeta_t]
    row r: -G^T [S^T A^T a_t + B zeta_tt - J alpha - omega~ J omega
                 - 2 (M_xPsi~ + Z^T M_Psi~Psi~) (zeta_t (x) omega)]
    row f:  M_PhitPsi^T A^T a_t + M_red zeta_tt - B^T alpha - (I (x) omega)^T (M_xPsi~^T + M_Psi~Psi~ Z) omega
            - 2 M_Psi~Psi^T (zeta_t (x) omega) + K_red zeta + D_red zeta_t

which is the specification's mass matrix times q_tt minus its quadratic velocity vector f_v. The
velocity terms, like the specification's, hold for a mass matrix whose 3 x 3 node blocks are multiples
of the identity (every solid-element and lumped mass matrix); :meth:`ReducedOrderInvariants.from_fe_matrices`
warns where a mass matrix is not of that kind.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe import rotations
from floatframe.components.base import Context, ModelError, checked_keywords, resolve
from floatframe.components.bodies import inertia_fault
from floatframe.components.external import ExactFunction
from floatframe.components.ffrf import FloatingFrameBody, definiteness_fault, stacked_skew
from floatframe.components.geometric_stiffening import stiffening_terms, validated_cases
from floatframe.components.nodes import NodeGenericODE2, NodeRigidBodyEP

ISOTROPY_TOLERANCE = 1e-10   # relative to max |M|: node blocks of M must be multiples of I_3 to this
RANK_TOLERANCE = 1e-10       # smallest / largest eigenvalue of M_red below which the basis is rank-deficient
RIGID_TOLERANCE = 1e-8       # the same for the rigid-body inertia that the modes leave to the frame
SCALAR_PRODUCTS_LIMIT = 16   # modal_products="auto": up to this many modes the products are SX scalars
                             # (docs/performance.md: build time and step time of both forms)

MODE_OUTPUTS = ("StressLocal", "StrainLocal")   # mesh-node outputs of output-variable (post-processing) modes


def skew_columns(vectors: np.ndarray) -> np.ndarray:
    """Psi~: for each column psi_j of ``vectors`` (n_f, n_m) the stacked skew matrices of its nodal 3-vectors,
    as columns 3 j .. 3 j + 2 of an (n_f, 3 n_m) array (Exudyn's layout of PsiTilde)."""
    n_f, n_m = vectors.shape
    x, y, z = (vectors.reshape(n_f // 3, 3, n_m)[:, k, :] for k in range(3))
    zero = np.zeros_like(x)
    blocks = np.stack([np.stack([zero, -z, y], axis=-1),          # row x of skew(psi_j,i)
                       np.stack([z, zero, -x], axis=-1),          # row y
                       np.stack([-y, x, zero], axis=-1)], axis=1)  # row z: (nodes, 3 rows, n_m, 3 columns)
    return blocks.reshape(n_f, 3 * n_m)


def node_sums(matrix: np.ndarray) -> np.ndarray:
    """Phi_t^T X: the sum over nodes of the 3 rows of each node, (n_f, k) -> (3, k)."""
    return matrix.reshape(-1, 3, matrix.shape[1]).sum(axis=0)


@dataclass(frozen=True)
class ReducedOrderInvariants:
    """The constant matrices of a reduced-order FFRF body, computed once from the FE matrices and the modes.

    Shapes: n_f = 3 x (mesh nodes), n_m modes. Names of the specification in brackets.
    """

    mode_basis: np.ndarray            # Psi (n_f, n_m) [modeBasis]
    reference_positions: np.ndarray   # x_ref (n_f,) body-fixed nodal positions [m] [referencePositions]
    mass_reduced: np.ndarray          # M_red = Psi^T M Psi (n_m, n_m) [massMatrixReduced]
    stiffness_reduced: np.ndarray     # K_red = Psi^T K Psi (n_m, n_m) [stiffnessMatrixReduced]
    damping_reduced: np.ndarray | None  # D_red (n_m, n_m) or None [dampingMatrixReduced]
    mass: float                       # m [kg] [physicsMass]
    inertia: np.ndarray               # Theta_u = x_ref~^T M x_ref~ (3, 3) [kg m^2], about the frame origin
    center_of_mass: np.ndarray        # chi_u = Phi_t^T M x_ref / m (3,) [m], body-fixed
    psi_tilde_psi: np.ndarray         # Psi~^T M Psi (3 n_m, n_m) [mPsiTildePsi]
    psi_tilde_psi_tilde: np.ndarray   # Psi~^T M Psi~ (3 n_m, 3 n_m) [mPsiTildePsiTilde]
    phit_t_psi: np.ndarray            # Phi_t^T M Psi (3, n_m) [mPhitTPsi]
    phit_t_psi_tilde: np.ndarray      # Phi_t^T M Psi~ (3, 3 n_m) [mPhitTPsiTilde]
    xref_tilde_psi: np.ndarray        # x_ref~^T M Psi (3, n_m) [mXRefTildePsi]
    xref_tilde_psi_tilde: np.ndarray  # x_ref~^T M Psi~ (3, 3 n_m) [mXRefTildePsiTilde]

    @property
    def n_modes(self) -> int:
        return self.mode_basis.shape[1]

    @property
    def n_mesh_nodes(self) -> int:
        return self.mode_basis.shape[0] // 3

    @classmethod
    def from_fe_matrices(cls, mass_matrix_ff, stiffness_matrix_ff, mode_basis, reference_positions,
                         damping_matrix_ff=None, rayleigh=(0.0, 0.0), what="reduced-order body",
                         rigid_motion="refuse"):
        """The invariants of a mode basis (n_f, n_m) on the sparse FE matrices (n_f, n_f).

        ``reference_positions``: (n_f,) or (N, 3) body-fixed nodal positions [m]. A mass matrix with a negative
        diagonal entry or eigenvalue beyond round-off is refused (:func:`~floatframe.components.ffrf.definiteness_fault`,
        one sparse factorization). Damping: Psi^T D Psi
        for a full damping matrix ``damping_matrix_ff``, plus Rayleigh damping a M_red + b K_red for
        ``rayleigh = (a, b)``. Nothing of size n_f x n_f is made dense. ``what`` names the body in errors.
        ``rigid_motion="defer"`` leaves a basis with a rigid-body motion to the body's check at assembly
        (:meth:`check`).
        """
        def fault(text):
            return ModelError(f"{what}: {text}")

        basis = np.asarray(getattr(mode_basis, "vectors", mode_basis), dtype=float)
        if basis.ndim != 2 or basis.shape[1] == 0:
            raise fault(f"the mode basis must be a 2D array (n_f, n_modes) with at least one mode, got shape "
                        f"{basis.shape}")
        n_f, n_m = basis.shape
        if n_f % 3 or n_f == 0:
            raise fault(f"the mode basis has {n_f} rows, not 3 per mesh node")
        if not np.all(np.isfinite(basis)):
            raise fault("the mode basis contains NaN or inf")
        if n_m > n_f:
            raise fault(f"the mode basis has {n_m} modes, more than the mesh's {n_f} coordinates")
        x_ref = np.asarray(reference_positions, dtype=float).reshape(-1)
        if x_ref.size != n_f or not np.all(np.isfinite(x_ref)):
            raise fault(f"reference_positions must be {n_f} finite values (3 per mesh node of the mode basis), "
                        f"got {x_ref.size}")
        mass_ff = _fe_matrix(mass_matrix_ff, n_f, "mass_matrix_ff", fault)
        stiffness_ff = _fe_matrix(stiffness_matrix_ff, n_f, "stiffness_matrix_ff", fault)
        indefinite = definiteness_fault(mass_ff, "mass_matrix_ff")
        if indefinite:
            raise fault(f"{indefinite}; an FE mass matrix is positive semidefinite")
        _warn_if_not_isotropic(mass_ff, what)

        mass_psi = np.asarray(mass_ff @ basis)                                  # M Psi (n_f, n_m)
        psi_tilde = skew_columns(basis)                                         # Psi~ (n_f, 3 n_m)
        mass_psi_tilde = np.asarray(mass_ff @ psi_tilde)                        # M Psi~
        x_tilde = stacked_skew(x_ref)                                           # x_ref~ (n_f, 3), sparse
        mass_reduced = _symmetric(basis.T @ mass_psi)
        stiffness_reduced = _symmetric(basis.T @ np.asarray(stiffness_ff @ basis))
        damping = None
        if damping_matrix_ff is not None and np.size(damping_matrix_ff):
            damping_ff = _fe_matrix(damping_matrix_ff, n_f, "damping_matrix_ff", fault)
            damping = basis.T @ np.asarray(damping_ff @ basis)
        alpha, beta = (float(c) for c in rayleigh)
        if alpha or beta:
            damping = (0.0 if damping is None else damping) + alpha * mass_reduced + beta * stiffness_reduced
        mass_phi_t = node_sums(np.asarray(mass_ff @ sp.kron(np.ones((n_f // 3, 1)), np.eye(3)).toarray()))
        mass = float(np.trace(mass_phi_t) / 3.0)                                # Phi_t^T M Phi_t = m I
        invariants = cls(
            mode_basis=basis, reference_positions=x_ref, mass_reduced=mass_reduced,
            stiffness_reduced=stiffness_reduced, damping_reduced=damping, mass=mass,
            inertia=_symmetric(np.asarray(x_tilde.T @ (mass_ff @ x_tilde).toarray())),
            center_of_mass=node_sums(np.asarray(mass_ff @ x_ref).reshape(-1, 1)).reshape(-1) / mass,
            psi_tilde_psi=psi_tilde.T @ mass_psi,
            psi_tilde_psi_tilde=_symmetric(psi_tilde.T @ mass_psi_tilde),
            phit_t_psi=node_sums(mass_psi),
            phit_t_psi_tilde=node_sums(mass_psi_tilde),
            xref_tilde_psi=np.asarray(x_tilde.T @ mass_psi),
            xref_tilde_psi_tilde=np.asarray(x_tilde.T @ mass_psi_tilde))
        invariants.check(fault, rigid_motion)
        return invariants

    @classmethod
    def validated(cls, what="reduced-order body", rigid_motion="refuse", **fields):
        """The invariants from their values as given (e.g. by an Exudyn item), with shapes, finiteness, rank and
        the absence of rigid-body motion checked; ``what`` names the body in errors."""
        def fault(text):
            return ModelError(f"{what}: {text}")

        basis = np.asarray(fields["mode_basis"], dtype=float)
        if basis.ndim != 2 or basis.shape[1] == 0 or basis.shape[0] % 3 or basis.shape[0] == 0:
            raise fault(f"the mode basis must be (3 x mesh nodes, n_modes) with at least one mode, got shape "
                        f"{basis.shape}")
        n_f, n_m = basis.shape
        shapes = dict(mode_basis=(n_f, n_m), reference_positions=(n_f,), mass_reduced=(n_m, n_m),
                      stiffness_reduced=(n_m, n_m), damping_reduced=(n_m, n_m), mass=(), inertia=(3, 3),
                      center_of_mass=(3,), psi_tilde_psi=(3 * n_m, n_m), psi_tilde_psi_tilde=(3 * n_m, 3 * n_m),
                      phit_t_psi=(3, n_m), phit_t_psi_tilde=(3, 3 * n_m), xref_tilde_psi=(3, n_m),
                      xref_tilde_psi_tilde=(3, 3 * n_m))
        values = {}
        for name, shape in shapes.items():
            value = fields.get(name)
            if value is None and name == "damping_reduced":
                values[name] = None
                continue
            if value is None:
                raise fault(f"{name} is required")
            array = np.asarray(value.toarray() if sp.issparse(value) else value, dtype=float)
            if name == "reference_positions":
                array = array.reshape(-1)
            if array.shape != shape:
                raise fault(f"{name} must have shape {shape} for a mode basis of shape {basis.shape}, got {array.shape}")
            if not np.all(np.isfinite(array)):
                raise fault(f"{name} contains NaN or inf")
            if name in ("mass_reduced", "stiffness_reduced", "inertia", "psi_tilde_psi_tilde"):
                array = _symmetric(array)                       # symmetric by definition; round-off removed
            values[name] = float(array) if name == "mass" else array
        invariants = cls(**values)
        invariants.check(fault, rigid_motion)
        return invariants

    def check(self, fault, rigid_motion="refuse") -> None:
        """Refuse a basis that is rank-deficient (in the M inner product) or that contains a rigid-body motion
        of the mesh, which the frame describes already: either leaves the body's mass matrix singular (the latter
        is left to the body with ``rigid_motion="defer"``, which allows it where constraints hold the frame).
        Refuse a rigid-body inertia that no mass distribution has (:func:`~floatframe.components.bodies.inertia_fault`,
        about the centre of mass) and a mass that is not positive."""
        if rigid_motion not in ("refuse", "defer"):
            raise fault(f"rigid_motion must be 'refuse' or 'defer', got {rigid_motion!r}")
        if not self.mass > 0:
            raise fault(f"mass must be > 0 kg, got {self.mass:.6g}")
        inertia = inertia_fault(self.inertia, self.mass, self.center_of_mass)
        if inertia:
            raise fault(inertia)
        scale = np.abs(np.diag(self.mass_reduced)).max()
        smallest = np.linalg.eigvalsh(self.mass_reduced)[0] if scale > 0 else 0.0
        if not smallest > RANK_TOLERANCE * scale:
            raise fault(f"the mode basis is rank-deficient: Psi^T M Psi has the eigenvalue {smallest:.3e}, "
                        f"below {RANK_TOLERANCE:g} of its largest diagonal entry {scale:.3e}; some modes are "
                        f"combinations of others (or zero)")
        if rigid_motion == "refuse":
            message = self.rigid_motion_fault()
            if message:
                raise fault(message)

    def rigid_motion_fault(self) -> str | None:
        """The refusal of a basis that contains a rigid-body motion of the mesh (None if it does not)."""
        # rigid-body motions of the mesh: R = [Phi_t, -x_ref~]; what the modes cannot represent of them keeps
        # the inertia R^T M R - (Psi^T M R)^T M_red^-1 (Psi^T M R) (Schur complement), which must be regular
        length = np.sqrt(max(np.trace(self.inertia), 0.0) / self.mass) if self.mass > 0 else 1.0
        modal_part = np.hstack([self.phit_t_psi.T, -self.xref_tilde_psi.T / length])    # Psi^T M R D
        first_moment = self.mass * rotations.skew(self.center_of_mass) / length
        rigid = np.block([[self.mass * np.eye(3), -first_moment], [-first_moment.T, self.inertia / length ** 2]])
        left = rigid - modal_part.T @ np.linalg.solve(self.mass_reduced, modal_part)
        values = np.linalg.eigvalsh(_symmetric(left))
        if self.mass <= 0 or values[0] < RIGID_TOLERANCE * self.mass:
            return (f"the mode basis contains a rigid-body motion of the mesh (the inertia left to the frame "
                    f"has the eigenvalue {values[0]:.3e} against the mass {self.mass:.3e}): the frame already "
                    f"moves the body rigidly, so the mass matrix would be singular; remove rigid-body modes "
                    f"from the basis (eigenmodes(..., n_rigid_body_modes=6))")
        return None


def _fe_matrix(value, size, what, fault) -> sp.csr_matrix:
    matrix = sp.csr_matrix(value, dtype=float) if sp.issparse(value) else sp.csr_matrix(np.asarray(value, float))
    if matrix.shape != (size, size):
        raise fault(f"{what} has shape {matrix.shape}, expected ({size}, {size}) to match the mode basis")
    if not np.all(np.isfinite(matrix.data)):
        raise fault(f"{what} contains NaN or inf")
    return matrix


def _symmetric(matrix):
    return 0.5 * (matrix + matrix.T)


def _warn_if_not_isotropic(mass: sp.csr_matrix, what: str) -> None:
    """Warn unless every 3 x 3 node block of M is a multiple of I_3 (the velocity terms assume it)."""
    coo = mass.tocoo()
    scale = np.abs(coo.data).max() if coo.nnz else 0.0
    off = np.abs(coo.data[coo.row % 3 != coo.col % 3]).max(initial=0.0)
    blocks = [mass[k::3, k::3] for k in range(3)]
    unequal = max(abs(blocks[0] - blocks[1]).max(), abs(blocks[0] - blocks[2]).max())
    if max(off, unequal) > ISOTROPY_TOLERANCE * scale:
        warnings.warn(f"{what}: the node blocks of the mass matrix are not multiples of the identity (deviation "
                      f"{max(off, unequal) / scale:.2e} of max |M|); the reduced-order velocity terms assume they "
                      f"are, as for solid-element and lumped mass matrices", stacklevel=3)


class ObjectFFRFReducedOrder(FloatingFrameBody):
    """Reduced-order flexible body in the floating frame of reference (see module docstring).

    Parameters
    ----------
    node_numbers : list of 2 nodes or node numbers
        [NodeRigidBodyEP or NodeRigidBodyRxyz of the frame, NodeGenericODE2 with the n_m modal coordinates zeta].
    invariants : ReducedOrderInvariants
        The invariants of the mode basis (``ReducedOrderInvariants.from_fe_matrices``); zeta has the unit
        that makes Psi zeta a displacement in m.
    compute_ffrf_terms : bool, default True
        If False the object adds nothing but its user functions: no mass terms (M_red included), no quadratic
        velocity vector, and also no K_red and D_red. The specification's text keeps stiffness and damping;
        Exudyn 1.13.6 leaves them out (its CMS user functions add them, and a body with them gives the numbers
        of the body without), and floatframe does as Exudyn does.
    modal_products : {"auto", "scalar", "matrix"}, default "auto"
        How the products with the n_m x n_m invariants enter the graph. "scalar": written into the SX graph
        (O(n_m^2) nodes, and CasADi's Jacobian of them costs O(n_m^3)); the compiled low-overhead solver path
        stays open. "matrix": the terms in the modes are one MX Function of matrix products with its
        hand-derived exact Jacobian (:meth:`frame_terms`), O(n_m) SX nodes around it; the system is then an MX
        graph, solved on the sparse path. "auto": "scalar" up to SCALAR_PRODUCTS_LIMIT modes.
    output_variable_modes : (n_mesh_nodes, 6 n_m) array_like or None, default None
        Post-processing modes S, column 6 j + c the component c of mode j
        (:func:`floatframe.fem.stress.post_processing_modes`; Exudyn's outputVariableModeBasis): the mesh-node
        output ``output_variable_type`` is then S_i zeta (6,), Voigt xx, yy, zz, yz, xz, xy in the body frame.
    output_variable_type : {"StressLocal", "StrainLocal"} or None, default None
        What ``output_variable_modes`` give: stress [Pa] or strain [-]; required with them.
    geometric_stiffness : GeometricStiffnessCases or None, default None
        Unit load cases of the mesh (:func:`floatframe.fem.geometric_stiffness_cases`, same n_f as the mode basis):
        the modal rows get sum_k f_k Psi^T K_G,k Psi zeta with the amplitudes f_k of the frame motion
        (:mod:`floatframe.components.geometric_stiffening`; docs/geometric_stiffening.md). None: no stiffening,
        the expression graph of the linear body.
    geometric_stiffness_amplitudes : dict or None, default None
        {interface case name (e.g. "tip force z"): amplitude, a number or a callable(ctx) -> CasADi scalar}; the
        interface cases named here are used, the others left out.
    gravity_moment : {"deformed", "undeformed"}, default "deformed"
        The lever of a mass-proportional load (gravity) on the Euler parameters: "deformed" the deformed body's
        first mass moment m chi + M_PhitPsi zeta (exact in zeta); "undeformed" m chi only, as Exudyn 1.13.6's
        ObjectFFRFreducedOrder takes it (the Jacobian of its DisplacementMassIntegral). The two differ where the
        modes move the centre of mass (M_PhitPsi != 0, e.g. Craig-Bampton modes), not for free-free eigenmodes.

    frame_rate_terms : bool, default True
        With a NodeRigidBodyRxyz frame (Tait-Bryan angles theta, omega_b = G_l(theta) theta_t) the frame's angular
        acceleration alpha = G_l theta_tt + (d G_l / dt) theta_t; False leaves out the second term, as Exudyn 1.13.6's
        ObjectFFRFreducedOrder does (its own FFRF terms; its Python user functions keep it). No effect with Euler
        parameters, for which (d G_l / dt) theta_t = 0.

    n_c = 7 + n_m (6 + n_m with a NodeRigidBodyRxyz frame). Mesh-node outputs and markers use the 3 rows of Psi of
    their nodes only.
    """

    type_name = "ObjectFFRFReducedOrder"

    def __init__(self, node_numbers, invariants: ReducedOrderInvariants, force_user_function=None,
                 mass_matrix_user_function=None, compute_ffrf_terms=True, modal_products="auto",
                 output_variable_modes=None, output_variable_type=None, mass_matrix_jacobian="value", name="",
                 geometric_stiffness=None, geometric_stiffness_amplitudes=None, gravity_moment="deformed",
                 frame_rate_terms=True):
        super().__init__(force_user_function, mass_matrix_user_function, mass_matrix_jacobian, name)
        self.frame_rate_terms = bool(frame_rate_terms)
        if gravity_moment not in ("deformed", "undeformed"):
            raise self.error(f"gravity_moment must be 'deformed' or 'undeformed', got {gravity_moment!r}")
        self.gravity_moment = gravity_moment
        self.node_numbers = list(node_numbers)
        if len(self.node_numbers) != 2:
            raise self.error(f"node_numbers needs exactly 2 nodes (the frame's NodeRigidBodyEP and a NodeGenericODE2 "
                             f"of modal coordinates), got {len(self.node_numbers)}")
        if not isinstance(invariants, ReducedOrderInvariants):
            raise self.error(f"invariants must be ReducedOrderInvariants (ReducedOrderInvariants.from_fe_matrices), "
                             f"got {type(invariants).__name__}")
        self.invariants = invariants
        self.n_modes = invariants.n_modes
        self.n_coordinates = 7 + self.n_modes   # with a NodeRigidBodyRxyz frame 6 + n_m (set in connect)
        self.n_rotation = 4
        self.n_mesh_nodes = invariants.n_mesh_nodes
        self.reference_positions = invariants.reference_positions
        self.mass, self.inertia, self.center_of_mass = invariants.mass, invariants.inertia, invariants.center_of_mass
        tilde_tilde = invariants.psi_tilde_psi_tilde
        self._quadratic_blocks = [[tilde_tilde[a::3, b::3] for b in range(3)] for a in range(3)]   # Q_ab (n_m, n_m)
        if modal_products not in ("auto", "scalar", "matrix"):
            raise self.error(f"modal_products must be 'auto', 'scalar' or 'matrix', got {modal_products!r}")
        self.matrix_form = modal_products == "matrix" or (modal_products == "auto"
                                                           and self.n_modes > SCALAR_PRODUCTS_LIMIT)
        self.compute_ffrf_terms = bool(compute_ffrf_terms)
        self.output_variable_modes, self.output_variable_type = None, None
        if output_variable_modes is not None and np.size(output_variable_modes):
            modes = np.asarray(output_variable_modes, dtype=float)
            if modes.shape != (self.n_mesh_nodes, 6 * self.n_modes):
                raise self.error(f"output_variable_modes must be (n_mesh_nodes, 6 n_modes) = ({self.n_mesh_nodes}, "
                                 f"{6 * self.n_modes}), got {modes.shape}")
            if output_variable_type not in MODE_OUTPUTS:
                raise self.error(f"output_variable_type must be one of {MODE_OUTPUTS} with output_variable_modes, "
                                 f"got {output_variable_type!r}")
            self.output_variable_modes, self.output_variable_type = modes, output_variable_type
            self.mesh_outputs = FloatingFrameBody.mesh_outputs + (output_variable_type,)
        self._ffrf_function = None   # made on first use (ffrf_function)
        self._frame_terms = None     # the ExactFunction of the matrix form, made on first use (frame_terms)
        self.geometric_stiffness = None   # [(kind, index, amplitude)] of the used load cases, or None
        if geometric_stiffness is not None:
            used, matrices = validated_cases(self, geometric_stiffness, geometric_stiffness_amplitudes,
                                             invariants.mode_basis.shape[0])
            basis = invariants.mode_basis
            self.geometric_stiffness = used
            self.geometric_stiffness_reduced = [0.5 * (reduced + reduced.T) for reduced in            # Psi^T K_G,k Psi
                                                (basis.T @ np.asarray(matrix @ basis) for matrix in matrices)]
            self._stiffening_function = None

    def connect(self, system):
        from floatframe.components.rigid_rxyz import NodeRigidBodyRxyz   # imports the markers, which import ffrf
        nodes = [resolve(system, "node", ref, self, f"node_numbers[{i}]") for i, ref in enumerate(self.node_numbers)]
        if not isinstance(nodes[0], (NodeRigidBodyEP, NodeRigidBodyRxyz)):
            raise self.error(f"node_numbers[0] must be a NodeRigidBodyEP or NodeRigidBodyRxyz (the reference frame), "
                             f"got {nodes[0].label}")
        self.n_rotation = 3 if isinstance(nodes[0], NodeRigidBodyRxyz) else 4     # theta: Tait-Bryan or Euler
        self.n_coordinates = 3 + self.n_rotation + self.n_modes
        if not isinstance(nodes[1], NodeGenericODE2):
            raise self.error(f"node_numbers[1] must be a NodeGenericODE2 (modal coordinates), got {nodes[1].label}")
        if nodes[1].n_coordinates != self.n_modes:
            raise self.error(f"{nodes[1].label} has {nodes[1].n_coordinates} coordinates, but the mode basis has "
                             f"{self.n_modes} modes")
        self.connect_frame(system, nodes)
        self.modal_node = nodes[1]

    def check(self, assembled):
        """As :meth:`FloatingFrameBody.check`; a mode basis with a rigid-body motion of the mesh (allowed by
        ``ReducedOrderInvariants.check(..., rigid_motion="defer")``) only where constraint rows on the frame node
        alone fix all its coordinates at the initial state (Exudyn's example: a NodeRigidBodyRxyz frame held by six
        coordinate constraints), as the mass matrix is singular in the frame's directions."""
        super().check(assembled)
        message = self.invariants.rigid_motion_fault()
        if message and not self.frame_held(assembled.initial_matrices()[1]):
            raise self.error(message + "; or hold all coordinates of the frame node by constraints")

    def frame_held(self, constraint_jacobian) -> bool:
        """Whether rows of C_q (m, n) on the frame node's coordinates alone have the rank of their number."""
        jacobian = sp.csr_matrix(constraint_jacobian)
        if not np.all(np.isfinite(jacobian.data)):
            return True     # a parameter without value: not decided here
        jacobian.eliminate_zeros()
        frame = np.asarray(self.rigid_node.coordinate_indices)
        on_frame = np.zeros(jacobian.shape[1], dtype=bool)
        on_frame[frame] = True
        rows = [row for row in range(jacobian.shape[0]) if jacobian.indptr[row + 1] > jacobian.indptr[row]
                and on_frame[jacobian.indices[jacobian.indptr[row]:jacobian.indptr[row + 1]]].all()]
        return bool(rows) and np.linalg.matrix_rank(jacobian[rows][:, frame].toarray()) == frame.size

    # --- kinematics -------------------------------------------------------------------------
    def frame(self, ctx):
        """As :meth:`FloatingFrameBody.frame` (Euler parameters), or for a NodeRigidBodyRxyz frame its Tait-Bryan
        angles theta with omega_b = G_l(theta) theta_t (rigid_rxyz.g_local_rxyz)."""
        node = self.rigid_node
        if self.n_rotation == 4:
            return super().frame(ctx)
        theta, theta_t, g_local = node.angles(ctx), ctx.velocities(node)[3:], node.g_local(ctx)
        return dict(position=node.position(ctx), rotation=node.rotation_matrix(ctx), g_local=g_local, theta=theta,
                    theta_t=theta_t, omega=g_local @ theta_t)

    def reference_mesh_positions(self, mesh_nodes=None) -> np.ndarray:
        """As :meth:`FloatingFrameBody.reference_mesh_positions`, for either frame node."""
        if self.n_rotation == 4:
            return super().reference_mesh_positions(mesh_nodes)
        frame_reference = self.rigid_node.reference_coordinates
        rotation = np.array(rotations.rotation_matrix_from_rot_xyz(ca.DM(frame_reference[3:])))
        local = self.reference_positions.reshape(-1, 3)
        return frame_reference[:3] + (local if mesh_nodes is None else local[mesh_nodes]) @ rotation.T

    def modal(self, ctx, which: str):
        """zeta, zeta_t or zeta_tt (n_m,)."""
        return {"q": ctx.coordinates, "v": ctx.velocities, "a": ctx.accelerations}[which](self.modal_node)

    def mesh_node_local(self, ctx, mesh_node: int, which: str):
        """u_f = Psi_i zeta (or its rates) with the 3 rows Psi_i of the mesh node."""
        rows = self.invariants.mode_basis[3 * mesh_node:3 * mesh_node + 3]
        return ca.DM(rows) @ self.modal(ctx, which)

    def local_displacements(self, ctx, which: str = "q"):
        """Psi zeta (or its rates) as a 3 x n_mesh_nodes matrix."""
        return ca.reshape(ca.DM(self.invariants.mode_basis) @ self.modal(ctx, which), 3, self.n_mesh_nodes)

    def mesh_node_output(self, ctx, mesh_node: int, variable: str):
        """As :meth:`FloatingFrameBody.mesh_node_output`, and the stress or strain of the output-variable modes
        (6,) S_i zeta where they are given."""
        if variable in MODE_OUTPUTS and variable != self.output_variable_type:
            raise self.error(f"mesh-node output '{variable}' needs output_variable_modes of that type (Exudyn: "
                             f"outputVariableModeBasis, from FEMinterface.ComputePostProcessingModes)")
        if variable in MODE_OUTPUTS:
            rows = self.output_variable_modes[mesh_node].reshape(self.n_modes, 6).T     # (6, n_m)
            return ca.DM(rows) @ self.modal(ctx, "q")
        return super().mesh_node_output(ctx, mesh_node, variable)

    def weighted_local_displacement(self, ctx, mesh_nodes, weights):
        """(sum_k w_k Psi_k) zeta, with the weighted rows summed once."""
        basis = self.invariants.mode_basis.reshape(self.n_mesh_nodes, 3, self.n_modes)
        rows = np.einsum("k,kij->ij", np.asarray(weights, dtype=float), basis[np.asarray(mesh_nodes, dtype=int)])
        return ca.DM(rows) @ self.modal(ctx, "q")

    def weighted_moment(self, ctx, mesh_nodes, weights, levers, which: str = "q"):
        """(sum_k w_k lever_k~ Psi_k) zeta (or its rates), with the weighted rows summed once."""
        basis = self.invariants.mode_basis.reshape(self.n_mesh_nodes, 3, self.n_modes)[np.asarray(mesh_nodes, dtype=int)]
        skews = np.array([rotations.skew(lever) for lever in np.asarray(levers, dtype=float)])
        rows = np.einsum("k,kij,kjm->im", np.asarray(weights, dtype=float), skews, basis)
        return ca.DM(rows) @ self.modal(ctx, which)

    def add_mass_proportional_load(self, ctx, acceleration):
        """Generalized force of the body force rho g, g [m/s^2] global (gravity); see
        :meth:`mass_proportional_force`, its moment as ``gravity_moment`` says."""
        ctx.add_force(self.coordinate_indices, self.mass_proportional_force(
            ctx, acceleration, deformed_moment=self.gravity_moment == "deformed"))

    def mass_proportional_force(self, ctx, acceleration, deformed_moment=True):
        """Generalized force (n_c,) of the body force rho g, g [m/s^2] global, from the invariants: m g on the
        frame position, -G_local^T S^T A^T g on the Euler parameters (S = m chi~ + M_PhitPsiTilde (zeta x I_3),
        exact in zeta: the full body's load projected with H) and M_PhitPsi^T A^T g on the modal coordinates.

        ``deformed_moment=False`` keeps only S = m chi~, the moment of the undeformed centre of mass, as
        Exudyn's UFforceFFRFreducedOrder computes it."""
        inv = self.invariants
        frame = self.frame(ctx)
        local = frame["rotation"].T @ acceleration                                              # A^T g
        s = inv.mass * ca.DM(rotations.skew(inv.center_of_mass))                                # S
        if deformed_moment:
            s = s + ca.DM(inv.phit_t_psi_tilde) @ ca.kron(self.modal(ctx, "q"), ca.DM.eye(3))
        return ca.vertcat(inv.mass * acceleration, -frame["g_local"].T @ (s.T @ local), ca.DM(inv.phit_t_psi).T @ local)

    def mass_proportional_force_function(self, deformed_moment=True) -> ca.Function:
        """(q, g) -> :meth:`mass_proportional_force` (n_c,), q the object's coordinates without reference values."""
        ctx, q_object, _ = object_context(self)
        gravity = ca.SX.sym("g", 3)
        return ca.Function(f"{self.type_name}{self.index}_mass_proportional", [q_object, gravity],
                           [self.mass_proportional_force(ctx, gravity, deformed_moment)])

    # --- equations --------------------------------------------------------------------------
    def add_terms(self, ctx):
        modal = self.modal_node.coordinate_indices
        matrix = self.matrix_form and self.compute_ffrf_terms
        ctx.add_lhs(self.coordinate_indices, self.generalized_terms(ctx, self.accelerations(ctx), linear=matrix,
                                                                    matrix=matrix))
        if self.compute_ffrf_terms and not matrix:
            ctx.add_linear(modal, modal, sp.csr_matrix(self.invariants.mass_reduced), "a")           # M_red zeta_tt
            ctx.add_linear(modal, modal, sp.csr_matrix(self.invariants.stiffness_reduced), "q")      # K_red zeta
            if self.invariants.damping_reduced is not None:
                ctx.add_linear(modal, modal, sp.csr_matrix(self.invariants.damping_reduced), "v")    # D_red zeta_t
        if self.geometric_stiffness is not None:                     # sum_k f_k Psi^T K_G,k Psi zeta
            ctx.add_lhs(modal, stiffening_terms(self, ctx, self.geometric_stiffness, self.geometric_stiffness_reduced,
                                                self.modal(ctx, "q"), 0 if self.matrix_form else self.n_modes))

    def ffrf_function(self) -> ca.Function:
        """(q, q_t) -> (M, f) of the object alone (n_c,), without user functions: its mass matrix (n_c, n_c) and
        f = f_v - [0, 0, K_red zeta + D_red zeta_t], the quadratic velocity vector and the elastic and damping forces,
        so that the equations of motion are M q_tt = f + (other forces). q without reference values."""
        if self._ffrf_function is None:
            ctx, q_object, v_object = object_context(self)
            acceleration = ctx.object_accelerations
            terms = self.generalized_terms(ctx, acceleration, user_functions=False, ffrf_terms=True)
            mass = ca.jacobian(terms, acceleration)
            force = -ca.substitute(terms, acceleration, ca.SX.zeros(acceleration.numel()))
            self._ffrf_function = ca.Function(f"{self.type_name}{self.index}_ffrf", [q_object, v_object],
                                              [ca.densify(mass), force])
        return self._ffrf_function

    def frame_terms(self, linear: bool = True) -> ExactFunction:
        """The terms in the modes as one Function of matrix products, with its hand-derived exact Jacobian.

        (omega, alpha, a_l = A^T a_t, zeta, zeta_t, zeta_tt) -> [e_t (3); e_r (3); e_f (n_m)], the brackets of the
        module docstring's rows (row t = m a_t + A e_t, row r = -G^T e_r, row f = e_f), plus M_red zeta_tt
        + K_red zeta + D_red zeta_t in e_f if ``linear``. With X_j, T_j the 3 x 3 blocks j of M_xPsi~, M_PhitPsi~,
        P_a = rows a::3 of M_Psi~Psi, Q_ab the blocks of M_Psi~Psi~, y_ab = Q_ab zeta, y'_ab = Q_ab zeta_t:

            e_t = Phi zeta_tt - S alpha - omega~ S omega + 2 omega~ Phi zeta_t
            e_r = S^T a_l + B zeta_tt - J alpha - omega~ J omega - 2 (X(zeta_t) + C) omega,  C_ab = zeta^T Q_ab zeta_t
            e_f = Phi^T a_l - B^T alpha - c - 2 sum_b omega_b P_b^T zeta_t,  c_j = omega^T X_j omega
                  + sum_ab omega_a omega_b (y_ab)_j

        with X(z) = sum_j z_j X_j. Each product with an n_m x n_m invariant is one MX node, so the graph does not
        grow with n_m; evaluating the Jacobian costs O(n_m^2) (dense n_m x n_m blocks d e_f / d zeta, zeta_t).
        """
        if self._frame_terms is None:
            self._frame_terms = {}
        if linear in self._frame_terms:
            return self._frame_terms[linear]
        inv, n = self.invariants, self.n_modes
        omega, alpha, a_local = (ca.MX.sym(name, 3) for name in ("omega", "alpha", "a_local"))
        zeta, zeta_t, zeta_tt = (ca.MX.sym(name, n) for name in ("zeta", "zeta_t", "zeta_tt"))
        phi, x_psi = ca.DM(inv.phit_t_psi), ca.DM(inv.xref_tilde_psi)          # Phi (3, n), M_xPsi (3, n)
        t_blocks, x_blocks = (k.reshape(3, n, 3) for k in (inv.phit_t_psi_tilde, inv.xref_tilde_psi_tilde))

        def combination(blocks, z):        # sum_j z_j K_j (3, 3)
            return ca.reshape(ca.DM(blocks.transpose(2, 0, 1).reshape(9, n)) @ z, 3, 3)

        def columns(blocks, v, transposed=False):   # [K_j v]_j or [K_j^T v]_j (3, n)
            stacked = blocks.transpose(1, 2, 0) if transposed else blocks.transpose(1, 0, 2)
            return ca.reshape(ca.DM(stacked.reshape(3 * n, 3)) @ v, 3, n)

        # the n_m x n_m invariants side by side, [Q_00, Q_01, ..., Q_22] (n, 9 n) and [P_0^T, P_1^T, P_2^T] (n, 3 n):
        # Q [I_9 (x) z] = [Q_ab z] and Q [v (x) I] = sum_k v_k Q_k (and so for P) are one product each
        tilde_tilde = inv.psi_tilde_psi_tilde
        q_side = ca.DM(np.hstack([tilde_tilde[a::3, b::3] for a in range(3) for b in range(3)]))
        p_side = ca.DM(np.hstack([inv.psi_tilde_psi[a::3].T for a in range(3)]))
        eye_n = ca.DM.eye(n)
        y, y_t = (q_side @ ca.kron(ca.DM.eye(9), z) for z in (zeta, zeta_t))   # column 3a + b: y_ab, y'_ab
        s = inv.mass * ca.DM(rotations.skew(inv.center_of_mass)) + combination(t_blocks, zeta)      # S
        b_modal = (p_side @ ca.kron(ca.DM.eye(3), zeta)).T                      # Z^T M_Psi~Psi, row a: (P_a^T zeta)^T
        b = x_psi + b_modal                                                     # B
        x_zeta = combination(x_blocks, zeta)
        j = ca.DM(inv.inertia) + x_zeta + x_zeta.T + ca.reshape(y.T @ zeta, 3, 3).T   # J
        c = ca.reshape(y.T @ zeta_t, 3, 3)                                      # C_ab = y_ba . zeta_t
        x_zeta_t = combination(x_blocks, zeta_t)
        omega_tilde = rotations.skew(omega)
        centrifugal = columns(x_blocks, omega).T @ omega + y @ ca.vec(omega @ omega.T)
        w = p_side @ ca.kron(ca.DM.eye(3), zeta_t)                              # column b: P_b^T zeta_t
        e_t = phi @ zeta_tt - s @ alpha - omega_tilde @ (s @ omega) + 2 * omega_tilde @ (phi @ zeta_t)
        e_r = (s.T @ a_local + b @ zeta_tt - j @ alpha - omega_tilde @ (j @ omega) - 2 * (x_zeta_t + c) @ omega)
        e_f = phi.T @ a_local - b.T @ alpha - centrifugal - 2 * w @ omega

        def sym_rows(v):   # [sum_b v_b (y_ab + y_ba)^T]_a (3, n): d (Z^T M_Psi~Psi~ Z v) / d zeta
            return ca.vertcat(*[(sum(v[k] * (y[:, 3 * a + k] + y[:, 3 * k + a]) for k in range(3))).T
                                for a in range(3)])

        def j_rows(v):     # d (J v) / d zeta (3, n)
            return columns(x_blocks, v) + columns(x_blocks, v, transposed=True) + sym_rows(v)

        # the Jacobian, block by block in the rows e_t, e_r, e_f (with d(omega~ v)/d omega = -v~):
        # d/d omega: (S omega)~ - omega~ S - 2 (Phi zeta_t)~;  (J omega)~ - omega~ J - 2 (X(zeta_t) + C);
        #            -(d(J omega)/d zeta)^T - 2 [P_b^T zeta_t]_b  (d c / d omega is the transpose of d(J omega)/d zeta)
        d_omega = ca.vertcat(rotations.skew(s @ omega) - omega_tilde @ s - 2 * rotations.skew(phi @ zeta_t),
                             rotations.skew(j @ omega) - omega_tilde @ j - 2 * (x_zeta_t + c),
                             -j_rows(omega).T - 2 * w)
        d_alpha = ca.vertcat(-s, -j, -b.T)
        d_a_local = ca.vertcat(ca.DM(3, 3), s.T, phi.T)
        # d/d zeta, column j: -T_j alpha - omega~ T_j omega;  T_j^T a_l + P_j zeta_tt - d(J alpha)/d zeta_j
        #            - omega~ d(J omega)/d zeta_j - 2 d(C omega)/d zeta_j;  -sum_a alpha_a P_a^T - sum_ab w_a w_b Q_ab
        c_omega_by_zeta = ca.vertcat(*[(y_t[:, 3 * a:3 * a + 3] @ omega).T for a in range(3)])   # sum_b w_b y'_ab^T
        d_zeta = ca.vertcat(
            -columns(t_blocks, alpha) - omega_tilde @ columns(t_blocks, omega),
            columns(t_blocks, a_local, transposed=True) + ca.reshape(zeta_tt.T @ p_side, n, 3).T - j_rows(alpha)
            - omega_tilde @ j_rows(omega) - 2 * c_omega_by_zeta,
            -p_side @ ca.kron(alpha, eye_n) - q_side @ ca.kron(ca.vec(omega @ omega.T), eye_n))
        # d/d zeta_t: 2 omega~ Phi;  -2 ([X_j omega]_j + d(C omega)/d zeta_t);  -2 sum_b omega_b P_b^T
        c_omega_by_zeta_t = ca.vertcat(*[(y[:, [3 * k + a for k in range(3)]] @ omega).T for a in range(3)])
        d_zeta_t = ca.vertcat(2 * omega_tilde @ phi, -2 * (columns(x_blocks, omega) + c_omega_by_zeta_t),
                              -2 * p_side @ ca.kron(omega, eye_n))
        # d/d zeta_tt: Phi; B; 0
        d_zeta_tt = ca.vertcat(phi, b, ca.DM(n, n))
        if linear:
            e_f += ca.DM(inv.mass_reduced) @ zeta_tt + ca.DM(inv.stiffness_reduced) @ zeta
            d_zeta += ca.vertcat(ca.DM(6, n), ca.DM(inv.stiffness_reduced))
            d_zeta_tt += ca.vertcat(ca.DM(6, n), ca.DM(inv.mass_reduced))
            if inv.damping_reduced is not None:
                e_f += ca.DM(inv.damping_reduced) @ zeta_t
                d_zeta_t += ca.vertcat(ca.DM(6, n), ca.DM(inv.damping_reduced))
        self._frame_terms[linear] = ExactFunction(
            f"{self.type_name}{self.index}_frame_terms", [omega, alpha, a_local, zeta, zeta_t, zeta_tt],
            ca.vertcat(e_t, e_r, e_f), [d_omega, d_alpha, d_a_local, d_zeta, d_zeta_t, d_zeta_tt])
        return self._frame_terms[linear]

    def generalized_terms(self, ctx, acceleration, linear=True, user_functions=True, ffrf_terms=None, matrix=False):
        """Left-hand side of the object's equations for the given accelerations (n_c,).

        With ``linear=False`` the constant terms K_red zeta, D_red zeta_t and M_red zeta_tt are left out
        (``add_terms`` declares them separately as linear terms); ``user_functions=False`` leaves out the user
        functions, ``ffrf_terms`` overrides ``compute_ffrf_terms``; ``matrix=True`` takes the terms from
        :meth:`frame_terms`, an external of ``ctx``, instead of writing them into the SX graph.
        """
        inv = self.invariants
        frame = self.frame(ctx)
        rotation, g_local, omega = frame["rotation"], frame["g_local"], frame["omega"]
        zeta, zeta_t = self.modal(ctx, "q"), self.modal(ctx, "v")
        r = 3 + self.n_rotation                                                  # first modal row
        a_t, theta_tt, zeta_tt = acceleration[:3], acceleration[3:r], acceleration[r:]
        terms = ca.SX.zeros(self.n_coordinates)
        ffrf = self.compute_ffrf_terms if ffrf_terms is None else ffrf_terms
        if self.n_rotation == 4:     # G_l is linear in theta: G_l(theta)_t theta_t = G_l(theta_t) theta_t
            alpha = g_local @ theta_tt + rotations.g_local(frame["theta_t"]) @ frame["theta_t"]
        elif self.frame_rate_terms:  # Tait-Bryan angles: + (d G_l / dt) theta_t
            alpha = g_local @ theta_tt + g_local_rate_rxyz(frame["theta"], frame["theta_t"])
        else:
            alpha = g_local @ theta_tt
        if ffrf and matrix:
            e = ctx.external(self.frame_terms(linear), [omega, alpha, rotation.T @ a_t, zeta, zeta_t, zeta_tt])
            terms[:3] += inv.mass * a_t + rotation @ e[:3]                       # m a_t + A e_t
            terms[3:r] += -g_local.T @ e[3:6]                                    # -G^T e_r
            terms[r:] += e[6:]
        elif ffrf:
            eye = ca.DM.eye(3)
            z = ca.kron(zeta, eye)                                               # Z = zeta (x) I (3 n_m, 3)
            zeta_t_omega = ca.kron(zeta_t, omega)                                # (zeta_t (x) I) omega
            # y[a][b] = Q_ab zeta with Q_ab[j, k] = M_Psi~Psi~[3j + a, 3k + b]: the nine products that all terms
            # quadratic in zeta share (Z^T M_Psi~Psi~ Z, its centrifugal and Coriolis parts), made once
            y = [[ca.DM(self._quadratic_blocks[a][b]) @ zeta for b in range(3)] for a in range(3)]
            x_tilde_z = ca.DM(inv.xref_tilde_psi_tilde) @ z                      # M_xPsi~ Z
            s = inv.mass * ca.DM(rotations.skew(inv.center_of_mass)) + ca.DM(inv.phit_t_psi_tilde) @ z   # S
            b = ca.DM(inv.xref_tilde_psi) + z.T @ ca.DM(inv.psi_tilde_psi)      # B
            z_tilde_tilde_z = ca.vertcat(*[ca.horzcat(*[ca.dot(zeta, y[a][b]) for b in range(3)]) for a in range(3)])
            j = ca.DM(inv.inertia) + x_tilde_z + x_tilde_z.T + z_tilde_tilde_z   # J
            phit_psi = ca.DM(inv.phit_t_psi)
            omega_tilde = rotations.skew(omega)
            local_a_t = rotation.T @ a_t
            terms[:3] += inv.mass * a_t + rotation @ (phit_psi @ zeta_tt - s @ alpha - omega_tilde @ (s @ omega)
                                                      + 2 * omega_tilde @ (phit_psi @ zeta_t))
            # (M_xPsi~ + Z^T M_Psi~Psi~)(zeta_t (x) omega); row a of the second part is sum_b omega_b zeta^T Q_ab
            # zeta_t = sum_b omega_b (Q_ba zeta) . zeta_t, as M_Psi~Psi~ is symmetric
            coriolis_r = ca.DM(inv.xref_tilde_psi_tilde) @ zeta_t_omega + ca.vertcat(
                *[sum(omega[b] * ca.dot(y[b][a], zeta_t) for b in range(3)) for a in range(3)])
            terms[3:r] += -g_local.T @ (s.T @ local_a_t + b @ zeta_tt - j @ alpha - omega_tilde @ (j @ omega)
                                        - 2 * coriolis_r)
            # (I (x) omega)^T (M_xPsi~^T + M_Psi~Psi~ Z) omega; the second part is sum_ab omega_a omega_b Q_ab zeta
            centrifugal = (ca.reshape(ca.DM(inv.xref_tilde_psi_tilde).T @ omega, 3, self.n_modes).T @ omega
                           + sum(omega[a] * omega[b] * y[a][b] for a in range(3) for b in range(3)))
            terms[r:] += (phit_psi.T @ local_a_t - b.T @ alpha - centrifugal
                          - 2 * ca.DM(inv.psi_tilde_psi).T @ zeta_t_omega)
            if linear:
                terms[r:] += ca.DM(inv.mass_reduced) @ zeta_tt + ca.DM(inv.stiffness_reduced) @ zeta
                if inv.damping_reduced is not None:
                    terms[r:] += ca.DM(inv.damping_reduced) @ zeta_t
        if user_functions:
            terms += self._user_terms(ctx, acceleration)
        return terms


def g_local_rate_rxyz(theta, theta_t):
    """(d G_l / dt) theta_t (3,) of Tait-Bryan x-y-z angles theta at rates theta_t (rigid_rxyz.g_local_rxyz)."""
    from floatframe.components.rigid_rxyz import g_local_rxyz
    angles, rates = ca.SX.sym("theta", 3), ca.SX.sym("theta_t", 3)
    rate = ca.jtimes(g_local_rxyz(angles) @ rates, angles, rates)
    return ca.substitute(rate, ca.vertcat(angles, rates), ca.vertcat(theta, theta_t))


def object_context(body) -> tuple[Context, ca.SX, ca.SX]:
    """A context in which only the coordinates of ``body`` are symbols: (ctx, q_object, v_object), each (n_c,).

    Used to evaluate a body's own terms outside the assembled system (e.g. the numbers of Exudyn's CMS user
    functions). The body must be connected (added to an assembled system).
    """
    indices = body.coordinate_indices
    size = int(indices.max()) + 1
    q_object, v_object = ca.SX.sym("q", indices.size), ca.SX.sym("v", indices.size)
    q, v, a = ca.SX.zeros(size), ca.SX.zeros(size), ca.SX.zeros(size)
    a_object = ca.SX.sym("a", indices.size)
    for vector, values in ((q, q_object), (v, v_object), (a, a_object)):
        for row, index in enumerate(indices):
            vector[int(index)] = values[row]
    reference = np.zeros(size)
    reference[indices] = np.concatenate([node.reference_coordinates for node in body.object_nodes])
    ctx = Context(t=ca.SX.sym("t"), q=q, v=v, a=a, lam=ca.SX.sym("lam", 0), q_reference=reference)
    ctx.object_accelerations = a_object
    return ctx, q_object, v_object


@checked_keywords(forwards_to=ObjectFFRFReducedOrder)
def add_reduced_ffrf_body(system, node_positions, mass_matrix, stiffness_matrix, modes, damping_matrix=None,
                          rayleigh=(0.0, 0.0), position=(0.0, 0.0, 0.0), euler_parameters=(1.0, 0.0, 0.0, 0.0),
                          velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0), name="", **options):
    """Add the frame node, the modal node and the ObjectFFRFReducedOrder; returns the body.

    ``node_positions`` (N, 3) body-fixed reference positions [m]; ``mass_matrix``, ``stiffness_matrix``
    (3N, 3N) sparse FE matrices; ``modes`` a :class:`floatframe.fem.ModeBasis` or an array Psi (3N, n_m)
    without rigid-body modes; damping as in :meth:`ReducedOrderInvariants.from_fe_matrices`. Pose and
    initial motion of the frame as in :func:`floatframe.components.ffrf.add_ffrf_body`; the modal
    coordinates start at zero. ``options`` go to :class:`ObjectFFRFReducedOrder`. No reference
    conditions are needed: the modes contain no rigid-body motion (checked).
    """
    invariants = ReducedOrderInvariants.from_fe_matrices(
        mass_matrix, stiffness_matrix, modes, node_positions, damping_matrix, rayleigh,
        what=f"ObjectFFRFReducedOrder '{name}'" if name else "ObjectFFRFReducedOrder")
    theta = np.asarray(euler_parameters, dtype=float)
    theta_t = rotations.euler_parameters_t(angular_velocity, theta)
    rigid = system.add(NodeRigidBodyEP(np.concatenate([position, theta]),
                                       initial_velocities=np.concatenate([velocity, theta_t]),
                                       name=f"{name} frame" if name else ""))
    modal = system.add(NodeGenericODE2(np.zeros(invariants.n_modes), name=f"{name} modes" if name else ""))
    body = ObjectFFRFReducedOrder([rigid, modal], invariants, name=name, **options)
    system.add(body)
    return body
