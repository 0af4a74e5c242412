"""The one geometry type: an axis-aligned box in pixels (window coordinates unless said otherwise)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


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
        x, y = math.floor(min(xs)), math.floor(min(ys))
        return cls(x, y, math.ceil(max(xs)) - x, math.ceil(max(ys)) - y)


#: The virtual display's size when nothing else is said.
DEFAULT_SIZE = (1024, 768)


def parse_size(value: str | tuple[int, int] | list[int]) -> tuple[int, int]:
    """``"1024x768"`` or ``(1024, 768)`` → ``(1024, 768)``; raises ValueError naming the problem."""
    parts: list[int] | list[str] = (
        list(value) if isinstance(value, tuple | list) else str(value).lower().replace(" ", "").split("x"))
    try:
        width, height = (int(p) for p in parts)
    except (TypeError, ValueError):
        raise ValueError(f"size must look like WIDTHxHEIGHT (e.g. 1024x768), got {value!r}") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise ValueError(f"size {width}x{height} is out of range (64..8192 per side)")
    return width, height
