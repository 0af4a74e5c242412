"""Performs Actions on one app's window with real X input events (XTest).

Coordinates are relative to the app window's top-left corner (client area).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..actions import KEY_KINDS, Action
from ..errors import ActionError, InputError
from .app import App
from .display import Display


class Executor:
    """Performs actions on one app's window with real X input events (XTest)."""

    def __init__(self, display: Display, app: App) -> None:
        self.display = display
        self.app = app

    def _absolute(self, x: int, y: int) -> tuple[int, int]:
        geometry = self.app.window_geometry()
        if not (0 <= x < geometry.width and 0 <= y < geometry.height):
            raise ActionError(
                f"({x}, {y}) is outside the app window ({geometry.width}x{geometry.height}); "
                "coordinates are relative to the window's top-left corner"
            )
        return geometry.x + x, geometry.y + y

    def hover(self, x: int, y: int) -> None:
        """Rest the pointer on a window point, as a person's hand does before clicking."""
        try:
            self.display.input().move(*self._absolute(x, y))
        except InputError as exc:
            raise ActionError(str(exc)) from None

    def perform(self, action: Action, *, pause: Callable[[float], object] = time.sleep) -> None:
        """Perform ``action``; raises ActionError (nothing sent) when it cannot be performed. ``pause`` spends
        the seconds of a wait or of a key held down (the loop watches the app meanwhile).

        The action is valid by construction (``Action.validate``): the fields its kind needs are set.
        """
        if action.kind == "finish":
            return
        if action.kind == "wait":
            pause(action.seconds)
            return
        try:
            if action.kind in KEY_KINDS:
                self._keys(action, pause)
            else:
                self._pointer(action)
        except InputError as exc:
            raise ActionError(str(exc)) from None

    def _keys(self, action: Action, pause: Callable[[float], object]) -> None:
        xin = self.display.input()
        text, key = action.text or "", action.key or ""
        xin.check_keys(*(text if action.kind == "type_text" else (key,) if key else action.keys))
        self.app.focus()
        match action.kind:
            case "type_text":
                xin.type_text(text)
            case "press":
                for i in range(action.times):
                    if i:
                        time.sleep(0.03)
                    xin.press(key)
            case "hotkey":
                xin.hotkey(*action.keys)
            case "hold":
                xin.key_down(key)
                try:
                    pause(action.seconds)
                finally:
                    xin.key_up(key)

    def _pointer(self, action: Action) -> None:
        xin = self.display.input()
        x, y = self._absolute(action.x or 0, action.y or 0)
        match action.kind:
            case "click" | "double_click" | "right_click":
                button = "right" if action.kind == "right_click" else "left"
                xin.button(x, y, button, clicks=2 if action.kind == "double_click" else 1)
            case "drag":
                xin.drag(x, y, *self._absolute(action.x2 or 0, action.y2 or 0))
            case "move":
                xin.glide(x, y)
            case "scroll":
                direction = action.direction or "down"
                button = {"left": "scroll_left", "right": "scroll_right"}.get(direction, direction)
                xin.button(x, y, button, clicks=action.amount, interval=0.01, hold=0.0)
