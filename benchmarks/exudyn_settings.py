"""The simulation settings of Exudyn's performance test, shared by the benchmarks that time Exudyn-style scripts
(kept free of heavy imports: a benchmark process that measures exudyn's memory imports only this)."""


def performance_settings(exu, steps: int, h: float, sensor_period: float):
    """``exu.SimulationSettings()`` for ``steps`` steps of ``h`` [s]: generalized-alpha with spectral radius 0.5
    and modified Newton, quiet, sensors written every ``sensor_period`` [s], no solution file. ``exu`` is
    exudyn or floatframe.exudyn."""
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = steps * h
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.newton.useModifiedNewton = True
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    settings.solution.sensors.writePeriod = sensor_period
    settings.solution.file.write = False
    return settings
