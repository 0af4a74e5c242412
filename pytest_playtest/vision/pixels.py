"""Pixel helpers shared by the readers: colours, ink masks, outlines, reading order and a small cache."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import cv2
import numpy as np

from ..geometry import Box
from .thresholds import EDGE_LEVELS, LINE_PAD, LINE_PAD_PARTS, MIN_OUTLINE, NESTED_SHARE, SAME_BOX_IOU

_T = TypeVar("_T")


def rgb(frame: np.ndarray) -> np.ndarray:
    """The frame as an RGB array, checked; an RGBA frame loses its alpha channel."""
    frame = np.asarray(frame)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4) or frame.dtype != np.uint8:
        raise ValueError(f"expected an RGB uint8 frame of shape (H, W, 3), got {frame.dtype} {frame.shape}")
    return frame[:, :, :3]


def text_lines(items: Iterable[_T], box_of: Callable[[_T], Box]) -> list[list[_T]]:
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


def reading_order(items: Iterable[_T], box_of: Callable[[_T], Box]) -> list[_T]:
    return [item for line in text_lines(items, box_of) for item in line]


def dominant_colour(pixels: np.ndarray) -> tuple[int, int, int]:
    """The most common colour of an ``(N, 3)`` pixel array, robust to anti-aliasing.

    Pixels vote in 8x8x8 colour bins; the answer is the mean of the winning bin, so a flat fill comes
    back exactly.
    """
    bins = (pixels >> 5).astype(np.int32)
    codes = bins[:, 0] * 64 + bins[:, 1] * 8 + bins[:, 2]
    winner = np.bincount(codes, minlength=512).argmax()
    mean = pixels[codes == winner].mean(axis=0)
    return int(round(mean[0])), int(round(mean[1])), int(round(mean[2]))


def colour_distance(image: np.ndarray, colour: Sequence[int]) -> np.ndarray:
    """Per pixel, the largest channel difference to ``colour`` (0..255)."""
    return np.abs(image.astype(np.int16) - np.asarray(colour, dtype=np.int16)).max(axis=2)


def digest(image: np.ndarray) -> str:
    """A short identity of an image's pixels, to recognise an identical crop again."""
    return hashlib.blake2b(image.tobytes() + repr(image.shape).encode(), digest_size=16).hexdigest()


def tight_to_ink(crop: np.ndarray, ink: np.ndarray, fill: tuple[int, int, int]) -> np.ndarray:
    """The crop cut to the bounding box of its ``ink`` mask, with a margin of ``fill``: one text line as
    the recogniser likes it."""
    x, y, w, h = cv2.boundingRect(ink)
    pad = max(LINE_PAD, h // LINE_PAD_PARTS)
    return cv2.copyMakeBorder(crop[y : y + h, x : x + w], pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=fill)


def inner_ink(mask: np.ndarray) -> np.ndarray:
    """The ink of a cell minus what touches the cell's edge: grid lines and the neighbours' borders
    when the board's outline is a few pixels off, not the cell's own symbol."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    height, width = mask.shape
    x, y, w, h = (stats[:, i] for i in range(4))
    inner = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    inner[0] = False  # label 0 is everything that is not ink
    return inner[labels].astype(np.uint8)


def rectangles(frame: np.ndarray) -> list[tuple[Box, float]]:
    """Closed outlines found by edge detection, as (bounding box, fill ratio).

    The fill ratio is the outline's area over its bounding box's: about 1 for a rectangle, about 0.79
    for a circle. Filled shapes and bordered outlines both produce an edge ring, which OpenCV reports
    as an outer and an inner contour; callers deduplicate.
    """
    # Edges per colour channel: an orange tile on a beige board differs by 55 in red but only 14 in gray.
    edges = np.bitwise_or.reduce([cv2.Canny(np.ascontiguousarray(frame[:, :, i]), *EDGE_LEVELS) for i in range(3)])
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w >= MIN_OUTLINE and h >= MIN_OUTLINE:
            found.append((Box(x, y, w, h), cv2.contourArea(contour) / (w * h)))
    return found


def nested(a: Box, b: Box) -> bool:
    """Whether one of two different boxes (almost) holds the other."""
    return a != b and a.intersection(b).area >= NESTED_SHARE * min(a.area, b.area)


def dedupe(boxes: Iterable[Box], *, iou: float = SAME_BOX_IOU) -> list[Box]:
    """Drop near-duplicates (an outline's inner and outer contour), keeping the larger of each pair."""
    kept: list[Box] = []
    for box in sorted(boxes, key=lambda b: b.area, reverse=True):
        if all(box.iou(other) < iou for other in kept):
            kept.append(box)
    return kept


class LRU:
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
