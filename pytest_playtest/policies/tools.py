"""The tool skill: a drawing or editing app used as a person uses it. A control whose click changed the app (a
toolbar button, a radio button, a menu entry) may have chosen a tool or a mode; a person then uses it on the
surface it acts on — a click, a drag, a long drag — before choosing the next one. Only in an app whose code
handles drags (the vocabulary's ``drags``, offered as drag inputs): elsewhere a button is an action, not a tool.
"""

from __future__ import annotations

from ..actions import Action
from .exploration import Candidate, Rank
from .skill import Choice, Turn
from .thresholds import DRAG_FAR, TOOL_CLICK, TOOL_ROUNDS

#: the note of a step that uses the tool just chosen
USING = "with the tool just chosen"


class Tools:
    """The skill that follows a control's click that changed the app with a use of it on the surface."""

    def __init__(self) -> None:
        self.clicked: Candidate | None = None  # the control about to be clicked
        self.rounds: dict[str, int] = {}  # how often each control's click was followed by its uses
        self.uses: list[Candidate] = []  # the uses still to make of the tool chosen last
        self.short_drags = 0  # how many short drags were made (they take turns in their directions)

    def chosen(self, candidate: Candidate) -> None:
        """An input is about to be performed: a single click on a control may choose a tool."""
        one = candidate.actions[0]
        self.clicked = candidate if candidate.box is not None and len(candidate.actions) == 1 and (
            one.kind == "click") else None

    def propose(self, turn: Turn) -> Choice | None:
        self._arm(turn)
        if not self.uses:
            return None
        return Choice(self.uses.pop(0), USING)

    def _arm(self, turn: Turn) -> None:
        """After a control's click that changed the window, the uses of the tool it may have chosen."""
        control, self.clicked = self.clicked, None
        history = turn.observation.history
        if control is None or not history or history[-1].action != control.actions[0] or not history[-1].changed:
            return
        drags = [c for c in turn.candidates if c.actions[0].kind == "drag"]
        if not drags or self.rounds.get(control.name, 0) >= TOOL_ROUNDS:
            return
        self.rounds[control.name] = self.rounds.get(control.name, 0) + 1
        width, height = turn.observation.size
        short = drags[self.short_drags % len(drags)]
        self.short_drags += 1
        x, y = short.actions[0].target or (width // 2, height // 2)
        aside = (x + int(width * TOOL_CLICK), y - int(height * TOOL_CLICK))  # beside what the drags draw
        click = Candidate("tool-click", (Action.click(*aside),), rank=Rank.REST)
        far = Candidate("tool-drag-far", (_drag(width, height),), rank=Rank.REST)
        self.uses = [click, short, far]

    def forget(self) -> None:
        self.clicked, self.uses = None, []


def _drag(width: int, height: int) -> Action:
    """A long drag across the middle of the window, corner to corner of its central part."""
    dx, dy = int(width * DRAG_FAR), int(height * DRAG_FAR)
    cx, cy = width // 2, height // 2
    return Action.drag(cx - dx, cy - dy, cx + dx, cy + dy)
