"""The offline tester's memory: what each input did, where, and where the budget goes next.

Pure bookkeeping, no pixels: ``heuristic.py`` turns frames and the app's vocabulary into ``Candidate``
inputs; this module keeps their statistics and picks among them.

* ``InputStats`` (one per input name): tries, visible effects, the gain it brought (new lines of app code
  under coverage, else visual novelty) and how many tries in a row found nothing. Its ``energy`` grows with
  the gain and decays with fruitless tries, as in AFL-style fuzzers: the budget goes where new code keeps
  appearing, and nothing ever drops to zero.
* ``Streak``: depth. An input that had an effect is repeated until its effect stops (the same picture again,
  or a picture seen earlier in the streak) or a bound is reached: walk to the edge, the third hit.
* ``Sequences``: short runs (2-3 inputs) that reached new code, kept as a corpus and replayed, sometimes
  mutated (reordered, one input swapped), so effective inputs are also tried in new orders.

Every choice draws from the policy's seeded ``random.Random``; nothing depends on the clock, so the same
seed on a deterministic app gives the same inputs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from ..actions import Action
from ..geometry import Box
from .thresholds import (
    DEAD_ELSEWHERE,
    DEAD_HERE,
    DEAD_STATES_CAP,
    FRUITLESS_CAP,
    FRUITLESS_DECAY,
    MIN_ENERGY,
    MUTATE_CHANCE,
    SEQUENCE_LENGTHS,
    WAIT_SECONDS,
)


class Rank(IntEnum):
    """Where an untried input comes in the order they are tried (lower first), and how much it weighs later."""

    OWN = 0  # the app's own controls: labels its code names, fields, forms, quit inputs
    KEY = 1  # keys, and the buttons of a widget toolkit
    DRAWN = 2  # what a drawn UI shows (board cells, sprites), pointer probes, typed text
    REST = 3  # the rest: holds, drags, the wheel, other texts, waiting


@dataclass(frozen=True)
class Candidate:
    """One thing the tester can do: its name (the key of its statistics), the actions performed in a row
    (a click then the text typed into the field), and its rank among untried inputs (lower first)."""

    name: str
    actions: tuple[Action, ...]
    rank: int = Rank.KEY
    #: whether repeating it can go deeper (pressing a key again; typing into a field again cannot)
    repeatable: bool = True
    #: what it is to a person (a button's caption), for the step's note
    label: str = ""
    #: the thing it clicks (a widget's box), when it clicks one
    box: Box | None = None

    @property
    def kind(self) -> str:
        """What sort of input it is (press, click, right_click, drag...): new inputs are tried kind by kind."""
        first = self.actions[0]
        return "field" if first.kind == "click" and len(self.actions) > 1 else first.kind


#: waiting a moment: when nothing else is worth doing, or while a card turns
WAIT = Candidate("wait", (Action.wait(WAIT_SECONDS),), rank=Rank.REST)


@dataclass
class InputStats:
    """What one input did over the run (all launches): its tries, effects and what it found."""

    tries: int = 0
    effects: int = 0
    gain: float = 0.0
    fruitless: int = 0
    #: exact states (frame hashes) where it had no effect; it is retried elsewhere with less weight
    dead_states: set[str] = field(default_factory=set)
    #: exact states where it was tried at all
    tried_states: set[str] = field(default_factory=set)

    def update(self, *, effect: bool, gain: float, state: str) -> None:
        self.tries += 1
        self.tried_states.add(state)
        if effect:
            self.effects += 1
            self.dead_states.discard(state)
        else:
            self.dead_states.add(state)
        if gain > 0:
            self.credit(gain)
        else:
            self.fruitless += 1

    def credit(self, gain: float) -> None:
        """New code (or a new screen) found by this input or a sequence it was part of."""
        self.gain += gain
        self.fruitless = 0

    def energy(self) -> float:
        # sqrt: one input that found a lot keeps the lead without starving every other
        reward = 1.0 + math.sqrt(self.gain)
        return max(MIN_ENERGY, reward * math.pow(FRUITLESS_DECAY, min(self.fruitless, FRUITLESS_CAP)))

    def weight(self, state: str) -> float:
        """Energy, lowered where the input did nothing: exactly here much, in other states a little."""
        if state in self.dead_states:
            return max(MIN_ENERGY, self.energy() * DEAD_HERE)
        elsewhere = min(len(self.dead_states), DEAD_STATES_CAP)
        return max(MIN_ENERGY, self.energy() / (1 + DEAD_ELSEWHERE * elsewhere))


@dataclass
class Streak:
    """Depth: the input being repeated, how often so far, and the states its repeats went through."""

    candidate: Candidate
    bound: int
    count: int = 1
    seen: set[str] = field(default_factory=set)

    def goes_on(self, *, changed: bool, after: str, lines: int, animating: bool) -> bool:
        """Whether to repeat once more after a repeat that ended in state ``after``.

        An animating app changes anyway: there only the bound stops it. Elsewhere the effect has stopped
        when nothing changed and no new code ran, or the picture came back to one of the streak (a toggle).
        """
        self.count += 1
        if self.count >= self.bound:
            return False
        if animating:
            return True
        if lines > 0:
            self.seen.add(after)
            return True
        if not changed or after in self.seen:
            return False
        self.seen.add(after)
        return True


@dataclass
class SequenceStats:
    """What replays of one sequence found; each fruitless replay costs it energy."""

    gain: float = 0.0
    replays: int = 0

    def energy(self) -> float:
        return (1.0 + math.sqrt(self.gain)) * math.pow(FRUITLESS_DECAY, min(self.replays, FRUITLESS_CAP))


class Sequences:
    """Short runs of inputs that reached new code, replayed and mutated (AFL's corpus, in small)."""

    def __init__(self) -> None:
        self.corpus: dict[tuple[str, ...], SequenceStats] = {}

    def add(self, names: Sequence[str], gain: float) -> None:
        """The last inputs, the last of which reached new code: each tail of length 2-3 joins the corpus."""
        for length in SEQUENCE_LENGTHS:
            if len(names) >= length:
                tail = tuple(names[-length:])
                if len(set(tail)) > 1:  # a repeat of one input is depth's business
                    self.corpus.setdefault(tail, SequenceStats()).gain += gain

    def replayed(self, names: tuple[str, ...], gain: float) -> None:
        stats = self.corpus.get(names)
        if stats is None:
            if gain > 0:
                self.corpus[names] = SequenceStats(gain=gain)
            return
        stats.replays += 1
        if gain > 0:
            stats.gain += gain
            stats.replays = 0

    def pick(self, rng: random.Random, effective: list[str]) -> tuple[str, ...] | None:
        """A sequence to play next: from the corpus by energy, often mutated; without a corpus, effective
        inputs in a new order. None when there is nothing to combine."""
        if self.corpus:
            entries = sorted(self.corpus.items())  # sorted: the same seed draws the same entry
            chosen = rng.choices([n for n, _ in entries], weights=[s.energy() for _, s in entries])[0]
            return mutate(chosen, rng, effective) if rng.random() < MUTATE_CHANCE else chosen
        if len(effective) < 2:
            return None
        return tuple(rng.sample(effective, min(len(effective), rng.choice(SEQUENCE_LENGTHS))))


def mutate(names: tuple[str, ...], rng: random.Random, effective: list[str]) -> tuple[str, ...]:
    """Reverse the sequence, swap one of its inputs for another effective one, or append one (≤ 3)."""
    how = rng.randrange(3)
    if how == 0 or not effective:
        return names[::-1]
    other = rng.choice(effective)
    if how == 1:
        at = rng.randrange(len(names))
        return (*names[:at], other, *names[at + 1:])
    return (*names, other)[-max(SEQUENCE_LENGTHS):]


def weighted_choice(rng: random.Random, candidates: Sequence[Candidate], weights: Sequence[float]) -> Candidate:
    return rng.choices(list(candidates), weights=list(weights))[0]
