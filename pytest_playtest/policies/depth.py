"""Depth: an input that had an effect is repeated until its effect stops (walk to the edge; in a game that moves
by itself only a movement key, and there each movement key is pushed on to the field's edge, effect seen or
not); after a walk to the edge of a still app its opposite is pressed next (the way back)."""

from __future__ import annotations

from ..keys import MOVEMENT_KEYS, OPPOSITE
from .exploration import Candidate, Rank, Streak
from .inputs import key_candidate
from .notebook import Attempt, Notebook
from .thresholds import ANIMATED_DEPTH, DEPTH, EDGE_PUSHES, POINTER_DEPTH, SHORT_WALKS, TURN_BACKS


class Depth:
    """The skill that repeats what worked (``Underway.streak``) and takes the way back (``Underway.way_back``)."""

    def __init__(self, notebook: Notebook, *, coverage: bool, types_characters: bool) -> None:
        self.notebook = notebook
        self.coverage = coverage
        self.types_characters = types_characters

    def deepen(self, attempt: Attempt, effect: bool, *, cards: set[str]) -> None:
        """Start, continue or end the repetition of an input that had an effect (``cards``: the names of a deck's
        cards, never clicked again at once)."""
        notebook = self.notebook
        streak, animating = notebook.now.streak, notebook.animating
        if streak is not None and streak.candidate.name == attempt.candidate.name:
            if animating:  # it may have started before the app was seen animating
                streak.bound = min(streak.bound, ANIMATED_DEPTH)
            if not self.repeated_at_once(attempt.candidate) or not streak.goes_on(
                    changed=attempt.changed, after=attempt.after, lines=attempt.lines, animating=animating):
                notebook.now.streak = None
                notebook.memory.walked.add(attempt.candidate.name)  # (its edge is known once a walk ended there)
                self._turn_back(attempt.candidate)
            return
        notebook.now.streak = None
        if attempt.candidate.name in cards:
            return  # a card turned is not clicked again at once
        # an animating app changes anyway: there only new code shows an effect (when it is measured)
        deep = attempt.lines > 0 if animating and self.coverage else effect
        push = not deep and self._pushes_to_edge(attempt.candidate)
        if not ((deep or push) and attempt.candidate.repeatable and self.repeated_at_once(attempt.candidate)):
            return
        bound = self._bound(attempt.candidate, push)
        if bound > 1:
            notebook.now.streak = Streak(attempt.candidate, bound, seen={attempt.state, attempt.after})

    def _bound(self, candidate: Candidate, push: bool) -> int:
        """How often to repeat an input that worked (or is pushed to the edge)."""
        memory = self.notebook.memory
        bound = ANIMATED_DEPTH if self.notebook.animating else DEPTH
        if candidate.kind != "press":
            bound = min(bound, POINTER_DEPTH)  # walking is done with keys; a button's third press is enough
        if candidate.name in memory.walked and not push:
            # the edge is known: mostly stop on the way this time (a side path, a junction), now and then
            # walk on to the edge again (from a new place, it may be another edge)
            bound = self.notebook.rng.choice((*SHORT_WALKS, bound))
        return bound

    def repeated_at_once(self, candidate: Candidate) -> bool:
        """Whether an input that had an effect may be repeated at once: in a game that moves by itself only a
        movement key is (a walk has an edge to reach); what another key did (a pause, a menu) is looked at
        before it is pressed again: a pause key pressed on at once undoes itself, unseen."""
        return not (self.notebook.animating and candidate.kind in ("press", "hotkey")
                    and candidate.actions[0].key not in MOVEMENT_KEYS)

    def _turn_back(self, candidate: Candidate) -> None:
        """After a walk to the edge of a still app, the way back next, a few times a run: right after a move its
        opposite must work (a tile slides back, the avatar steps back), the one place where a direction key
        that does nothing is surely dead, not against a wall."""
        key = candidate.actions[0].key
        if self.notebook.animating or candidate.kind != "press" or key not in OPPOSITE:
            return
        back = key_candidate(OPPOSITE[key], Rank.KEY).name
        turned = self.notebook.memory.turned_back
        if turned[back] < TURN_BACKS:
            turned[back] += 1
            self.notebook.now.way_back = back

    def _pushes_to_edge(self, candidate: Candidate) -> bool:
        """Whether a movement key is pressed on to the edge of a moving game although no effect was seen: a
        step's effect hides in the game's own motion, and off-by-one slips live at the field's edges, where a
        tester runs the player into each wall. In a game that takes many letters (a typing game) a letter is
        no direction."""
        key = candidate.actions[0].key
        if not self.notebook.animating or candidate.kind != "press" or key not in MOVEMENT_KEYS \
                or self.types_characters:
            return False
        pushed = self.notebook.memory.pushed
        if pushed[candidate.name] >= EDGE_PUSHES:
            return False
        pushed[candidate.name] += 1
        return True
