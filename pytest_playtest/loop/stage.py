"""The current launch as the loop sees it: the app, the screen it is looked at through, the executor that acts on
it, the motion watch of its ticks and the last frame judged. ``Launches`` sets the stage anew at each launch;
the loop's other parts read it."""

from __future__ import annotations

import numpy as np

from ..runtime.app import App
from ..runtime.executor import Executor
from ..runtime.screen import Screen
from ..vision.motion import MotionWatch


class Stage:
    """What the loop looks at and acts on now."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.screen: Screen | None = None
        self.executor: Executor | None = None
        self.motion = MotionWatch()  # the ticks of the current launch, when it moves by itself
        self.previous: np.ndarray | None = None  # the last frame judged (the one the next step starts from)

    def show(self) -> None:
        """The app's window is up: look at it and act on it afresh. A new launch does what the last did by itself."""
        if self.screen is not None:
            self.screen.close()
        self.screen = Screen(self.app.display, self.app)
        self.motion = MotionWatch(own=self.motion.own)
        self.screen.watcher = self.motion.add
        self.executor = Executor(self.app.display, self.app)

    def look(self) -> Screen:
        """The screen of the current launch (its window has been shown)."""
        assert self.screen is not None
        return self.screen

    def hands(self) -> Executor:
        """The executor of the current launch (its window has been shown)."""
        assert self.executor is not None
        return self.executor

    def close(self) -> None:
        if self.screen is not None:
            self.screen.close()
