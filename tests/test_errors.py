"""The errors a user can meet: one base, exported from the package, their old built-in bases kept."""

from __future__ import annotations

import importlib
import inspect

import pytest

import pytest_playtest
from pytest_playtest import errors


def _public_classes() -> list[type]:
    return [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]


@pytest.mark.parametrize("cls", [c for c in _public_classes() if c.__name__ not in pytest_playtest._INTERNAL_ERRORS],
                         ids=lambda c: c.__name__)
def test_every_error_a_user_meets_is_exported_under_its_base(cls: type) -> None:
    assert getattr(pytest_playtest, cls.__name__) is cls
    assert cls.__name__ in pytest_playtest.__all__
    assert issubclass(cls, pytest_playtest.PlaytestWarning if issubclass(cls, Warning)
                      else pytest_playtest.PlaytestError)


@pytest.mark.parametrize("name", sorted(pytest_playtest._INTERNAL_ERRORS))
def test_an_internal_error_still_imports_from_the_root_with_a_warning(name: str) -> None:
    assert name not in pytest_playtest.__all__
    home = pytest_playtest._INTERNAL_ERRORS[name]
    with pytest.warns(pytest_playtest.PytestPlaytestDeprecationWarning, match=f"pytest_playtest.{name} .*{home}"):
        cls = getattr(pytest_playtest, name)
    assert cls is getattr(errors, name) and issubclass(cls, pytest_playtest.PlaytestError)
    assert getattr(importlib.import_module(home), name) is cls


def test_the_deprecation_warning_is_a_playtest_warning_and_a_deprecation_warning() -> None:
    assert issubclass(pytest_playtest.PytestPlaytestDeprecationWarning, pytest_playtest.PlaytestWarning)
    assert issubclass(pytest_playtest.PytestPlaytestDeprecationWarning, DeprecationWarning)


def test_built_in_bases_still_catch_them() -> None:
    assert issubclass(pytest_playtest.SpecError, ValueError)
    assert issubclass(pytest_playtest.PlaytestTimeout, AssertionError)
    assert issubclass(pytest_playtest.XvfbMissing, RuntimeError)
    assert issubclass(pytest_playtest.SandboxWarning, UserWarning)


def test_a_bad_marker_argument_is_caught_as_a_playtest_error() -> None:
    from types import SimpleNamespace

    from pytest_playtest.loop.spec import RunSpec

    defaults = SimpleNamespace(policy="heuristic", max_steps=10, timeout=5.0, options={})
    with pytest.raises(pytest_playtest.PlaytestError, match="test_x: playtest argument max_steps"):
        RunSpec.from_kwargs({"app": "main.py", "max_steps": "many"}, defaults=defaults, where="test_x")
