"""Background workers of the loop: the OCR reader for the expectations and the frame writer."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..files import frame_path
from ..vision import Vision, changed_regions
from .thresholds import READ_SHARE


class TextReader:
    """OCRs the newest frame in the background and feeds the expectations (the frame's text and its text boxes);
    drops frames it can't keep up with, and rests between reads so that reading takes at most ``share`` of
    the time (text on screen lasts: a score or a message is still there after the rest)."""

    def __init__(self, vision: Vision, on_text: Callable[[str, int, Sequence[str]], None], *,
                 share: float = READ_SHARE) -> None:
        self._vision = vision
        self._share = share
        self._on_text = on_text
        self._latest: tuple[np.ndarray, str, int] | None = None
        self._wake = threading.Condition()
        self._stop = False
        self.text = ""
        #: the steps done when the frame ``text`` was read from was taken: later inputs are not in the text
        self.read_at = 0
        self._thread = threading.Thread(target=self._loop, daemon=True, name="playtest-ocr")
        self._thread.start()

    def offer(self, frame: np.ndarray, key: str, step: int) -> None:
        with self._wake:
            self._latest = (frame, key, step)
            self._wake.notify()

    def _loop(self) -> None:
        last_frame, last_key = None, ""
        rest = 0.0
        while True:
            with self._wake:
                rested = time.monotonic() + rest
                while not self._stop and time.monotonic() < rested:
                    self._wake.wait(rested - time.monotonic())
                while not self._stop and (self._latest is None or self._latest[1] == last_key):
                    self._wake.wait()
                if self._latest is None or self._latest[1] == last_key:
                    return  # stopped, and the last frame offered has been read
                frame, key, step = self._latest
            began = time.monotonic()
            if last_frame is not None:
                # only the places that changed since the last read are read again
                self._vision.read_changed(frame, key, last_key, changed_regions(last_frame, frame))
            last_frame, last_key = frame, key
            self.text, self.read_at = self._vision.text(frame, key=key), step
            self._on_text(self.text, step, [box.text for box in self._vision.read(frame, key=key)])
            rest = (time.monotonic() - began) * (1 / self._share - 1)

    def close(self) -> None:
        """Stop once the last frame offered has been read."""
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout=30)


class FrameWriter:
    """Writes screenshots to disk in a background thread, off the loop's hot path."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._queue: queue.Queue[tuple[Path, np.ndarray] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="playtest-frames")
        self._thread.start()

    def path(self, index: int) -> Path:
        return frame_path(self.folder, index)

    def write(self, index: int, frame: np.ndarray) -> str:
        path = self.path(index)
        self._queue.put((path, frame))
        return str(path)

    def _loop(self) -> None:
        import cv2

        while (item := self._queue.get()) is not None:
            path, frame = item
            cv2.imwrite(str(path), np.ascontiguousarray(frame[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 1])

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)
