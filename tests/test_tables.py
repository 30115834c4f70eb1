"""floatframe's one header style for tables (floatframe/solvers/result.py, docs/conventions.md "Tables"): a plain
first line of comma-separated "quantity [unit]" names, then the rows with every digit; numpy (skiprows=1),
pandas (header=0) and read_table read it back; sensor columns are named by sensor, variable and component with
the variable's unit."""
import numpy as np
import pandas
import pytest

import floatframe as ff
from floatframe.solvers.result import (OUTPUT_UNITS, column_name, read_table, sensor_columns, write_table)


def test_a_table_has_one_plain_header_line_of_names_with_units_and_reads_back_exactly(tmp_path):
    values = np.column_stack([np.linspace(0.0, 0.1, 5), np.pi * np.arange(5), 1e-17 * np.arange(5)])
    names = [column_name("t", "s"), column_name("hub angle", "rad"), column_name("tip deflection", "m")]
    path = write_table(tmp_path / "table.csv", names, values)
    lines = path.read_text().splitlines()
    assert lines[0] == "t [s],hub angle [rad],tip deflection [m]"
    assert len(lines) == 6
    np.testing.assert_array_equal(np.loadtxt(path, delimiter=",", skiprows=1), values)
    frame = pandas.read_csv(path)
    assert list(frame.columns) == names
    np.testing.assert_array_equal(frame.to_numpy(), values)
    read_names, read_values = read_table(path)
    assert read_names == names
    np.testing.assert_array_equal(read_values, values)


def test_a_name_without_a_unit_or_of_another_count_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"^write_table: column names need a unit, 'quantity \[unit\]': \['x'\]"):
        write_table(tmp_path / "bad.csv", ["t [s]", "x"], np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"^write_table: 1 column names for values of shape \(2, 2\)"):
        write_table(tmp_path / "bad.csv", ["t [s]"], np.zeros((2, 2)))
    assert column_name("strain", "") == "strain [-]"


def test_sensor_columns_name_the_sensor_the_variable_the_component_and_the_unit():
    assert sensor_columns("tip", "Position", 3) == ["tip Position x [m]", "tip Position y [m]", "tip Position z [m]"]
    assert sensor_columns("hinge", "Angle", 1) == ["hinge Angle [rad]"]
    assert sensor_columns("", "AngularVelocityLocal", 3)[2] == "AngularVelocityLocal z [rad/s]"
    assert sensor_columns("rotor", "StressLocal", 6)[3] == "rotor StressLocal yz [Pa]"
    assert sensor_columns("node", "Coordinates", 6)[5] == "node Coordinates 5 [SI]"
    assert sensor_columns("frame", "RotationMatrix", 9)[5] == "frame RotationMatrix A12 [-]"
    assert sensor_columns("x", "SomethingNew", 2) == ["x SomethingNew 0 [?]", "x SomethingNew 1 [?]"]


def test_every_output_variable_of_the_components_has_a_unit():
    """The output variables the components declare (their 'available:' lists) are all in OUTPUT_UNITS."""
    import re
    from pathlib import Path

    source = "".join(path.read_text() for path in (Path(ff.__file__).parent / "components").glob("*.py"))
    declared = set(re.findall(r'"([A-Z][A-Za-z_]+)": lambda', source))
    declared |= {"Position", "Displacement", "Velocity", "Acceleration", "DisplacementLocal", "VelocityLocal",
                 "AccelerationLocal", "StressLocal", "StrainLocal", "Load", "Angle"}
    assert declared - set(OUTPUT_UNITS) == set()


def test_a_result_names_its_sensor_columns_by_their_variables():
    result = ff.solvers.SimulationResult(t=np.zeros(2), q=np.zeros((2, 1)), v=np.zeros((2, 1)), a=np.zeros((2, 1)),
                                         lam=np.zeros((2, 0)), sensors=[np.zeros((2, 3)), np.zeros((2, 1))],
                                         statistics=ff.solvers.result.SolverStatistics(),
                                         sensor_names=["tip", "hinge"], sensor_variables=["Velocity", "Angle"])
    assert result.sensor_columns(0) == ["tip Velocity x [m/s]", "tip Velocity y [m/s]", "tip Velocity z [m/s]"]
    assert result.sensor_columns(1) == ["hinge Angle [rad]"]


def test_write_csv_names_the_columns_of_a_solved_sensor_with_their_units(tmp_path):
    """A pendulum solved and written: the header is 't [s]' and the sensor's named components with units, the
    rows are the stored values; 'floatframe plot' reads the file and labels the axis with the unit."""
    from floatframe.pictures.render import read_sensor

    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    body = system.add(ff.ObjectRigidBody(node, 1.0, [0.1, 0.1, 0.1, 0.0, 0.0, 0.0]))
    ground = system.add(ff.ObjectGround())
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyRigid(ground)),
                                  system.add(ff.MarkerBodyRigid(body, [0.0, 1.0, 0.0]))]))
    system.add(ff.Gravity([3.0, -9.81, 0.0]))                         # it swings out towards +x
    sensor = system.add(ff.SensorBody(body, "Velocity", name="bob"))
    result = ff.GeneralizedAlpha(0.9).solve(system.assemble(), 0.05, 5)
    path = result.write_csv(tmp_path / "bob.csv", sensor)
    assert path.read_text().splitlines()[0] == "t [s],bob Velocity x [m/s],bob Velocity y [m/s],bob Velocity z [m/s]"
    names, values = read_table(path)
    np.testing.assert_array_equal(values, result.sensor(sensor, with_time=True))
    t, read, _, label = read_sensor(path)
    np.testing.assert_array_equal(read, result.sensor(sensor))
    assert np.abs(read[-1, 0]) > 0.1
    assert label == "value [m/s]"
