"""Typing what the screen shows: in an app that takes many letter or digit keys (a typing game, a word puzzle), a
person types the characters they read, not keys at random."""

from __future__ import annotations

from .base import Observation
from .exploration import Candidate
from .thresholds import READ_SOONER, WIDGET_PERIOD


class ShownKeys:
    """The characters the screen showed at its last reading, read again every WIDGET_PERIOD (reading costs an OCR
    pass)."""

    def __init__(self, *, types_characters: bool) -> None:
        self.types_characters = types_characters
        #: when the screen was last read (seconds into the run), and the characters it showed
        self.characters: tuple[float, set[str]] = (-WIDGET_PERIOD, set())

    def keys(self, observation: Observation, candidates: list[Candidate]) -> list[Candidate]:
        """The character keys among ``candidates`` whose characters the screen shows ([] in other apps)."""
        if not self.types_characters:
            return []
        keys = [c for c in candidates if c.kind == "press" and len(c.actions[0].key or "") == 1]
        since = observation.elapsed - self.characters[0]
        if since >= WIDGET_PERIOD or not self.characters[1] and since >= WIDGET_PERIOD * READ_SOONER:
            read = {ch.lower() for box in observation.text_boxes() for word in box.text.split() if len(word) == 1
                    for ch in word}
            self.characters = (observation.elapsed, read)
        return [c for c in keys if (c.actions[0].key or "").lower() in self.characters[1]]

    def typed(self, candidate: Candidate) -> None:
        """A character typed is gone (typed to no effect, it was misread or gone already): not typed again before
        the next reading."""
        if candidate.kind == "press":
            self.characters[1].discard((candidate.actions[0].key or "").lower())
