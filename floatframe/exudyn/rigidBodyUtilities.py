"""Exudyn's ``rigidBodyUtilities``: rotation parameters, homogeneous transformations and rigid-body inertia.

The rotation maths lives in :mod:`floatframe.rotations` (NumPy and CasADi); the functions here give it
Exudyn's names and NumPy results. Conventions as in Exudyn: a rotation matrix A maps body-fixed
(local) vectors to global ones; Euler parameters are scalar first, [theta0, theta1, theta2, theta3];
Tait-Bryan angles [a0, a1, a2] give A = A_x(a0) A_y(a1) A_z(a2); a homogeneous transformation is the
4x4 matrix [[A, r], [0, 1]].
"""
from __future__ import annotations

import warnings
from types import ModuleType

import numpy as np

from floatframe import rotations
from floatframe.exudyn import graphics
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._unknown import module_getattr

eulerParameters0 = [1.0, 0.0, 0.0, 0.0]


def _array(value, shape, owner, what) -> np.ndarray:
    array = np.asarray(value, dtype=float)
    if array.shape != shape:
        raise ExudynLayerError(f"{owner}: {what} must have shape {shape}, got {array.shape}")
    return array


# --- vectors and skew matrices ----------------------------------------------------------------------
def Skew(vector) -> np.ndarray:
    """3 x 3 matrix with Skew(a) @ b = a x b."""
    return np.asarray(rotations.skew(np.asarray(vector, dtype=float)), dtype=float)


def Skew2Vec(skew) -> np.ndarray:
    """The vector a of Skew(a) (3 x 3 input), or [u, a] of the 4 x 4 matrix [[Skew(a), u], [0, 0]]."""
    matrix = np.asarray(skew, dtype=float)
    if matrix.shape not in ((3, 3), (4, 4)):
        raise ExudynLayerError(f"Skew2Vec: expected a 3 x 3 or 4 x 4 matrix, got shape {matrix.shape}")
    axial = np.array([matrix[2, 1], matrix[0, 2], matrix[1, 0]])
    return axial if matrix.shape == (3, 3) else np.concatenate([matrix[:3, 3], axial])


def ComputeSkewMatrix(v) -> np.ndarray:
    """Skew matrices of the 3-vectors stacked in v: a 3n vector gives (3n x 3), a (3n x m) matrix
    gives (3n x 3m) (column j of v in columns 3j..3j+2)."""
    array = np.asarray(v, dtype=float)
    columns = array.reshape(-1, 1) if array.ndim == 1 else array
    if columns.ndim != 2 or columns.shape[0] % 3:
        raise ExudynLayerError(f"ComputeSkewMatrix: expected 3n entries per column, got shape {array.shape}")
    n = columns.shape[0] // 3
    result = np.zeros((3 * n, 3 * columns.shape[1]))
    for j in range(columns.shape[1]):
        for i in range(n):
            result[3 * i:3 * i + 3, 3 * j:3 * j + 3] = Skew(columns[3 * i:3 * i + 3, j])
    return result


def ComputeOrthonormalBasisVectors(vector0) -> list:
    """[v, n1, n2]: v = vector0 / |vector0| and two unit normals with v x n1 = n2 (any basis for a zero vector)."""
    v = _array(vector0, (3,), "ComputeOrthonormalBasisVectors", "vector0")
    length = np.linalg.norm(v)
    if length == 0:
        return [v, np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])]
    v = v / length
    # Start from the x axis unless v is close to it (the same choice as Exudyn, so the bases agree).
    n1 = np.array([0.0, 1.0, 0.0]) if abs(v[0]) > 0.5 and abs(v[1]) < 0.1 and abs(v[2]) < 0.1 \
        else np.array([1.0, 0.0, 0.0])
    n1 = n1 - (n1 @ v) * v
    n1 /= np.linalg.norm(n1)
    return [v, n1, np.cross(v, n1)]


def ComputeOrthonormalBasis(vector0) -> np.ndarray:
    """Rotation matrix whose columns are :func:`ComputeOrthonormalBasisVectors` (first column along vector0)."""
    return np.column_stack(ComputeOrthonormalBasisVectors(vector0))


def GramSchmidt(vector0, vector1) -> list:
    """[v0, v1, v0 x v1]: vector0 normalised, vector1 made orthogonal to it and normalised."""
    v0 = _array(vector0, (3,), "GramSchmidt", "vector0")
    v1 = _array(vector1, (3,), "GramSchmidt", "vector1")
    v0 = v0 / np.linalg.norm(v0)
    v1 = v1 / np.linalg.norm(v1)
    v1 = v1 - (v1 @ v0) * v0
    v1 /= np.linalg.norm(v1)
    return [v0, v1, np.cross(v0, v1)]


# --- Euler parameters -------------------------------------------------------------------------------
def EulerParameters2G(eulerParameters) -> np.ndarray:
    """G (3 x 4): global angular velocity = G theta_t."""
    return np.asarray(rotations.g_global(np.asarray(eulerParameters, dtype=float)), dtype=float)


def EulerParameters2GLocal(eulerParameters) -> np.ndarray:
    """G_local (3 x 4): body-fixed angular velocity = G_local theta_t."""
    return np.asarray(rotations.g_local(np.asarray(eulerParameters, dtype=float)), dtype=float)


def EulerParameters2RotationMatrix(eulerParameters) -> np.ndarray:
    """Rotation matrix (3 x 3) of Euler parameters [theta0, theta1, theta2, theta3] (scalar first)."""
    return np.asarray(rotations.rotation_matrix(np.asarray(eulerParameters, dtype=float)), dtype=float)


def RotationMatrix2EulerParameters(rotationMatrix) -> np.ndarray:
    """Unit Euler parameters (scalar first, theta0 >= 0) of a rotation matrix."""
    return rotations.euler_parameters_from_rotation_matrix(rotationMatrix)


def AngularVelocity2EulerParameters_t(angularVelocity, eulerParameters) -> np.ndarray:
    """theta_t of a global angular velocity [rad/s] for unit Euler parameters."""
    return rotations.euler_parameters_t(angularVelocity, eulerParameters)


# --- rotation vector --------------------------------------------------------------------------------
def RotationVector2RotationMatrix(rotationVector) -> np.ndarray:
    """Rotation matrix of a rotation vector (angle |v| [rad] about v / |v|)."""
    return rotations.rotation_matrix_from_rotation_vector(_array(rotationVector, (3,), "RotationVector2RotationMatrix",
                                                                 "rotationVector"))


def RotationMatrix2RotationVector(rotationMatrix) -> np.ndarray:
    """Rotation vector (angle in [0, pi]) of a rotation matrix."""
    return rotations.rotation_vector_from_rotation_matrix(
        _array(rotationMatrix, (3, 3), "RotationMatrix2RotationVector", "rotationMatrix"))


def ComputeRotationAxisFromRotationVector(rotationVector) -> np.ndarray:
    """Unit axis v / |v| of a rotation vector (zeros for v = 0)."""
    v = _array(rotationVector, (3,), "ComputeRotationAxisFromRotationVector", "rotationVector")
    angle = np.linalg.norm(v)
    return np.zeros(3) if angle == 0 else v / angle


# --- Tait-Bryan angles (consecutive rotations about x, y, z) -----------------------------------------
def RotXYZ2RotationMatrix(rot) -> np.ndarray:
    """Rotation matrix A = A_x A_y A_z of Tait-Bryan angles [rad]."""
    return rotations.rotation_matrix_from_rot_xyz(_array(rot, (3,), "RotXYZ2RotationMatrix", "rot"))


def RotationMatrix2RotXYZ(rotationMatrix) -> np.ndarray:
    """Tait-Bryan angles [rad] of a rotation matrix (second angle in [-pi/2, pi/2])."""
    return rotations.rot_xyz_from_rotation_matrix(_array(rotationMatrix, (3, 3), "RotationMatrix2RotXYZ",
                                                         "rotationMatrix"))


def RotXYZ2G(rot) -> np.ndarray:
    """G (3 x 3): global angular velocity = G rot_t."""
    return rotations.rot_xyz_g_global(_array(rot, (3,), "RotXYZ2G", "rot"))


def RotXYZ2GLocal(rot) -> np.ndarray:
    """G_local (3 x 3): body-fixed angular velocity = G_local rot_t."""
    return rotations.rot_xyz_g_local(_array(rot, (3,), "RotXYZ2GLocal", "rot"))


def AngularVelocity2RotXYZ_t(angularVelocity, rotation) -> np.ndarray:
    """Time derivatives of the Tait-Bryan angles for a global angular velocity [rad/s]."""
    angles = _array(rotation, (3,), "AngularVelocity2RotXYZ_t", "rotation")
    if abs(np.cos(angles[1])) < 1e-12:
        raise ExudynLayerError("AngularVelocity2RotXYZ_t: singular for rotation[1] = +-pi/2 (gimbal lock)")
    return rotations.rot_xyz_t(angularVelocity, angles)


def RotXYZ2EulerParameters(alpha) -> np.ndarray:
    """Euler parameters (scalar first) of Tait-Bryan angles [rad]."""
    return rotations.euler_parameters_from_rot_xyz(_array(alpha, (3,), "RotXYZ2EulerParameters", "alpha"))


# --- elementary rotations ---------------------------------------------------------------------------
def RotationMatrixX(angleRad) -> np.ndarray:
    """Rotation matrix (3 x 3) about the first axis by angleRad [rad]."""
    return rotations.rotation_matrix_x(float(angleRad))


def RotationMatrixY(angleRad) -> np.ndarray:
    """Rotation matrix (3 x 3) about the second axis by angleRad [rad]."""
    return rotations.rotation_matrix_y(float(angleRad))


def RotationMatrixZ(angleRad) -> np.ndarray:
    """Rotation matrix (3 x 3) about the third axis by angleRad [rad]."""
    return rotations.rotation_matrix_z(float(angleRad))


def RotationMatrix2D(angleRad) -> np.ndarray:
    """Planar rotation matrix (2 x 2) by angleRad [rad]."""
    return RotationMatrixZ(angleRad)[:2, :2]


# --- homogeneous transformations (4 x 4) ------------------------------------------------------------
def HomogeneousTransformation(A, r) -> np.ndarray:
    """T = [[A, r], [0, 1]] from a rotation matrix A and a translation r."""
    return rotations.homogeneous_transformation(_array(A, (3, 3), "HomogeneousTransformation", "A"),
                                                _array(r, (3,), "HomogeneousTransformation", "r"))


def HT0() -> np.ndarray:
    """The identity transformation."""
    return np.eye(4)


def HTtranslate(r) -> np.ndarray:
    """Pure translation by r."""
    return HomogeneousTransformation(np.eye(3), r)


def HTtranslateX(x) -> np.ndarray:
    return HTtranslate([x, 0.0, 0.0])


def HTtranslateY(y) -> np.ndarray:
    return HTtranslate([0.0, y, 0.0])


def HTtranslateZ(z) -> np.ndarray:
    return HTtranslate([0.0, 0.0, z])


def HTrotateX(angle) -> np.ndarray:
    """Pure rotation about the first axis [rad]."""
    return HomogeneousTransformation(RotationMatrixX(angle), np.zeros(3))


def HTrotateY(angle) -> np.ndarray:
    return HomogeneousTransformation(RotationMatrixY(angle), np.zeros(3))


def HTrotateZ(angle) -> np.ndarray:
    return HomogeneousTransformation(RotationMatrixZ(angle), np.zeros(3))


def HT2translation(T) -> np.ndarray:
    """Translation r of T = [[A, r], [0, 1]]."""
    return _array(T, (4, 4), "HT2translation", "T")[:3, 3]


def HT2rotationMatrix(T) -> np.ndarray:
    """Rotation matrix A of T = [[A, r], [0, 1]]."""
    return _array(T, (4, 4), "HT2rotationMatrix", "T")[:3, :3]


def InverseHT(T) -> np.ndarray:
    """T^-1 = [[A^T, -A^T r], [0, 1]]."""
    return rotations.inverse_homogeneous_transformation(_array(T, (4, 4), "InverseHT", "T"))


def _homogeneous(value, owner, what) -> np.ndarray:
    """A 4 x 4 transformation given as a matrix or its 16 values row by row."""
    array = np.asarray(value, dtype=float)
    return _array(array.reshape(4, 4) if array.size == 16 else array, (4, 4), owner, what)


# --- inertia ----------------------------------------------------------------------------------------
def InertiaTensor2Inertia6D(inertiaTensor) -> list:
    """[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] of a 3 x 3 inertia tensor (the order of ObjectRigidBody.inertia)."""
    j = _array(inertiaTensor, (3, 3), "InertiaTensor2Inertia6D", "inertiaTensor")
    return [j[0, 0], j[1, 1], j[2, 2], j[1, 2], j[0, 2], j[0, 1]]


def Inertia6D2InertiaTensor(inertia6D) -> np.ndarray:
    """3 x 3 inertia tensor of [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]."""
    j = _array(inertia6D, (6,), "Inertia6D2InertiaTensor", "inertia6D")
    return np.array([[j[0], j[5], j[4]], [j[5], j[1], j[3]], [j[4], j[3], j[2]]])


def _steiner(mass, com) -> np.ndarray:
    """Parallel-axis term m Skew(c)^T Skew(c) = m (|c|^2 I - c c^T) [kg m^2]."""
    s = Skew(com)
    return mass * s.T @ s


class RigidBodyInertia:
    """Mass [kg], centre of mass ``com`` [m] and inertia tensor [kg m^2] of a rigid body.

    ``inertiaTensor`` is taken about the reference point (the body's node), unless
    ``inertiaTensorAtCOM=True``, when it is about the centre of mass; it is stored about the reference
    point in either case. ``com`` and the tensor are in the same (body) axes.
    """

    def __init__(self, mass=0.0, inertiaTensor=np.zeros((3, 3)), com=np.zeros(3), inertiaTensorAtCOM=False):
        if not isinstance(inertiaTensorAtCOM, (bool, int)):
            raise ExudynLayerError(f"RigidBodyInertia: inertiaTensorAtCOM must be a bool, got {inertiaTensorAtCOM!r}")
        tensor = _array(inertiaTensor, (3, 3), "RigidBodyInertia", "inertiaTensor")
        self.mass = mass
        self.com = _array(com, (3,), "RigidBodyInertia", "com")
        self.inertiaTensor = tensor + _steiner(mass, self.com) if inertiaTensorAtCOM else tensor
        self.data = {"type": "RigidBodyInertia"}
        self._nTilesGraphics = 16
        self._roundnessGraphics = 0.0
        self._check_tensor(tensor)

    @staticmethod
    def _check_tensor(tensor):
        scale = np.linalg.norm(tensor)
        if scale and np.linalg.norm(tensor - tensor.T) > 1e-14 * scale:
            raise ExudynLayerError(f"RigidBodyInertia: inertiaTensor is not symmetric: {tensor.tolist()}")
        jx, jy, jz = np.diag(tensor)
        if jx + jy < jz or jx + jz < jy or jy + jz < jx:
            warnings.warn(f"RigidBodyInertia: the diagonal {[jx, jy, jz]} violates the triangle inequality; "
                          f"no real body has this inertia", stacklevel=3)

    def _derived(self, mass, tensor, com, transformation):
        """A RigidBodyInertia with this one's shape data and the transformation placed after its own."""
        result = RigidBodyInertia(mass, tensor, com)
        result.data.update(self.data)
        result.data["HT"] = self.data["HT"] @ transformation if "HT" in self.data else transformation
        return result

    def __add__(self, other) -> "RigidBodyInertia":
        """Inertia of both bodies together; both must be given about the same reference point and axes."""
        mass = self.mass + other.mass
        if mass == 0:
            raise ExudynLayerError("RigidBodyInertia: two inertias of zero total mass have no centre of mass")
        return RigidBodyInertia(mass, self.inertiaTensor + other.inertiaTensor,
                                (self.mass * self.com + other.mass * other.com) / mass)

    def SetWithCOMinertia(self, mass, inertiaTensorCOM, com):
        """Set mass, inertia about the centre of mass and the centre of mass (relative to the reference point)."""
        self.mass = mass
        self.com = _array(com, (3,), "RigidBodyInertia.SetWithCOMinertia", "com")
        self.inertiaTensor = _array(inertiaTensorCOM, (3, 3), "RigidBodyInertia.SetWithCOMinertia",
                                    "inertiaTensorCOM") + _steiner(mass, self.com)

    def Inertia(self) -> np.ndarray:
        """Inertia tensor about the reference point."""
        return self.inertiaTensor

    def InertiaCOM(self) -> np.ndarray:
        """Inertia tensor about the centre of mass."""
        return self.inertiaTensor - _steiner(self.mass, self.com)

    def COM(self) -> np.ndarray:
        return self.com

    def Mass(self):
        return self.mass

    def Translated(self, vec) -> "RigidBodyInertia":
        """The body moved by vec relative to the reference point (com + vec), inertia about the same point."""
        com = self.com + _array(vec, (3,), "RigidBodyInertia.Translated", "vec")
        return self._derived(self.mass, self.InertiaCOM() + _steiner(self.mass, com), com, HTtranslate(vec))

    def Rotated(self, rot) -> "RigidBodyInertia":
        """The body rotated by the rotation matrix rot about the reference point: J' = rot J rot^T.

        Exudyn allows this only for com = 0 (and returns 0 otherwise); here a com away from the
        reference point is an error.
        """
        if np.any(self.com != 0):
            raise ExudynLayerError(f"RigidBodyInertia.Rotated: only for com = [0, 0, 0], got com = "
                                   f"{self.com.tolist()}; use Transformed(HT) for a body with an offset centre of mass")
        a = _array(rot, (3, 3), "RigidBodyInertia.Rotated", "rot")
        return RigidBodyInertia(self.mass, a @ self.inertiaTensor @ a.T, self.com)

    def Transformed(self, HT) -> "RigidBodyInertia":
        """The body moved by the homogeneous transformation HT (rotation A, translation r): com' = A com + r."""
        transformation = _homogeneous(HT, "RigidBodyInertia.Transformed", "HT")
        a, r = transformation[:3, :3], transformation[:3, 3]
        com = a @ self.com + r
        tensor = a @ self.InertiaCOM() @ a.T + _steiner(self.mass, com)
        return self._derived(self.mass, tensor, com, transformation)

    def GetInertia6D(self) -> list:
        """[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the reference point, as ObjectRigidBody takes it."""
        return InertiaTensor2Inertia6D(self.inertiaTensor)

    def GetTypeName(self) -> str:
        return type(self).__name__

    def GetSpecialData(self) -> dict:
        """Shape data (radius, side lengths, ...) of the Inertia... classes."""
        return self.data

    def GetGraphics(self, color, nTiles=None, roundness=None):
        """A graphics record (dict, see :mod:`floatframe.exudyn.graphics`) of the body's shape at its
        centre of mass, or None when the shape is unknown (plain RigidBodyInertia or a sum)."""
        colour = graphics.color.defaultBody if color[0] == -1 else color
        tiles = self._nTilesGraphics if nTiles is None else nTiles
        round_ = self._roundnessGraphics if roundness is None else roundness
        kind, data, com = self.data["type"], self.data, self.com
        if kind == "InertiaCylinder":
            axis = np.zeros(3)
            axis[data["axis"]] = 1.0
            inner = data["innerRadius"] if data["innerRadius"] > 0 else None
            return graphics.Cylinder(pAxis=com - 0.5 * data["length"] * axis, vAxis=data["length"] * axis,
                                     radius=data["outerRadius"], color=colour, nTiles=2 * tiles, radiusInner=inner)
        if kind == "InertiaCuboid":
            return graphics.Brick(centerPoint=com, size=data["sideLengths"], color=colour, roundness=round_)
        if kind == "InertiaRodX":
            length = data["length"]
            return graphics.Brick(centerPoint=com, size=[length, 0.01 * length, 0.01 * length], color=colour,
                                  roundness=round_)
        if kind == "InertiaMassPoint":
            radius = (data["mass"] / 2000 * 0.75 / np.pi) ** (1 / 3)  # a sphere of density 2000 kg/m^3
            return graphics.Sphere(point=com, radius=radius, nTiles=tiles, color=colour)
        if kind in ("InertiaSphere", "InertiaHollowSphere"):
            return graphics.Sphere(point=com, radius=data["radius"], nTiles=tiles, color=colour)
        return None

    def __str__(self):
        return (f"mass = {self.mass}\nCOM = {self.com}\ninertiaTensorAtOrigin = \n{self.inertiaTensor}"
                f"\ninertiaTensorAtCOM = \n{self.InertiaCOM()}")

    __repr__ = __str__


class InertiaCuboid(RigidBodyInertia):
    """Homogeneous cuboid: density [kg/m^3], sideLengths [L1, L2, L3] [m] along the body axes; com = 0."""

    def __init__(self, density, sideLengths):
        l1, l2, l3 = _array(sideLengths, (3,), "InertiaCuboid", "sideLengths")
        mass = density * l1 * l2 * l3
        super().__init__(mass, mass / 12 * np.diag([l2 ** 2 + l3 ** 2, l1 ** 2 + l3 ** 2, l1 ** 2 + l2 ** 2]))
        self.data = {"type": "InertiaCuboid", "density": density, "sideLengths": sideLengths}


class InertiaRodX(RigidBodyInertia):
    """Thin rod of mass [kg] and length [m] along the body x axis; com = 0."""

    def __init__(self, mass, length):
        super().__init__(mass, mass / 12 * np.diag([0.0, length ** 2, length ** 2]))
        self.data = {"type": "InertiaRodX", "mass": mass, "length": length}


class InertiaMassPoint(RigidBodyInertia):
    """Point mass [kg] at the reference point: zero inertia (add it to another inertia, e.g. an unbalance)."""

    def __init__(self, mass):
        super().__init__(mass, np.zeros((3, 3)))
        self.data = {"type": "InertiaMassPoint", "mass": mass}


class InertiaSphere(RigidBodyInertia):
    """Solid sphere of radius [m], given mass [kg] or density [kg/m^3] (exactly one of the two); com = 0."""

    def __init__(self, mass=None, radius=None, density=None):
        if radius is None or (mass is None) == (density is None):
            raise ExudynLayerError("InertiaSphere: give radius and exactly one of mass and density, got "
                                   f"mass={mass}, radius={radius}, density={density}")
        volume = 4 / 3 * np.pi * radius ** 3
        if mass is None:
            mass = density * volume
        else:
            density = mass / volume if volume else 0.0
        j = 0.4 * mass * radius ** 2
        super().__init__(mass, j * np.eye(3))
        self.data = {"type": "InertiaSphere", "mass": mass, "radius": radius, "density": density, "volume": volume}


class InertiaHollowSphere(RigidBodyInertia):
    """Thin spherical shell of mass [kg] and radius [m]; com = 0."""

    def __init__(self, mass, radius):
        super().__init__(mass, 2 / 3 * mass * radius ** 2 * np.eye(3))
        self.data = {"type": "InertiaHollowSphere", "mass": mass, "radius": radius}


class InertiaCylinder(RigidBodyInertia):
    """Homogeneous (hollow for innerRadius > 0) cylinder: density [kg/m^3], length, radii [m], axis 0, 1 or 2
    (the body axis along the cylinder); com = 0."""

    def __init__(self, density, length, outerRadius, axis, innerRadius=0):
        if axis not in (0, 1, 2):
            raise ExudynLayerError(f"InertiaCylinder: axis must be 0, 1 or 2, got {axis!r}")
        mass = density * length * np.pi * (outerRadius ** 2 - innerRadius ** 2)
        radii = outerRadius ** 2 + innerRadius ** 2
        diagonal = np.full(3, mass / 12 * (3 * radii + length ** 2))
        diagonal[axis] = 0.5 * mass * radii
        super().__init__(mass, np.diag(diagonal))
        self.data = {"type": "InertiaCylinder", "density": density, "length": length, "axis": axis,
                     "outerRadius": outerRadius, "innerRadius": innerRadius}


__all__ = [name for name, value in dict(globals()).items()
           if not name.startswith("_") and not isinstance(value, ModuleType)
           and getattr(value, "__module__", __name__) == __name__]
__getattr__ = module_getattr("floatframe.exudyn.rigidBodyUtilities", __all__)
