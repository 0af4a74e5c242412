"""Goal play after a loss: the screen says the game is over, and a person presses the key that starts a new one
and looks; meanwhile a score that rose is credited to the inputs that led to it."""

from __future__ import annotations

import re

from ..actions import Action
from .base import Decision
from .inputs import InputCatalog
from .notebook import Notebook
from .skill import Turn
from .thresholds import SCORE_GAIN

LOSS = re.compile(r"game\s*over|you\s*lose|you\s*lost|try\s*again|crashed|press .*(re)?start", re.I)
NUMBER = re.compile(r"(?:score|points?|pts)\D{0,3}(\d+)", re.I)
#: the keys games start anew with, the first the app reads (else any of the fallback ones)
RESTART_KEYS = ("space", "enter", "r", "n")
FALLBACK_RESTART_KEYS = ("space", "enter", "r")


class Restarts:
    """The skill that restarts a lost game (goal play) and credits a rising score."""

    def __init__(self, notebook: Notebook, inputs: InputCatalog) -> None:
        self.notebook = notebook
        self.inputs = inputs
        self.restarted_at = 0  # the step that pressed a restart key last (a loss read before it is old news)
        self.last_score: int | None = None

    def propose(self, turn: Turn) -> Decision | None:
        """After a loss shown on screen, a restart key, once per reading of the screen taken since the last
        one (a person presses it and looks); meanwhile, a score that rose credits what led to it."""
        observation = turn.observation
        text = observation.seen_text
        if LOSS.search(text):
            if observation.text_read_at < self.restarted_at:
                return None  # read before the last restart key: whether that worked is not known yet
            keys = self.inputs.play_keys()
            restart = [k for k in RESTART_KEYS if k in keys] or list(FALLBACK_RESTART_KEYS)
            self.restarted_at = observation.step
            return Decision(Action.press(self.notebook.rng.choice(restart)), note="restart after a loss")
        self._credit_score(text)
        return None

    def forget(self) -> None:
        """(A new launch shows its own loss screens: nothing to forget.)"""

    def _credit_score(self, text: str) -> None:
        """A score read on screen that went up is worth SCORE_GAIN to the inputs of the last attempts."""
        match = NUMBER.search(text)
        if not match:
            return
        value = int(match.group(1))
        if self.last_score is not None and value > self.last_score:
            memory = self.notebook.memory
            for name in self.notebook.now.recent:
                memory.stats[name].credit(SCORE_GAIN)
        self.last_score = value
