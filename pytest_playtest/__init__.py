"""pytest-playtest: play-test GUI apps and games from pytest, with real input on a virtual display.

Importing this package starts nothing and needs no display. Its public names are imported on first use,
so a pytest session that runs no playtests pays nothing for them (the errors, plain classes, come at once).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import (
    ActionError,
    AppError,
    CoverageError,
    DevToolsError,
    DevToolsTimeout,
    DisplayError,
    DomError,
    EndpointError,
    ExpectationError,
    InputError,
    MergeError,
    OutputFolderError,
    PlaytestBenchmarkWarning,
    PlaytestError,
    PlaytestRepairWarning,
    PlaytestReportWarning,
    PlaytestTimeout,
    PlaytestWarning,
    PolicyError,
    RepairInputError,
    RuleError,
    SandboxError,
    SandboxWarning,
    ScenarioError,
    ShardError,
    SpecError,
    SpliceError,
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
    "ShardError", "MergeError", "SpliceError", "RepairInputError", "DisplayError", "XvfbMissing", "AppError",
    "DomError", "DevToolsError", "DevToolsTimeout", "SandboxError", "CoverageError", "PolicyError", "EndpointError",
    "PlaytestTimeout", "SandboxWarning", "PlaytestReportWarning", "PlaytestBenchmarkWarning",
    "PlaytestRepairWarning",
]
__version__ = "0.1.0"

#: public name → the module that defines it
_HOMES = {"Action": ".actions", "Finding": ".verdict", "Verdict": ".verdict", "Playtest": ".fixture"}


def __getattr__(name: str) -> Any:
    if name == "expect":
        return import_module(".expect", __name__)
    if name in _HOMES:
        return getattr(import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
