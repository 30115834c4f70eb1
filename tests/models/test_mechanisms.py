"""Claims about the ready mechanisms (double pendulum, slider-crank, flexible arm): their energy, their rigid
limits and their closed-form kinematics, and the command that runs them."""
import numpy as np
import pytest

from floatframe.cli import main
from floatframe.models.double_pendulum import build_double_pendulum
from floatframe.models.energy import mechanical_energy
from floatframe.models.flexible_arm import build_flexible_arm
from floatframe.models.slider_crank import build_slider_crank
from floatframe.solvers import GeneralizedAlpha

TIGHT = dict(relative_tolerance=1e-12, absolute_tolerance=1e-12)


def solve(model, t_end, h, spectral_radius=1.0):
    assembled = model.system.assemble()
    steps = int(round(t_end / h))
    return assembled, GeneralizedAlpha(spectral_radius, **TIGHT).solve(assembled, t_end, steps)


def energy(assembled, result, k, gravity=(0.0, 0.0, 0.0)):
    return mechanical_energy(assembled, result.t[k], result.q[k], result.v[k], gravity)


def tip_deviation(model, result):
    """Largest distance [m] of the flexible link's tip from the rigid mechanism's."""
    return np.linalg.norm(result.sensor(model.tip_sensor) - model.rigid_tip(result), axis=1).max()


def test_the_double_pendulum_keeps_its_energy_to_second_order_in_the_step():
    """Generalized-alpha without numerical damping (spectral radius 1): released from the horizontal, the energy
    error after 0.3 s falls 4-fold per halved step (measured 1.9e-5 J and 5.1e-6 J, with 3.4 J of kinetic energy)."""
    errors = []
    for h in (1e-3, 5e-4):
        model = build_double_pendulum()
        assembled, result = solve(model, 0.3, h)
        start, end = energy(assembled, result, 0, model.gravity), energy(assembled, result, -1, model.gravity)
        assert end.kinetic > 3.0
        errors.append(abs(end.total - start.total) / end.kinetic)
    assert errors[0] < 1e-5
    assert 3.6 < errors[0] / errors[1] < 4.6


def test_a_stiff_second_link_follows_the_rigid_double_pendulum_at_second_order():
    """100 times the aluminium stiffness: the tip's distance from the rigid double pendulum (scipy, 1e-12) is
    the time-stepping error, which falls 4-fold per halved step (measured 2.7e-6 m and 6.8e-7 m after 0.3 s)."""
    deviations = []
    for h in (1e-3, 5e-4):
        model = build_double_pendulum(stiffness_scale=100.0)
        _, result = solve(model, 0.3, h)
        deviations.append(tip_deviation(model, result))
    assert deviations[1] < 1e-6
    assert 3.5 < deviations[0] / deviations[1] < 4.5


def test_the_piston_follows_the_slider_crank_formula_up_to_the_rods_compliance():
    """x_p = r cos phi + sqrt(l^2 - r^2 sin^2 phi) holds for a rigid rod; the flexible rod's deviation from it
    (the rod's stretch and bending, 3.4e-7 m for aluminium) falls as 1/stiffness (3.3e-9 m at 100 times)."""
    deviations = []
    for scale in (1.0, 100.0):
        model = build_slider_crank(stiffness_scale=scale, torque=[0.0, 0.0, 0.2])
        _, result = solve(model, 0.1, 5e-4)
        assert model.crank_angle(result)[-1] > 1.0                      # the crank has turned by 60 degrees
        deviations.append(tip_deviation(model, result))
    assert 1e-7 < deviations[0] < 1e-6
    assert 70 < deviations[0] / deviations[1] < 140


def test_the_work_of_the_crank_torque_is_the_energy_the_mechanism_gains():
    """A constant torque tau does the work tau (phi(t) - phi(0)); the kinetic and elastic energy gained equals it
    to 1.2e-5 of it at h = 5e-4 s, and the gap closes with the step (3.5e-6 at 2.5e-4 s)."""
    gaps = []
    for h in (5e-4, 2.5e-4):
        model = build_slider_crank(torque=[0.0, 0.0, 0.2])
        assembled, result = solve(model, 0.1, h)
        angle = model.crank_angle(result)
        work = 0.2 * (angle[-1] - angle[0])
        gaps.append(abs(energy(assembled, result, -1).total - energy(assembled, result, 0).total - work) / work)
    assert gaps[0] < 2e-5
    assert gaps[0] / gaps[1] > 3.0


def test_a_stiff_forearm_follows_the_rigid_arm_driven_by_the_same_torques():
    """100 times the aluminium stiffness: the forearm tip's distance from the rigid two-link arm falls at second
    order with the step (measured 1.0e-4 m and 2.8e-5 m over 0.5 s; the aluminium forearm itself deviates by
    3.9e-4 m: it bends)."""
    deviations = []
    for h in (1e-3, 5e-4):
        model = build_flexible_arm(stiffness_scale=100.0)
        _, result = solve(model, 0.5, h)
        deviations.append(tip_deviation(model, result))
    assert deviations[1] < 4e-5
    assert deviations[0] / deviations[1] > 3.3


def test_after_the_torque_pulse_the_arm_keeps_its_energy():
    """From the end of the 0.3 s pulse to 0.5 s no torque acts: kinetic plus elastic energy stays, to second
    order in the step (measured 1.8e-6 J and 4.1e-7 J of 1.59 J; 5.7e-6 J at h = 1e-3 s, before the asymptotic
    range)."""
    drifts = []
    for h in (5e-4, 2.5e-4):
        model = build_flexible_arm()
        assembled, result = solve(model, 0.5, h)
        pulse_end = int(round(0.3 / h))
        start, end = energy(assembled, result, pulse_end), energy(assembled, result, -1)
        drifts.append(abs(end.total - start.total) / start.total)
    assert drifts[0] < 2e-6
    assert 3.3 < drifts[0] / drifts[1] < 4.7


def test_the_full_mesh_link_and_the_reduced_link_move_alike():
    """The double pendulum's second link as the full FFRF mesh (6 elements, 189 coordinates, Tisserand frame)
    and on its Craig-Bampton basis (6 static and 4 fixed-interface modes): the tips agree to 1e-8 m (measured
    1.1e-9 m over 0.1 s)."""
    tips = []
    for modes in (None, 4):
        model = build_double_pendulum(modes=modes, n_elements=6)
        _, result = solve(model, 0.1, 1e-3, spectral_radius=0.8)
        tips.append(result.sensor(model.tip_sensor))
    assert np.abs(tips[0] - tips[1]).max() < 1e-8


@pytest.mark.parametrize("model", ["double-pendulum", "slider-crank", "flexible-arm"])
def test_run_prints_the_tip_and_writes_the_plot_and_the_csv(model, tmp_path, capsys):
    assert main(["run", model, "--steps", "20", "--output", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "largest distance from the rigid mechanism's tip" in printed
    stem = model.replace("-", "_")
    assert (tmp_path / f"{stem}.png").stat().st_size > 10_000
    rows = (tmp_path / f"{stem}_tip.csv").read_text().splitlines()
    assert len(rows) == 1 + 21
