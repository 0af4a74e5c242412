"""Turning screenshots into structure: OCR text boxes, widget candidates, template hits and game boards.

Frames are RGB ``uint8`` arrays of shape ``(H, W, 3)`` in window coordinates. OCR runs on rapidocr
(offline, ONNX models inside the wheel) through one engine per process, created on first use because
loading it costs about a second. Everything else is plain OpenCV and costs milliseconds.

Callers that already hash their frames pass that hash as ``key``: results are cached per key, so asking
again about the same frame is free, and :meth:`Vision.read_changed` can re-read only the part of a
frame that changed since a previous key.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..geometry import Box
from . import boards, templates
from .boards import Grid
from .diff import changed_regions, hamming, perceptual_hash, same_scene, scene
from .ocr import Ocr, TextBox
from .pixels import LRU, rgb
from .widgets import Widget, detect_widgets

__all__ = ["Box", "TextBox", "Widget", "Grid", "Vision", "changed_regions", "perceptual_hash", "hamming",
           "scene", "same_scene"]


class Vision(Ocr):
    """Reads frames: text (OCR), widget candidates, template hits and game boards.

    ``min_score`` drops OCR results below that confidence (rapidocr may report a spurious glyph for a
    plain square at ~0.58). ``cache_size`` is how many frame keys keep their results.
    """

    def __init__(self, *, min_score: float = 0.6, cache_size: int = 64) -> None:
        super().__init__(min_score=min_score, cache_size=cache_size)
        self._widget_cache = LRU(cache_size)

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Widget]:
        """Candidates to interact with, in reading order, cached by ``key`` (see ``detect_widgets``).

        Rectangles that stand out (filled buttons, bordered entry fields) come from edge contours within
        size limits; a text box inside one labels it, a text box inside none is a "text" widget. Closed
        non-rectangular outlines (sprites, icons, round buttons) are "shape" widgets.
        """
        cached = self._widget_cache.get(key)
        if cached is not None:
            return list(cached)
        frame = rgb(frame)
        found = detect_widgets(frame, self.read(frame, key))
        self._widget_cache.put(key, tuple(found))
        return found

    def cached_widgets(self, key: str) -> list[Widget] | None:
        """The widgets found on the frame of this hash, if they were looked for already (else None)."""
        cached = self._widget_cache.get(key)
        return None if cached is None else list(cached)

    def find(self, frame: np.ndarray, template: np.ndarray | str | Path, *, threshold: float = 0.9) -> list[Box]:
        """Where ``template`` (an RGB array or an image file) appears, best match first (see ``templates.find``)."""
        return templates.find(frame, template, threshold=threshold)

    def read_grid(
        self, frame: np.ndarray, rows: int, cols: int, box: Box | None = None, *, cell_text: bool = True
    ) -> Grid:
        """Read a board of ``rows`` x ``cols`` cells into a matrix (see ``boards.read_grid``): each cell's
        text with ``cell_text``, else its colour label."""
        return boards.read_grid(frame, rows, cols, box, ocr=self if cell_text else None)
