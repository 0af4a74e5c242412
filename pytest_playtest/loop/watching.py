"""Watching the app: letting it run while a key is held or a real-time game's beat goes on, watching it without
input now and then (whether it moves by itself, and how often its own motion looks like an input's effect), and
waiting for an input's effect to settle.

The chance level matters most: on an app that moves by itself, an input's effect is what its next frames changed
beyond the app's own motion (``vision.motion``), and the beats watched without input say how often that motion
alone looks like an effect, which the dead-control rules (``controls.py``) judge inputs against.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from ..actions import Action
from ..errors import AppError
from ..geometry import Box
from ..runtime.screen import NO_CHANGE, Change, Screen, difference
from .controls import DeadControls
from .oracles import Oracles
from .spec import Pacing
from .stage import Stage
from .thresholds import ANIMATION_PAINT, ANIMATION_WAIT, GLANCE, PLAY_POLL, QUICK_POLL, WATCH_EVERY, WATCH_EVERY_MOVING
from .web import WebPage


class Watches:
    """When and how long the app is watched, and what its motion says about an input's effect."""

    def __init__(self, stage: Stage, oracles: Oracles, *, deadline: float, beat: float, seed: int,
                 page: Callable[[], WebPage | None]) -> None:
        self.stage, self.oracles, self.page = stage, oracles, page
        self.deadline, self.beat = deadline, beat
        self.chance_beats = random.Random(seed)  # when to watch an app that moves by itself without input
        self.unseen = 0.0  # how long the last input left the app unwatched before it was given (deciding on it)
        self.controls: DeadControls | None = None  # told each beat watched without input

    def hold(self, seconds: float, *, by_itself: bool = True) -> np.ndarray:
        """Let the app run for ``seconds`` (a key held down, the rest of a real-time game's beat), looking at it
        all the while: the motion watch sees its ticks, the freeze oracle when it last moved. Not
        ``by_itself``: an input is under way (a key held down) or has just been given (the rest of its beat), and
        what changes is not the app moving on its own (a puzzle's tile slid by the key would make a still app
        look like a game; a form's list drawn late on a busy machine, counted so, kept a form page "moving like
        a game", and it was launched again as over for good). The newest frame."""
        screen = self.stage.look()
        until = min(time.monotonic() + seconds, self.deadline)
        frame = screen.last
        while time.monotonic() < until:
            time.sleep(min(PLAY_POLL, max(until - time.monotonic(), 0.0)))
            try:
                latest = screen.screenshot()
            except AppError:
                break  # the next observation finds out why
            if screen.effect(frame, latest):
                self.oracles.observe_idle(True, time.monotonic(), by_itself=by_itself)
            frame = latest
        return frame

    def due(self, index: int) -> bool:
        """Whether to watch the app without input after step ``index``."""
        if self.oracles.animating:
            return self.chance_beats.random() < 1 / WATCH_EVERY_MOVING
        return index % WATCH_EVERY == 0

    def without_input(self) -> None:
        """Watch the app for a while without touching it. An app that moves by itself, slowly too (letters that
        fall a pixel every tenth of a second look still between two quick inputs), is seen to; and for one
        known to move, how often its own motion looks like an effect is what its inputs' effects are measured
        against (a game spawns things, turns its ghosts). The watch begins as an input's does: after the app went
        unwatched as long as the last input took to decide on. Its frames went unseen meanwhile, and the motion
        seen across that gap is predicted less well: without it, inputs would look more effective than
        none.) On a page not known to move, the animations the last input started are let finish first."""
        if self.oracles.animating:
            time.sleep(max(min(self.unseen, self.deadline - time.monotonic()), 0.0))
        elif let_animations_end(self.page(), self.deadline):
            try:
                self.stage.look().screenshot()  # (the watch starts from the frame they ended on)
            except AppError:
                return  # the next observation finds out why
        started = time.monotonic()
        self.hold(self.beat if self.oracles.animating else GLANCE)
        motion = self.stage.motion
        motion.watched_alone(started)
        # (asked again: the watch itself may have shown the app moving by itself)
        surprise = motion.surprise(started, learn=True) if self.oracles.animating else None
        if surprise is not None and surprise.telling and self.controls is not None:
            self.controls.observe_baseline(surprise.effect, surprise.box)

    def set_going(self, acted_at: float) -> dict[tuple[int, int], list[Box]] | None:
        """On an app that moves by itself, the things that stood still and started going one way right after an
        input (a ship slid, a paddle moved), by way; None on other apps, or when too few of its ticks were seen."""
        return self.stage.motion.set_going(acted_at) if self.oracles.animating else None

    def effect(self, acted_at: float, change: Change) -> tuple[Change, bool]:
        """An input's effect on an app that moves by itself: what its next ticks changed beyond the app's own
        motion (vision.motion), and whether that could be judged (it moved meanwhile, and its own motion
        would not have hidden an effect)."""
        surprise = self.stage.motion.surprise(acted_at)
        if surprise is None:
            return change, False
        if not surprise.effect or surprise.box is None:
            return NO_CHANGE, surprise.telling
        box = surprise.box
        return Change(surprise.fraction, (box.x, box.y, box.w, box.h)), True


def let_animations_end(page: WebPage | None, deadline: float) -> bool:
    """Wait until a page's running transitions and finite animations have ended: what the last input started
    finishing is its effect, not the page moving by itself. One that would outlast ``ANIMATION_WAIT`` (a long
    countdown bar) is the page's own motion and is not waited for. Whether it waited."""
    if page is None:
        return False
    until = min(time.monotonic() + ANIMATION_WAIT, deadline)
    waited = False
    while 0 < (left := page.animations_left()) <= until - time.monotonic():  # (one may start the next)
        time.sleep(left + ANIMATION_PAINT)
        waited = True
    return waited


def watch_animation(screen: Screen, frame: np.ndarray, oracles: Oracles, seconds: float) -> np.ndarray:
    """Watch the untouched app for a moment: an app that redraws by itself is animating."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(PLAY_POLL)
        latest = screen.screenshot()
        oracles.observe_idle(bool(screen.effect(frame, latest)), time.monotonic())
        frame = latest
    return frame


def watch_stillness(screen: Screen, frame: np.ndarray, oracles: Oracles, step: int) -> None:
    """The bounds ran out while an animating app stands still: watch it without input until it moves
    again or ``freeze_after`` has passed since its last change, so a fast run cannot end before a freeze
    can be told from a pause."""
    while oracles.still_for(time.monotonic()) < oracles.settings.freeze_after:
        time.sleep(PLAY_POLL)
        try:
            latest = screen.screenshot()
        except AppError:
            return
        if difference(frame, latest):  # a blinking cursor counts here: the event loop runs
            oracles.observe_idle(True, time.monotonic())
            return
    oracles.check_freeze(step, time.monotonic())


def settle(screen: Screen, before: np.ndarray, action: Action, pacing: Pacing,
           deadline: float, animating: bool, *, credit: bool) -> np.ndarray:
    """The frame after an action: the first changed frame, or the same one after ``settle`` seconds.

    An animating app changes on its own, so waiting for a change tells nothing there. With ``credit``
    (exploration, where each effect must belong to the input that caused it) the loop waits for the app's
    next drawn frame after the one in flight (two changes, at most ``next_frame`` seconds); otherwise it
    takes the frame as it is and goes on at its own pace, not at the app's frame rate.
    """
    if action.kind == "wait":
        return screen.screenshot()
    if animating:
        if credit:
            frame = screen.screenshot()
            for _ in range(2):
                if not screen.wait_for_change(frame, timeout=pacing.next_frame, interval=QUICK_POLL):
                    break
                frame = screen.last
        return screen.screenshot()
    timeout = min(pacing.settle, max(deadline - time.monotonic(), 0.0))
    if screen.wait_for_change(before, timeout=timeout, interval=QUICK_POLL, compare=screen.effect):
        until_still(screen, pacing.repaint, limit=timeout)
    return screen.last


def until_still(screen: Screen, still: float, *, limit: float) -> None:
    """Poll until the window has stayed the same for ``still`` seconds (at most ``limit`` seconds)."""
    latest, since = screen.last, time.monotonic()
    deadline = since + limit
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(QUICK_POLL)
        if screen.effect(latest, screen.screenshot()):
            latest, since = screen.last, time.monotonic()
