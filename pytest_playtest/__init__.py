"""pytest-playtest: play-test GUI apps and games from pytest, with real input on a virtual display.

Importing this package starts nothing and needs no display; ``Playtest`` (the fixture's type, for
annotations) is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import expect
from .actions import Action
from .verdict import Finding, Verdict

if TYPE_CHECKING:
    from .fixture import Playtest

__all__ = ["Action", "Finding", "Playtest", "Verdict", "expect"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "Playtest":
        from .fixture import Playtest

        return Playtest
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
