"""Exudyn's helper modules basicUtilities and interactive, against exudyn 1.13.6.

Claims: the Gauss and Lobatto points and weights, and the integrals of a smooth function at every order Exudyn
accepts, equal exudyn's; orders Exudyn refuses are refused; Normalize as exudyn's; interactive's windows are ignored
with a warning and keep exudyn's parameters; names of those modules the layer lacks raise an error naming them."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
import floatframe.exudyn.basicUtilities as ffb
import floatframe.exudyn.interactive as ffi

exudyn = pytest.importorskip("exudyn")
import exudyn.basicUtilities as exb  # noqa: E402
import exudyn.interactive as exi  # noqa: E402


def test_quadrature_points_and_weights_equal_exudyns():
    for name in ("gaussIntegrationPoints", "gaussIntegrationWeights", "lobattoIntegrationPoints",
                 "lobattoIntegrationWeights"):
        ours, theirs = getattr(ffb, name), getattr(exb, name)
        assert [len(p) for p in ours] == [len(p) for p in theirs]
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)


def test_integrals_equal_exudyns_at_every_accepted_order():
    function = lambda x: np.exp(x) + x ** 8 - 3 * x ** 5  # noqa: E731
    for order in (1, 3, 5, 7, 9):
        assert ffb.GaussIntegrate(function, order, 0.3, 2.0) == pytest.approx(
            exb.GaussIntegrate(function, order, 0.3, 2.0), rel=1e-14)
    for order in (1, 3, 5):
        assert ffb.LobattoIntegrate(function, order, -1.5, 0.5) == pytest.approx(
            exb.LobattoIntegrate(function, order, -1.5, 0.5), rel=1e-14)
    assert ffb.GaussIntegrate(lambda x: x ** 9, 9, 0, 1) == pytest.approx(0.1, rel=1e-14)   # exact at its order
    for rule, orders in ((ffb.GaussIntegrate, (0, 2, 11)), (ffb.LobattoIntegrate, (0, 4, 7))):
        for order in orders:
            with pytest.raises(ValueError, match=f"integration order {order} is not one of 1, 3"):
                rule(function, order, 0, 1)


def test_normalize_and_constants_as_exudyns():
    for vector in ([3, 4], [0, 0, 0], [1e-3, -2, 7]):
        assert ffb.Normalize(vector) == pytest.approx(exb.Normalize(vector), rel=1e-15)
    assert (ffb.g, ffb.pi, ffb.sqrt2) == (exb.g, exb.pi, exb.sqrt2)
    with pytest.raises(ffexu.ExudynLayerError, match="does not support exudyn's 'RecoverSolutionFile'"):
        ffb.RecoverSolutionFile("x.txt", "y.txt")


def test_interactive_windows_are_ignored_with_exudyns_parameters():
    import inspect
    for name in ffi.SUPPORTED:
        assert list(inspect.signature(getattr(ffi, name)).parameters) == \
            list(inspect.signature(getattr(exi, name)).parameters), name
    with pytest.warns(UserWarning, match="interactive.AnimateModes: floatframe has no renderer"):
        assert ffi.AnimateModes(None, None, 0, runOnStart=True, scaleAmplitude=0.1) is None
    with pytest.raises(TypeError):
        ffi.AnimateModes(None, None, 0, scaleAmplitudes=0.1)
    with pytest.raises(ffexu.ExudynLayerError, match="does not support exudyn's 'ConvertImages2Video'"):
        ffi.ConvertImages2Video()
