"""Frames and vision stand-ins: the frames of a fake run as the loop leaves them (``Runs``), a two-colour
frame (``split_frame``) and a vision whose OCR reads a fixed text (``FixedText``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pytest_playtest.actions import Action
from pytest_playtest.files import FRAMES_DIR, frame_path
from pytest_playtest.trajectory import Step

RGB = tuple[int, int, int]


class Runs:
    """Writes the frames of a fake run into ``<folder>/frames`` and builds its Steps.

    Frame ``i`` is filled with ``colour(i)``, a colour unique to it that the storyboard never draws
    itself, with its number in a white box, so a test can find each frame's tile in a storyboard.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.frames_dir = folder / FRAMES_DIR

    @staticmethod
    def colour(index: int) -> RGB:
        # 10 levels per channel, all off the storyboard's own palette (its greys have unequal channels)
        return (30 + index % 10 * 20, 30 + index // 10 % 10 * 20, 40 + index // 100 * 40)

    def frames(self, count: int, size: tuple[int, int] = (320, 240)) -> Path:
        """Frames step-0000 (initial) to step-<count>, all of ``size``."""
        self.frames_dir.mkdir(parents=True, exist_ok=True)
        font = ImageFont.load_default(max(10, size[1] // 12))
        for index in range(count + 1):
            image = Image.new("RGB", size, self.colour(index))
            draw = ImageDraw.Draw(image)
            centre = (size[0] // 2, size[1] // 2)
            box = draw.textbbox(centre, str(index), font=font, anchor="mm")
            draw.rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), fill=(255, 255, 255))
            draw.text(centre, str(index), font=font, anchor="mm", fill=(0, 0, 0))
            image.save(frame_path(self.frames_dir, index))
        return self.frames_dir

    def quadrant_frame(self, index: int, size: tuple[int, int], colours: Sequence[RGB]) -> None:
        """A frame split in four quadrants of ``colours`` (top-left, top-right, bottom-left, bottom-right)."""
        self.frames_dir.mkdir(parents=True, exist_ok=True)
        width, height = size
        pixels = np.zeros((height, width, 3), np.uint8)
        pixels[: height // 2, : width // 2] = colours[0]
        pixels[: height // 2, width // 2 :] = colours[1]
        pixels[height // 2 :, : width // 2] = colours[2]
        pixels[height // 2 :, width // 2 :] = colours[3]
        Image.fromarray(pixels).save(frame_path(self.frames_dir, index))

    #: The image ``box_of`` read last, with its pixels as one number each: a storyboard is searched for many
    #: colours in turn (held here, it stays the same object; the tests never draw on an image they search).
    _last: ClassVar[tuple[Image.Image, np.ndarray] | None] = None

    @classmethod
    def box_of(cls, image: Image.Image, colour: RGB, min_pixels: int = 50) -> tuple[int, ...] | None:
        """The bounding box (x0, y0, x1, y1) of the pixels of exactly ``colour``, or None if there are few."""
        if cls._last is None or cls._last[0] is not image:
            rgb = np.asarray(image.convert("RGB"), dtype=np.int32)
            cls._last = (image, rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2])
        ys, xs = np.nonzero(cls._last[1] == (colour[0] << 16 | colour[1] << 8 | colour[2]))
        if len(xs) < min_pixels:
            return None
        return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)

    @staticmethod
    def steps(
        actions: Sequence[Action],
        window: tuple[int, int] = (320, 240),
        findings: Mapping[int, list[str]] | None = None,
    ) -> list[Step]:
        """Step 1..n for ``actions``; ``findings`` maps a step index to the finding kinds the loop noted."""
        findings = findings or {}
        return [
            Step(index=i, action=action, changed=i % 2 == 1, changed_fraction=0.04, window=window,
                 findings=list(findings.get(i, [])))
            for i, action in enumerate(actions, start=1)
        ]


class FixedText:
    """Stands in for the vision module: the OCR text of every frame is the given string."""

    def __init__(self, text: str) -> None:
        self._text = text

    def text(self, frame: np.ndarray, key: str | None = None) -> str:
        return self._text

    def read(self, frame: np.ndarray, key: str | None = None) -> list[Any]:
        return []

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Any]:
        return []


def split_frame(width: int, height: int) -> np.ndarray:
    """An RGB frame: red left half, blue right half, with a white square in the top-left corner."""
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    frame[:, : width // 2] = (220, 30, 30)
    frame[:, width // 2:] = (30, 30, 220)
    frame[: height // 8, : width // 8] = 255
    return frame
