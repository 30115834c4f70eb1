"""Serial robots of Exudyn's ``exudyn.robotics``, built in redundant coordinates (one rigid body per link).

A :class:`Robot` holds a base, a tool and links (:class:`RobotLink`: mass, centre of mass, inertia about it, the
link's transformation ``localHT`` from its joint, e.g. from standard Denavit-Hartenberg parameters with
:func:`StdDH2HT`). Its kinematics (:meth:`Robot.JointHT`, :meth:`Robot.LinkHT`, :meth:`Robot.Jacobian`) and static
joint torques under gravity (:meth:`Robot.StaticTorques`) are those of Exudyn 1.13.6, and
:meth:`Robot.CreateRedundantCoordinateMBS` adds the robot to a MainSystem through its items: per link a rigid body
(``mbs.CreateRigidBody``), a GenericJoint to the previous link (or the base marker) free about (along) the joint
axis, two joint-torque loads and, for links with PD control, a torsional (linear) spring-damper.

Homogeneous transformations are 4 x 4 NumPy arrays (floatframe.exudyn has no ``exudyn.HT`` class); any object with
``rotation`` and ``translation`` is accepted where a transformation is given. Lengths in m, angles in rad.

The kinematic tree (``CreateKinematicTree``, ``GetKinematicTree66``, ``exudyn.JointType``) is outside floatframe's
scope and refused with the scope's name.
"""
from __future__ import annotations

from copy import copy, deepcopy

import numpy as np

import floatframe.exudyn.graphics as graphics
import floatframe.exudyn.itemInterface as items
from floatframe.exudyn._names import ExudynLayerError, out_of_scope
from floatframe.exudyn.mainSystemExtensions import NodeType
from floatframe.exudyn.rigidBodyUtilities import (HomogeneousTransformation, HTrotateX, HTrotateY, HTrotateZ,
                                                  HTtranslate, InverseHT, RigidBodyInertia, Skew)

__all__ = ["dictJointType2HT", "dictJointType2Axis", "dictJointType2coordinate6D", "VRobotLink", "RobotLink",
           "VRobotTool", "RobotTool", "VRobotBase", "RobotBase", "Robot", "StdDH2HT", "ModDHKK2HT",
           "projectAngleToPMPi", "InverseKinematicsNumerical"]

# the joint types: a revolute (R) or prismatic (P) joint about / along a local axis of the joint frame
dictJointType2HT = {
    "Rx": HTrotateX, "Ry": HTrotateY, "Rz": HTrotateZ,
    "Px": lambda x: HTtranslate([x, 0.0, 0.0]),
    "Py": lambda y: HTtranslate([0.0, y, 0.0]),
    "Pz": lambda z: HTtranslate([0.0, 0.0, z]),
}
dictJointType2Axis = {name: np.eye(3, dtype=int)[index] for name, index in
                      (("Rx", 0), ("Ry", 1), ("Rz", 2), ("Px", 0), ("Py", 1), ("Pz", 2))}
# the joint's free coordinate among a GenericJoint's six (translations x, y, z, then rotations x, y, z)
dictJointType2coordinate6D = {"Px": 0, "Py": 1, "Pz": 2, "Rx": 3, "Ry": 4, "Rz": 5}

KINEMATIC_TREE = out_of_scope("KinematicTree")


def _kinematic_tree_refusal(what: str) -> ExudynLayerError:
    return ExudynLayerError(f"floatframe.exudyn.robotics does not support {what}: floatframe builds robots in "
                            f"redundant coordinates (Robot.CreateRedundantCoordinateMBS){KINEMATIC_TREE}")


def _to_HT(value) -> np.ndarray:
    """A 4 x 4 homogeneous transformation from a matrix (or its 16 values), an object with ``rotation`` and
    ``translation``, or None (the identity)."""
    if value is None:
        return np.eye(4)
    if hasattr(value, "rotation") and hasattr(value, "translation"):
        return HomogeneousTransformation(np.asarray(value.rotation, dtype=float),
                                         np.asarray(value.translation, dtype=float))
    array = np.asarray(value, dtype=float)
    array = array.reshape(4, 4) if array.size == 16 else array
    if array.shape != (4, 4):
        raise ExudynLayerError(f"robotics: a homogeneous transformation must be a 4 x 4 matrix, got shape "
                               f"{array.shape}")
    return array


def _joint_type(link, index: int, owner: str) -> str:
    if link.jointType not in dictJointType2Axis:
        raise ExudynLayerError(f"{owner}: link {index} has the joint type {link.jointType!r}; the joint types are "
                               f"{list(dictJointType2Axis)}")
    return link.jointType


class VRobotLink:
    """Drawing of a link: joint radius and width, link width [m], link colour (RGBA), whether the joint and the
    centre of mass are drawn, and graphics data that replace the drawing generated from the link's geometry."""

    def __init__(self, jointRadius=0.06, jointWidth=0.12, linkWidth=0.1, showMBSjoint=True, showCOM=True,
                 linkColor=[0.4, 0.4, 0.4, 1], graphicsData=[]):
        self.jointRadius = jointRadius
        self.jointWidth = jointWidth
        self.showMBSjoint = showMBSjoint
        self.linkWidth = linkWidth
        self.linkColor = linkColor
        self.showCOM = showCOM
        self.graphicsData = graphicsData


class RobotLink:
    """One link with its joint.

    Parameters
    ----------
    mass : float
        Mass [kg].
    COM : (3,) array_like
        Centre of mass in link coordinates [m].
    inertia : (3, 3) array_like
        Inertia tensor about the centre of mass in link coordinates [kg m^2].
    localHT : (4, 4) array_like, optional
        Transformation from the joint frame (after the joint's motion) to the link frame; identity if None.
    jointType : str
        'Rx', 'Ry', 'Rz' (revolute) or 'Px', 'Py', 'Pz' (prismatic), about / along the joint frame's axis.
    parent : int
        Index of the parent link; -2 (default) makes the previous link the parent, -1 the base.
    preHT : (4, 4) array_like, optional
        Transformation from the parent's link frame to this joint's frame; identity if None.
    PDcontrol : (float, float)
        Stiffness P and damping D of the joint's spring-damper; (None, None) for none.
    visualization : VRobotLink
    """

    def __init__(self, mass, COM, inertia, localHT=None, jointType="Rz", parent=-2, preHT=None,
                 PDcontrol=(None, None), visualization=VRobotLink()):
        self.mass = mass
        self.COM = np.array(COM, dtype=float)
        self.inertia = np.array(inertia, dtype=float)
        self.localHT = localHT
        self.preHT = preHT
        self.jointType = jointType
        self.parent = parent
        self.visualization = deepcopy(visualization)
        if PDcontrol[0] is not None:
            self.PDcontrol = PDcontrol

    @property
    def localHT(self) -> np.ndarray:
        """Transformation from the joint frame to the link frame, (4, 4)."""
        return self._localHT

    @localHT.setter
    def localHT(self, value):
        self._localHT = _to_HT(value)

    @property
    def preHT(self) -> np.ndarray:
        """Transformation from the parent's link frame to this joint's frame, (4, 4)."""
        return self._preHT

    @preHT.setter
    def preHT(self, value):
        self._preHT = _to_HT(value)

    def SetPDcontrol(self, Pvalue, Dvalue):
        """Set the joint's spring-damper: stiffness P [N m/rad or N/m] and damping D."""
        self.PDcontrol = (Pvalue, Dvalue)

    def HasPDcontrol(self) -> bool:
        return hasattr(self, "PDcontrol")

    def GetPDcontrol(self) -> tuple:
        """(P, D); raises ValueError where the link has none."""
        if not self.HasPDcontrol():
            raise ValueError("RobotLink: the link has no PDcontrol; set it with SetPDcontrol(P, D)")
        return self.PDcontrol


class _Drawing:
    """A list of graphics data in a part's frame (kept, not drawn)."""

    def __init__(self, graphicsData=[]):
        self.graphicsData = copy(graphicsData)


class _FramedPart:
    """A part placed by a homogeneous transformation ``HT`` (4 x 4; identity if None), with its drawing."""

    def __init__(self, HT=None, visualization=None):
        self.HT = HT
        self.visualization = visualization

    @property
    def HT(self) -> np.ndarray:
        return self._HT

    @HT.setter
    def HT(self, value):
        self._HT = _to_HT(value)


class VRobotTool(_Drawing):
    """Drawing of the tool: a list of graphics data in the tool frame."""


class RobotTool(_FramedPart):
    """The tool: its transformation ``HT`` from the last link's frame (identity if None) and its drawing."""

    def __init__(self, HT=None, visualization=VRobotTool()):
        super().__init__(HT, visualization)


class VRobotBase(_Drawing):
    """Drawing of the base: a list of graphics data in the base frame."""


class RobotBase(_FramedPart):
    """The base: its transformation ``HT`` from world to base coordinates (identity if None) and its drawing."""

    def __init__(self, HT=None, visualization=VRobotBase()):
        super().__init__(HT, visualization)


class Robot:
    """A robot: base, tool, links and gravity [m/s^2].

    ``referenceConfiguration`` holds one joint coordinate per link for the reference configuration of the
    multibody model; links added beyond its length get 0.
    """

    def __init__(self, gravity=[0, 0, -9.81], base=RobotBase(), tool=RobotTool(), referenceConfiguration=[]):
        self.gravity = np.array(gravity, dtype=float)
        self.base = base
        self.tool = tool
        self.referenceConfiguration = np.array(referenceConfiguration, dtype=float)
        self.links = []
        self.isSerialRobot = True

    def AddLink(self, robotLink) -> int:
        """Add a copy of ``robotLink``; returns its index. A parent of -2 becomes the previous link."""
        index = len(self.links)
        if len(self.referenceConfiguration) == index:
            self.referenceConfiguration = np.hstack((self.referenceConfiguration, [0.0]))
        link = deepcopy(robotLink)
        if link.parent == -2:
            link.parent = index - 1
        elif link.parent >= index:
            raise ValueError("Robot.AddLink: a link's parent must have a lower index than the link")
        self.links.append(link)
        if link.parent != index - 1:
            self.isSerialRobot = False
        return index

    def IsSerialRobot(self) -> bool:
        return self.isSerialRobot

    def GetLink(self, i) -> RobotLink:
        return self.links[i]

    def HasParent(self, i) -> bool:
        return self.links[i].parent >= 0

    def GetParentIndex(self, i) -> int:
        return self.links[i].parent

    def NumberOfLinks(self) -> int:
        return len(self.links)

    def GetBaseHT(self) -> np.ndarray:
        """Transformation from world to base coordinates, (4, 4)."""
        return self.base.HT

    def GetToolHT(self) -> np.ndarray:
        """Transformation from the last link to the tool, (4, 4)."""
        return self.tool.HT

    def _joint_motion(self, i, q) -> np.ndarray:
        link = self.links[i]
        return link.preHT @ dictJointType2HT[_joint_type(link, i, "Robot")](q)

    def LinkHT(self, q) -> list:
        """Global transformation (4, 4) of every link frame at joint coordinates q."""
        transformations = []
        for i, link in enumerate(self.links):
            parent = transformations[link.parent] if self.HasParent(i) else self.base.HT
            transformations.append(parent @ self._joint_motion(i, q[i]) @ link.localHT)
        return transformations

    def JointHT(self, q) -> list:
        """Global transformation (4, 4) of every joint frame, after the joint's motion, at joint coordinates q."""
        transformations = []
        for i, link in enumerate(self.links):
            if self.HasParent(i):
                parent = transformations[link.parent] @ self.links[link.parent].localHT
            else:
                parent = self.base.HT
            transformations.append(parent @ self._joint_motion(i, q[i]))
        return transformations

    def COMHT(self, HT) -> list:
        """Global transformation (4, 4) to every link's centre of mass, from the joint transformations of
        :meth:`JointHT`."""
        return [_to_HT(HT[i]) @ link.localHT @ HTtranslate(link.COM) for i, link in enumerate(self.links)]

    def StaticTorques(self, HT) -> np.ndarray:
        """Joint torques [N m] (forces [N] at prismatic joints) of the links' weights, from :meth:`JointHT`; the
        generalized forces J^T m g of gravity, one per link."""
        torques = np.zeros(len(self.links))
        for i, transformation in enumerate(self.COMHT(HT)):
            jacobian = self.Jacobian(HT[0:i + 1], toolPosition=transformation[:3, 3], mode="trans")
            torques[0:i + 1] += jacobian.T @ (self.links[i].mass * self.gravity)
        return torques

    def Jacobian(self, HT, toolPosition=[], mode="all", linkIndex=None) -> np.ndarray:
        """Jacobian of the global velocity (and angular velocity) of a point with respect to the joint velocities.

        Parameters
        ----------
        HT : list of (4, 4) arrays
            Joint transformations from :meth:`JointHT` (the first n links).
        toolPosition : (3,) array_like
            Global position of the point [m]; empty: the origin of link ``linkIndex``'s frame.
        mode : str
            'trans' (rows: velocity), 'rot' (angular velocity) or 'all' (velocity above angular velocity).
        linkIndex : int, optional
            The link carrying the point (default: the last of HT); only the joints from it back to the base count.

        Returns
        -------
        (3, n) or (6, n) array.
        """
        n = len(HT)
        if n > len(self.links):
            raise ExudynLayerError("Robot.Jacobian: more transformations than links")
        if linkIndex is None:
            linkIndex = n - 1
        rotational = np.zeros((3, n))
        translational = np.zeros((3, n))
        point = np.asarray(toolPosition, dtype=float)
        if point.size == 0:
            point = (_to_HT(HT[linkIndex]) @ self.links[linkIndex].localHT)[:3, 3]
        i = linkIndex
        while True:
            joint = _to_HT(HT[i])
            joint_type = _joint_type(self.links[i], i, "Robot.Jacobian")
            axis = joint[:3, :3] @ dictJointType2Axis[joint_type]
            if joint_type[0] == "R":
                rotational[:, i] = axis
                translational[:, i] = Skew(axis) @ (point - joint[:3, 3])
            else:
                translational[:, i] = axis
            if not self.HasParent(i):
                break
            i = self.GetParentIndex(i)
        if mode == "rot":
            return rotational
        if mode == "trans":
            return translational
        if mode == "all":
            return np.vstack((translational, rotational))
        raise ExudynLayerError(f"Robot.Jacobian: mode must be 'all', 'trans' or 'rot', got {mode!r}")

    def CreateKinematicTree(self, mbs, name="", forceUserFunction=0):
        """Refused: the kinematic tree (ObjectKinematicTree) is outside floatframe's scope."""
        raise _kinematic_tree_refusal("Robot.CreateKinematicTree")

    def GetKinematicTree66(self):
        """Refused: the kinematic tree is outside floatframe's scope."""
        raise _kinematic_tree_refusal("Robot.GetKinematicTree66")

    def BuildFromDictionary(self, robotDict):
        """Refused: Exudyn's deprecated dictionary form of a robot."""
        raise ExudynLayerError("floatframe.exudyn.robotics does not support Robot.BuildFromDictionary (deprecated "
                               "in Exudyn): add the links with Robot.AddLink(RobotLink(...))")

    def GetLinkGraphicsData(self, i, p0, p1, axis0, axis1, linkVisualization) -> list:
        """Graphics data of link i (kept, not rendered): the centre of mass, the joint cylinders at p0 (axis0) and
        p1 (axis1) and the link between them, in link coordinates."""
        shapes = []
        radius, joint_width = linkVisualization.jointRadius, linkVisualization.jointWidth
        color = linkVisualization.linkColor
        if linkVisualization.showCOM:
            size = 0.2 * radius
            shapes.append(graphics.Brick(self.links[i].COM, [size] * 3, [0.8 * c for c in color[:3]] + [color[3]]))
        if radius != 0:
            if i != 0:
                shapes.append(graphics.Cylinder(pAxis=p0, vAxis=-0.5 * joint_width * np.asarray(axis0), radius=radius,
                                                color=color))
            shapes.append(graphics.Cylinder(pAxis=p1, vAxis=0.5 * joint_width * np.asarray(axis1), radius=radius,
                                            color=color))
            if np.linalg.norm(np.asarray(p1) - p0) > 1e-15:
                shapes.append(graphics.Cylinder(pAxis=p1, vAxis=np.asarray(p0) - p1,
                                                radius=0.5 * linkVisualization.linkWidth, color=color))
        return shapes

    def CreateRedundantCoordinateMBS(self, mbs, baseMarker, jointSpringDamperUserFunctionList=[],
                                     jointLoadUserFunctionList=[], createJointTorqueLoads=True,
                                     rotationMarkerBase=None, rigidBodyNodeType=NodeType.RotationEulerParameters):
        """Add the robot to ``mbs`` as rigid bodies joined by GenericJoints, attached to ``baseMarker``.

        Per link (at the reference configuration): a rigid body with gravity (``mbs.CreateRigidBody``, its node at
        the link frame), a MarkerBodyRigid at its joint (localHT = localHT^-1), a GenericJoint from the parent's
        marker (localHT = preHT; for the first link ``baseMarker``, turned by ``rotationMarkerBase``) free about
        (along) the joint axis; for revolute joints two LoadTorqueVector (bodyFixed) on both markers, zero unless
        ``jointLoadUserFunctionList`` gives user functions; for links with PD control (or an entry in
        ``jointSpringDamperUserFunctionList``) a TorsionalSpringDamper (with a NodeGenericData as turn counter)
        or LinearSpringDamper with the link's stiffness and damping.

        Returns
        -------
        dict with 'nodeList', 'bodyList', 'jointList', 'markerList0', 'markerList1', 'springDamperList' (None
        where a joint has none), 'jointTorque0List', 'jointTorque1List' (the loads on the parent and on the
        link), 'unitTorque0List', 'unitTorque1List' (their unit torques in marker coordinates, (3,)) and
        'baseObject' (a ground object carrying the base's drawing, or -1).
        """
        owner = "Robot.CreateRedundantCoordinateMBS"
        result = {name: [] for name in ("nodeList", "bodyList", "jointList", "markerList0", "markerList1",
                                        "springDamperList", "jointTorque0List", "jointTorque1List",
                                        "unitTorque0List", "unitTorque1List")}
        base_rotation = np.eye(3) if rotationMarkerBase is None else np.asarray(rotationMarkerBase, dtype=float)
        reference = self.referenceConfiguration
        result["baseObject"] = -1
        if self.base.visualization.graphicsData != []:
            rotation = self.base.HT[:3, :3]
            result["baseObject"] = mbs.AddObject(items.ObjectGround(
                referencePosition=list(self.base.HT[:3, 3]),
                visualization=items.VObjectGround(graphicsData=[graphics.Move(data, [0, 0, 0], rotation)
                                                                for data in self.base.visualization.graphicsData])))
        children = [[j for j in range(len(self.links)) if self.GetParentIndex(j) == i]
                    for i in range(len(self.links))]
        link_frames = []
        for i, link in enumerate(self.links):
            joint_type = _joint_type(link, i, owner)
            parent_frame = link_frames[link.parent] if self.HasParent(i) else self.GetBaseHT()
            frame = parent_frame @ self._joint_motion(i, reference[i]) @ link.localHT
            link_frames.append(frame)
            joint_in_link = InverseHT(link.localHT)
            joint_axis = dictJointType2Axis[joint_type]
            inertia = RigidBodyInertia(mass=link.mass, inertiaTensor=link.inertia).Translated(link.COM)
            body = mbs.CreateRigidBody(referenceHT=frame, inertia=inertia, gravity=list(self.gravity),
                                       nodeType=rigidBodyNodeType,
                                       graphicsDataList=self._link_graphics(i, children[i], joint_in_link),
                                       returnDict=True)
            result["nodeList"].append(body["nodeNumber"])
            result["bodyList"].append(body["bodyNumber"])
            marker1 = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body["bodyNumber"], localHT=joint_in_link))
            if i == 0:
                marker0, rotation0 = _marker_turned(mbs, baseMarker, link.preHT[:3, :3] @ base_rotation)
            else:
                marker0 = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=result["bodyList"][link.parent],
                                                              localHT=link.preHT))
                rotation0 = np.eye(3)
            result["markerList0"].append(marker0)
            result["markerList1"].append(marker1)
            rotation_args = {} if np.array_equal(rotation0, np.eye(3)) else {"rotationMarker0": rotation0}
            constrained = [1] * 6
            constrained[dictJointType2coordinate6D[joint_type]] = 0
            visualization = link.visualization
            result["jointList"].append(mbs.AddObject(items.GenericJoint(
                markerNumbers=[marker0, marker1], constrainedAxes=constrained, **rotation_args,
                visualization=items.VObjectJointGeneric(show=visualization.showMBSjoint,
                                                        axesRadius=0.25 * visualization.jointRadius,
                                                        axesLength=1.1 * visualization.jointWidth,
                                                        color=graphics.color.grey))))
            controlled = i < len(jointSpringDamperUserFunctionList) or link.HasPDcontrol()
            spring_damper = None
            if joint_type[0] == "R":
                torque0, torque1 = rotation0 @ (-joint_axis), joint_axis.astype(float)
                result["unitTorque0List"].append(torque0)
                result["unitTorque1List"].append(torque1)
                loads = [None, None]
                if i < len(jointLoadUserFunctionList):
                    loads = [mbs.AddLoad(items.LoadTorqueVector(markerNumber=marker, loadVector=list(torque),
                                                                bodyFixed=True,
                                                                loadVectorUserFunction=jointLoadUserFunctionList[i]))
                             for marker, torque in ((marker0, torque0), (marker1, torque1))]
                elif createJointTorqueLoads:
                    loads = [mbs.AddLoad(items.LoadTorqueVector(markerNumber=marker, loadVector=[0, 0, 0],
                                                                bodyFixed=True))
                             for marker in (marker0, marker1)]
                result["jointTorque0List"].append(loads[0])
                result["jointTorque1List"].append(loads[1])
                if controlled:
                    stiffness, damping = link.GetPDcontrol()
                    turns = mbs.AddNode(items.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
                    spring_damper = mbs.AddObject(items.TorsionalSpringDamper(
                        markerNumbers=[marker0, marker1], nodeNumber=turns, stiffness=stiffness, damping=damping,
                        **rotation_args, visualization=items.VTorsionalSpringDamper(show=False)))
            else:
                if createJointTorqueLoads:
                    raise ValueError(f"{owner}: createJointTorqueLoads=True is only for revolute joints; link {i} "
                                     f"has the prismatic joint {joint_type!r}")
                if controlled:
                    stiffness, damping = link.GetPDcontrol()
                    spring_damper = mbs.AddObject(items.LinearSpringDamper(
                        markerNumbers=[marker0, marker1], axisMarker0=list(rotation0 @ joint_axis),
                        stiffness=stiffness, damping=damping, visualization=items.VLinearSpringDamper(show=False)))
            result["springDamperList"].append(spring_damper)
        return result

    def _link_graphics(self, i, children, joint_in_link) -> list:
        """Graphics data of link i in its body frame: the generated (or given) link drawing and, on the last
        link, the tool's drawing."""
        link = self.links[i]
        axis0 = joint_in_link[:3, :3] @ dictJointType2Axis[link.jointType]
        shapes = []
        if len(link.visualization.graphicsData) == 0:
            for child in children:
                pre = self.links[child].preHT
                shapes += self.GetLinkGraphicsData(i, joint_in_link[:3, 3], pre[:3, 3], axis0,
                                                   pre[:3, :3] @ dictJointType2Axis[self.links[child].jointType],
                                                   link.visualization)
        else:
            shapes += list(link.visualization.graphicsData)
        if i == len(self.links) - 1:
            shapes += [graphics.Move(data, self.tool.HT[:3, 3], self.tool.HT[:3, :3])
                       for data in self.tool.visualization.graphicsData]
        return shapes


def _marker_turned(mbs, marker, rotation) -> tuple:
    """(marker, rotation left for the joint): the marker itself for a unit rotation; for a MarkerBodyRigid a new
    marker on the same body with the rotation appended to its frame; otherwise the marker, with the rotation
    given to the joint as rotationMarker0."""
    if np.array_equal(rotation, np.eye(3)):
        return marker, np.eye(3)
    data = mbs.GetMarker(marker)
    if data.get("markerType") not in ("BodyRigid", "MarkerBodyRigid"):
        return marker, rotation
    frame = _to_HT(data["localHT"]) if data.get("localHT") is not None else np.eye(4)
    if data.get("localPosition") is not None:
        frame = HTtranslate(data["localPosition"]) @ frame
    frame = frame @ HomogeneousTransformation(rotation, np.zeros(3))
    return mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=data["bodyNumber"], localHT=frame)), np.eye(3)


def StdDH2HT(DHparameters) -> np.ndarray:
    """The (4, 4) transformation of standard Denavit-Hartenberg parameters [theta, d, a, alpha]:
    rotation theta about z, translation d along z and a along x, rotation alpha about x."""
    theta, d, a, alpha = DHparameters
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def ModDHKK2HT(DHparameters) -> list:
    """[HTpre, HTpost] of modified Denavit-Hartenberg parameters [alpha, d, theta, r] (Khalil and Kleinfinger):
    HTpre rotates alpha about x and translates d along x (before the joint), HTpost rotates theta about z and
    translates r along z."""
    alpha, d, theta, r = DHparameters
    return [HTrotateX(alpha) @ HTtranslate([d, 0.0, 0.0]), HTrotateZ(theta) @ HTtranslate([0.0, 0.0, r])]


def projectAngleToPMPi(q0):
    """Angle(s) q0 [rad] (scalar, list or array) mapped to (-pi, pi] (an angle of -pi becomes pi)."""
    wrapped = np.asarray(q0, dtype=float) % (2 * np.pi) if isinstance(q0, list) else q0 % (2 * np.pi)
    return wrapped - 2 * np.pi * (wrapped > np.pi)


class InverseKinematicsNumerical:
    """Refused: Exudyn's numerical inverse kinematics (a static solve of a helper model) is not part of
    floatframe.exudyn.robotics."""

    def __init__(self, robot, *arguments, **keywords):
        raise ExudynLayerError("floatframe.exudyn.robotics does not support InverseKinematicsNumerical: it covers "
                               "serial robots in redundant coordinates (Robot, Robot.CreateRedundantCoordinateMBS) "
                               "and robotics.motion")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name in ("dictJointTypeText2Exudyn", "JointType"):
        raise _kinematic_tree_refusal(name)
    raise AttributeError(f"floatframe.exudyn.robotics has no {name!r}; it offers {__all__} and robotics.motion")


def refuse_submodule(name: str, content: str, scope: str = "") -> None:
    """Raise the refusal of the submodule ``exudyn.robotics.<name>`` (holding ``content``), naming what
    floatframe.exudyn.robotics covers and, where it applies, the scope the submodule falls in."""
    raise ExudynLayerError(f"floatframe.exudyn does not support exudyn.robotics.{name} ({content}): "
                           f"floatframe.exudyn.robotics covers serial robots in redundant coordinates (Robot, "
                           f"Robot.CreateRedundantCoordinateMBS) and robotics.motion{scope}")
