"""After a loss: the screen says the game is over, and a person presses the key that starts a new one and looks
(goal play), or clicks the button the stopped game shows to start anew; meanwhile a score that rose is credited
to the inputs that led to it."""

from __future__ import annotations

import re

from ..actions import Action
from .base import Decision
from .exploration import Candidate, Rank
from .inputs import InputCatalog
from .notebook import Notebook
from .skill import Choice, Turn
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


#: what a button that starts the game anew says
RESTART_LABEL = re.compile(r"\b(?:re-?start|play\s*again|try\s*again|retry|new\s*game|replay|start\s*again|"
                           r"continue|play)\b", re.I)


class RestartButton:
    """The skill that clicks the button a stopped game shows to start anew ("RESTART", "Play again"), once each
    time it appears, as a person does: a game over that waits for its button is no game over for good."""

    def __init__(self) -> None:
        self.shown: str | None = None  # the label of the button seen at the last look

    def propose(self, turn: Turn) -> Choice | None:
        observation, screen = turn.observation, turn.screen
        if screen is None or (observation.stopped_at is None and not LOSS.search(observation.seen_text)):
            self.shown = None
            return None
        button = next((w for w in screen.widgets if w.text and RESTART_LABEL.search(w.text)), None)
        label = button.text if button is not None else None
        new, self.shown = label is not None and label != self.shown, label
        if button is None or not new:
            return None
        x, y = button.center
        click = next((c for c in turn.candidates if c.box is not None and c.box.contains(x, y)), None)
        return Choice(click or Candidate(f"click@{x},{y}", (Action.click(x, y),), rank=Rank.OWN, label=button.text),
                      "the stopped game shows a button to start anew")

    def forget(self) -> None:
        self.shown = None
