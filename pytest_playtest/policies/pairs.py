"""Matching pairs, as a person plays a memory game: remember what each clicked thing showed, and when two of
them showed the same face, click them one after the other.

Many games hide faces behind equal backs (cards, tiles) and keep two equal faces uncovered only when they are
turned one right after the other. After a click, the thing clicked (its box) is looked at once the app has
drawn its answer, and at every look after: a look that differs from how it looked before the click is its
face. Two places whose faces
look alike while both show their backs again are a pair to turn. Looks are small colour thumbnails, so a
face drawn half-way through a flip, or a few pixels off, still matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..geometry import Box

#: The side of a look's thumbnail (pixels).
THUMB = 8
#: Mean difference per channel (0-255) below which two looks are the same.
ALIKE = 12.0


def look(frame: np.ndarray, box: Box) -> np.ndarray | None:
    """A thing's look: its box, shrunk to a small colour thumbnail (None when it lies off the frame)."""
    inner = box.clip(frame.shape[1], frame.shape[0])
    if inner.w < 4 or inner.h < 4:
        return None
    crop = frame[inner.y : inner.bottom, inner.x : inner.right]
    return cv2.resize(crop, (THUMB, THUMB), interpolation=cv2.INTER_AREA).astype(np.float32)


def alike(a: np.ndarray, b: np.ndarray) -> bool:
    return _distance(a, b) < ALIKE


@dataclass
class Place:
    """One clickable thing: how it looked before it was first clicked (its back) and what it showed."""

    box: Box
    back: np.ndarray
    face: np.ndarray | None = None


@dataclass
class Faces:
    """What each clicked place showed; ``pair()`` names two places to turn one after the other."""

    places: dict[str, Place] = field(default_factory=dict)

    def clicked(self, name: str, box: Box, frame: np.ndarray) -> None:
        """A click on ``name`` is about to be performed on ``frame`` (its first look there is its back)."""
        if name not in self.places and (before := look(frame, box)) is not None:
            self.places[name] = Place(box, before)

    def see(self, frame: np.ndarray) -> None:
        """A new look at the app: a place that shows other than its back shows its face. A face may be caught
        half-turned, so the look farthest from the back is kept."""
        for place in self.places.values():
            now = look(frame, place.box)
            if now is None or alike(now, place.back):
                continue
            if place.face is None or _distance(now, place.back) >= _distance(place.face, place.back):
                place.face = now

    def pair(self, frame: np.ndarray) -> tuple[str, str] | None:
        """Two places whose faces look alike and that both show their backs now, or None."""
        hidden = [(name, place) for name, place in sorted(self.places.items())
                  if place.face is not None and (now := look(frame, place.box)) is not None
                  and alike(now, place.back)]
        for index, (first, one) in enumerate(hidden):
            for second, other in hidden[index + 1:]:
                assert one.face is not None and other.face is not None
                if alike(one.face, other.face):
                    return first, second
        return None

    def forget(self) -> None:
        """The app started over: its things are dealt anew."""
        self.places.clear()


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())
