"""The memory-game skill: on a deck of cards (``pairs.py``), the card just clicked is looked at once it has
turned; two cards that showed the same face and are hidden again are turned one after the other (each pair
once: a pair that did not stay uncovered only looked alike); after a turn's first card, the card seen before
with its face; and, once every input was tried, a card whose face was never seen."""

from __future__ import annotations

import numpy as np

from .base import Observation
from .exploration import WAIT, Candidate, Rank
from .pairs import Faces
from .skill import Choice, Turn


class Pairing:
    """The skill that plays a deck of cards as a person plays a memory game."""

    def __init__(self) -> None:
        self.faces = Faces()  # what each clicked thing showed
        self.paired: set[tuple[str, str]] = set()

    def see(self, frame: np.ndarray) -> None:
        """Look at the cards clicked lately (every look, whatever is played next)."""
        self.faces.see(frame)

    def clicked(self, candidate: Candidate, frame: np.ndarray) -> None:
        """A thing found on screen is about to be clicked: its look before the click is its back."""
        if candidate.box is not None and len(candidate.actions) == 1:
            self.faces.clicked(candidate.name, candidate.box, frame)

    def deck(self) -> set[str]:
        """The names of the cards of the deck (none while no deck is known)."""
        return set(self.faces.deck())

    def propose(self, turn: Turn) -> Choice | None:
        frame = turn.observation.frame
        if self.faces.turning_now(frame):
            return Choice(WAIT, "the card turns: looked at once it has")
        by_name = things(turn.candidates)
        found = self.faces.pair(frame)
        if found is not None and found not in self.paired and all(name in by_name for name in found):
            self.paired.add(found)
            self.faces.turned_pair(*found)
            first, second = (by_name[name] for name in found)
            both = Candidate(f"pair:{first.name}+{second.name}", (*first.actions, *second.actions), rank=Rank.OWN,
                             repeatable=False, label=f"{first.label} and {second.label}")
            return Choice(both, "a pair seen before")
        twin = self.faces.twin(frame)
        if twin is not None and twin in by_name:
            one, other = sorted((self.faces.first or "", twin))
            if (one, other) not in self.paired:
                self.paired.add((one, other))
                return Choice(by_name[twin], "its twin seen before")
        return None

    def unturned(self, observation: Observation, candidates: list[Candidate]) -> Candidate | None:
        """On a deck of cards, a card whose face was never seen (asked after every input was tried once)."""
        found = things(candidates)
        unturned = self.faces.unturned(observation.frame,
                                       {name: c.box for name, c in found.items() if c.box is not None})
        return found[unturned[0]] if unturned else None

    def forget(self) -> None:
        self.faces.forget()
        self.paired.clear()


def things(candidates: list[Candidate]) -> dict[str, Candidate]:
    """The candidates that click one thing found on screen (a widget's box), by name: a card of a deck."""
    return {c.name: c for c in candidates if c.box is not None and len(c.actions) == 1}
