"""Real X input through the XTest extension (python-xlib): pointer, buttons, keys.

XTest events are indistinguishable from a physical device to every toolkit (Tk ignores events sent
with XSendEvent, not these). One connection per display, so several displays can live in one process.
"""

from __future__ import annotations

import time
from typing import Any

from Xlib import XK, X
from Xlib.ext import xtest

from ..errors import InputError
from ..keys import SENT_AS

BUTTONS = {"left": 1, "middle": 2, "right": 3, "up": 4, "down": 5, "scroll_left": 6, "scroll_right": 7}
#: Seconds a press lasts, as a hand's does: a game that polls the keyboard or mouse once per frame (a
#: 30 fps frame is 33 ms) must see the key or button down, not a press and release within one frame.
TAP = 0.05


class XInput:
    """Sends XTest events on one Xlib connection (the Display's)."""

    def __init__(self, connection: Any) -> None:
        self.conn = connection
        self._shift = self._keycode_of(XK.string_to_keysym("Shift_L"))[0]

    # -- keyboard ----------------------------------------------------------------------------------
    def _keysym(self, name: str) -> int:
        mapped = SENT_AS.get(name.lower() if len(name) > 1 else name, name)
        keysym = XK.string_to_keysym(mapped)
        if keysym == X.NoSymbol and len(name) == 1 and ord(name) < 0x100:
            keysym = ord(name)  # Latin-1 characters are their own keysyms
        if keysym == X.NoSymbol:
            raise InputError(f"unknown key name {name!r}")
        return keysym

    def _keycode_of(self, keysym: int) -> tuple[int, bool]:
        """The keycode producing ``keysym`` and whether Shift is needed for it."""
        found = sorted(self.conn.keysym_to_keycodes(keysym), key=lambda pair: pair[1])
        for keycode, index in found:
            if index in (0, 1):
                return keycode, index == 1
        raise InputError(f"keysym {XK.keysym_to_string(keysym) or hex(keysym)} is not on the keyboard map")

    def check_keys(self, *names: str) -> None:
        """Raise InputError for any name that cannot be typed, before anything is sent."""
        for name in names:
            self._keycode_of(self._keysym(name))

    def key_down(self, name: str) -> None:
        keycode, shifted = self._keycode_of(self._keysym(name))
        if shifted:
            xtest.fake_input(self.conn, X.KeyPress, self._shift)
        xtest.fake_input(self.conn, X.KeyPress, keycode)
        self.conn.sync()

    def key_up(self, name: str) -> None:
        keycode, shifted = self._keycode_of(self._keysym(name))
        xtest.fake_input(self.conn, X.KeyRelease, keycode)
        if shifted:
            xtest.fake_input(self.conn, X.KeyRelease, self._shift)
        self.conn.sync()

    def press(self, name: str, *, hold: float = TAP) -> None:
        self.key_down(name)
        if hold:
            time.sleep(hold)
        self.key_up(name)

    def hotkey(self, *names: str) -> None:
        for name in names:
            self.key_down(name)
        for name in reversed(names):
            self.key_up(name)

    def type_text(self, text: str, *, interval: float = 0.004) -> None:
        """Type as a fast typist does: each character's press is short (fields read characters, not frames)."""
        for char in text:
            self.press(char, hold=0.0)
            if interval:
                time.sleep(interval)

    # -- pointer -------------------------------------------------------------------------------------
    def move(self, x: int, y: int) -> None:
        xtest.fake_input(self.conn, X.MotionNotify, x=x, y=y)
        self.conn.sync()

    def glide(self, x: int, y: int, *, steps: int = 8, interval: float = 0.01) -> None:
        """Move the pointer to (x, y) through points on the way, as a hand moves it: an app that follows the
        pointer sees motion, not a jump."""
        pointer = self.conn.screen().root.query_pointer()
        x0, y0 = pointer.root_x, pointer.root_y
        for i in range(1, steps + 1):
            self.move(x0 + (x - x0) * i // steps, y0 + (y - y0) * i // steps)
            time.sleep(interval)

    def button(self, x: int, y: int, button: str = "left", *, clicks: int = 1, interval: float = 0.05,
               hold: float = TAP) -> None:
        self.move(x, y)
        code = BUTTONS[button]
        for i in range(clicks):
            if i:
                time.sleep(interval)
            xtest.fake_input(self.conn, X.ButtonPress, code)
            self.conn.sync()
            if hold:
                time.sleep(hold)
            xtest.fake_input(self.conn, X.ButtonRelease, code)
            self.conn.sync()

    def drag(self, x1: int, y1: int, x2: int, y2: int, *, steps: int = 6) -> None:
        self.move(x1, y1)
        xtest.fake_input(self.conn, X.ButtonPress, BUTTONS["left"])
        self.conn.sync()
        # intermediate motion events, so toolkits that track motion see a real drag
        for i in range(1, steps + 1):
            time.sleep(0.01)
            self.move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
        xtest.fake_input(self.conn, X.ButtonRelease, BUTTONS["left"])
        self.conn.sync()
