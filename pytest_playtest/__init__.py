"""pytest-playtest: play-test GUI apps and games from pytest, with real input on a virtual display.

Importing this package starts nothing and needs no display.
"""

from . import expect
from .actions import Action
from .verdict import Finding, Verdict

__all__ = ["Action", "Finding", "Verdict", "expect"]
__version__ = "0.1.0"
