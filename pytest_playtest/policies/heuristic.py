"""The offline tester: explores like a methodical person (coverage) or plays like a persistent one (goal).

Coverage tries exactly the inputs the app's code handles (``context.vocabulary``: its keys and shortcuts,
right clicks and drags when handled, typing into fields when typing is handled) plus the widgets vision
finds on each screen; the generic ``GAME_KEYS`` only when the source told nothing. Every input is tried
once; then the budget goes where new code keeps appearing (``Step.new_lines`` under coverage, else new
pictures): each input has an energy that grows with what it found and decays with fruitless tries
(``exploration.py``). An input that had an effect is repeated until its effect stops (walk to the edge;
in a game that moves by itself only a movement key), and, on a still app, its opposite is pressed next (the
way back); productive short sequences are replayed in new orders, and an input that did nothing in one state
is tried again in others with less weight, never dropped. Back in a state of a still app met before, the
inputs not yet tried from there come first. Quit keys are pressed once, late.
Goal plays with the same inputs, in the same order (every input of the app's own once, before any is
repeated at length), and gives the energy to what raised a number read on screen (the score); it restarts
after a loss shown on screen. Movement keys of a real-time game are held for the loop's beat.
Both are seeded: the same app and seed give the same choices.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field

import numpy as np

from ..actions import Action
from ..keys import MOVEMENT_KEYS, OPPOSITE
from ..trajectory import Step
from ..vision import Widget, hamming, perceptual_hash, same_scene, scene
from .base import Decision, Observation, Policy, PolicyContext
from .exploration import Candidate, InputStats, Sequences, Streak, weighted_choice
from .inputs import GAME_KEYS, HOLD_SECONDS, InputCatalog, key_candidate
from .pairs import Faces
from .player import Player
from .prompts import Prompts

__all__ = ["GAME_KEYS", "HeuristicPolicy"]

LOSS = re.compile(r"game\s*over|you\s*lose|you\s*lost|try\s*again|crashed|press .*(re)?start", re.I)
PAUSED = re.compile(r"\bpaused\b", re.I)
NUMBER = re.compile(r"(?:score|points?|pts)\D{0,3}(\d+)", re.I)
SAME_SCREEN = 6  # hamming distance below which two perceptual hashes are one screen
WIDGET_REFRESH = 8  # re-detect a screen's widgets after this many visits (labels change)
WIDGET_PERIOD = 2.0  # in a game that moves by itself, widgets are found again at most this often (seconds)
#: ... and finding them takes at most this share of the time: the game goes on while the tester looks, and on a
#: busy machine one look (an OCR pass) can take seconds
WIDGET_SHARE = 0.25
KIND_BREADTH = 4  # in such a game, tries of a kind of pointer input before each new place is no new input
MODE_PROBE = 4  # attempts without effect after a key before it is taken for a mode (a pause) and undone
UNPAUSE_TRIES = 2  # presses of that key while the screen still says paused before it is taken for no pause key
TOGGLE_EVIDENCE = 2  # times a key must stop a game (or all its inputs) and start it again to be taken for a pause
#: looks after such a key was pressed again within which the picture moving again is its doing (the motion watch
#: sees a picture move only once it has drawn a new frame, which on a busy machine may come a look late)
RESTART_LOOKS = 3
SCENES_KEPT = 32  # the scenes of the last looks (thumbnails), to tell a game that went on from a new one
TYPE_SHOWN = 0.7  # share of free choices there that type a character the screen shows
SHOWN = "a key the screen shows"  # why such a key was chosen
REFRESH_FRACTION = 0.01  # ...and after an input changed this share of a still window (a menu popped up)
#: repeats of an effective input (walk to the edge); an animating app changes anyway, so fewer there
DEPTH, ANIMATED_DEPTH = 12, 5
#: repeats of an effective click or other pointer input (a digit button appends forever: no edge to reach)
POINTER_DEPTH = 3
#: in a game that moves by itself, times each movement key is pushed on to the field's edge, effect seen or not
EDGE_PUSHES = 2
SEQUENCE_CHANCE = 0.2  # share of free choices that replay a short sequence
QUIT_AT = 0.85  # share of the step budget after which a quit key is tried, once
NEW_SCREEN_GAIN = 2.0  # a picture never met before is worth this many new lines
SCORE_GAIN = 3.0  # goal play: a score that rose is worth this much to the inputs that came just before
NOT_TRIED_HERE = 3.0  # weight factor of an input not yet tried on the current screen
TURN_BACKS = 3  # times in a run each way back is taken at once after a walk to the edge of a still app
#: a window this much one colour shows nothing; one at most SHOWS_SHARE one colour surely showed a picture (a
#: dark game with a few thin lines lies between and is never taken for blanked)
BLANK_SHARE, SHOWS_SHARE = 0.99, 0.9
WAIT = Candidate("wait", (Action.wait(0.3),), rank=3)
RANK_WEIGHT = (1.0, 1.0, 0.6, 0.3)  # by Candidate.rank (inputs.py): the app's own controls weigh most


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


@dataclass
class Attempt:
    """One candidate being performed (a click and its typed text are one attempt) and what it did."""

    candidate: Candidate
    state: str
    screen: int
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
    log: list[tuple[str, bool, str]] = field(default_factory=list)  # every attempt: name, effect, kind

    def effective(self) -> list[str]:
        """The inputs that had an effect somewhere and disrupt nothing, sorted (the same seed draws the same
        ones)."""
        return sorted(name for name, stats in self.stats.items()
                      if stats.effects and name in self.known and name not in self.disruptive)


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


@dataclass
class Unpausing:
    """A key pressed again because the screen said paused after it; the inputs that were retired for it, and
    how often it was pressed so."""

    cause: Action
    retired: set[str]
    tries: int = 1


@dataclass
class Scoring:
    """Goal play: the score last read on screen."""

    last_score: int | None = None


class HeuristicPolicy(Policy):
    name = "heuristic"

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        self.rng = context.rng()
        vocabulary = context.vocabulary
        self.inputs = InputCatalog(None if vocabulary is None or vocabulary.is_empty else vocabulary)
        self.types_characters = vocabulary is not None and vocabulary.types_characters
        self.screens = Screens()
        self.memory = Memory()
        self.now = Underway()
        self.score = Scoring()
        self.self_changes: deque[bool] = deque(maxlen=4)  # whether the picture changed between our steps
        self.launch = 1
        self.quit_tried = False
        self.showed = False  # whether the last look showed a picture (not one colour)
        self.player: Player | None = None  # goal play on a real-time game: the avatar and what moves it
        #: a key pressed again to see whether it undoes a mode (a pause), and the attempts made until then; how
        #: often each key seemed to (once may be chance: a moving game's inputs look dead now and then)
        self.toggled: tuple[str, int] | None = None
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
        self.restarted_at = 0  # the step that pressed a restart key last (a loss read before it is old news)
        self.faces = Faces()  # what each clicked thing showed: pairs to match, as in a memory game
        self.prompts = Prompts()  # a "press SPACE to play again" on screen
        self.paired: set[tuple[str, str]] = set()
        #: in a game that moves by itself: when widgets were last looked for (seconds into the run), and them
        self.latest_widgets: tuple[float, list[Widget]] = (-WIDGET_PERIOD, [])
        self.widget_period = WIDGET_PERIOD
        #: in an app taking many character keys: when its screen was last read, and the characters it showed
        self.characters: tuple[float, set[str]] = (-WIDGET_PERIOD, set())

    # -- what the loop tells ------------------------------------------------------------------------------
    def record(self, step: Step) -> None:
        seen = self.memory.seen_states
        novel = bool(step.after_hash) and step.after_hash not in seen and not self.animating
        seen.update(h for h in (step.before_hash, step.after_hash) if h)
        now = self.now
        if now.attempt is None or step.action != now.expected:
            return  # a step the loop chose itself (it retries suspect targets): not ours to judge
        now.expected = None
        now.attempt.absorb(step, novel)
        if not now.pending:
            attempt, now.attempt = now.attempt, None
            self._finish(attempt)

    @property
    def animating(self) -> bool:
        """The picture changes by itself (seen between our steps): a visible change proves little then."""
        return sum(self.self_changes) >= 2

    def _notice(self, observation: Observation) -> None:
        if observation.vocabulary is not None:
            self.inputs.learn(observation.vocabulary)
        if observation.launch != self.launch:  # the app started over: what works is kept, the rest is not
            self.launch = observation.launch
            self.now = Underway()
            if self.player is not None:
                self.player.forget()
            self.faces.forget()
            self.paired.clear()
            self.prompts.forget()
            return
        self.scenes.append((observation.step, scene(observation.frame)))
        history = observation.history
        if history and history[-1].after_hash:
            self.self_changes.append(observation.frame_hash != history[-1].after_hash)

    # -- decisions ----------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        self._notice(observation)
        undo = self._undo_blanking(observation) or self._undo_pause(observation) or self._undo_stop(observation) \
            or self._undo_mode()
        if undo is not None:
            return undo
        if self.context.strategy == "goal":
            restart = self._restart(observation)
            if restart is not None:
                return restart
        return self._explore(observation)

    def _undo_blanking(self, observation: Observation) -> Decision | None:
        """A key that blanked the window (a full-screen toggle, a video mode the display cannot show) is
        pressed once more to undo it, and not used again: a person would not keep playing blind."""
        share = _one_colour_share(observation.frame)
        shown, self.showed = self.showed, share <= SHOWS_SHARE
        last = observation.history[-1] if observation.history else None
        name = self.now.finished
        if share < BLANK_SHARE or not shown or last is None or last.action.kind not in ("press", "hotkey") \
                or name is None:
            return None
        self.memory.disruptive.add(name)
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
                self.memory.disruptive -= undoing.retired
            history = observation.history
            cause = next((step.action for step in reversed(history[self.unpaused_read_at:read_at])
                          if step.action.kind in ("press", "hotkey") and step.action.key not in MOVEMENT_KEYS
                          and step.action not in self.pause_suspects), None)
            if any(step.action == cause for step in history[read_at:]):
                cause = None  # pressed again since the frame read (to undo a stop): that reading is old news
            self.unpausing = undoing = None if cause is None else Unpausing(cause, self._retire(cause))
            if undoing is None:
                return None
            self.pause_suspects.add(undoing.cause)
        self.paused_read_at = observation.step - 1  # the frames read until this press: paused, as known
        return Decision(undoing.cause, note="again: the screen says it is paused")

    def _retire(self, action: Action) -> set[str]:
        """The inputs that start with ``action`` (a pause key) are not used again: a paused game tests nothing.
        The names of those newly retired."""
        names = {n for n, c in self.memory.known.items() if c.actions[0] == action} - self.memory.disruptive
        self.memory.disruptive |= names
        self._stop_streak(action)
        return names

    def _stop_streak(self, action: Action) -> None:
        """A streak repeating ``action`` ends (a key suspected of pausing the game is not pressed on and on)."""
        if self.now.streak is not None and self.now.streak.candidate.actions[0] == action:
            self.now.streak = None

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
                    and self._went_on(cause.index, observation):
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

    def _went_on(self, step: int, observation: Observation) -> bool:
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
        log = self.memory.log
        if self.toggled is not None:
            name, since = self.toggled
            after = log[since:]
            if any(effect for _, effect, _ in after):
                self.mode_toggles[name] += 1
                if self.mode_toggles[name] >= TOGGLE_EVIDENCE:
                    self.memory.disruptive.add(name)
                self.toggled = None
            elif len(after) >= MODE_PROBE:
                self.toggled = None
            return None
        keyed = [i for i, (_, effect, kind) in enumerate(log) if effect and kind in ("press", "hotkey")]
        if not keyed or not self.animating:  # (in a still app a key may lead to a screen where little works)
            return None
        last = keyed[-1]
        name, _, _ = log[last]
        after, before = log[last + 1:], log[max(0, last - MODE_PROBE):last]
        if (len(after) == MODE_PROBE and not any(effect for _, effect, _ in after)
                and sum(effect for _, effect, _ in before) >= 2 and name in self.memory.known
                and name not in self.memory.disruptive):  # (a key known to pause would pause again)
            self.toggled = (name, len(log))
            return Decision(self.memory.known[name].actions[0], note=f"undo {name}?: nothing worked after it")
        return None

    def _explore(self, observation: Observation) -> Decision:
        now = self.now
        if now.pending:
            return self._emit(now.pending.pop(0), "follow-up")
        screen = self._screen(observation)
        prompted = self._follow_prompt(observation, screen)
        if prompted is not None:
            return prompted
        hold = self.context.beat if self.animating and self.context.beat else HOLD_SECONDS
        candidates = [c for c in self.inputs.candidates(screen.widgets, observation.size, hold=hold)
                      if c.name not in self.memory.disruptive] or [WAIT]
        self.memory.known.update((c.name, c) for c in candidates)
        opened = _popped_up(observation)
        appeared = [c for c in candidates if opened and c.kind == "click" and c.name not in now.offered]
        now.offered = {c.name for c in candidates}
        self.faces.see(observation.frame)
        steered = self._steer(observation, candidates)
        candidate, why = steered or self._pair(observation, candidates) or self._choose(
            observation, screen, candidates, appeared)
        if candidate.box is not None and len(candidate.actions) == 1:
            self.faces.clicked(candidate.name, candidate.box, observation.frame)
        now.attempt = Attempt(candidate, observation.frame_hash, screen.index)
        now.pending = list(candidate.actions[1:])
        label = f" ({candidate.label})" if candidate.label else ""
        return self._emit(candidate.actions[0], f"{why}: {candidate.name}{label}", aimed=why == SHOWN)

    def _follow_prompt(self, observation: Observation, screen: ScreenMemory) -> Decision | None:
        """The key a line that just appeared on screen says to press to play (a game over's "press SPACE to
        play again"), pressed once, as a person does, unless it disrupted the app before."""
        text = "\n".join([observation.seen_text, *(w.text for w in screen.widgets if w.text)])
        key = self.prompts.appeared(text, self.inputs.play_keys())
        if key is None or f"key:{key}" in self.memory.disruptive:
            return None
        return self._emit(Action.press(key), f"the screen says to press {key}")

    def _steer(self, observation: Observation, candidates: list[Candidate]) -> tuple[Candidate, str] | None:
        """Goal play on a real-time game: the input that keeps the avatar in play when it is headed out (the
        Player learns where it is and what each input does to it)."""
        if self.context.strategy != "goal" or not self.animating:
            return None
        if self.player is None:
            self.player = Player(observation.size, self.context.beat or HOLD_SECONDS)
        last = observation.history[-1] if observation.history else None
        self.player.look(last, _response_name(last.action) if last else None, observation.movers)
        by_name: dict[str, Candidate] = {}
        for candidate in candidates:
            name = _response_name(candidate.actions[0])
            if name is not None and len(candidate.actions) == 1:
                by_name.setdefault(name, candidate)
        chosen = self.player.steer(list(by_name))
        if chosen is None:
            return None
        if chosen == "":
            return Candidate("wait", (Action.wait(self.context.beat or HOLD_SECONDS),), rank=3), "let the avatar drift"
        return by_name[chosen], "keep the avatar in play"

    def _pair(self, observation: Observation, candidates: list[Candidate]) -> tuple[Candidate, str] | None:
        """On a deck of cards (pairs.py), as a person plays a memory game: the card just clicked looked at once
        it has turned; two cards that showed the same face and are hidden again, turned one after the other
        (each pair once: a pair that did not stay uncovered only looked alike); after a turn's first card, the
        card seen before with its face."""
        frame = observation.frame
        if self.faces.turning_now(frame):
            return WAIT, "the card turns: looked at once it has"
        by_name = _things(candidates)
        found = self.faces.pair(frame)
        if found is not None and found not in self.paired and all(name in by_name for name in found):
            self.paired.add(found)
            self.faces.turned_pair(*found)
            first, second = (by_name[name] for name in found)
            return Candidate(f"pair:{first.name}+{second.name}", (*first.actions, *second.actions), rank=0,
                             repeatable=False, label=f"{first.label} and {second.label}"), "a pair seen before"
        twin = self.faces.twin(frame)
        if twin is not None and twin in by_name:
            one, other = sorted((self.faces.first or "", twin))
            if (one, other) not in self.paired:
                self.paired.add((one, other))
                return by_name[twin], "its twin seen before"
        return None

    def _unturned(self, observation: Observation, candidates: list[Candidate]) -> Candidate | None:
        """On a deck of cards, a card whose face was never seen (after every input was tried once)."""
        things = _things(candidates)
        unturned = self.faces.unturned(observation.frame,
                                       {name: c.box for name, c in things.items() if c.box is not None})
        return things[unturned[0]] if unturned else None

    def _emit(self, action: Action, note: str, *, aimed: bool = False) -> Decision:
        self.now.expected = action
        return Decision(action, note=note, aimed=aimed)

    def _choose(self, observation: Observation, screen: ScreenMemory, candidates: list[Candidate],
                appeared: list[Candidate]) -> tuple[Candidate, str]:
        """What is under way first (a sequence, a streak), then what a right click popped up (a click beside a
        menu would only close it), the way back after a walk, the late quit, new inputs, a card not yet seen,
        the inputs not yet tried from a state met before, a replay, energy."""
        now = self.now
        if appeared:
            return self._fresh([c for c in appeared if c.name not in self.memory.stats] or appeared), "in the popup"
        if now.replay is not None and now.replay.queue:
            return now.replay.queue.pop(0), f"sequence {' → '.join(now.replay.names)}"
        fresh = [c for c in candidates if c.name not in self.memory.stats and not self._kind_known(c)]
        # breadth before depth: the app's own controls and keys are all tried once before one is repeated
        # at length (and an input that made new controls appear, a menu, is not repeated: they come first)
        own = [c for c in fresh if c.rank <= 1]
        if now.streak is not None and not own:
            return now.streak.candidate, f"depth {now.streak.count + 1}"
        now.streak = None
        if own:
            return self._fresh(own), "new input"
        back = next((c for c in candidates if c.name == now.way_back), None)
        now.way_back = None
        if back is not None:
            return back, "the way back"
        shown = self._keys_shown(observation, candidates)
        if shown and self.rng.random() < TYPE_SHOWN:
            return self.rng.choice(shown), SHOWN
        quit_input = self._quit_late(observation, screen)
        if quit_input is not None:
            return quit_input, "quit once, late"
        if fresh:
            return self._fresh(fresh), "new input"
        unturned = self._unturned(observation, candidates)
        if unturned is not None:
            return unturned, "a card not yet seen"
        untaken = self._untaken(observation.frame_hash, candidates)
        if untaken:
            weights = [self._weight(c, observation.frame_hash, screen) for c in untaken]
            return weighted_choice(self.rng, untaken, weights), "not yet tried from here"
        if self.rng.random() < SEQUENCE_CHANCE:
            replay = self._start_replay()
            if replay is not None:
                return replay.queue.pop(0), f"sequence {' → '.join(replay.names)}"
        pooled = Counter(c.kind for c in candidates if self._kind_known(c))
        weights = [self._weight(c, observation.frame_hash, screen) / (pooled[c.kind] if self._kind_known(c) else 1)
                   for c in candidates]
        return weighted_choice(self.rng, candidates, weights), "energy"

    def _fresh(self, fresh: list[Candidate]) -> Candidate:
        """Methodical: every input once, each kind of input (keys, clicks, right clicks, fields...) in turn,
        the app's own controls and keys first and in order; a board's many cells in a seeded random order."""
        best = min(fresh, key=lambda c: (self.memory.kind_tries[c.kind], c.rank))
        if best.rank <= 1:
            return best
        return self.rng.choice([c for c in fresh if (c.kind, c.rank) == (best.kind, best.rank)])

    def _keys_shown(self, observation: Observation, candidates: list[Candidate]) -> list[Candidate]:
        """In an app that takes many letter or digit keys (a typing game, a word puzzle), the ones whose
        characters the screen shows, as a person types what they read (the screen is read every
        WIDGET_PERIOD, once every character read was typed a quarter of that: reading costs an OCR pass)."""
        if not self.types_characters:
            return []
        keys = [c for c in candidates if c.kind == "press" and len(c.actions[0].key or "") == 1]
        since = observation.elapsed - self.characters[0]
        if since >= WIDGET_PERIOD or not self.characters[1] and since >= WIDGET_PERIOD / 4:
            read = {ch.lower() for box in observation.text_boxes() for word in box.text.split() if len(word) == 1
                    for ch in word}
            self.characters = (observation.elapsed, read)
        return [c for c in keys if (c.actions[0].key or "").lower() in self.characters[1]]

    def _kind_known(self, candidate: Candidate) -> bool:
        """In a game that moves by itself, a click or pointer move on what is drawn lands somewhere new each
        time: after a few tries of its kind it is one input of that kind, weighed by what the kind did, not a
        new input at every place (a person does not click each asteroid to learn clicks do nothing): its places
        share one input's weight."""
        return (self.animating and candidate.rank >= 2 and candidate.kind != "press"
                and self.memory.kind_tries[candidate.kind] >= KIND_BREADTH)

    def _weight(self, candidate: Candidate, state: str, screen: ScreenMemory) -> float:
        """Energy, lowered where the input did nothing, raised on a screen where it was never tried."""
        here = 1.0 if candidate.name in self.memory.tried_on.get(screen.index, ()) else NOT_TRIED_HERE
        rank = RANK_WEIGHT[min(candidate.rank, len(RANK_WEIGHT) - 1)]
        stats = self.memory.stats.get(candidate.name) or self.memory.kind_stats[candidate.kind]
        return stats.weight(state) * here * rank

    def _untaken(self, state: str, candidates: list[Candidate]) -> list[Candidate]:
        """Back in a state of a still app it was in before, the app's own inputs not yet tried from there: a
        person back at a junction of a maze takes the way not yet taken (a maze with a small avatar is one
        screen, so the screen's memory cannot tell); a game that moves by itself never comes back to a state."""
        if self.animating:
            return []
        stats = self.memory.stats
        tried = {c.name for c in candidates if c.name in stats and state in stats[c.name].tried_states}
        untaken = [c for c in candidates if c.rank <= 1 and c.name not in tried]
        return untaken if tried else []

    def _start_replay(self) -> Replay | None:
        names = self.memory.sequences.pick(self.rng, self.memory.effective())
        if names is None or any(name not in self.memory.known for name in names):
            return None
        self.now.replay = Replay(names, [self.memory.known[name] for name in names])
        return self.now.replay

    def _quit_late(self, observation: Observation, screen: ScreenMemory) -> Candidate | None:
        """A quit key ends the launch normally (the loop launches the app again): worth one try, late."""
        if (self.quit_tried or observation.step < QUIT_AT * self.context.max_steps
                or any(e.kind == "alive" for e in self.context.expectations)):
            return None
        candidates = self.inputs.quit_inputs(screen.widgets)
        self.quit_tried = bool(candidates)
        return candidates[0] if candidates else None

    # -- what the attempts did -------------------------------------------------------------------------------
    def _finish(self, attempt: Attempt) -> None:
        memory, now, name = self.memory, self.now, attempt.candidate.name
        effect = attempt.changed or attempt.lines > 0
        # under coverage new code is the reward; without it, a picture never seen before
        gain = float(attempt.lines) if self.context.coverage else float(attempt.novel)
        memory.stats.setdefault(name, InputStats()).update(effect=effect, gain=gain, state=attempt.state)
        memory.kind_stats.setdefault(attempt.candidate.kind, InputStats()).update(effect=effect, gain=gain,
                                                                                  state=attempt.state)
        memory.tried_on.setdefault(attempt.screen, set()).add(name)
        memory.log.append((name, effect, attempt.candidate.kind))
        if attempt.candidate.kind == "press":
            # a character typed is gone (typed to no effect, it was misread or gone already): not typed again
            # before the next reading
            self.characters[1].discard((attempt.candidate.actions[0].key or "").lower())
        memory.kind_tries[attempt.candidate.kind] += 1
        now.finished = name
        now.recent = [*now.recent, name][-3:]
        if attempt.lines > 0:
            memory.sequences.add(now.recent, attempt.lines)
        if now.replay is None:
            self._deepen(attempt, effect)
            return
        now.replay.gain += gain
        if not now.replay.queue:
            memory.sequences.replayed(now.replay.names, now.replay.gain)
            now.replay = None

    def _deepen(self, attempt: Attempt, effect: bool) -> None:
        """Start, continue or end the repetition of an input that had an effect."""
        streak = self.now.streak
        if streak is not None and streak.candidate.name == attempt.candidate.name:
            if self.animating:  # it may have started before the app was seen animating
                streak.bound = min(streak.bound, ANIMATED_DEPTH)
            if not self._repeated_at_once(attempt.candidate) or not streak.goes_on(
                    changed=attempt.changed, after=attempt.after, lines=attempt.lines, animating=self.animating):
                self.now.streak = None
                self._turn_back(attempt.candidate)
            return
        self.now.streak = None
        if attempt.candidate.name in self.faces.deck():
            return  # a card turned is not clicked again at once
        # an animating app changes anyway: there only new code shows an effect (when it is measured)
        deep = attempt.lines > 0 if self.animating and self.context.coverage else effect
        push = not deep and self._pushes_to_edge(attempt.candidate)
        if not ((deep or push) and attempt.candidate.repeatable and self._repeated_at_once(attempt.candidate)):
            return
        bound = ANIMATED_DEPTH if self.animating else DEPTH
        if attempt.candidate.kind != "press":
            bound = min(bound, POINTER_DEPTH)  # walking is done with keys; a button's third press is enough
        name = attempt.candidate.name
        if name in self.memory.walked and not push:
            # the edge is known: mostly stop on the way this time (a side path, a junction), now and then
            # walk on to the edge again (from a new place, it may be another edge)
            bound = self.rng.choice((1, 2, 3, bound))
        self.memory.walked.add(name)
        if bound > 1:
            self.now.streak = Streak(attempt.candidate, bound, seen={attempt.state, attempt.after})

    def _repeated_at_once(self, candidate: Candidate) -> bool:
        """Whether an input that had an effect may be repeated at once: in a game that moves by itself only a
        movement key is (a walk has an edge to reach); what another key did (a pause, a menu) is looked at
        before it is pressed again: a pause key pressed on at once undoes itself, unseen."""
        return not (self.animating and candidate.kind in ("press", "hotkey")
                    and candidate.actions[0].key not in MOVEMENT_KEYS)

    def _turn_back(self, candidate: Candidate) -> None:
        """After a walk to the edge of a still app, the way back next, a few times a run: right after a move its
        opposite must work (a tile slides back, the avatar steps back), the one place where a direction key
        that does nothing is surely dead, not against a wall."""
        key = candidate.actions[0].key
        if self.animating or candidate.kind != "press" or key not in OPPOSITE:
            return
        back = key_candidate(OPPOSITE[key], 1).name
        if self.memory.turned_back[back] < TURN_BACKS:
            self.memory.turned_back[back] += 1
            self.now.way_back = back

    def _pushes_to_edge(self, candidate: Candidate) -> bool:
        """Whether a movement key is pressed on to the edge of a moving game although no effect was seen: a
        step's effect hides in the game's own motion, and off-by-one slips live at the field's edges, where a
        tester runs the player into each wall. In a game that takes many letters (a typing game) a letter is
        no direction."""
        key = candidate.actions[0].key
        if not self.animating or candidate.kind != "press" or key not in MOVEMENT_KEYS or self.types_characters:
            return False
        if self.memory.pushed[candidate.name] >= EDGE_PUSHES:
            return False
        self.memory.pushed[candidate.name] += 1
        return True

    # -- screens ----------------------------------------------------------------------------------------------
    def _screen(self, observation: Observation) -> ScreenMemory:
        screen, new = self.screens.visit(perceptual_hash(observation.frame))
        stats = self.memory.stats.get(self.now.finished or "")
        if new and stats is not None:
            stats.credit(NEW_SCREEN_GAIN)  # new screens bring new widgets
        if not self.inputs.uses_widgets:
            return screen
        if self.animating:
            # every frame of a game that moves by itself is another screen: what was found lately stands for
            # all of them, looked for again every widget_period (finding them costs an OCR pass)
            if observation.elapsed - self.latest_widgets[0] >= self.widget_period:
                began = time.perf_counter()
                self.latest_widgets = (observation.elapsed, observation.widgets())
                self.widget_period = max(WIDGET_PERIOD, (time.perf_counter() - began) / WIDGET_SHARE)
            screen.widgets = self.latest_widgets[1]
        elif new or screen.visits % WIDGET_REFRESH == 1 or self._big_change(observation):
            screen.widgets = observation.widgets()
        return screen

    def _big_change(self, observation: Observation) -> bool:
        last = observation.history[-1] if observation.history else None
        return last is not None and not self.animating and last.changed_fraction >= REFRESH_FRACTION

    # -- goal play ----------------------------------------------------------------------------------------
    def _restart(self, observation: Observation) -> Decision | None:
        """After a loss shown on screen, a restart key, once per reading of the screen taken since the last
        one (a person presses it and looks); meanwhile, a score that rose credits what led to it."""
        text = observation.seen_text
        if LOSS.search(text):
            if observation.text_read_at < self.restarted_at:
                return None  # read before the last restart key: whether that worked is not known yet
            keys = self.inputs.play_keys()
            restart = [k for k in ("space", "enter", "r", "n") if k in keys] or ["space", "enter", "r"]
            self.restarted_at = observation.step
            return Decision(Action.press(self.rng.choice(restart)), note="restart after a loss")
        self._credit_score(text)
        return None

    def _credit_score(self, text: str) -> None:
        """A score read on screen that went up is worth SCORE_GAIN to the inputs of the last attempts."""
        match = NUMBER.search(text)
        if not match:
            return
        value = int(match.group(1))
        if self.score.last_score is not None and value > self.score.last_score:
            for name in self.now.recent:
                self.memory.stats[name].credit(SCORE_GAIN)
        self.score.last_score = value


def _response_name(action: Action) -> str | None:
    """What an action is to the avatar: every click is one input (it flaps, fires, punches wherever it lands),
    a key pressed or held another; pointer moves and waits are not learnt."""
    if action.kind == "click":
        return "click"
    if action.kind in ("press", "hold"):
        return f"{action.kind} {action.key}"
    return None


def _things(candidates: list[Candidate]) -> dict[str, Candidate]:
    """The candidates that click one thing found on screen (a widget's box), by name: a card of a deck."""
    return {c.name: c for c in candidates if c.box is not None and len(c.actions) == 1}


def _one_colour_share(frame: np.ndarray) -> float:
    """The share of the window in its most common colour (sampled)."""
    sample = frame[::8, ::8].reshape(-1, frame.shape[2])
    _, counts = np.unique(sample, axis=0, return_counts=True)
    return float(counts.max() / len(sample))


def _popped_up(observation: Observation) -> bool:
    """Whether the last input was a right click that changed the window (a context menu popped up)."""
    last = observation.history[-1] if observation.history else None
    return last is not None and last.action.kind == "right_click" and last.changed
