"""pytest-playtest: play-test GUI apps and games from pytest, with real input on a virtual display.

Importing this package starts nothing and needs no display. Its public names are imported on first use,
so a pytest session that runs no playtests pays nothing for them (the errors, plain classes, come at once).
Only the errors a test can meet are exported here; the ones in ``_INTERNAL_ERRORS`` still import from the
root, with a ``PytestPlaytestDeprecationWarning``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import (
    ActionError,
    AppError,
    CoverageError,
    DevToolsError,
    DisplayError,
    DomError,
    EndpointError,
    ExpectationError,
    InputError,
    OutputFolderError,
    PlaytestBenchmarkWarning,
    PlaytestError,
    PlaytestRepairWarning,
    PlaytestReportWarning,
    PlaytestTimeout,
    PlaytestWarning,
    PolicyError,
    PytestPlaytestDeprecationWarning,
    RepairInputError,
    RuleError,
    SandboxError,
    SandboxWarning,
    ScenarioError,
    SpecError,
    XvfbMissing,
)

if TYPE_CHECKING:
    from . import expect
    from .actions import Action
    from .fixture import Playtest
    from .verdict import Finding, Verdict

__all__ = [
    "Action", "Finding", "Playtest", "Verdict", "expect", "PlaytestError", "PlaytestWarning", "SpecError",
    "ExpectationError", "RuleError", "ActionError", "InputError", "ScenarioError", "OutputFolderError",
    "RepairInputError", "DisplayError", "XvfbMissing", "AppError", "DomError", "DevToolsError", "SandboxError",
    "CoverageError", "PolicyError", "EndpointError", "PlaytestTimeout", "SandboxWarning", "PlaytestReportWarning",
    "PlaytestBenchmarkWarning", "PlaytestRepairWarning", "PytestPlaytestDeprecationWarning",
]
__version__ = "0.1.0"

#: public name → the module that defines it
_HOMES = {"Action": ".actions", "Finding": ".verdict", "Verdict": ".verdict", "Playtest": ".fixture"}


#: Errors that never reach a test, once exported here: name → where to import it from now. A bad
#: shard option is a pytest usage error; the browser's timeouts end a run as ``error``;
#: ``playtest-merge`` and the splice functions of ``pytest_playtest.benchmark`` raise the other two.
_INTERNAL_ERRORS = {"DevToolsTimeout": "pytest_playtest.errors", "ShardError": "pytest_playtest.errors",
                    "MergeError": "pytest_playtest.benchmark", "SpliceError": "pytest_playtest.benchmark"}


def __getattr__(name: str) -> Any:
    if name == "expect":
        return import_module(".expect", __name__)
    if name in _HOMES:
        return getattr(import_module(_HOMES[name], __name__), name)
    if name in _INTERNAL_ERRORS:
        import warnings

        from . import errors

        warnings.warn(PytestPlaytestDeprecationWarning(
            f"pytest_playtest.{name} is deprecated: it is no error a test meets; import it from "
            f"{_INTERNAL_ERRORS[name]}"), stacklevel=2)
        return getattr(errors, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
