"""Retries of a control that had no visible effect: clicked again in a new state, with new input first.

A button that applies what a field holds (Convert, Search, Clear) legitimately shows nothing when what it
would show is already on screen. So before a retry the field nearest the button gets new content, as a
person checking the button would do; a working button then shows its effect, a dead one still shows
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import Action
from ..policies.base import Decision
from ..policies.inputs import CLEAR_FIELD
from ..vision import Widget
from .oracles import Oracles

#: What the field gets before each retry, in turn: numbers, the content most apply-buttons accept.
RETRY_TEXTS = ("7", "42", "3")


class Retries:
    """The loop's retries of the oracles' suspect targets, one input per step."""

    def __init__(self, oracles: Oracles) -> None:
        self.oracles = oracles
        self._queued: list[Decision] = []
        self._count = 0

    def next(self, key: str, widgets: Callable[[], Sequence[Widget]]) -> Decision | None:
        """The next input of a retry in the screen state of this hash, or None when none is due.

        ``widgets`` finds the screen's widgets; it is only called when a retry starts.
        """
        if self._queued:
            return self._queued.pop(0)
        target = self.oracles.retry_target(key)
        if target is None:
            return None
        field = _nearest_field(widgets(), target)
        click = Decision(Action.click(*target), note="retry: confirm an input that had no visible effect")
        if field is None:
            return click
        text = RETRY_TEXTS[self._count % len(RETRY_TEXTS)]
        self._count += 1
        note = f"retry: new content {text!r} in the field nearest to {target} first"
        self._queued = [Decision(a, note=note) for a in (*CLEAR_FIELD, Action.type_text(text))] + [click]
        return Decision(Action.click(*field.center), note=note)

    def cancel(self) -> None:
        """Drop what is queued (the app was launched again: its screen is a new one)."""
        self._queued.clear()


def _nearest_field(widgets: Sequence[Widget], target: tuple[int, int]) -> Widget | None:
    fields = [w for w in widgets if w.kind == "field" and not w.box.contains(*target)]
    return min(fields, key=lambda w: (w.center[0] - target[0]) ** 2 + (w.center[1] - target[1]) ** 2,
               default=None)
