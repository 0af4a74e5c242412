"""A memory game played as a person plays it: turn the cards not yet seen, remember what each showed, and turn
two that showed the same face one after the other.

Many games hide faces behind equal backs (cards, tiles) and keep two equal faces uncovered only when they are
turned one right after the other. A deck is what tells such a board: at least ``DECK`` clicked places that
looked alike before they were clicked (one back), two of which showed different faces. After a click, the
thing clicked (its box) is looked at once the app has drawn its answer, and at every look after: a look other
than its back, alike at two looks running, is its face. A look caught while the card turns is no face: a card
turned edge-on shows the page behind it, which all cards share. Looks are small colour thumbnails, so a face a
few pixels off still matches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..geometry import Box
from .thresholds import ALIKE, DECK, MIN_LOOK, THUMB, TURN_TRIES, TURNING_WAITS


def look(frame: np.ndarray, box: Box) -> np.ndarray | None:
    """A thing's look: its box, shrunk to a small colour thumbnail (None when it lies off the frame)."""
    inner = box.clip(frame.shape[1], frame.shape[0])
    if inner.w < MIN_LOOK or inner.h < MIN_LOOK:
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
    shown: np.ndarray | None = None  # the last look other than its back: its face when the next look is alike

    def showing_back(self, frame: np.ndarray) -> bool:
        now = look(frame, self.box)
        return now is not None and alike(now, self.back)


@dataclass
class Faces:
    """What each clicked place showed, and the turn under way. ``pair()`` names two cards to turn one after
    the other, ``twin()`` the card to turn after the first of a turn, ``unturned()`` the cards whose face was
    never seen."""

    places: dict[str, Place] = field(default_factory=dict)
    clicks: Counter[str] = field(default_factory=Counter)
    #: the first card of the turn under way (the second ends the turn); the places clicked while they showed
    #: their back and not yet seen turned up, oldest first (an app may draw a card's turn a look late, after
    #: the next click)
    first: str | None = None
    turning: list[str] = field(default_factory=list)
    last: str | None = None  # the place clicked last, and the looks waited for since, while it turned
    waits: int = 0
    #: the places that share one back with DECK - 1 others, found when the places numbered _backs_of; whether
    #: two of them showed different faces (a deck, once seen so)
    _backs: dict[str, Place] = field(default_factory=dict)
    _backs_of: int = 0
    _dealt: bool = False

    def clicked(self, name: str, box: Box, frame: np.ndarray) -> None:
        """A click on ``name`` is about to be performed on ``frame`` (its first look there is its back)."""
        self.clicks[name] += 1
        self.last, self.waits = name, 0
        if name not in self.places and (before := look(frame, box)) is not None:
            self.places[name] = Place(box, before)
        place = self.places.get(name)
        if place is not None and place.showing_back(frame) and name not in self.turning:
            self.turning = [*self.turning[-1:], name]  # a turn is two cards: older clicks were not taken

    def turned_pair(self, first: str, second: str) -> None:
        """Both cards of a pair are about to be turned, one after the other: a whole turn."""
        self.clicks.update((first, second))
        self.first = self.last = None
        self.turning.clear()

    def see(self, frame: np.ndarray) -> None:
        """A new look at the app: a card clicked that shows other than its back now has turned (the first of a
        turn, or its second); a first card that shows its back again ended its turn (the pair did not match);
        a place that shows other than its back, and did so alike at the look before, shows its face."""
        first = self.places.get(self.first or "")
        if first is not None and first.showing_back(frame):
            self.first = None
        for name in [name for name in self.turning if not self.places[name].showing_back(frame)]:
            self.turning.remove(name)
            self.first = name if self.first is None else None
        for place in self.places.values():
            now = look(frame, place.box)
            if now is None or alike(now, place.back):
                place.shown = None
                continue
            if place.shown is not None and alike(now, place.shown):
                place.face = now
            place.shown = now

    def deck(self) -> dict[str, Place]:
        """The cards: the places that share their back with at least DECK - 1 others, once two of them showed
        different faces (buttons that light alike when clicked are no deck); else none."""
        if self._backs_of != len(self.places):
            self._backs_of = len(self.places)
            self._backs = {name: place for name, place in self.places.items()
                           if sum(alike(place.back, other.back) for other in self.places.values()) >= DECK}
        if not self._dealt:
            faces = [place.face for place in self._backs.values() if place.face is not None]
            self._dealt = any(not alike(one, other) for index, one in enumerate(faces) for other in faces[index + 1:])
        return self._backs if self._dealt else {}

    def turning_now(self, frame: np.ndarray) -> bool:
        """Whether the card clicked last still turns (it shows neither its back nor a face seen at two looks):
        a person looks at a card once it has turned. Waited for TURNING_WAITS looks at most."""
        place = self.deck().get(self.last or "")
        now = None if place is None else look(frame, place.box)
        if place is None or now is None or self.waits >= TURNING_WAITS or alike(now, place.back) \
                or place.face is not None and alike(now, place.face):
            return False
        self.waits += 1
        return True

    def pair(self, frame: np.ndarray) -> tuple[str, str] | None:
        """Two cards whose faces look alike and that both show their backs now, or None (and None while a turn
        is under way: its second card comes first)."""
        deck = self.deck()
        if self.first in deck:
            return None
        hidden = [(name, place) for name, place in sorted(deck.items())
                  if place.face is not None and place.showing_back(frame)]
        for index, (first, one) in enumerate(hidden):
            for second, other in hidden[index + 1:]:
                assert one.face is not None and other.face is not None
                if alike(one.face, other.face):
                    return first, second
        return None

    def twin(self, frame: np.ndarray) -> str | None:
        """The card, showing its back, whose face the first card of the turn under way shows now, or None."""
        deck, turned = self.deck(), self.first or ""
        place = deck.get(turned)
        now = None if place is None else look(frame, place.box)
        if now is None or place is None or alike(now, place.back):
            return None
        return next((name for name, other in sorted(deck.items()) if name != turned and other.face is not None
                     and alike(other.face, now) and other.showing_back(frame)), None)

    def unturned(self, frame: np.ndarray, boxes: Mapping[str, Box]) -> list[str]:
        """Of ``boxes`` (the things clickable now), the cards showing their back whose face was never seen:
        those of the deck, and things not clicked yet that look like its back; the least clicked first, never
        the one just clicked. None before a deck is known."""
        deck = self.deck()
        backs = [place.back for place in deck.values()]
        found = []
        for name, box in boxes.items():
            if name == self.last:
                continue  # (its turn may not show yet)
            place = deck.get(name)
            if place is not None:
                if place.face is None and self.clicks[name] < TURN_TRIES and place.showing_back(frame):
                    found.append(name)
            elif name not in self.places and (now := look(frame, box)) is not None \
                    and any(alike(now, back) for back in backs):
                found.append(name)
        return sorted(found, key=lambda name: self.clicks[name])

    def forget(self) -> None:
        """The app started over: its things are dealt anew."""
        self.places.clear()
        self.clicks.clear()
        self.turning.clear()
        self.first = self.last = None
        self._backs, self._backs_of, self._dealt = {}, 0, False


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())
