"""The offline tester: explores like a methodical person (coverage) or plays like a persistent one (goal).

Coverage clicks every widget candidate of every screen it meets (screens are told apart by perceptual
hash), types into fields, tries the keys games use (dropping those that twice did nothing), and always
prefers what it has tried least.
Goal repeats the inputs that changed the screen or raised a number on it (the score), restarts after a
loss, and leaves stopping to the session, which stops as soon as every expectation is met.
Both are seeded: the same app and seed give the same choices.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..actions import Action
from ..trajectory import Step
from ..vision import Widget, hamming, perceptual_hash
from .base import Decision, Observation, Policy, PolicyContext

GAME_KEYS = ("right", "down", "left", "up", "space", "enter", "w", "a", "s", "d")
FIELD_TEXT = ("12", "hello")
LOSS = re.compile(r"game\s*over|you\s*lose|you\s*lost|try\s*again|crashed|press .*(re)?start", re.I)
NUMBER = re.compile(r"(?:score|points?|pts)\D{0,3}(\d+)", re.I)
SAME_SCREEN = 6  # hamming distance below which two perceptual hashes are one screen
WIDGET_REFRESH = 8  # re-detect a screen's widgets after this many visits (labels change)


@dataclass
class ScreenMemory:
    signature: int
    widgets: list[Widget] = field(default_factory=list)
    visits: int = 0


class HeuristicPolicy(Policy):
    name = "heuristic"

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        self.rng = context.rng()
        self.screens: list[ScreenMemory] = []
        self.tried: Counter[str] = Counter()
        self.effects: Counter[str] = Counter()
        self.attempts: Counter[str] = Counter()  # explored actions by label, over all screens
        self.pending: list[Action] = []
        self.last_score: int | None = None
        self.scoring: Counter[str] = Counter()

    # -- memory of screens ------------------------------------------------------------------------------
    def _screen(self, observation: Observation) -> ScreenMemory:
        signature = perceptual_hash(observation.frame)
        for memory in self.screens:
            if hamming(memory.signature, signature) <= SAME_SCREEN:
                break
        else:
            memory = ScreenMemory(signature)
            self.screens.append(memory)
        if memory.visits % WIDGET_REFRESH == 0:
            memory.widgets = [w for w in observation.widgets() if w.kind in ("button", "field", "shape")]
        memory.visits += 1
        return memory

    def record(self, step: Step) -> None:
        if step.changed:
            self.effects[step.action.label()] += 1

    # -- decisions ----------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        if self.pending:
            return Decision(self.pending.pop(0), note="follow-up")
        if self.context.strategy == "goal":
            return self._play(observation)
        return self._explore(observation)

    def _explore(self, observation: Observation) -> Decision:
        screen = self._screen(observation)
        index = self.screens.index(screen)
        options: list[tuple[str, Action, list[Action]]] = []
        for widget in screen.widgets:
            x, y = widget.box.center
            follow = [Action.type_text(self.rng.choice(FIELD_TEXT))] if widget.kind == "field" else []
            options.append((f"s{index}:{widget.kind}@{x},{y}", Action.click(x, y), follow))
        keys = [Action.press(key) for key in GAME_KEYS]
        # a key that did nothing anywhere, twice, is not how this app is used: its controls get the steps
        useful = [k for k in keys if self.attempts[k.label()] < 2 or self.effects[k.label()]]
        for key in useful or ([] if options else keys):
            options.append((f"s{index}:key:{key.key}", key, []))
        fewest = min(self.tried[name] for name, _, _ in options)
        # widgets come before keys among the least tried: apps are explored by their controls first
        candidates = [option for option in options if self.tried[option[0]] == fewest]
        name, action, follow = candidates[0] if fewest == 0 else self.rng.choice(candidates)
        self.tried[name] += 1
        self.attempts[action.label()] += 1
        self.pending.extend(follow)
        return Decision(action, note=f"explore {name} (tried {fewest}x before)")

    def _play(self, observation: Observation) -> Decision:
        text = observation.seen_text
        if LOSS.search(text):
            restart = self.rng.choice(("space", "enter", "r"))
            return Decision(Action.press(restart), note="restart after a loss")
        self._credit_score(text, observation)
        actions = [Action.press(key) for key in GAME_KEYS]
        width, height = observation.size
        actions.append(Action.click(width // 2, height // 2))
        weights = [1 + 3 * self.effects[a.label()] / (1 + self.tried[a.label()]) + 5 * self.scoring[a.label()]
                   for a in actions]
        action = self.rng.choices(actions, weights=weights)[0]
        self.tried[action.label()] += 1
        return Decision(action, note="play")

    def _credit_score(self, text: str, observation: Observation) -> None:
        match = NUMBER.search(text)
        if not match:
            return
        score = int(match.group(1))
        if self.last_score is not None and score > self.last_score:
            for step in observation.history[-5:]:
                self.scoring[step.action.label()] += 1
        self.last_score = score
