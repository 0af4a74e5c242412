"""The sights of a differential run (``sights.py``): taken after each step, compared with a golden run's as
they come. The first step whose sight differs from the reference's beyond its noise is a ``diverges`` finding.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from ..runtime.places import place
from ..runtime.screen import frame_hash
from ..sights import SHOWN_DIFFERENCES, TILES, Golden, Sight, differences, run_differences
from ..trajectory import Step
from ..verdict import Finding, Location
from ..vision import Vision
from .thresholds import REACHED_LATE
from .web import WebPage


def tiles_of(frame: np.ndarray) -> str:
    """The coarse picture of a frame: each tile's mean colour, ``rrggbb``, row by row."""
    means = cv2.resize(frame[:, :, :3], TILES, interpolation=cv2.INTER_AREA)
    return means.astype(np.uint8).tobytes().hex()


class Sights:
    """Takes a sight of the window after each step; with a reference, judges each against its own."""

    def __init__(self, vision: Vision, reference: Golden | None, *, root: Path | None = None) -> None:
        self.vision, self.reference, self.root = vision, reference, root
        self.taken: list[Sight] = []
        self.steps: list[Step] = []  # this run's steps so far (what each reached, with coverage)
        self.finding: Finding | None = None
        #: steps whose sight differed from the reference's, the first included
        self.diverged: list[int] = []

    def take(self, step: Step | None, frame: np.ndarray, *, alive: bool, moving: bool, page: WebPage | None,
             again: Callable[[], np.ndarray | None] | None = None) -> None:
        """The sight after ``step`` (None: the first paint), compared with the reference's of the same step.

        A sight that differs is taken once more from the frame ``again`` gives (the window once it stood still):
        a page's pictures and fonts may arrive late, and a person looks twice before calling a difference.
        """
        index = step.index if step is not None else 0
        if step is not None:
            self.steps.append(step)
        sight = self._sight(index, frame, alive=alive, moving=moving, page=page)
        found = self._differences(sight)
        later = again() if found and again is not None else None
        if later is not None:
            sight = self._sight(index, later, alive=alive, moving=moving, page=page)
            found = self._differences(sight)
        self.taken.append(sight)
        if not found or self.reference is None:
            return
        self.diverged.append(index)
        if self.finding is None:
            after = f"after step {index} ({step.action.label()})" if step is not None else "before any input"
            picture = self.reference.picture(index)
            self.finding = Finding("diverges", f"{after} the app diverged from its golden run: {found[0]}",
                                   step=index, details="\n".join(found[1:SHOWN_DIFFERENCES]),
                                   reference=str(picture) if picture else None, location=self._ran_differently(index))

    def _sight(self, index: int, frame: np.ndarray, *, alive: bool, moving: bool, page: WebPage | None) -> Sight:
        return Sight(index, alive, self._lines(frame, frame_hash(frame), page), tiles_of(frame),
                     (int(frame.shape[1]), int(frame.shape[0])), moving)

    def _differences(self, sight: Sight) -> list[str]:
        """What differs from the reference's sight of the same step (nothing without a reference)."""
        expected = self.reference.sight(sight.step) if self.reference is not None else None
        if expected is None or self.reference is None:
            return []
        return differences(expected, sight, self.reference.noise)

    def _lines(self, frame: np.ndarray, key: str, page: WebPage | None) -> tuple[str, ...]:
        """The lines of text shown: the page's own text on the web, else what OCR reads."""
        if page is not None:
            return tuple(line.strip() for line in page.text().splitlines() if line.strip())
        return tuple(box.text for box in self.vision.read(frame, key=key))

    def findings(self) -> list[Finding]:
        """The first divergence: step by step, else what the app showed over the run while it moved."""
        if self.finding is None and self.reference is not None:
            found = run_differences(self.reference.sights, self.taken, self.reference.noise)
            if found:
                step, what = found[0]
                self.diverged.extend(sorted({at for at, _ in found}))
                picture = self.reference.picture(step)
                self.finding = Finding("diverges", f"over the run, as it moved by itself, the app diverged from its "
                                       f"golden run: {what}", step=step,
                                       details="\n".join(what for _, what in found[1:SHOWN_DIFFERENCES]),
                                       reference=str(picture) if picture else None,
                                       location=self._ran_differently(step))
        return [self.finding] if self.finding is not None else []

    def _ran_differently(self, upto: int) -> Location | None:
        """The first line of the app's code this run reached and its golden run did not, or the reverse, over the
        steps up to ``upto`` (with coverage: each step keeps the lines it first reached); None without that."""
        if self.reference is None or self.root is None:
            return None
        theirs = [s for s in self.reference.trajectory.steps if s.index <= upto]
        ours = [s for s in self.steps if s.index <= upto]
        # a line the other run reached a step or two later may only have been streamed late
        ran = {line for step in self.steps if step.index <= upto + REACHED_LATE for line in step.reached}
        ran_there = {line for step in self.reference.trajectory.steps if step.index <= upto + REACHED_LATE
                     for line in step.reached}
        for steps, other, what in ((ours, ran_there, "this run reached it, its golden run did not"),
                                   (theirs, ran, "its golden run reached it, this run did not")):
            first = next((line for step in steps for line in step.reached if line not in other), None)
            if first is not None:
                file, _, line = first.rpartition(":")
                return place(self.root / file, int(line), self.root, "coverage", detail=what)
        return None

    def notes(self) -> list[str]:
        if self.reference is None or len(self.diverged) < 2:
            return []
        return [f"the sights of {len(self.diverged)} steps differed from the golden run's (steps "
                f"{', '.join(map(str, self.diverged[:10]))}{'...' if len(self.diverged) > 10 else ''})"]
