"""Modes a key put the app in, seen and undone as a person does: a blanked window, a screen that says paused, a
moving picture that stopped when a key was pressed, a game in which nothing works any more after a key.

The key is pressed once more; when the game then goes on as it was (twice: once may be chance) the key is a
toggle and is not used in play again (``Memory.disruptive``): a paused game tests nothing.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass

import numpy as np

from ..actions import Action
from ..keys import MOVEMENT_KEYS
from ..trajectory import Step
from ..vision import same_scene, scene
from .base import Decision, Observation
from .exploration import WAIT
from .notebook import Notebook, Tried
from .skill import Turn
from .thresholds import (
    BLANK_SAMPLE,
    BLANK_SHARE,
    MODE_PROBE,
    RESTART_LOOKS,
    SCENES_KEPT,
    SHOWS_SHARE,
    TOGGLE_EVIDENCE,
    UNPAUSE_TRIES,
    WORKED_BEFORE,
)

PAUSED = re.compile(r"\bpaused\b", re.I)


@dataclass
class Unpausing:
    """A key pressed again because the screen said paused after it; the inputs that were retired for it, and
    how often it was pressed so."""

    cause: Action
    retired: set[str]
    tries: int = 1


class Modes:
    """The skill that undoes modes (a blanked window, a pause, a menu over the game)."""

    def __init__(self, notebook: Notebook) -> None:
        self.notebook = notebook
        self.showed = False  # whether the last look showed a picture (not one colour)
        #: a key pressed again to see whether it undoes a mode (a pause), and the attempts made until then; how
        #: often each key seemed to (once may be chance: a moving game's inputs look dead now and then)
        self.toggled: tuple[Tried, int] | None = None
        self.mode_toggles: Counter[str] = Counter()
        #: the key step a moving picture stopped at (a pause?) and the step that pressed it again to undo that,
        #: and how often each key was seen to stop the picture and start it again
        self.stopped_by: tuple[Step, int] | None = None
        self.restarts: Counter[Action] = Counter()
        self.scenes: deque[tuple[int, np.ndarray]] = deque(maxlen=SCENES_KEPT)  # (step, scene before it)
        #: the step after which the last frame read was taken (a reading is judged once), and the key pressed
        #: again to undo a pause the screen names
        self.paused_read_at = 0
        self.unpausing: Unpausing | None = None
        #: the step after which the last frame read unpaused was taken, and the keys pressed again since
        self.unpaused_read_at = 0
        self.pause_suspects: set[Action] = set()

    def notice(self, observation: Observation) -> None:
        """Keep the scene of this look (to tell a game that went on from a new one)."""
        self.scenes.append((observation.step, scene(observation.frame)))

    def propose(self, turn: Turn) -> Decision | None:
        observation = turn.observation
        return (self._undo_blanking(observation) or self._undo_pause(observation) or self._undo_stop(observation)
                or self._undo_mode())

    def forget(self) -> None:
        """(What a key did to the app stays known across launches.)"""

    def _undo_blanking(self, observation: Observation) -> Decision | None:
        """A key that blanked the window (a full-screen toggle, a video mode the display cannot show) is
        pressed once more to undo it, and not used again: a person would not keep playing blind."""
        share = one_colour_share(observation.frame)
        shown, self.showed = self.showed, share <= SHOWS_SHARE
        last = observation.history[-1] if observation.history else None
        name = self.notebook.now.finished
        if share < BLANK_SHARE or not shown or last is None or last.action.kind not in ("press", "hotkey") \
                or name is None:
            return None
        self.notebook.memory.disruptive.add(name)
        return Decision(last.action, note=f"undo {name}: it blanked the window")

    def _undo_pause(self, observation: Observation) -> Decision | None:
        """A screen that says it is paused after a key (a pause hidden from the motion rule by a moving
        backdrop): that key is pressed again, as a person would, and not used in play again (pressed on, it
        would pause the game anew). Each reading is judged once, against the keys pressed before its frame and
        after the last frame read unpaused: the text may be read late (seconds, on a busy machine), a key
        pressed since is not what paused the game (pressed again since, it may have undone it), and one pressed
        before did not. Of those, the last one not tried yet is the suspect (a movement key pauses no game).
        While readings taken after it still say paused, it is pressed again, up to UNPAUSE_TRIES times; then it
        was not the pause key, is played again, and the suspect before it is tried."""
        read_at = observation.text_read_at
        if read_at <= self.paused_read_at:
            return None
        self.paused_read_at = read_at
        undoing = self.unpausing
        if not PAUSED.search(observation.seen_text):
            self.unpausing, self.unpaused_read_at = None, read_at
            self.pause_suspects.clear()
            return None
        if undoing is not None and undoing.tries < UNPAUSE_TRIES:
            undoing.tries += 1
        else:
            if undoing is not None:
                self.notebook.memory.disruptive -= undoing.retired
            undoing = self._pause_suspect(observation, read_at)
            self.unpausing = undoing
            if undoing is None:
                return None
            self.pause_suspects.add(undoing.cause)
        self.paused_read_at = observation.step - 1  # the frames read until this press: paused, as known
        return Decision(undoing.cause, note="again: the screen says it is paused")

    def _pause_suspect(self, observation: Observation, read_at: int) -> Unpausing | None:
        """The key that paused the game, as far as the reading taken after step ``read_at`` tells (its inputs
        retired); None when no key pressed before that reading and after the last one read unpaused is left."""
        history = observation.history
        cause = next((step.action for step in reversed(history[self.unpaused_read_at:read_at])
                      if step.action.kind in ("press", "hotkey") and step.action.key not in MOVEMENT_KEYS
                      and step.action not in self.pause_suspects), None)
        if cause is None or any(step.action == cause for step in history[read_at:]):
            return None  # (pressed again since the frame read, to undo a stop: that reading is old news)
        return Unpausing(cause, self._retire(cause))

    def _retire(self, action: Action) -> set[str]:
        self.notebook.now.stop_streak(action)
        return self.notebook.memory.retire(action)

    def _undo_stop(self, observation: Observation) -> Decision | None:
        """A picture that moved by itself and stopped when a key was pressed (a pause): that key is pressed once
        more, as a person who saw the game stop would, who then looks whether it goes on (RESTART_LOOKS looks at
        most). When the game goes on so where it was, twice (once may be chance: a game whose last sprite left
        the screen comes back by itself), the key is a toggle, and not used again (a paused game tests nothing).
        A new scene is no going on: the key that starts a new game after a game over is no pause key. A movement
        key pauses no game."""
        history, stopped = observation.history, observation.stopped_at
        if self.stopped_by is not None:
            cause, again = self.stopped_by
            if stopped is not None and observation.step - again <= RESTART_LOOKS:
                return Decision(WAIT.actions[0], note="waits for the picture to move again")
            self.stopped_by = None
            if stopped is None and any(step.action == cause.action for step in history[again - 1:]) \
                    and self._went_on(cause.index):
                self._restarted(cause.action)
            return None
        if stopped is None:
            return None
        stopper = next((step for step in reversed(history) if step.started < stopped), None)
        if stopper is None or stopper.action.kind not in ("press", "hotkey") or stopper.action.key in MOVEMENT_KEYS \
                or any(step.action == stopper.action for step in history[stopper.index:]):
            return None  # (pressed again already, and it stayed still: no toggle)
        self.stopped_by = (stopper, observation.step)
        return Decision(stopper.action, note="again: the picture stopped when it was pressed")

    def _went_on(self, step: int) -> bool:
        """Whether the picture now shows the scene seen before ``step`` (the game went on where it was)."""
        before = next((thumb for index, thumb in self.scenes if index == step), None)
        return before is not None and same_scene(before, self.scenes[-1][1])

    def _restarted(self, action: Action) -> None:
        """A key that stopped the picture started it again: once it did so TOGGLE_EVIDENCE times it is retired."""
        self.restarts[action] += 1
        if self.restarts[action] >= TOGGLE_EVIDENCE:
            self._retire(action)

    def _undo_mode(self) -> Decision | None:
        """In a game, a key after which nothing else works any more (a pause, a menu over it) is pressed again;
        when inputs work again it seemed a toggle, and once it seemed so twice it is not used again (a paused
        game tests nothing). A key before a game over is pressed once more to no effect, and stays in use."""
        memory = self.notebook.memory
        log = memory.log
        if self.toggled is not None:
            self._judge_toggle(log)
            return None
        keyed = [i for i, tried in enumerate(log) if tried.effect and tried.kind in ("press", "hotkey")]
        if not keyed or not self.notebook.animating:  # (in a still app a key may lead to a screen where little works)
            return None
        last = keyed[-1]
        key = log[last]
        after, before = log[last + 1:], log[max(0, last - MODE_PROBE):last]
        if (len(after) == MODE_PROBE and not any(tried.effect for tried in after)
                and sum(tried.effect for tried in before) >= WORKED_BEFORE and key.name in memory.known
                and key.name not in memory.disruptive):  # (a key known to pause would pause again)
            self.toggled = (key, len(log))
            return Decision(memory.known[key.name].actions[0], note=f"undo {key.name}?: nothing worked after it")
        return None

    def _judge_toggle(self, log: list[Tried]) -> None:
        """After a key was pressed again to undo a mode: inputs that work again where the game was before the key
        make it seem a toggle (inputs that work in a new scene, a new game after a game over, make it none)."""
        assert self.toggled is not None
        key, since = self.toggled
        after = [tried for tried in log[since:] if tried.name != key.name]  # (the key itself proves nothing)
        if any(tried.effect for tried in after):
            if self._went_on(key.step):
                self.mode_toggles[key.name] += 1
                if self.mode_toggles[key.name] >= TOGGLE_EVIDENCE:
                    self.notebook.memory.disruptive.add(key.name)
            self.toggled = None
        elif len(after) >= MODE_PROBE:
            self.toggled = None


def one_colour_share(frame: np.ndarray) -> float:
    """The share of the window in its most common colour (sampled)."""
    sample = frame[::BLANK_SAMPLE, ::BLANK_SAMPLE].reshape(-1, frame.shape[2])
    _, counts = np.unique(sample, axis=0, return_counts=True)
    return float(counts.max() / len(sample))
