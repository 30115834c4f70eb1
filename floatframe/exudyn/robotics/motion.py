"""Point-to-point trajectories of Exudyn's ``exudyn.robotics.motion``: a :class:`Trajectory` of coordinates (e.g.
joint angles) made of profiles, each moving all coordinates from the previous profile's end to its own final
coordinates with piecewise constant accelerations.

- :class:`ProfileConstantAcceleration`: a given duration; each coordinate accelerates for half of it and
  decelerates for the other half.
- :class:`ProfilePTP`: limits of velocity and acceleration per coordinate; all coordinates end together
  (synchronous motion, ``syncAccTimes=False``), the duration is that of the slowest coordinate.
- :class:`ProfileLinearAccelerationsList`: accelerations given at times, linearly interpolated.

``Trajectory.Evaluate(t)`` returns [positions, velocities, accelerations] (arrays, one entry per coordinate);
before the first and after the last profile the coordinates rest.
"""
from __future__ import annotations

import warnings

import numpy as np

__all__ = ["BasicProfile", "ProfileConstantAcceleration", "ProfileLinearAccelerationsList", "ProfilePTP",
           "Trajectory", "BasicProfileLinearAcceleration"]


def _warn_global_limits(owner, maxVelocities, maxAccelerations):
    if len(maxVelocities) + len(maxAccelerations) != 0:
        warnings.warn(f"{owner}: the trajectory's maximum velocities and accelerations do not apply to this profile",
                      stacklevel=3)


class BasicProfile:
    """One segment of constant accelerations per coordinate: accelerate with maxAccelerations for
    accelerationTimes, move with maxVelocities, decelerate for accelerationTimes before finalTime (times in s)."""

    def __init__(self, coordinateSets, initialTime, finalTime, accelerationTimes, maxVelocities, maxAccelerations):
        self.initialTime = initialTime
        self.finalTime = finalTime
        self.accelerationTimes = accelerationTimes
        self.maxVelocities = maxVelocities
        self.maxAccelerations = maxAccelerations
        self.coordinateSets = [np.array(coordinateSets[0], dtype=float), np.array(coordinateSets[1], dtype=float)]
        self.distances = self.coordinateSets[1] - self.coordinateSets[0]

    def __iter__(self):
        for name in ("initialTime", "finalTime", "accelerationTimes", "maxVelocities", "maxAccelerations",
                     "coordinateSets", "distances"):
            yield name, getattr(self, name)

    def __getitem__(self, key):
        return dict(self)[key]

    def __repr__(self):
        return str(dict(self))

    def GetInitialCoordinates(self) -> np.ndarray:
        return self.coordinateSets[0]

    def GetFinalCoordinates(self) -> np.ndarray:
        return self.coordinateSets[-1]

    def EvaluateCoordinate(self, time, coordinate) -> list:
        """[position, velocity, acceleration] of one coordinate at ``time``."""
        duration = self.finalTime - self.initialTime
        start = self.coordinateSets[0][coordinate]
        direction = np.sign(self.distances[coordinate])
        t_acc = self.accelerationTimes[coordinate]
        v_max = self.maxVelocities[coordinate]
        a_max = self.maxAccelerations[coordinate]
        t = time - self.initialTime
        if t < 0:
            return [start, 0.0, 0.0]
        if t < t_acc:   # accelerating
            return [start + direction * 0.5 * a_max * t * t, direction * a_max * t, direction * a_max]
        if t < duration - t_acc:   # at the maximum velocity
            return [start + direction * (v_max * (t - t_acc) + 0.5 * a_max * t_acc * t_acc), direction * v_max, 0.0]
        if t <= duration:   # decelerating
            remaining = duration - t
            return [start + direction * (v_max * (duration - t_acc) - 0.5 * a_max * remaining ** 2),
                    direction * a_max * remaining, -direction * a_max]
        return [self.coordinateSets[1][coordinate], 0.0, 0.0]

    def Evaluate(self, time) -> list:
        """[positions, velocities, accelerations] (arrays) of all coordinates at ``time``."""
        values = np.array([self.EvaluateCoordinate(time, i) for i in range(len(self.coordinateSets[0]))],
                          dtype=float).reshape(-1, 3)
        return [values[:, 0], values[:, 1], values[:, 2]]


class BasicProfileLinearAcceleration:
    """A segment whose accelerations are interpolated linearly between the given (relative time, accelerations)
    points; positions and velocities are integrated from the initial coordinates at rest."""

    def __init__(self, initialCoordinates, initialTime, accelerationList):
        self.initialTime = initialTime
        self.times = np.array([point[0] for point in accelerationList], dtype=float)
        self.accelerations = np.array([point[1] for point in accelerationList], dtype=float)
        self.finalTime = initialTime + self.times[-1]
        count = len(self.times)
        self.velocities = np.zeros_like(self.accelerations)
        self.positions = np.zeros_like(self.accelerations)
        self.positions[0] = np.array(initialCoordinates, dtype=float)
        for k in range(1, count):   # exact integration of the linear accelerations over each interval
            h = self.times[k] - self.times[k - 1]
            if h <= 0:
                raise ValueError("ProfileLinearAccelerationsList: the times of the profile must increase")
            a0, a1 = self.accelerations[k - 1], self.accelerations[k]
            self.velocities[k] = self.velocities[k - 1] + 0.5 * h * (a0 + a1)
            self.positions[k] = self.positions[k - 1] + h * self.velocities[k - 1] + h * h * (a0 / 3 + a1 / 6)
        self.coordinateSets = [self.positions[0], self.positions[-1]]

    def GetInitialCoordinates(self) -> np.ndarray:
        return self.coordinateSets[0]

    def GetFinalCoordinates(self) -> np.ndarray:
        return self.coordinateSets[-1]

    def Evaluate(self, time) -> list:
        """[positions, velocities, accelerations] (arrays) at ``time``; before the segment its first point, after
        it its last point (with that point's velocity and acceleration, as in Exudyn)."""
        t = time - self.initialTime
        if t < 0 or t > self.times[-1]:
            k = 0 if t < 0 else -1
            return [self.positions[k].copy(), self.velocities[k].copy(), self.accelerations[k].copy()]
        k = max(int(np.searchsorted(self.times, t, side="left")) - 1, 0)   # times[k] < t <= times[k + 1]
        h, tau = self.times[k + 1] - self.times[k], t - self.times[k]
        a0, slope = self.accelerations[k], (self.accelerations[k + 1] - self.accelerations[k]) / h
        position = self.positions[k] + self.velocities[k] * tau + 0.5 * a0 * tau ** 2 + slope * tau ** 3 / 6
        return [position, self.velocities[k] + a0 * tau + 0.5 * slope * tau ** 2, a0 + slope * tau]

    def EvaluateCoordinate(self, time, coordinate) -> list:
        return [float(values[coordinate]) for values in self.Evaluate(time)]


class ProfileConstantAcceleration:
    """A profile to ``finalCoordinates`` in ``duration`` [s]: each coordinate accelerates for half the duration
    and decelerates for the other half (|a| = 4 |distance| / duration^2)."""

    def __init__(self, finalCoordinates, duration):
        self.duration = duration
        self.finalCoordinates = np.array(finalCoordinates, dtype=float)

    def GetBasicProfile(self, initialTime, initialCoordinates, globalMaxVelocities, globalMaxAccelerations):
        """The :class:`BasicProfile` starting at ``initialTime`` from ``initialCoordinates``."""
        _warn_global_limits("ProfileConstantAcceleration", globalMaxVelocities, globalMaxAccelerations)
        distances = self.finalCoordinates - initialCoordinates
        accelerations = np.abs(4.0 * distances / self.duration ** 2)
        return BasicProfile([np.array(initialCoordinates, dtype=float), self.finalCoordinates], initialTime,
                            initialTime + self.duration, [0.5 * self.duration] * len(accelerations),
                            np.abs(accelerations * distances) ** 0.5, accelerations)


class ProfileLinearAccelerationsList:
    """A profile of accelerations given as [(relative time [s], accelerations), ...], the first time 0,
    interpolated linearly; it starts from the previous profile's end at rest."""

    def __init__(self, accelerationList):
        if len(accelerationList) < 2:
            raise ValueError("ProfileLinearAccelerationsList: the profile needs at least two (time, accelerations)")
        if accelerationList[0][0] != 0.0:
            raise ValueError("ProfileLinearAccelerationsList: the first time of the profile must be 0")
        self.accelerationList = accelerationList

    def GetBasicProfile(self, initialTime, initialCoordinates, globalMaxVelocities, globalMaxAccelerations):
        if len(self.accelerationList[0][1]) != len(initialCoordinates):
            raise ValueError("ProfileLinearAccelerationsList: the accelerations and the trajectory's coordinates "
                             "differ in length")
        _warn_global_limits("ProfileLinearAccelerationsList", globalMaxVelocities, globalMaxAccelerations)
        return BasicProfileLinearAcceleration(initialCoordinates, initialTime, self.accelerationList)


class ProfilePTP:
    """A synchronous point-to-point profile to ``finalCoordinates`` under maximum velocities and accelerations
    per coordinate (these, or the trajectory's, whichever are smaller); its duration is that of the slowest
    coordinate, and the others move slower to end at the same time. Only ``syncAccTimes=False``."""

    def __init__(self, finalCoordinates, syncAccTimes=True, maxVelocities=[], maxAccelerations=[]):
        if min(list(maxVelocities) + [1]) <= 0:
            raise ValueError("ProfilePTP: maxVelocities must be > 0")
        if min(list(maxAccelerations) + [1]) <= 0:
            raise ValueError("ProfilePTP: maxAccelerations must be > 0")
        if syncAccTimes:
            raise ValueError("ProfilePTP: only syncAccTimes=False is available (as in Exudyn)")
        self.finalCoordinates = np.array(finalCoordinates, dtype=float)
        self.maxVelocities = np.array(maxVelocities, dtype=float)
        self.maxAccelerations = np.array(maxAccelerations, dtype=float)
        self.syncAccTimes = syncAccTimes

    def GetBasicProfile(self, initialTime, initialCoordinates, globalMaxVelocities, globalMaxAccelerations):
        """The :class:`BasicProfile` starting at ``initialTime`` from ``initialCoordinates``."""
        if len(globalMaxAccelerations) + len(self.maxAccelerations) == 0:
            raise ValueError("ProfilePTP: give maxAccelerations to the Trajectory or to the ProfilePTP")
        distances = self.finalCoordinates - initialCoordinates
        if len(globalMaxAccelerations) == 0:
            accelerations = self.maxAccelerations
        elif len(self.maxAccelerations) == 0:
            accelerations = np.asarray(globalMaxAccelerations, dtype=float)
        else:
            accelerations = np.minimum(globalMaxAccelerations, self.maxAccelerations)
        if min(accelerations) == 0.0:
            raise ValueError("ProfilePTP: the maximum acceleration of every coordinate must be > 0")
        velocities = np.sqrt(accelerations * np.abs(distances))   # the peak of a pure accelerate-decelerate motion
        for limit in (globalMaxVelocities, self.maxVelocities):
            if len(limit) != 0:
                velocities = np.minimum(velocities, limit)
        durations = velocities / accelerations
        for i in range(len(durations)):
            if velocities[i] != 0:
                durations[i] += abs(distances[i]) / velocities[i]
            elif distances[i] != 0:
                raise ValueError("ProfilePTP: a maximum velocity of zero needs a distance of zero")
        duration = max(durations)
        synchronous = np.array(velocities, dtype=float)
        for i in range(len(accelerations)):   # v^2 - a T v + a |s| = 0: the velocity that ends at T
            b = -accelerations[i] * duration
            discriminant = b * b - 4 * abs(distances[i]) * accelerations[i]
            if discriminant < 0:
                if discriminant < -1e-10:
                    raise ValueError("ProfilePTP: no synchronous profile for these parameters")
                discriminant = 0.0
            synchronous[i] = min(0.5 * (-b - np.sqrt(discriminant)), velocities[i])
        return BasicProfile([np.array(initialCoordinates, dtype=float), self.finalCoordinates], initialTime,
                            initialTime + duration, synchronous / accelerations, synchronous, accelerations)


class Trajectory:
    """Profiles one after the other, starting from ``initialCoordinates`` at ``initialTime`` [s];
    ``maxVelocities`` and ``maxAccelerations`` (per coordinate, may be empty) limit ProfilePTP profiles."""

    def __init__(self, initialCoordinates, initialTime=0, maxVelocities=[], maxAccelerations=[]):
        if min(list(maxVelocities) + [1]) <= 0:
            raise ValueError("Trajectory: maxVelocities must be > 0")
        if min(list(maxAccelerations) + [1]) <= 0:
            raise ValueError("Trajectory: maxAccelerations must be > 0")
        self.initialTime = initialTime
        self.initialCoordinates = initialCoordinates
        self.globalMaxVelocities = maxVelocities
        self.globalMaxAccelerations = maxAccelerations
        self.profiles = []
        self.initialized = False
        self.timesList = []

    def GetFinalCoordinates(self):
        """The coordinates at the end of the last profile (the initial ones without profiles)."""
        return self.profiles[-1].GetFinalCoordinates() if self.profiles else self.initialCoordinates

    def Add(self, profile):
        """Append a profile (ProfileConstantAcceleration, ProfilePTP, ...) starting where the last one ends."""
        self.initialized = False
        self.profiles.append(profile.GetBasicProfile(self.GetTimes()[-1], self.GetFinalCoordinates(),
                                                     self.globalMaxVelocities, self.globalMaxAccelerations))

    def GetTimes(self) -> list:
        """The start time and the end time of every profile [s]."""
        return [self.initialTime] + [profile.finalTime for profile in self.profiles]

    def Initialize(self):
        self.timesList = self.GetTimes()
        self.initialized = True

    def _segment(self, t) -> int:
        """Number of profile boundaries before t: 0 before the start, len(profiles) + 1 after the end."""
        if not self.initialized:
            self.Initialize()
        count = 0
        while count < len(self.timesList) and t > self.timesList[count]:
            count += 1
        return count

    def Evaluate(self, t) -> list:
        """[positions, velocities, accelerations] (arrays) at time t [s]."""
        count = self._segment(t)
        if 0 < count < len(self.timesList):
            return self.profiles[count - 1].Evaluate(t)
        resting = self.profiles[0].GetInitialCoordinates() if count == 0 else self.profiles[-1].GetFinalCoordinates()
        return [resting, np.zeros(len(resting)), np.zeros(len(resting))]

    def EvaluateCoordinate(self, t, coordinate) -> list:
        """[position, velocity, acceleration] of one coordinate at time t [s]."""
        count = self._segment(t)
        if 0 < count < len(self.timesList):
            return self.profiles[count - 1].EvaluateCoordinate(t, coordinate)
        resting = self.profiles[0].GetInitialCoordinates() if count == 0 else self.profiles[-1].GetFinalCoordinates()
        return [resting[coordinate], 0.0, 0.0]

    def __iter__(self):
        return iter(self.profiles)

    def __getitem__(self, key):
        return self.profiles[key]

    def __len__(self):
        return len(self.profiles)

    def __repr__(self):
        return str(self.profiles)
