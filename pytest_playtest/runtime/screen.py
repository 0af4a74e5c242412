"""Screenshots of the app window: one reused mss instance, frame hashes, change detection.

Frames are numpy arrays, RGB, uint8, shape (height, width, 3), in window coordinates.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import AppError
from .thresholds import CARET_HEIGHTS, CARET_WIDTH, MAX_CARETS

if TYPE_CHECKING:
    from mss.base import MSSBase

    from .app import App
    from .display import Display
    from .window import Geometry


def frame_hash(frame: np.ndarray) -> str:
    """A cheap content hash of a frame (≈0.5 ms for 640x480): equal frames, equal hashes."""
    digest = hashlib.blake2b(frame.data if frame.flags.c_contiguous else frame.tobytes(), digest_size=8)
    digest.update(repr(frame.shape).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Change:
    """How two frames differ: the fraction of pixels and their bounding box (x, y, w, h)."""

    fraction: float
    box: tuple[int, int, int, int] | None

    def __bool__(self) -> bool:
        return self.fraction > 0


NO_CHANGE = Change(0.0, None)


def difference(before: np.ndarray, after: np.ndarray, *, tolerance: int = 0) -> Change:
    """What changed between two frames; frames of different sizes count as entirely changed."""
    if before.shape != after.shape:
        h, w = after.shape[:2]
        return Change(1.0, (0, 0, w, h))
    if tolerance:
        delta = np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > tolerance
    elif np.array_equal(before, after):  # most polls of a waiting loop: ~0.03 ms instead of ~2 ms
        return NO_CHANGE
    else:
        unequal = before != after
        delta = unequal[:, :, 0].copy()  # OR-ing the channels: ~10x faster than .any(axis=2)
        for channel in range(1, unequal.shape[2]):
            delta |= unequal[:, :, channel]
    count = int(np.count_nonzero(delta))
    if not count:
        return Change(0.0, None)
    rows = np.flatnonzero(delta.any(axis=1))
    cols = np.flatnonzero(delta.any(axis=0))
    box = (int(cols[0]), int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1))
    return Change(count / delta.size, box)


class Screen:
    """Grabs the app window's pixels from the display with one reused ``mss.MSS`` instance."""

    def __init__(self, display: Display, app: App) -> None:
        self.display = display
        self.app = app
        self._mss: MSSBase | None = None
        self._last: np.ndarray | None = None
        self._last_hash: str | None = ""
        #: the text cursors known when the last screenshot was taken (its hash leaves them out)
        self._last_carets: tuple[tuple[int, int, int, int], ...] = ()
        self._carets: list[tuple[int, int, int, int]] = []
        #: told of every screenshot with the time it was taken (the loop follows a moving app's frames)
        self.watcher: Callable[[np.ndarray, float], None] | None = None

    @property
    def last_hash(self) -> str:
        """The hash of the most recent screenshot, without the places where text cursors blink (computed
        when first asked for: most screenshots of a waiting loop are only compared, never hashed)."""
        if self._last_hash is None:
            self._last_hash = self._identity(self.last, self._last_carets)
        return self._last_hash

    @property
    def last(self) -> np.ndarray:
        """The most recent screenshot."""
        if self._last is None:
            raise AppError("no screenshot taken yet")
        return self._last

    def _grabber(self) -> MSSBase:
        if self._mss is None:
            import mss

            self._mss = mss.MSS(display=self.display.name)
        return self._mss

    def grab_region(self, geometry: Geometry) -> np.ndarray:
        shot = self._grabber().grab(
            {"left": geometry.x, "top": geometry.y, "width": geometry.width, "height": geometry.height}
        )
        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        rgb = np.empty((shot.height, shot.width, 3), dtype=np.uint8)
        for channel in range(3):  # channel by channel: ~4x faster than one copy of a reversed view
            rgb[:, :, channel] = bgra[:, :, 2 - channel]
        return rgb

    def screenshot(self) -> np.ndarray:
        """The window as it is now (clipped to the screen); remembered as ``last``."""
        geometry = self.app.window_geometry()
        screen_w, screen_h = self.display.size
        x0, y0 = max(geometry.x, 0), max(geometry.y, 0)
        x1 = min(geometry.x + geometry.width, screen_w)
        y1 = min(geometry.y + geometry.height, screen_h)
        clipped = type(geometry)(x0, y0, max(x1 - x0, 1), max(y1 - y0, 1))
        frame = self.grab_region(clipped)
        self._last = frame
        self._last_hash, self._last_carets = None, tuple(self._carets)
        if self.watcher is not None:
            self.watcher(frame, time.monotonic())
        return frame

    def effect(self, before: np.ndarray, after: np.ndarray) -> Change:
        """What changed between two frames, unless all that changed is a blinking text cursor.

        A focused field blinks its cursor on its own (Tk every 0.3/0.6 s): counted as a change, it would
        make a dead button look alive and a form look animated. The cursor's place is remembered and left
        out of frame hashes from then on, so a screen keeps one hash whatever the cursor's phase.
        """
        change = difference(before, after)
        box = change.box
        if box is None or box[2] > CARET_WIDTH or box[3] not in CARET_HEIGHTS:
            return change
        if box not in self._carets:
            self._carets.append(box)
            del self._carets[:-MAX_CARETS]
        return NO_CHANGE

    @staticmethod
    def _identity(frame: np.ndarray, carets: tuple[tuple[int, int, int, int], ...]) -> str:
        """The frame's hash, without the places where text cursors blink."""
        if not carets:
            return frame_hash(frame)
        masked = frame.copy()
        for x, y, width, height in carets:
            masked[y : y + height, x : x + width] = 0
        return frame_hash(masked)

    def wait_for_change(self, frame: np.ndarray, *, timeout: float, interval: float = 0.005,
                        compare: Callable[[np.ndarray, np.ndarray], Change] = difference) -> Change:
        """Poll until the window differs from ``frame`` (as ``compare`` tells); the Change (empty if none
        before timeout)."""
        deadline = time.monotonic() + timeout
        while True:
            change = compare(frame, self.screenshot())
            if change or time.monotonic() >= deadline:
                return change
            time.sleep(interval)

    def wait_until_painted(self, *, timeout: float) -> np.ndarray:
        """Wait for the first paint: the window shows more than one colour, or time runs out."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.screenshot()
            flat = frame.reshape(-1, 3)
            if (flat != flat[0]).any() or time.monotonic() >= deadline or not self.app.alive:
                return frame
            time.sleep(0.01)

    def close(self) -> None:
        if self._mss is not None:
            self._mss.close()
            self._mss = None
