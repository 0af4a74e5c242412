"""Performs Actions on one app's window with real X input events (XTest).

Coordinates are relative to the app window's top-left corner (client area).
"""

from __future__ import annotations

import time

from ..actions import KEY_KINDS, Action, ActionError
from .app import App
from .display import Display
from .xinput import InputError


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

    def perform(self, action: Action) -> None:
        """Perform ``action``; raises ActionError (nothing sent) when it cannot be performed."""
        if action.kind == "finish":
            return
        if action.kind == "wait":
            time.sleep(action.seconds)
            return
        xin = self.display.input()
        try:
            if action.kind in KEY_KINDS:
                if action.kind == "type_text":
                    xin.check_keys(*action.text)
                else:
                    xin.check_keys(*((action.key,) if action.key else action.keys))
                self.app.focus()
            match action.kind:
                case "click" | "double_click" | "right_click":
                    x, y = self._absolute(action.x, action.y)
                    button = "right" if action.kind == "right_click" else "left"
                    xin.button(x, y, button, clicks=2 if action.kind == "double_click" else 1)
                case "drag":
                    start = self._absolute(action.x, action.y)
                    end = self._absolute(action.x2, action.y2)
                    xin.drag(*start, *end)
                case "scroll":
                    x, y = self._absolute(action.x, action.y)
                    button = {"left": "scroll_left", "right": "scroll_right"}.get(action.direction,
                                                                                  action.direction)
                    xin.button(x, y, button, clicks=action.amount, interval=0.01)
                case "type_text":
                    xin.type_text(action.text)
                case "press":
                    for i in range(action.times):
                        if i:
                            time.sleep(0.03)
                        xin.press(action.key)
                case "hotkey":
                    xin.hotkey(*action.keys)
                case "hold":
                    xin.press(action.key, hold=action.seconds)
        except InputError as exc:
            raise ActionError(str(exc)) from None
