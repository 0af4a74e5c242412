"""Things worth steering to in a game's picture: small, compact, colourful things of a colour that is rare on
screen (an apple on the field, a coin, a gem), found without knowing the game.

A person sees the apple at once: it is the one red thing on a green and black field, about the size of a
cell. Colours are binned coarsely; a bin that covers little of the window but more than a speck is a rare
colour, and its compact blobs of a sprite's size are candidates. Grey, white and black are no candidates: text,
outlines and shadows are drawn in them. A colour drawn in many places (a pattern, a row of bricks) is no
target either: the target is the one thing of its kind. Pure pixels: the policy decides what a target is worth
(``policies/seeking.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..geometry import Box
from .thresholds import (
    TARGET_BIN_SHIFT,
    TARGET_MAX_BLOBS,
    TARGET_MAX_SHARE,
    TARGET_MAX_SIDE,
    TARGET_MIN_CHROMA,
    TARGET_MIN_FILL,
    TARGET_MIN_PIXELS,
    TARGET_STRIDE,
)


@dataclass(frozen=True)
class Target:
    """A candidate target: where, and the colour bin it was found by (what the policy learns about)."""

    box: Box
    colour: int


def find_targets(frame: np.ndarray, avoid: list[Box] | None = None) -> list[Target]:
    """Candidate targets in a frame (window coordinates), the rarest colour first; none overlapping ``avoid``
    (the avatar, the things that move)."""
    step = TARGET_STRIDE
    small = np.ascontiguousarray(frame[::step, ::step, :3])
    bins = _bins(small)
    counts = np.bincount(bins.ravel(), minlength=1 << (3 * (8 - TARGET_BIN_SHIFT)))
    total = bins.size
    found: list[Target] = []
    for colour in np.flatnonzero((counts >= TARGET_MIN_PIXELS) & (counts <= TARGET_MAX_SHARE * total)):
        if not _colourful(int(colour)):
            continue
        blobs = _blobs(bins == colour)
        if not 0 < len(blobs) <= TARGET_MAX_BLOBS:
            continue
        found += [Target(Box(x * step, y * step, w * step, h * step), int(colour)) for x, y, w, h in blobs]
    kept = [t for t in found if not any(t.box.intersection(a).area for a in avoid or [])]
    rarity = {t.colour: int(counts[t.colour]) for t in kept}
    return sorted(kept, key=lambda t: (rarity[t.colour], t.box.y, t.box.x))


def _bins(pixels: np.ndarray) -> np.ndarray:
    """Each pixel's coarse colour bin."""
    shift, levels = TARGET_BIN_SHIFT, 8 - TARGET_BIN_SHIFT
    r, g, b = (pixels[..., i].astype(np.int32) >> shift for i in range(3))
    return (r << (2 * levels)) | (g << levels) | b


def _colourful(colour: int) -> bool:
    """Whether a bin is a colour, not a grey (text, outlines and shadows are greys)."""
    shift, levels = TARGET_BIN_SHIFT, 8 - TARGET_BIN_SHIFT
    mask = (1 << levels) - 1
    channels = [((colour >> (levels * i)) & mask) << shift for i in (2, 1, 0)]
    return max(channels) - min(channels) >= TARGET_MIN_CHROMA


def _blobs(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The compact blobs of a mask of a sprite's size, as (x, y, w, h)."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    side = TARGET_MAX_SIDE // TARGET_STRIDE
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area >= TARGET_MIN_PIXELS and max(w, h) <= side and area >= TARGET_MIN_FILL * w * h:
            blobs.append((x, y, w, h))
    return blobs
