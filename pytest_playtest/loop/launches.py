"""The app's launches during a run, as a person at the machine handles them: wait for the window, find the new
one when the app replaced it, tell an exit from a crash, and start the app again when it exited normally or its
game is over for good while budget is left."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..errors import AppError
from ..trajectory import Step
from .launcher import Launcher
from .oracles import Oracles
from .retries import Retries
from .spec import RunSpec
from .stage import Stage
from .thresholds import EXIT_WAIT, FIRST_PAINT, MAX_LAUNCHES, RELAUNCH_TIME_LEFT, STARTUP_TIMEOUT, WINDOW_REPLACED
from .watching import let_animations_end, watch_animation
from .web import WebPage


class Launches:
    """Sets the stage for each launch of the app; ``ended`` is called when the app exited for good."""

    def __init__(self, launcher: Launcher, stage: Stage, oracles: Oracles, retries: Retries, *, spec: RunSpec,
                 deadline: float, steps: list[Step], notes: list[str], ended: Callable[[], None],
                 page: Callable[[], WebPage | None]) -> None:
        self.launcher, self.stage, self.oracles, self.retries = launcher, stage, oracles, retries
        self.spec, self.deadline, self.steps, self.notes = spec, deadline, steps, notes
        self.ended, self.page = ended, page

    def shown(self) -> bool:
        """Wait for the current launch's window; False when it exited without one."""
        app = self.stage.app
        startup = min(STARTUP_TIMEOUT, max(self.deadline - time.monotonic(), 0.1))
        if not app.wait_for_window(timeout=startup):
            self.oracles.check_output(len(self.steps))
            if not self.oracles.check_exit(len(self.steps)):
                raise AppError(f"the app showed no window within {startup:g}s")
            return False
        self.stage.show()
        return True

    def painted(self, timeout: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The first painted frame and the frame after watching the untouched app; None if it exited.

        Some apps replace their first window while they set up (SDL may recreate it): then the new one is
        looked at once more.
        """
        for attempt in range(2):
            try:
                screen = self.stage.look()
                painted = screen.wait_until_painted(timeout=timeout)
                if let_animations_end(self.page(), self.deadline):  # (a page's tiles that fade in as it loads)
                    painted = screen.screenshot()
                return painted, watch_animation(screen, painted, self.oracles, self.spec.pacing.animation_probe)
            except AppError:
                if self.window_lost(0):
                    return None
                if attempt:
                    raise
        return None

    def first_paint(self) -> float:
        """How long to wait for a launch's first paint (seconds)."""
        return min(FIRST_PAINT, self.deadline - time.monotonic())

    def window_lost(self, step: int) -> bool:
        """The window vanished: True when the app exited (judged by the exit oracle).

        An app that is still running may have replaced its window (pygame's set_mode does): the new one
        is looked up, and only if there is none does the error stand.
        """
        app = self.stage.app
        app.wait(EXIT_WAIT)
        if self.has_exited(step):
            return True
        if app.wait_for_window(timeout=WINDOW_REPLACED):
            return False
        app.wait(EXIT_WAIT)  # it may have been exiting all along: a quit key closes the window first
        if self.has_exited(step):
            return True
        raise AppError("the app is running but its window is gone")

    def has_exited(self, step: int) -> bool:
        """Whether the app exited (judged by the exit oracle; the app is relaunched when that is due)."""
        self.oracles.check_output(step)
        if not self.oracles.check_exit(step):
            return False
        self.exited()
        return True

    def exited(self) -> bool:
        """The app exited: the run stops (True), unless it was a normal exit with budget left, after which
        the app is launched again and the run goes on (False)."""
        if not self._may_relaunch():
            self.ended()
            return True
        return self.relaunch(f"the app exited normally (code 0) after step {len(self.steps)}")

    def relaunch(self, why: str) -> bool:
        """Launch the app again (the current launch is ended) and go on; True when the run must stop because
        the new launch showed no window in the time left."""
        self.notes.append(f"{why}; launched it again (launch {len(self.launcher.apps) + 1})")
        self.stage.app = self.launcher.start()
        self.oracles.follow(self.stage.app)
        self.retries.cancel()
        try:
            shown = self.shown() and self.painted(self.first_paint()) is not None
        except AppError as exc:  # too slow for the time left: the run ends here, the app did nothing wrong
            self.notes.append(f"the relaunched app showed no window before the run's time ran out ({exc})")
            shown = False
        if not shown:
            self.ended()
            return True
        self.stage.previous = self.stage.screen.last if self.stage.screen else None
        return False

    def _may_relaunch(self) -> bool:
        """A normal exit (code 0) with budget left, in a run that does not expect the app to exit."""
        expects_exit = any(e.kind == "exits" for e in self.spec.expect)
        return self.stage.app.poll() == 0 and not expects_exit and self.budget_left()

    def budget_left(self) -> bool:
        """Whether steps, time and launches are left for another launch of the app."""
        return (len(self.steps) < self.spec.max_steps and self.deadline - time.monotonic() > RELAUNCH_TIME_LEFT
                and len(self.launcher.apps) < MAX_LAUNCHES)
