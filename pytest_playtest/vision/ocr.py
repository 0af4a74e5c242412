"""OCR: rapidocr (offline, ONNX models inside the wheel) through one engine per process, created on first use
because loading it costs about a second; results cached per frame key and per line image.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..geometry import Box
from .pixels import LRU, colour_distance, digest, dominant_colour, reading_order, rgb, text_lines, tight_to_ink
from .thresholds import CHANGE_MARGIN, INK_DISTANCE, MAX_CHANGED_FRACTION, MAX_CHANGED_REGIONS


@dataclass(frozen=True)
class TextBox:
    """One line (or word group) of text the OCR read, where it is, and how sure it is (0..1)."""

    text: str
    box: Box
    score: float


# rapidocr's default (limit_type "min", 736) scales the *shortest* side up to 736 px, which blows a
# 300x200 crop up to 1104x736 before detection. "max" only ever shrinks: crops are detected at their
# own size, and a 1024x768 frame is detected at 960x720, which still finds 10 px UI text.
_ENGINE_PARAMS: dict[str, Any] = {
    "Global.log_level": "critical",  # every crop without text would log a warning otherwise
    "Global.use_cls": False,  # screen text is upright; the 180-degree classifier only costs time
    "Global.text_score": 0.0,  # each Vision filters by its own min_score
    "Det.limit_type": "max",
    "Det.limit_side_len": 960,
}

_engine: Any = None
# rapidocr keeps use_det/use_cls/use_rec from the previous call as state, and read() may run on a
# background thread while the main loop acts: every use of the engine holds this lock.
_engine_lock = threading.RLock()


def _get_engine() -> Any:
    global _engine
    with _engine_lock:
        if _engine is None:
            from rapidocr import RapidOCR

            _engine = RapidOCR(params=dict(_ENGINE_PARAMS))
        return _engine


def warm_up() -> None:
    """Load the engine and run its detector and recogniser once (on a blank image), so that the first read
    of a frame does not pay for loading them (about 0.6 s). Safe on any thread."""
    blank = np.full((48, 160, 3), 255, dtype=np.uint8)
    _detect(blank)
    _recognise([blank])


def _detect(rgb: np.ndarray) -> list[np.ndarray]:
    """The four corners of every text line of an RGB image (rapidocr wants BGR)."""
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    with _engine_lock:
        result = _get_engine()(bgr, use_det=True, use_cls=False, use_rec=False)
    return [] if result.boxes is None else [np.asarray(quad) for quad in result.boxes]


def _line_crop(rgb: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The upright rectangle around a detected line (screen text is axis-aligned), cut tight to its ink
    and padded with its own fill: the same text on the same background gives the same image wherever it
    is and however the detector framed it, so its recognition can be reused."""
    height, width = rgb.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    crop = rgb[max(y0, 0) : min(y1, height), max(x0, 0) : min(x1, width)]
    if not crop.size:
        return crop
    fill = dominant_colour(crop.reshape(-1, 3))
    ink = (colour_distance(crop, fill) > INK_DISTANCE).astype(np.uint8)
    return tight_to_ink(crop, ink, fill) if ink.any() else crop


def _recognise(rgb_crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """Read crops that each hold one line of text, skipping detection, in one batched model call."""
    if not rgb_crops:
        return []
    from rapidocr.ch_ppocr_rec import TextRecInput

    bgr_crops = [np.ascontiguousarray(crop[:, :, ::-1]) for crop in rgb_crops]
    with _engine_lock:
        engine = _get_engine()
        if engine.text_rec is None:
            # rapidocr loads its recogniser on the first call that recognises something.
            engine(bgr_crops[0], use_det=False, use_cls=False, use_rec=True)
        result = engine.text_rec(TextRecInput(img=bgr_crops))
    return [(text, float(score)) for text, score in zip(result.txts, result.scores, strict=True)]


def _changed_regions(changes: Iterable[Box], lines: Sequence[TextBox], width: int, height: int) -> list[Box]:
    """The regions to read again: each change with a margin, grown to whole text lines, overlapping
    regions merged (a line must be read once, whole)."""
    pending = [c.expand(CHANGE_MARGIN).clip(width, height) for c in changes if c.clip(width, height).area]
    regions: list[Box] = []
    while pending:
        region = _grow_to_lines(pending.pop(), lines, width, height)
        overlapping = [other for other in regions if other.intersection(region).area]
        for other in overlapping:
            regions.remove(other)
            region = region.union(other)
        # A merged region may now cut through more lines: grow it again.
        (pending if overlapping else regions).append(region)
    return regions


def _grow_to_lines(region: Box, lines: Iterable[TextBox], width: int, height: int) -> Box:
    """Grow ``region`` until every text line it touches is wholly inside: half a line read again would
    not agree with the other half kept from before."""
    grown = True
    while grown:
        grown = False
        for line in lines:
            box = line.box.clip(width, height)
            if region.intersection(box).area and region.union(box) != region:
                region = region.union(box)
                grown = True
    return region


class Ocr:
    """Reads the text of frames, cached by frame key and by line image.

    ``min_score`` drops OCR results below that confidence (rapidocr may report a spurious glyph for a
    plain square at ~0.58). ``cache_size`` is how many frame keys keep their results.
    """

    def __init__(self, *, min_score: float = 0.6, cache_size: int = 64) -> None:
        self.min_score = min_score
        self._text_cache = LRU(cache_size)
        self._line_cache = LRU(cache_size * 16)  # line image digest → (text, score)
        self._pending: dict[str, threading.Event] = {}
        self._pending_lock = threading.Lock()

    def read(self, frame: np.ndarray, key: str | None = None) -> list[TextBox]:
        """OCR of the whole frame in reading order (top to bottom, left to right), cached by ``key``."""
        return self._read_once(key, lambda: self._read_image(rgb(frame), 0, 0))

    def text(self, frame: np.ndarray, key: str | None = None) -> str:
        """All text of the frame: boxes on one line joined by spaces, lines by newlines."""
        return "\n".join(
            " ".join(box.text for box in line) for line in text_lines(self.read(frame, key), lambda t: t.box)
        )

    def read_region(self, frame: np.ndarray, box: Box) -> list[TextBox]:
        """OCR of one region of the frame; the boxes are in frame coordinates."""
        frame = rgb(frame)
        region = box.clip(frame.shape[1], frame.shape[0])
        if region.w < 2 or region.h < 2:
            return []
        crop = frame[region.y : region.bottom, region.x : region.right]
        return self._read_image(crop, region.x, region.y)

    def read_changed(
        self,
        frame: np.ndarray,
        key: str | None,
        previous_key: str | None,
        changed: Box | Sequence[Box] | None,
    ) -> list[TextBox]:
        """OCR of a frame that differs from the frame read under ``previous_key`` only inside ``changed``
        (one box, or several: a sprite that moved and a score that went up).

        Text outside the changes is taken over from the previous result; each changed region (grown to
        whole text lines it cuts through, plus a margin) is read again. Without a cached previous result
        or a known change, or when much of the frame changed, this is a full :meth:`read`. The result is
        cached under ``key``.
        """
        frame = rgb(frame)
        height, width = frame.shape[:2]
        previous = self._text_cache.get(previous_key)

        def incremental_read() -> list[TextBox]:
            if previous is None or changed is None:
                return self._read_image(frame, 0, 0)
            changes = [changed] if isinstance(changed, Box) else changed
            regions = _changed_regions(changes, previous, width, height)
            changed_area = sum(region.area for region in regions)
            if len(regions) > MAX_CHANGED_REGIONS or changed_area > MAX_CHANGED_FRACTION * width * height:
                return self._read_image(frame, 0, 0)
            kept = [old for old in previous if not any(r.intersection(old.box).area for r in regions)]
            fresh = [line for region in regions for line in self.read_region(frame, region)]
            return reading_order(kept + fresh, lambda t: t.box)

        return self._read_once(key, incremental_read)

    def _read_once(self, key: str | None, read: Callable[[], list[TextBox]]) -> list[TextBox]:
        """The text cached under ``key``, read at most once: a caller asking for a key another thread is
        reading right now waits for that result instead of queueing a second OCR behind the engine lock."""
        if key is None:
            return read()
        while True:
            with self._pending_lock:
                cached = self._text_cache.get(key)
                if cached is not None:
                    return list(cached)
                pending = self._pending.get(key)
                if pending is None:
                    pending = self._pending[key] = threading.Event()
                    break
            pending.wait()
        try:
            boxes = read()
            self._text_cache.put(key, tuple(boxes))
            return boxes
        finally:
            with self._pending_lock:
                del self._pending[key]
            pending.set()

    def _read_image(self, rgb: np.ndarray, dx: int, dy: int) -> list[TextBox]:
        lines = [(quad, crop) for quad in _detect(rgb) if (crop := _line_crop(rgb, quad)).size]
        read = self.recognise_cached([crop for _, crop in lines])
        boxes = [
            TextBox(text.strip(), Box.from_points(quad + (dx, dy)), score)
            for (quad, _), (text, score) in zip(lines, read, strict=True)
            if score >= self.min_score and text.strip()
        ]
        return reading_order(boxes, lambda t: t.box)

    def recognise_cached(self, lines: list[np.ndarray]) -> list[tuple[str, float]]:
        """Text and score of each one-line image. Screens repeat themselves (a label that did not change,
        many "2" tiles): identical line images are recognised once, the others in one batch."""
        digests = [digest(line) for line in lines]
        unknown = {d: line for d, line in zip(digests, lines, strict=True) if self._line_cache.get(d) is None}
        for line_digest, result in zip(unknown, _recognise(list(unknown.values())), strict=True):
            self._line_cache.put(line_digest, result)
        return [self._line_cache.get(d) for d in digests]
