"""A misspelt keyword names the function or component the user called and the nearest valid keyword
(floatframe/components/base.py: ``checked_keywords`` for the builder functions, every Component's constructor
checked by the base class), before anything is built:

- add_ffrf_body(..., angular_velocty=...) names add_ffrf_body (not the ObjectFFRF it builds) and
  'angular_velocity'; a keyword of ObjectFFRF it forwards (allow_indefinite_stiffness) is accepted and, misspelt,
  suggested;
- add_reduced_ffrf_body, add_tisserand_frame and the ready models' builders alike;
- every keyword of every component at the top level of floatframe, misspelt, names the component and suggests
  the keyword; a keyword nothing resembles lists the valid ones;
- the error is a TypeError (UnknownKeywordError), as Python's own, and the signatures stay inspectable.
"""
import inspect

import numpy as np
import pytest

import floatframe as ff
from floatframe.components.base import Component, UnknownKeywordError, checked_keywords
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices


@pytest.fixture(scope="module")
def beam():
    mesh = block_mesh(1.0, 0.1, 0.1, 2, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    return mesh, mass, stiffness


def test_a_misspelt_keyword_of_add_ffrf_body_names_it_and_the_keyword_meant(beam):
    mesh, mass, stiffness = beam
    system = ff.System()
    with pytest.raises(UnknownKeywordError, match=r"^add_ffrf_body\(\) got an unexpected keyword argument "
                                                  r"'angular_velocty'; did you mean 'angular_velocity'"):
        ff.add_ffrf_body(system, mesh.nodes, mass, stiffness, angular_velocty=(0.0, 0.0, 1.0))
    with pytest.raises(UnknownKeywordError, match=r"^add_ffrf_body\(\) .* 'allow_indefinite_stifness'; did you "
                                                  r"mean 'allow_indefinite_stiffness'\?$"):
        ff.add_ffrf_body(system, mesh.nodes, mass, stiffness, allow_indefinite_stifness=True)
    assert not system.nodes                                           # refused before anything was added
    body = ff.add_ffrf_body(system, mesh.nodes, mass, stiffness, allow_indefinite_stiffness=True, name="beam")
    assert body.name == "beam"                                        # a forwarded keyword passes
    with pytest.raises(TypeError, match=r"^add_tisserand_frame\(\) got an unexpected keyword argument 'bdy'; "
                                        r"did you mean 'body'\?$"):
        ff.add_tisserand_frame(system, bdy=body)


def test_the_reduced_body_and_the_ready_models_name_themselves(beam):
    from floatframe.models.flexible_arm import build_flexible_arm
    from floatframe.models.flexible_link import add_flexible_link
    from floatframe.models.slider_crank import build_slider_crank

    mesh, mass, stiffness = beam
    modes = eigenmodes(mass, stiffness, 2)
    with pytest.raises(UnknownKeywordError, match=r"^add_reduced_ffrf_body\(\) .* 'rayliegh'; did you mean "
                                                  r"'rayleigh'\?$"):
        ff.add_reduced_ffrf_body(ff.System(), mesh.nodes, mass, stiffness, modes, rayliegh=(0.0, 1e-4))
    for builder, wrong, meant in [(build_slider_crank, "mode", "modes"), (build_flexible_arm, "lenght2", "length2"),
                                  (add_flexible_link, "stiffness_scal", "stiffness_scale")]:
        arguments = (ff.System(),) if builder is add_flexible_link else ()
        with pytest.raises(UnknownKeywordError, match=rf"^{builder.__name__}\(\) got an unexpected keyword "
                                                      rf"argument '{wrong}'; did you mean '{meant}'"):
            builder(*arguments, **{wrong: 1})


def component_classes():
    return sorted({item for item in vars(ff).values() if inspect.isclass(item) and issubclass(item, Component)
                   and item is not Component}, key=lambda item: item.__name__)


def keyword_cases():
    cases = []
    for item in component_classes():
        for parameter in inspect.signature(item).parameters.values():
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY) and len(parameter.name) > 3:
                cases.append((item, parameter.name))
    return cases


def test_every_component_checks_its_keywords():
    assert len(component_classes()) >= 40
    assert len(keyword_cases()) >= 150


@pytest.mark.parametrize("component, keyword", keyword_cases(),
                         ids=[f"{item.__name__}-{keyword}" for item, keyword in keyword_cases()])
def test_a_misspelt_keyword_of_a_component_names_it_and_suggests_the_keyword(component, keyword):
    misspelt = keyword[:-2] + keyword[-1]                            # one letter left out
    with pytest.raises(UnknownKeywordError) as raised:
        component(**{misspelt: 0})
    message = str(raised.value)
    assert message.startswith(f"{component.__name__}() got an unexpected keyword argument '{misspelt}'; did you mean ")
    assert f"'{keyword}'" in message.split("did you mean ")[1]


def test_a_keyword_nothing_resembles_lists_the_valid_ones():
    with pytest.raises(UnknownKeywordError, match=r"^Gravity\(\) got an unexpected keyword argument 'zzz'; "
                                                  r"valid keywords: acceleration, name$"):
        ff.Gravity([0.0, 0.0, -9.81], zzz=1)


def test_a_subclass_is_named_as_called_and_signatures_stay_inspectable():
    with pytest.raises(UnknownKeywordError, match=r"^PrismaticJoint\(\) .* did you mean 'rotation_marker0'"):
        ff.PrismaticJoint([0, 1], rotation_markr0=np.eye(3))
    assert "angular_velocity" in inspect.signature(ff.add_ffrf_body).parameters
    assert list(inspect.signature(ff.RevoluteJoint).parameters)[:2] == ["marker_numbers", "rotation_marker0"]


def test_the_decorator_checks_a_plain_function_and_leaves_open_keywords_alone():
    @checked_keywords
    def scaled(value, factor=2.0):
        return value * factor

    assert scaled(3.0, factor=3.0) == 9.0
    with pytest.raises(UnknownKeywordError, match=r"^scaled\(\) got an unexpected keyword argument 'facto'; "
                                                  r"did you mean 'factor'\?$"):
        scaled(3.0, facto=3.0)

    @checked_keywords
    def anything(**options):
        return options

    assert anything(whatever=1) == {"whatever": 1}
