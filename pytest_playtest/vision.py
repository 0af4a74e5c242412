"""Turning screenshots into structure: OCR text boxes, widget candidates, template hits and game boards.

Frames are RGB ``uint8`` arrays of shape ``(H, W, 3)`` in window coordinates. OCR runs on rapidocr
(offline, ONNX models inside the wheel) through one engine per process, created on first use because
loading it costs about a second. Everything else is plain OpenCV and costs milliseconds.

Callers that already hash their frames pass that hash as ``key``: results are cached per key, so asking
again about the same frame is free, and :meth:`Vision.read_changed` can re-read only the part of a
frame that changed since a previous key.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

__all__ = ["Box", "TextBox", "Widget", "Grid", "Vision", "perceptual_hash", "hamming"]

# --- widget detection limits ----------------------------------------------------------------------------

_MIN_WIDGET_W, _MIN_WIDGET_H = 16, 12
_MAX_WIDGET_H = 160
#: A widget bigger than this fraction of the frame is a panel, board or window, not a control.
_MAX_WIDGET_FRACTION = 0.2
#: Sprites and icons are small; a big irregular outline is scenery (the ground, a cloud, a backdrop).
_MAX_SHAPE_FRACTION = 0.05
_RECTANGLE_FILL = 0.85
#: An outline filling less of its bounding box is a line or a jagged fragment (sparks, cracks), not an object.
_SHAPE_MIN_FILL = 0.5
#: A "field" is a wide, near-white box (entry, spin box, text area) whose text, if any, hugs its left edge.
_FIELD_MIN_ASPECT = 2.5
_FIELD_MIN_BRIGHTNESS = 235

# --- OCR tuning -----------------------------------------------------------------------------------------

#: Context kept around a changed region so the detector sees whole glyphs and some background.
_CHANGE_MARGIN = 12
#: Beyond this share of the frame, re-reading regions costs about as much as reading everything...
_MAX_CHANGED_FRACTION = 0.4
#: ...and so does reading scattered regions: each detection pass has a fixed cost of about a third of a
#: whole-frame pass (measured on 2048 frames), and recognition of unchanged lines is cached anyway.
_MAX_CHANGED_REGIONS = 2
#: Beyond this many separate changes, changed_regions gives their common box.
_MAX_REGIONS_LISTED = 16

# --- template matching ----------------------------------------------------------------------------------

_MAX_HITS = 100
#: Grayscale usually scores a match higher than colour does, but not always: candidates get this slack.
_GRAY_SLACK = 0.1
#: Colour-checked grayscale candidates: bounds the work on a busy frame with a low threshold.
_MAX_CANDIDATES = 300

# --- board reading --------------------------------------------------------------------------------------

#: Text on a cell: pixels whose colour differs this much (largest channel difference) from the cell's fill.
_INK_DISTANCE = 60
#: A cell with less ink than this share of its area is empty in text mode.
_MIN_INK_FRACTION = 0.01
#: A rectangle whose face is inked beyond this share holds a picture, not a symbol.
_MAX_MARK_FRACTION = 0.4
#: In colour mode, pixels this close to the board's background count as background: anti-aliased edges,
#: and empty slots drawn a shade off the gaps (2048).
_BACKGROUND_DISTANCE = 30
#: ...and a cell with less than this share of non-background pixels is empty.
_MIN_CONTENT_FRACTION = 0.1


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in pixels: top-left corner ``(x, y)``, width ``w``, height ``h``."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    @property
    def area(self) -> int:
        return max(self.w, 0) * max(self.h, 0)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom

    def intersection(self, other: Box) -> Box:
        """The overlap of both boxes; a box of zero area when they do not overlap."""
        x, y = max(self.x, other.x), max(self.y, other.y)
        return Box(x, y, max(0, min(self.right, other.right) - x), max(0, min(self.bottom, other.bottom) - y))

    def union(self, other: Box) -> Box:
        """The smallest box holding both."""
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Box(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def iou(self, other: Box) -> float:
        overlap = self.intersection(other).area
        total = self.area + other.area - overlap
        return overlap / total if total > 0 else 0.0

    def expand(self, px: int) -> Box:
        """Grow by ``px`` on every side (shrink when negative, never below zero size)."""
        return Box(self.x - px, self.y - px, max(0, self.w + 2 * px), max(0, self.h + 2 * px))

    def clip(self, w: int, h: int) -> Box:
        """Restrict to a ``w`` x ``h`` frame."""
        return self.intersection(Box(0, 0, w, h))

    @classmethod
    def from_points(cls, points: Iterable[Sequence[float]]) -> Box:
        """The bounding box of a polygon, e.g. the four corners of an OCR detection."""
        xs, ys = zip(*((p[0], p[1]) for p in points), strict=True)
        x, y = int(np.floor(min(xs))), int(np.floor(min(ys)))
        return cls(x, y, int(np.ceil(max(xs))) - x, int(np.ceil(max(ys))) - y)


@dataclass(frozen=True)
class TextBox:
    """One line (or word group) of text the OCR read, where it is, and how sure it is (0..1)."""

    text: str
    box: Box
    score: float


@dataclass(frozen=True)
class Widget:
    """Something that looks interactive: ``kind`` is "button", "field", "text" or "shape"."""

    box: Box
    kind: str
    text: str = ""

    @property
    def center(self) -> tuple[int, int]:
        """Where to click it."""
        return self.box.center


@dataclass
class Grid:
    """A board read as a matrix: ``cells[row][col]`` is the cell's text or colour label, "" when empty."""

    rows: int
    cols: int
    cells: list[list[str]]
    box: Box

    def cell_box(self, row: int, col: int) -> Box:
        """Where cell ``cells[row][col]`` is on screen (0-based), to click or drag it."""
        x0 = self.box.x + round(col * self.box.w / self.cols)
        x1 = self.box.x + round((col + 1) * self.box.w / self.cols)
        y0 = self.box.y + round(row * self.box.h / self.rows)
        y1 = self.box.y + round((row + 1) * self.box.h / self.rows)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def as_text(self) -> str:
        """The non-empty cells as ``r1c1=2, r1c4=2, ...`` (1-based, row by row), compact for prompts."""
        return ", ".join(
            f"r{r + 1}c{c + 1}={value}"
            for r, row in enumerate(self.cells)
            for c, value in enumerate(row)
            if value
        )


# --- the OCR engine ------------------------------------------------------------------------------------

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
    fill = _dominant_colour(crop.reshape(-1, 3))
    ink = (_colour_distance(crop, fill) > _INK_DISTANCE).astype(np.uint8)
    return _tight_to_ink(crop, ink, fill) if ink.any() else crop


def _tight_to_ink(crop: np.ndarray, ink: np.ndarray, fill: tuple[int, int, int]) -> np.ndarray:
    """The crop cut to the bounding box of its ``ink`` mask, with a margin of ``fill``: one text line as
    the recogniser likes it."""
    x, y, w, h = cv2.boundingRect(ink)
    pad = max(4, h // 3)
    return cv2.copyMakeBorder(crop[y : y + h, x : x + w], pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=fill)


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


# --- helpers ---------------------------------------------------------------------------------------------

_T = TypeVar("_T")


def _rgb(frame: np.ndarray) -> np.ndarray:
    """The frame as an RGB array, checked; an RGBA frame loses its alpha channel."""
    frame = np.asarray(frame)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4) or frame.dtype != np.uint8:
        raise ValueError(f"expected an RGB uint8 frame of shape (H, W, 3), got {frame.dtype} {frame.shape}")
    return frame[:, :, :3]


def _lines(items: Iterable[_T], box_of: Callable[[_T], Box]) -> list[list[_T]]:
    """Group items into text lines, top to bottom, each left to right.

    An item joins the current line when its vertical centre is within half a height (the taller of the
    item and the line's first item) of the line's centre, so a slightly taller or lower word (a bigger
    digit, a descender) does not start a new line.
    """
    ordered = sorted(items, key=lambda item: box_of(item).y + box_of(item).h / 2)
    lines: list[list[_T]] = []
    line_centre = line_height = 0.0
    for item in ordered:
        box = box_of(item)
        centre = box.y + box.h / 2
        if lines and abs(centre - line_centre) < max(line_height, box.h) / 2:
            lines[-1].append(item)
        else:
            lines.append([item])
            line_centre, line_height = centre, box.h
    return [sorted(line, key=lambda item: box_of(item).x) for line in lines]


def _reading_order(items: Iterable[_T], box_of: Callable[[_T], Box]) -> list[_T]:
    return [item for line in _lines(items, box_of) for item in line]


def _dominant_colour(pixels: np.ndarray) -> tuple[int, int, int]:
    """The most common colour of an ``(N, 3)`` pixel array, robust to anti-aliasing.

    Pixels vote in 8x8x8 colour bins; the answer is the mean of the winning bin, so a flat fill comes
    back exactly.
    """
    bins = (pixels >> 5).astype(np.int32)
    codes = bins[:, 0] * 64 + bins[:, 1] * 8 + bins[:, 2]
    winner = np.bincount(codes, minlength=512).argmax()
    mean = pixels[codes == winner].mean(axis=0)
    return int(round(mean[0])), int(round(mean[1])), int(round(mean[2]))


def _colour_distance(image: np.ndarray, colour: Sequence[int]) -> np.ndarray:
    """Per pixel, the largest channel difference to ``colour`` (0..255)."""
    return np.abs(image.astype(np.int16) - np.asarray(colour, dtype=np.int16)).max(axis=2)


def _digest(image: np.ndarray) -> str:
    """A short identity of an image's pixels, to recognise an identical crop again."""
    return hashlib.blake2b(image.tobytes() + repr(image.shape).encode(), digest_size=16).hexdigest()


def _load_template(template: np.ndarray | str | Path) -> np.ndarray:
    if isinstance(template, (str, Path)):
        bgr = cv2.imread(str(template), cv2.IMREAD_COLOR)
        if bgr is None:
            raise FileNotFoundError(f"cannot read template image {template}")
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    return _rgb(template)


def _rectangles(frame: np.ndarray) -> list[tuple[Box, float]]:
    """Closed outlines found by edge detection, as (bounding box, fill ratio).

    The fill ratio is the outline's area over its bounding box's: about 1 for a rectangle, about 0.79
    for a circle. Filled shapes and bordered outlines both produce an edge ring, which OpenCV reports
    as an outer and an inner contour; callers deduplicate.
    """
    # Edges per colour channel: an orange tile on a beige board differs by 55 in red but only 14 in gray.
    edges = np.bitwise_or.reduce([cv2.Canny(np.ascontiguousarray(frame[:, :, i]), 30, 90) for i in range(3)])
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w >= 8 and h >= 8:
            found.append((Box(x, y, w, h), cv2.contourArea(contour) / (w * h)))
    return found


def _nested(a: Box, b: Box) -> bool:
    """Whether one of two different boxes (almost) holds the other."""
    return a != b and a.intersection(b).area >= 0.95 * min(a.area, b.area)


def _dedupe(boxes: Iterable[Box], *, iou: float = 0.8) -> list[Box]:
    """Drop near-duplicates (an outline's inner and outer contour), keeping the larger of each pair."""
    kept: list[Box] = []
    for box in sorted(boxes, key=lambda b: b.area, reverse=True):
        if all(box.iou(other) < iou for other in kept):
            kept.append(box)
    return kept


class _LRU:
    """A small thread-safe least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str | None) -> Any:
        if key is None or self._size <= 0:
            return None
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str | None, value: Any) -> None:
        if key is None or self._size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class Vision:
    """Reads frames: text (OCR), widget candidates, template hits and game boards.

    ``min_score`` drops OCR results below that confidence (rapidocr may report a spurious glyph for a
    plain square at ~0.58). ``cache_size`` is how many frame keys keep their results.
    """

    def __init__(self, *, min_score: float = 0.6, cache_size: int = 64) -> None:
        self.min_score = min_score
        self._text_cache = _LRU(cache_size)
        self._widget_cache = _LRU(cache_size)
        self._line_cache = _LRU(cache_size * 16)  # line image digest → (text, score)
        self._pending: dict[str, threading.Event] = {}
        self._pending_lock = threading.Lock()

    # --- text ---------------------------------------------------------------------------------------

    def read(self, frame: np.ndarray, key: str | None = None) -> list[TextBox]:
        """OCR of the whole frame in reading order (top to bottom, left to right), cached by ``key``."""
        return self._read_once(key, lambda: self._read_image(_rgb(frame), 0, 0))

    def text(self, frame: np.ndarray, key: str | None = None) -> str:
        """All text of the frame: boxes on one line joined by spaces, lines by newlines."""
        return "\n".join(
            " ".join(box.text for box in line) for line in _lines(self.read(frame, key), lambda t: t.box)
        )

    def read_region(self, frame: np.ndarray, box: Box) -> list[TextBox]:
        """OCR of one region of the frame; the boxes are in frame coordinates."""
        frame = _rgb(frame)
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
        frame = _rgb(frame)
        height, width = frame.shape[:2]
        previous = self._text_cache.get(previous_key)

        def incremental_read() -> list[TextBox]:
            if previous is None or changed is None:
                return self._read_image(frame, 0, 0)
            changes = [changed] if isinstance(changed, Box) else changed
            regions = _changed_regions(changes, previous, width, height)
            changed_area = sum(region.area for region in regions)
            if len(regions) > _MAX_CHANGED_REGIONS or changed_area > _MAX_CHANGED_FRACTION * width * height:
                return self._read_image(frame, 0, 0)
            kept = [old for old in previous if not any(r.intersection(old.box).area for r in regions)]
            fresh = [line for region in regions for line in self.read_region(frame, region)]
            return _reading_order(kept + fresh, lambda t: t.box)

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
        read = self._recognise_cached([crop for _, crop in lines])
        boxes = [
            TextBox(text.strip(), Box.from_points(quad + (dx, dy)), score)
            for (quad, _), (text, score) in zip(lines, read, strict=True)
            if score >= self.min_score and text.strip()
        ]
        return _reading_order(boxes, lambda t: t.box)

    def _recognise_cached(self, lines: list[np.ndarray]) -> list[tuple[str, float]]:
        """Text and score of each one-line image. Screens repeat themselves (a label that did not change,
        many "2" tiles): identical line images are recognised once, the others in one batch."""
        digests = [_digest(line) for line in lines]
        unknown = {d: line for d, line in zip(digests, lines, strict=True) if self._line_cache.get(d) is None}
        for digest, result in zip(unknown, _recognise(list(unknown.values())), strict=True):
            self._line_cache.put(digest, result)
        return [self._line_cache.get(d) for d in digests]

    # --- widgets ------------------------------------------------------------------------------------

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Widget]:
        """Candidates to interact with, in reading order, cached by ``key``.

        Rectangles that stand out (filled buttons, bordered entry fields) come from edge contours within
        size limits; a text box inside one labels it, a text box inside none is a "text" widget. Closed
        non-rectangular outlines (sprites, icons, round buttons) are "shape" widgets.
        """
        cached = self._widget_cache.get(key)
        if cached is not None:
            return list(cached)
        frame = _rgb(frame)
        texts = self.read(frame, key)
        height, width = frame.shape[:2]
        max_area = _MAX_WIDGET_FRACTION * width * height

        rects: list[Box] = []
        shapes: list[Box] = []
        for box, fill in _rectangles(frame):
            if not (
                _MIN_WIDGET_W <= box.w
                and _MIN_WIDGET_H <= box.h <= _MAX_WIDGET_H
                and box.area <= max_area
            ):
                continue
            # A glyph of big text has an outline too: it lies within a bigger text box. (A button is bigger
            # than its label's box, however tightly the label fills it.)
            if any(box.area < t.box.area and t.box.expand(4).intersection(box).area >= 0.9 * box.area
                   for t in texts):
                continue
            if fill >= _RECTANGLE_FILL:
                rects.append(box)
            elif fill >= _SHAPE_MIN_FILL and box.area <= _MAX_SHAPE_FRACTION * width * height:
                shapes.append(box)
        rects = _dedupe(rects, iou=0.7)
        # A text box labels the smallest rectangle holding it: a button's face rather than its border.
        labels: dict[Box, list[TextBox]] = {}
        for text in texts:
            holders = [r for r in rects if r.intersection(text.box).area >= 0.6 * text.box.area]
            if holders:
                labels.setdefault(min(holders, key=lambda r: r.area), []).append(text)
        found: list[Widget] = []
        for rect in rects:
            # An unlabelled outline around or inside a labelled one is that widget's border or bevel.
            if rect not in labels and any(_nested(rect, other) for other in labels):
                continue
            label = _reading_order(labels.get(rect, []), lambda t: t.box)
            found.append(Widget(rect, self._rect_kind(frame, rect, label), " ".join(t.text for t in label)))
        labelled = {id(t) for group in labels.values() for t in group}
        found += [Widget(t.box, "text", t.text) for t in texts if id(t) not in labelled]
        taken = [w.box for w in found]
        for shape in _dedupe(shapes):
            if all(shape.intersection(other).area < 0.5 * shape.area for other in taken):
                found.append(Widget(shape, "shape"))
                taken.append(shape)
        widgets = _reading_order(found, lambda w: w.box)
        self._widget_cache.put(key, tuple(widgets))
        return widgets

    @staticmethod
    def _rect_kind(frame: np.ndarray, rect: Box, label: list[TextBox]) -> str:
        face = frame[rect.y + 2 : rect.bottom - 2, rect.x + 2 : rect.right - 2]
        bright = face.size > 0 and np.median(face.reshape(-1, 3), axis=0).min() >= _FIELD_MIN_BRIGHTNESS
        left_aligned = all(t.box.x - rect.x < (rect.right - t.box.right) / 2 for t in label)
        if bright and rect.w >= _FIELD_MIN_ASPECT * rect.h and left_aligned:
            return "field"
        return "button" if label or _has_mark(face) else "shape"

    # --- templates ----------------------------------------------------------------------------------

    def find(
        self, frame: np.ndarray, template: np.ndarray | str | Path, *, threshold: float = 0.9
    ) -> list[Box]:
        """Where ``template`` (an RGB array or an image file) appears, best match first.

        The score is the normalised cross-correlation in colour (``TM_CCOEFF_NORMED``), so a uniform
        brightness change still matches but a red gem does not match a blue one; overlapping hits of one
        occurrence count once. A flat single-colour template has no pattern to correlate: it matches
        regions of its colour (score 1 - RMS difference / 255).
        """
        frame = _rgb(frame)
        pattern = _load_template(template)
        th, tw = pattern.shape[:2]
        if th > frame.shape[0] or tw > frame.shape[1] or th == 0 or tw == 0:
            return []
        if pattern.reshape(-1, 3).std(axis=0).max() < 1:
            squared = cv2.matchTemplate(frame.astype(np.float32), pattern.astype(np.float32), cv2.TM_SQDIFF)
            return _peaks(1 - np.sqrt(np.maximum(squared, 0) / pattern.size) / 255, threshold, tw, th)
        # Colour correlation over a whole frame is ~10x slower than grayscale (88 vs 9 ms for 1024x768):
        # grayscale proposes candidates, colour confirms them and gives the score.
        gray_frame, gray_pattern = (cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) for image in (frame, pattern))
        gray = cv2.matchTemplate(gray_frame, gray_pattern, cv2.TM_CCOEFF_NORMED)
        scored: list[tuple[float, Box]] = []
        for candidate in _peaks(gray, threshold - _GRAY_SLACK, tw, th, limit=_MAX_CANDIDATES):
            around = candidate.expand(1).clip(frame.shape[1], frame.shape[0])
            window = frame[around.y : around.bottom, around.x : around.right]
            _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(window, pattern, cv2.TM_CCOEFF_NORMED))
            hit = Box(around.x + x, around.y + y, tw, th)
            if score >= threshold and all(hit.iou(other) < 0.5 for _, other in scored):
                scored.append((score, hit))
        return [hit for _, hit in sorted(scored, key=lambda pair: -pair[0])[:_MAX_HITS]]

    # --- boards -------------------------------------------------------------------------------------

    def read_grid(
        self, frame: np.ndarray, rows: int, cols: int, box: Box | None = None, *, cell_text: bool = True
    ) -> Grid:
        """Read a board of ``rows`` x ``cols`` cells into a matrix (the LAP idea: screen -> state).

        ``box`` defaults to the largest board-shaped outline holding cell-sized things, else the whole
        frame. With ``cell_text`` each cell is its OCR text (tile numbers, letters); otherwise it is the
        ``"#rrggbb"`` of the cell's dominant colour among pixels unlike the board's background (the colour
        between cells). An empty cell is ""; a cell with something on it that does not read as text with
        ``min_score`` confidence (an icon, a mine) is "?".
        """
        if rows < 1 or cols < 1:
            raise ValueError("a grid needs at least one row and one column")
        frame = _rgb(frame)
        height, width = frame.shape[:2]
        board = (box or _find_board(frame, rows, cols) or Box(0, 0, width, height)).clip(width, height)
        grid = Grid(rows, cols, [["" for _ in range(cols)] for _ in range(rows)], board)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        faces = {cell: self._cell_face(frame, grid.cell_box(*cell)) for cell in cells}
        crops = {cell: face for cell, face in faces.items() if face.size}
        if cell_text:
            self._read_cells(grid, crops)
        else:
            background = _board_background(frame, grid)
            for (r, c), crop in crops.items():
                pixels = crop.reshape(-1, 3)
                content = pixels[_colour_distance(crop, background).ravel() > _BACKGROUND_DISTANCE]
                if len(content) >= _MIN_CONTENT_FRACTION * len(pixels):
                    grid.cells[r][c] = "#{:02x}{:02x}{:02x}".format(*_dominant_colour(content))
        return grid

    @staticmethod
    def _cell_face(frame: np.ndarray, cell: Box) -> np.ndarray:
        """The cell without its outer 8 %, where grid lines and neighbours' borders live."""
        inset = cell.expand(-max(1, round(min(cell.w, cell.h) * 0.08)))
        return frame[inset.y : inset.bottom, inset.x : inset.right]

    def _read_cells(self, grid: Grid, crops: dict[tuple[int, int], np.ndarray]) -> None:
        # Each cell's ink, cut out tightly with a margin of its own fill, is one text line for the
        # recogniser: no detection pass, and all cells go through the model in one batch.
        lines: dict[tuple[int, int], np.ndarray] = {}
        for cell, crop in crops.items():
            fill = _dominant_colour(crop.reshape(-1, 3))
            ink = _inner_ink(_colour_distance(crop, fill) > _INK_DISTANCE)
            if ink.sum() < max(4, _MIN_INK_FRACTION * ink.size):
                continue
            lines[cell] = _tight_to_ink(crop, ink, fill)
        for (r, c), (text, score) in zip(lines, self._recognise_cached(list(lines.values())), strict=True):
            grid.cells[r][c] = text.strip() if score >= self.min_score else "?"


def _peaks(scores: np.ndarray, threshold: float, tw: int, th: int, *, limit: int = _MAX_HITS) -> list[Box]:
    """Template positions scoring at least ``threshold``, best first, one per occurrence: around each
    peak, every position whose match would overlap it by more than half is dropped."""
    scores = scores.copy()
    peaks: list[Box] = []
    while len(peaks) < limit:
        _, best, _, (x, y) = cv2.minMaxLoc(scores)
        if best < threshold:
            break
        peaks.append(Box(x, y, tw, th))
        scores[max(0, y - th // 2) : y + th // 2 + 1, max(0, x - tw // 2) : x + tw // 2 + 1] = -1
    return peaks


def _changed_regions(changes: Iterable[Box], lines: Sequence[TextBox], width: int, height: int) -> list[Box]:
    """The regions to read again: each change with a margin, grown to whole text lines, overlapping
    regions merged (a line must be read once, whole)."""
    pending = [c.expand(_CHANGE_MARGIN).clip(width, height) for c in changes if c.clip(width, height).area]
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


def _has_mark(face: np.ndarray) -> bool:
    """Whether a rectangle's face carries a mark of its own (a symbol or icon the OCR could not read, like
    "=" or "▶"): ink off its fill that does not touch its edge (a bevel or border does) and leaves most of
    the face empty. A plain rectangle (an empty tile, a panel) has none."""
    if face.size == 0:
        return False
    ink = _inner_ink(_colour_distance(face, _dominant_colour(face.reshape(-1, 3))) > _INK_DISTANCE)
    return max(4, _MIN_INK_FRACTION * ink.size) <= ink.sum() <= _MAX_MARK_FRACTION * ink.size


def _inner_ink(mask: np.ndarray) -> np.ndarray:
    """The ink of a cell minus what touches the cell's edge: grid lines and the neighbours' borders
    when the board's outline is a few pixels off, not the cell's own symbol."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    height, width = mask.shape
    x, y, w, h = (stats[:, i] for i in range(4))
    inner = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    inner[0] = False  # label 0 is everything that is not ink
    return inner[labels].astype(np.uint8)


def _board_background(frame: np.ndarray, grid: Grid) -> tuple[int, int, int]:
    """The colour between cells: sampled along the grid lines and the board's edge."""
    samples = []
    for r in range(grid.rows + 1):
        y = min(grid.box.y + round(r * grid.box.h / grid.rows), grid.box.bottom - 1)
        samples.append(frame[y, grid.box.x : grid.box.right])
    for c in range(grid.cols + 1):
        x = min(grid.box.x + round(c * grid.box.w / grid.cols), grid.box.right - 1)
        samples.append(frame[grid.box.y : grid.box.bottom, x])
    return _dominant_colour(np.concatenate(samples))


def _find_board(frame: np.ndarray, rows: int, cols: int) -> Box | None:
    """The largest rectangle shaped like a ``rows`` x ``cols`` board that holds cell-sized things in at
    least a quarter of its cells (tiles, gems, cell outlines)."""
    height, width = frame.shape[:2]
    outlines = _rectangles(frame)
    wanted_aspect = cols / rows
    candidates = [
        box
        for box, fill in outlines
        if fill >= _RECTANGLE_FILL
        and box.area >= 0.04 * width * height
        and 0.75 <= (box.w / box.h) / wanted_aspect <= 1.33
    ]
    for board in sorted(_dedupe(candidates, iou=0.95), key=lambda b: b.area, reverse=True):
        cell_w, cell_h = board.w / cols, board.h / rows
        occupied = set()
        for box, _ in outlines:
            if (
                0.4 * cell_w <= box.w <= 1.05 * cell_w
                and 0.4 * cell_h <= box.h <= 1.05 * cell_h
                and board.contains(*box.center)
            ):
                cx, cy = box.center
                occupied.add((int((cy - board.y) // cell_h), int((cx - board.x) // cell_w)))
        if len(occupied) >= max(2, rows * cols / 4):
            return board
    return _board_from_cells([box for box, fill in outlines if fill >= _RECTANGLE_FILL], rows, cols)


def _board_from_cells(boxes: list[Box], rows: int, cols: int) -> Box | None:
    """A board whose own outline is not a closed shape (it fills the window to its edges), found from its
    cells instead: ``rows`` x ``cols`` same-sized rectangles on a regular lattice (2048's tile slots)."""
    groups: dict[tuple[int, int], list[Box]] = {}
    for box in boxes:
        groups.setdefault((round(box.w / 6), round(box.h / 6)), []).append(box)
    for members in sorted(groups.values(), key=len, reverse=True):
        if len(members) < rows * cols * 0.75:
            break
        cell_w, cell_h = members[0].w, members[0].h
        xs = _cluster([b.center[0] for b in members], cell_w / 4)
        ys = _cluster([b.center[1] for b in members], cell_h / 4)
        if len(xs) != cols or len(ys) != rows:
            continue
        pitch_x = (xs[-1] - xs[0]) / (cols - 1) if cols > 1 else cell_w
        pitch_y = (ys[-1] - ys[0]) / (rows - 1) if rows > 1 else cell_h
        return Box(round(xs[0] - pitch_x / 2), round(ys[0] - pitch_y / 2), round(pitch_x * cols),
                   round(pitch_y * rows))
    return None


def _cluster(values: list[float], within: float) -> list[float]:
    """Sorted values merged where neighbours are closer than ``within``: the mean of each run."""
    runs: list[list[float]] = []
    for value in sorted(values):
        if runs and value - runs[-1][-1] < within:
            runs[-1].append(value)
        else:
            runs.append([value])
    return [sum(run) / len(run) for run in runs]


# --- changes between frames -----------------------------------------------------------------------------


def changed_regions(before: np.ndarray, after: np.ndarray, *, gap: int = _CHANGE_MARGIN) -> list[Box]:
    """The separate places where two frames differ (changes closer than ``gap`` pixels are one place).

    A sprite that moved and a score that went up are two small regions, not one box spanning both.
    Frames of different sizes differ everywhere.
    """
    height, width = after.shape[:2]
    if before.shape != after.shape:
        return [Box(0, 0, width, height)]
    delta = (before != after).any(axis=2).astype(np.uint8)
    if not delta.any():
        return []
    joined = cv2.dilate(delta, np.ones((gap, gap), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    if count - 1 > _MAX_REGIONS_LISTED:  # changes everywhere: one box says as much
        return [Box(*cv2.boundingRect(delta))]
    # each place is the box of its changed pixels, not of their dilation
    return [Box(*cv2.boundingRect(((labels == label) & (delta > 0)).astype(np.uint8)))
            for label in range(1, count)]


# --- screen identity ------------------------------------------------------------------------------------


def perceptual_hash(frame: np.ndarray) -> int:
    """A 64-bit difference hash: each bit says whether a 9x8 grayscale thumbnail brightens to the right.

    Small changes (a moving cursor, a counter) flip few bits; a different screen flips about half.
    """
    gray = cv2.cvtColor(_rgb(frame), cv2.COLOR_RGB2GRAY)
    thumb = cv2.resize(gray, (9, 8), interpolation=cv2.INTER_AREA).astype(np.int16)
    bits = (thumb[:, 1:] > thumb[:, :-1]).ravel()
    return int(sum(1 << i for i, bit in enumerate(bits) if bit))


def hamming(a: int, b: int) -> int:
    """How many bits differ between two hashes."""
    return (a ^ b).bit_count()
