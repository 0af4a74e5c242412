"""Changes between frames and screen identity: where two frames differ, and a perceptual hash."""

from __future__ import annotations

import cv2
import numpy as np

from ..geometry import Box
from .pixels import rgb
from .thresholds import CHANGE_MARGIN, MAX_REGIONS_LISTED, SCENE_CELLS, SCENE_LEVEL, SCENE_SHARE


def changed_regions(before: np.ndarray, after: np.ndarray, *, gap: int = CHANGE_MARGIN) -> list[Box]:
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
    if count - 1 > MAX_REGIONS_LISTED:  # changes everywhere: one box says as much
        return [Box(*cv2.boundingRect(delta))]
    # each place is the box of its changed pixels, not of their dilation
    return [Box(*cv2.boundingRect(((labels == label) & (delta > 0)).astype(np.uint8)))
            for label in range(1, count)]


def perceptual_hash(frame: np.ndarray) -> int:
    """A 64-bit difference hash: each bit says whether a 9x8 grayscale thumbnail brightens to the right.

    Small changes (a moving cursor, a counter) flip few bits; a different screen flips about half.
    """
    gray = cv2.cvtColor(rgb(frame), cv2.COLOR_RGB2GRAY)
    thumb = cv2.resize(gray, (9, 8), interpolation=cv2.INTER_AREA).astype(np.int16)
    bits = (thumb[:, 1:] > thumb[:, :-1]).ravel()
    return int(sum(1 << i for i, bit in enumerate(bits) if bit))


def hamming(a: int, b: int) -> int:
    """How many bits differ between two hashes."""
    return (a ^ b).bit_count()


def scene(frame: np.ndarray) -> np.ndarray:
    """A frame's thumbnail for :func:`same_scene`: the mean grey of each cell of a SCENE_CELLS grid."""
    gray = cv2.cvtColor(rgb(frame), cv2.COLOR_RGB2GRAY)
    return cv2.resize(gray, SCENE_CELLS, interpolation=cv2.INTER_AREA).astype(np.int16)


def same_scene(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two thumbnails (:func:`scene`) show one scene: a game that went on where it was, not a new
    screen (a game over, a level's intro) nor the same place emptied."""
    return float(np.mean(np.abs(a - b) > SCENE_LEVEL)) <= SCENE_SHARE
