"""The app's window on the display: the largest mapped top-level window its processes own (found through the
X-Resource extension, with no window manager to ask), adopted again when the app replaces it, given the keyboard
focus, and woken with a ClientMessage so that a Tk app blocked in its event loop runs its signal handlers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import AppError
from .process import AppProcess
from .procfs import group_pids

if TYPE_CHECKING:
    from .display import Display

#: Seconds a running app may go without a window between destroying one and showing its replacement.
WINDOW_GAP = 0.5
#: The ClientMessage type that wakes a covered app blocked in its toolkit's event loop at teardown.
WAKE_ATOM = "_PLAYTEST_WAKE"


@dataclass(frozen=True)
class Dialog:
    """A second top-level window of the app: its X id and its title (empty when it has none)."""

    window: int
    title: str


#: X's RevertToParent (focus falls back to the parent when the window goes)
X_REVERT_TO_PARENT = 2


def _title(window: Any) -> str:
    """A window's title (WM_NAME), or ""."""
    from Xlib.error import XError

    try:
        name = window.get_wm_name()
    except XError:
        return ""
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name or "")


def _popup(window: Any) -> bool:
    """Whether a window is one the app places itself, past any window manager (override-redirect)."""
    from Xlib.error import XError

    try:
        return bool(window.get_attributes().override_redirect)
    except XError:
        return True  # (gone while we looked: nothing to answer)


@dataclass(frozen=True)
class Geometry:
    """The window's client area in root (screen) coordinates."""

    x: int
    y: int
    width: int
    height: int


def _ignore_x_error(*_: Any) -> bool:
    """An X error handler that drops the error: python-xlib prints it unless the handler returns true."""
    return True


class AppWindow:
    """The window of the app running as ``process``, on ``display``."""

    def __init__(self, display: Display, process: AppProcess) -> None:
        self.display = display
        self.process = process
        self._window: Any = None

    @property
    def shown(self) -> bool:
        """Whether a window has been adopted."""
        return self._window is not None

    def top_level(self) -> list[Any]:
        """The process group's mapped top-level windows, largest first."""
        from Xlib import X
        from Xlib.error import XError
        from Xlib.ext import res

        conn = self.display.xlib()
        if not conn.has_extension("X-Resource"):
            raise AppError("the X server has no X-Resource extension: cannot map windows to processes")
        pids = set(group_pids(self.process.group))
        found = []
        for window in conn.screen().root.query_tree().children:
            try:
                attributes = window.get_attributes()
                if attributes.map_state != X.IsViewable or attributes.win_class != X.InputOutput:
                    continue
                geometry = window.get_geometry()
                if geometry.width < 8 or geometry.height < 8:
                    continue
                reply = conn.res_query_client_ids([{"client": window.id, "mask": res.LocalClientPIDMask}])
            except XError:
                continue  # the window went away while we looked
            owners = {value for entry in reply.ids for value in entry.value}
            if owners & pids:
                found.append((geometry.width * geometry.height, window))
        return [window for _, window in sorted(found, key=lambda pair: -pair[0])]

    def adopt(self, timeout: float) -> bool:
        """Wait for the largest top-level window and take it; False if the app exited or time ran out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.process.alive:
                return False
            windows = self.top_level()
            if windows:
                self._window = windows[0]
                return True
            time.sleep(0.01)
        return False

    def geometry(self) -> Geometry:
        """Where the window is on the screen now (it may have moved or been resized).

        An app that destroys its window while still running may be replacing it (SDL may, while it sets
        up): its new window is adopted when one appears within WINDOW_GAP seconds.
        """
        if self._window is None:
            raise AppError("the app has no window (yet)")
        from Xlib.error import XError

        try:
            return self._measure()
        except XError as exc:
            if not self.adopt(WINDOW_GAP):
                raise AppError(f"the app window is gone: {exc}") from None
        try:
            return self._measure()
        except XError as exc:
            raise AppError(f"the app window is gone: {exc}") from None

    def _measure(self) -> Geometry:
        geometry = self._window.get_geometry()
        origin = self.display.xlib().screen().root.translate_coords(self._window, 0, 0)
        return Geometry(origin.x, origin.y, geometry.width, geometry.height)

    def dialog(self) -> Dialog | None:
        """A second top-level window the app shows over its own (a message box, a "Play again?" question):
        the largest one that is not the adopted window; None when there is none. A popup the app places itself
        (override-redirect: a menu dropped from its menu bar, a tooltip, a combobox's list) is no dialog: Enter
        there would choose a menu item."""
        if self._window is None:
            return None
        try:
            others = [w for w in self.top_level() if w.id != self._window.id and not _popup(w)]
        except AppError:
            return None
        if not others:
            return None
        return Dialog(others[0].id, _title(others[0]))

    def answer(self, dialog: Dialog) -> None:
        """Answer a dialog as a person who reads it does: with its default button (Enter, the key every toolkit
        gives the default button), then give the app's own window the focus back."""
        from Xlib.error import XError

        conn = self.display.xlib()
        try:
            conn.create_resource_object("window", dialog.window).set_input_focus(X_REVERT_TO_PARENT, 0)
            conn.sync()
        except XError:
            return  # it went away meanwhile
        self.display.input().press("enter")
        self.focus()

    def focus(self) -> None:
        """Give the window keyboard focus; with no window manager, keys go where the focus is set."""
        from Xlib import X
        from Xlib.error import XError

        if self._window is None:
            return
        try:
            self._window.set_input_focus(X.RevertToParent, X.CurrentTime)
            self.display.xlib().sync()
        except XError:
            pass

    def wake(self) -> int:
        """Send a ClientMessage to the app's windows: a Tk app blocked in Tcl_DoOneEvent returns to
        Python and runs its pending signal handlers. Returns how many windows were sent one."""
        try:
            from Xlib.protocol import event

            conn = self.display.xlib()
            windows = {window.id: window for window in self.top_level()} if self.process.alive else {}
            if self._window is not None:
                windows.setdefault(self._window.id, self._window)
            atom = conn.intern_atom(WAKE_ATOM)
            for window in windows.values():
                message = event.ClientMessage(window=window, client_type=atom, data=(32, [0] * 5))
                # an empty event mask delivers it to the client that created the window; a window
                # destroyed meanwhile answers BadWindow later, which must not be printed
                window.send_event(message, event_mask=0, propagate=False, onerror=_ignore_x_error)
            conn.flush()
        except Exception:  # noqa: BLE001 - a dead display or window must not stop the teardown
            return 0
        return len(windows)
