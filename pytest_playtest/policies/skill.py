"""What a skill of the heuristic tester is: a thing a person does when the moment calls for it (undo a pause,
restart after a loss, follow a prompt, steer the avatar, turn a card's twin), asked in turn before the tester
explores on its own.

A skill reads the ``Turn`` as far as the tester got (the observation; then the screen it recognised; then the
inputs that screen offers) and proposes a ``Move``: a ``Decision`` given as it is (an input the tester does not
learn from, such as pressing a pause key again), or a ``Choice`` of one of the offered inputs, which the tester
performs and learns from like any other attempt. ``forget`` is called when the app is launched again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .base import Decision, Observation

if TYPE_CHECKING:
    from .exploration import Candidate
    from .notebook import ScreenMemory


@dataclass
class Turn:
    """One decision of the tester, as far as it got: the observation, the screen it recognised, the inputs offered."""

    observation: Observation
    screen: ScreenMemory | None = None
    candidates: list[Candidate] = field(default_factory=list)


@dataclass(frozen=True)
class Choice:
    """One of the offered inputs, chosen for a reason (the step's note)."""

    candidate: Candidate
    why: str


Move = Decision | Choice


class Skill(Protocol):
    """One skill of the heuristic tester."""

    def propose(self, turn: Turn) -> Move | None:
        """What to do now (None: the moment does not call for this skill)."""
        ...

    def forget(self) -> None:
        """The app was launched again: what the skill followed on screen is gone; what it learned stays."""
        ...
