"""Probing one input's effect on a still app as a careful person does: the pointer rests on the target first (a
toolkit lights what it hovers, and without this a dead button "reacts" to its click), the effect is awaited and
let finish drawing, and a click on a button that showed nothing is given a little longer (a loaded machine draws
late). Where the pointer rests is known, so a change around it alone is the last input's aftermath (a hover or
focus ring fading in), not the app moving by itself.
"""

from __future__ import annotations

import numpy as np

from ..actions import POINTER_KINDS, Action
from ..geometry import Box
from ..runtime.screen import Change
from ..vision import Widget
from .oracles import Oracles
from .spec import Pacing
from .stage import Stage
from .surface import Surface
from .thresholds import POINTER_REACH, QUICK_POLL
from .watching import let_animations_end, settle, until_still


class Probe:
    """Where the pointer rests and whether the app lights buttons; the frames an input's effect is judged on."""

    def __init__(self, stage: Stage, surface: Surface, oracles: Oracles, pacing: Pacing, *, credit: bool,
                 deadline: float) -> None:
        self.stage, self.surface, self.oracles, self.pacing = stage, surface, oracles, pacing
        self.credit, self.deadline = credit, deadline
        self.pointer: tuple[int, int] | None = None  # where the pointer rests, in window coordinates
        self.lights_buttons = False  # whether the app was seen to highlight a button the pointer rests on
        self.lit: list[Box] = []  # what lit up where the pointer came to rest (a hover highlight), seen so far

    def changed_by_itself(self, before: np.ndarray, after: np.ndarray) -> bool:
        """Whether the window changed with no input of ours in between. A change around the resting pointer
        alone is the last input's aftermath (a button's hover or focus ring fading in), not the app moving."""
        change = self.stage.look().effect(before, after)
        if not change or change.box is None or self.pointer is None:
            return bool(change)
        x, y = self.pointer
        reach = Box(x - POINTER_REACH, y - POINTER_REACH, 2 * POINTER_REACH, 2 * POINTER_REACH)
        return reach.union(Box(*change.box)) != reach

    def moved(self, action: Action) -> None:
        """The action was performed: where the pointer rests now."""
        self.pointer = rests_at(action) or self.pointer

    def effect(self, frame: np.ndarray, action: Action, *, seen: tuple[np.ndarray, str],
               left: Widget | None) -> tuple[np.ndarray, Change, bool]:
        """The frame after an action, how it differs from ``frame``, and whether a click on a widget showed
        nothing. Widgets are found on the frame ``seen`` before the pointer moved (with its hash): a hover
        highlight can hide a button's outline.

        A change inside the button the pointer ``left`` alone is that button losing its highlight late (a
        toolkit may draw it in a second pass, a loaded machine later still), not the action's effect: the
        effect is looked for from that frame on.
        """
        screen = self.stage.look()
        after = settle(screen, frame, action, self.pacing, self.deadline, self.oracles.animating, credit=self.credit)
        if let_animations_end(self.surface.page(), self.deadline):
            # (a page's tile slid on, its score floated up, a card flipped: the effect is where they end; on a
            # page that moves by itself too, a timer may turn cards back)
            after = screen.screenshot()
        change = screen.effect(frame, after)
        if left is not None and change.box is not None and left.encloses(Box(*change.box)):
            frame = after
            after = settle(screen, frame, action, self.pacing, self.deadline, False, credit=self.credit)
            change = screen.effect(frame, after)
        # an unchanged frame of an animating app means nothing: no widget is judged there
        on_widget = not change and not self.oracles.animating and self._on_button(action, *seen)
        if on_widget:
            change = screen.wait_for_change(frame, timeout=self.pacing.confirm, compare=screen.effect)
            after = screen.last
            on_widget = not change
        return after, change, on_widget

    def buttons(self, key: str) -> list[Widget]:
        """The buttons of the frame of this hash, when its widgets are known already (finding them only for
        this would cost an OCR pass per step)."""
        return [w for w in self.surface.known_widgets(key) if w.kind == "button"]

    def _on_button(self, action: Action, frame: np.ndarray, key: str) -> bool:
        """Whether the action is a click that landed on a button (``Surface.on_button``) that may be live."""
        if action.target is None or action.kind not in ("click", "double_click"):
            return False
        return self.surface.on_button(action.target, frame, key) and self._may_be_live(action.target, key)

    def _may_be_live(self, target: tuple[int, int], key: str) -> bool:
        """Whether the button-like thing at ``target`` may be a live control. Where an app lights what the
        pointer rests on (a toolkit's buttons light up, whatever their command does), a button-like thing that
        never lit when the pointer rested on it is no live control but a look-alike: a label drawn in a box (a
        status line, a readout), a button its app disabled."""
        if not self.lit or self.surface.knows_its_buttons:
            return True
        button = self._button_at(key, target)
        return button is None or any(button.box.intersection(box).area for box in self.lit)

    def button_left(self, action: Action, key: str) -> Widget | None:
        """The button the pointer rests on and is about to leave for the action's target, if any (known
        only when the app does not animate: an animating app is not hovered before input)."""
        target = action.target
        if self.pointer is None or target is None or self.oracles.animating:
            return None
        button = self._button_at(key, self.pointer)
        return button if button is not None and not button.box.contains(*target) else None

    def _button_at(self, key: str, point: tuple[int, int]) -> Widget | None:
        return next((w for w in self.buttons(key) if w.box.contains(*point)), None)

    def hover(self, frame: np.ndarray, key: str, action: Action) -> tuple[np.ndarray, str]:
        """The frame (and its hash) to compare the action's effect against, with the pointer already on the
        target.

        Toolkits highlight what the pointer rests on; without this, a dead button "reacts" to its click.
        Once the app has been seen to light a button so, the wait for the highlight of the next button is
        as long as for any effect (a loaded machine draws it late); a hover may be drawn in more than one
        pass, so once something changed the window must stay still for ``hover`` seconds.
        (An animating app changes anyway, so there is nothing to gain there.)
        """
        screen = self.stage.look()
        if self.oracles.animating or action.kind not in POINTER_KINDS or action.target is None:
            return frame, key
        self.stage.hands().hover(*action.target)
        button = self._button_at(key, action.target)
        wait = self.pacing.settle if button is not None and self.lights_buttons else self.pacing.hover
        change = screen.wait_for_change(frame, timeout=wait, interval=QUICK_POLL, compare=screen.effect)
        if not change:
            return frame, key
        changed = Box(*change.box) if change.box is not None else None
        if button is not None and changed is not None and button.box.intersection(changed).area:
            self.lights_buttons = True
        if changed is not None and changed.contains(*action.target) and changed not in self.lit:
            self.lit.append(changed)  # (the widget detector may take a button for text: where, not what)
        until_still(screen, self.pacing.hover, limit=self.pacing.settle)
        return screen.last, screen.last_hash


def rests_at(action: Action) -> tuple[int, int] | None:
    """Where the pointer stays after the action (None: the action does not move it)."""
    if action.kind == "drag" and action.x2 is not None and action.y2 is not None:
        return action.x2, action.y2
    return action.target
