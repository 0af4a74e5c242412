"""The monkey baseline: uniformly random clicks and keys, seeded. Useful to compare other policies with."""

from __future__ import annotations

from ..actions import Action
from .base import Decision, Observation, Policy, PolicyContext
from .thresholds import RANDOM_CLICKS, RANDOM_KEYS

MONKEY_KEYS = ("up", "down", "left", "right", "space", "enter", "tab", "escape", "w", "a", "s", "d", "1", "x")


class RandomPolicy(Policy):
    name = "random"

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        self.rng = context.rng()

    def decide(self, observation: Observation) -> Decision:
        width, height = observation.size
        roll = self.rng.random()
        if roll < RANDOM_CLICKS:
            return Decision(Action.click(self.rng.randrange(width), self.rng.randrange(height)))
        if roll < RANDOM_CLICKS + RANDOM_KEYS:
            return Decision(Action.press(self.rng.choice(MONKEY_KEYS)))
        return Decision(Action.type_text(self.rng.choice(("7", "42", "hello"))))
