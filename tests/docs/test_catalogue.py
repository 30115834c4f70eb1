"""The component catalogue: every parameter of every component has a docstring entry, and the generated page
describes every component with what its code says."""
import inspect

import pytest

import floatframe.components as fc
from floatframe import catalogue
from floatframe.components.base import Component

CLASSES = catalogue.component_classes()


def test_every_family_is_catalogued():
    exported = {getattr(fc, name) for name in fc.__all__}
    concrete = {cls for cls in exported if isinstance(cls, type) and issubclass(cls, Component) and cls is not Component
                and cls.__dict__.get("type_name") == cls.__name__}
    assert set(CLASSES) == concrete
    assert {catalogue.family_of(cls) for cls in CLASSES} == set(catalogue.FAMILIES)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_every_parameter_has_a_docstring_entry(cls):
    """Each __init__ parameter is named in the Parameters section of the class (or __init__) docstring, or of
    a base class whose entry it inherits, with a type line and a description."""
    entries = catalogue.documented_parameters(cls)
    names = [name for name, parameter in inspect.signature(cls.__init__).parameters.items()
             if name != "self" and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)]
    missing = [name for name in names if name not in entries]
    assert not missing, f"{cls.__name__}: no docstring entry for {missing}"
    incomplete = [name for name in names if not all(entries[name])]
    assert not incomplete, (f"{cls.__name__}: the entries of {incomplete} need a type line (type, shape, unit, "
                            f"default) and a description")


def test_a_missing_entry_is_found():
    class Documented(Component):
        """A test component.

        Parameters
        ----------
        stiffness : float, N/m
            The spring rate.
        """

        type_name = "Documented"

        def __init__(self, stiffness, damping=0.0, name=""):
            super().__init__(name)

    assert catalogue.undocumented_parameters(Documented) == ["damping"]


def test_parameters_section_parser():
    _, sections = catalogue.split_sections("""Summary.

    Parameters
    ----------
    a, b : (3,) array_like, m
        First line
        second line.
    c : float

    Notes
    -----
    Text.
    """)
    entries = catalogue.parse_parameters(sections["Parameters"])
    assert entries == {"a": ("(3,) array_like, m", "First line second line."),
                       "b": ("(3,) array_like, m", "First line second line."), "c": ("float", "")}
    assert sections["Notes"].strip() == "Text."


def test_page_lists_components_parameters_outputs_and_exudyn_names():
    page = catalogue.catalogue_markdown()
    for cls in CLASSES:
        assert f"### {cls.__name__}\n" in page
        section = page.split(f"### {cls.__name__}\n", 1)[1].split("\n### ", 1)[0]
        for name in inspect.signature(cls.__init__).parameters:
            if name != "self":
                assert f"| `{name}`" in section, (cls.__name__, name)
    rigid = page.split("### ObjectRigidBody\n", 1)[1].split("\n### ", 1)[0]
    assert "`ObjectRigidBody`" in rigid and "kg m^2" in rigid and "`AngularVelocityLocal`" in rigid
    node = page.split("### NodeRigidBodyEP\n", 1)[1].split("\n### ", 1)[0]
    assert "**Coordinates it owns:** 7" in node and "1 constraint equation" in node
    revolute = page.split("### RevoluteJoint\n", 1)[1].split("\n### ", 1)[0]
    assert "`ObjectJointRevoluteZ`" in revolute


def test_page_lists_each_class_s_declared_outputs():
    """The output line of every entry is the class's declaration (``output_variables``): the joints list theirs
    (Angle where the one free rotation is about z), a position marker lists no rotation output."""
    page = catalogue.catalogue_markdown()

    def output_line(name):
        section = page.split(f"### {name}\n", 1)[1].split("\n### ", 1)[0]
        return section.split("**Output variables:** ", 1)[1].split("\n", 1)[0]

    for cls in CLASSES:
        if catalogue.family_of(cls) != "sensor":
            assert output_line(cls.__name__) == (", ".join(f"`{name}`" for name in cls.output_variables) or "none")
    assert "`Angle`" in output_line("RevoluteJoint") and "`TorqueLocal`" in output_line("RevoluteJoint")
    assert "`Angle`" not in output_line("PrismaticJoint") and "`ForceLocal`" in output_line("PrismaticJoint")
    assert output_line("MarkerNodePosition") == "`Position`, `Displacement`, `Velocity`"
    assert "`HomogeneousTransformation`" in output_line("MarkerBodyRigid")
    assert output_line("MarkerBodyMass") == "none" and output_line("LoadForceVector") == "none"
    assert "`Position`" not in output_line("NodeGenericODE2")


def test_outputs_are_accepted_by_the_component():
    """The outputs the catalogue lists for a rigid body are the ones its output method evaluates."""
    import floatframe as ff

    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0]))
    sensors = {name: system.add(ff.SensorBody(body, name)) for name in catalogue.output_variables(ff.ObjectRigidBody)}
    node_sensors = {name: system.add(ff.SensorNode(node, name))
                    for name in catalogue.output_variables(ff.NodeRigidBodyEP)}
    system.assemble()
    assert len(sensors) == 12 and len(node_sensors) == 13


@pytest.mark.parametrize("joint, count", [("SphericalJoint", 3), ("RevoluteJoint", 5), ("UniversalJoint", 4)])
def test_stated_constraint_counts_are_those_of_an_assembled_model(joint, count):
    """The catalogue's count for a joint equals the multipliers it adds to a model (two free rigid bodies,
    whose two Euler-parameter norms add one multiplier each)."""
    import floatframe as ff

    assert catalogue.equations_text(getattr(ff, joint)).startswith(f"{count} constraint equations")
    system = ff.System()
    markers = []
    for x in (0.0, 1.0):
        node = system.add(ff.NodeRigidBodyEP([x, 0, 0, 1, 0, 0, 0]))
        body = system.add(ff.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0]))
        markers.append(system.add(ff.MarkerBodyRigid(body, [0.5 - x, 0, 0])))
    system.add(getattr(ff, joint)(markers))
    assert system.assemble().n_multipliers - 2 == count
