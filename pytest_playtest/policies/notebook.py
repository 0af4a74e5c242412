"""The offline tester's notebook: what it learned about the app, what it is in the middle of, and the screens it
met. Every skill of the heuristic tester (``heuristic.py``) reads and writes the same notebook.

Pure bookkeeping over steps and names; the statistics of one input and the corpus of sequences are
``exploration.py``'s.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass, field

from ..actions import Action
from ..trajectory import Step
from ..vision import Widget, hamming
from .exploration import Candidate, InputStats, Sequences, Streak
from .thresholds import SAME_SCREEN, SELF_CHANGE_LOOKS, SELF_CHANGED


@dataclass
class ScreenMemory:
    signature: int
    index: int
    widgets: list[Widget] = field(default_factory=list)
    visits: int = 0


class Screens:
    """Screens told apart by perceptual hash (a moving cursor or a counter is the same screen)."""

    def __init__(self) -> None:
        self.known: list[ScreenMemory] = []

    def visit(self, signature: int) -> tuple[ScreenMemory, bool]:
        """The screen of this signature and whether it is new."""
        for memory in self.known:
            if hamming(memory.signature, signature) <= SAME_SCREEN:
                memory.visits += 1
                return memory, False
        memory = ScreenMemory(signature, len(self.known), visits=1)
        self.known.append(memory)
        return memory, True


@dataclass(frozen=True)
class Tried:
    """One finished attempt in the log: the input's name, whether it had an effect, its kind, and the step (the
    look) it began at."""

    name: str
    effect: bool
    kind: str
    step: int


@dataclass
class Attempt:
    """One candidate being performed (a click and its typed text are one attempt) and what it did."""

    candidate: Candidate
    state: str
    screen: int
    step: int = 0  # the look it began at
    changed: bool = False
    lines: int = 0
    novel: bool = False
    after: str = ""

    def absorb(self, step: Step, novel: bool) -> None:
        self.changed = self.changed or (step.changed and not step.error)
        self.lines += step.new_lines or 0
        self.novel = self.novel or novel
        self.after = step.after_hash or self.after


@dataclass
class Replay:
    """A short sequence being replayed: its names, what is left of it, and what it found so far."""

    names: tuple[str, ...]
    queue: list[Candidate]
    gain: float = 0.0


@dataclass
class Memory:
    """What the tester learned about the app. Kept when the app is launched again: it starts over, but its
    inputs work as they did."""

    stats: dict[str, InputStats] = field(default_factory=dict)
    tried_on: dict[int, set[str]] = field(default_factory=dict)  # screen index → the inputs tried there
    kind_tries: Counter[str] = field(default_factory=Counter)  # attempts per Candidate.kind
    kind_stats: dict[str, InputStats] = field(default_factory=dict)  # what each kind of input did, pooled
    known: dict[str, Candidate] = field(default_factory=dict)  # the latest candidate of each name
    walked: set[str] = field(default_factory=set)  # inputs repeated to their edge once already
    pushed: Counter[str] = field(default_factory=Counter)  # movement keys pushed to the edge of a moving game
    turned_back: Counter[str] = field(default_factory=Counter)  # ways back taken after a walk to the edge
    sequences: Sequences = field(default_factory=Sequences)
    seen_states: set[str] = field(default_factory=set)  # frame hashes met (visual novelty)
    disruptive: set[str] = field(default_factory=set)  # inputs that blanked or paused the app (undone, not again)
    log: list[Tried] = field(default_factory=list)  # every finished attempt, in order

    def effective(self) -> list[str]:
        """The inputs that had an effect somewhere and disrupt nothing, sorted (the same seed draws the same
        ones)."""
        return sorted(name for name, stats in self.stats.items()
                      if stats.effects and name in self.known and name not in self.disruptive)

    def retire(self, action: Action) -> set[str]:
        """The inputs that start with ``action`` (a pause key) are not used again: a paused game tests nothing.
        The names of those newly retired."""
        names = {n for n, c in self.known.items() if c.actions[0] == action} - self.disruptive
        self.disruptive |= names
        return names


@dataclass
class Underway:
    """What the tester is in the middle of. Dropped when the app is launched again."""

    pending: list[Action] = field(default_factory=list)  # the rest of the attempt's actions
    attempt: Attempt | None = None
    expected: Action | None = None  # the action handed out last (the loop may insert its own steps)
    streak: Streak | None = None
    replay: Replay | None = None
    way_back: str | None = None  # the key that undoes a move walked to its edge: pressed next
    recent: list[str] = field(default_factory=list)  # the last finished attempts (sequences)
    finished: str | None = None  # the last finished attempt (credited when a new screen follows)
    offered: set[str] = field(default_factory=set)  # the names of the inputs the last screen offered

    def stop_streak(self, action: Action) -> None:
        """A streak repeating ``action`` ends (a key suspected of pausing the game is not pressed on and on)."""
        if self.streak is not None and self.streak.candidate.actions[0] == action:
            self.streak = None


class Notebook:
    """The tester's notebook for one run: ``memory`` (kept across launches), ``now`` (what is under way, dropped
    when the app starts over), whether the picture changes by itself, and the run's seeded random draws."""

    def __init__(self, seed_rng: random.Random) -> None:
        self.rng = seed_rng
        self.memory = Memory()
        self.now = Underway()
        self.self_changes: deque[bool] = deque(maxlen=SELF_CHANGE_LOOKS)  # the picture changed between our steps
        self.moving = False  # the loop saw the app move by itself (``Observation.moving``)

    @property
    def animating(self) -> bool:
        """The picture changes by itself (seen between our steps, or by the loop's watch without input: a slow
        game's ticks may fall between two quick looks): a visible change proves little then."""
        return self.moving or sum(self.self_changes) >= SELF_CHANGED

    def start_over(self) -> None:
        """The app was launched again: what is under way is dropped, what works is kept."""
        self.now = Underway()
