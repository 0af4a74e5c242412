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
repeated at length), and gives the energy to what raised a number read on screen (the score); on a web page
it plays again what brought an expected rule that has not held nearer holding; it restarts after a loss shown
on screen. Movement keys of a real-time game are held for the loop's beat.
Both are seeded: the same app and seed give the same choices.
"""

from __future__ import annotations

import time
from collections import Counter

from ..actions import Action
from ..trajectory import Step
from ..vision import Widget, perceptual_hash
from .base import Decision, Observation, Policy, PolicyContext
from .depth import Depth
from .exploration import WAIT, Candidate, InputStats, Rank, weighted_choice
from .inputs import GAME_KEYS, InputCatalog
from .modes import Modes
from .notebook import Attempt, Notebook, Replay, ScreenMemory, Screens, Tried
from .pairing import Pairing
from .prompts import PromptFollower
from .pursuit import Pursuit
from .restarts import RestartButton, Restarts
from .seeking import Seeking
from .shown import ShownKeys
from .skill import Choice, Skill, Turn
from .steering import Steering
from .suspects import Suspects
from .thresholds import (
    HOLD_SECONDS,
    KIND_BREADTH,
    NEW_SCREEN_GAIN,
    NOT_TRIED_HERE,
    QUIT_AT,
    RANK_WEIGHT,
    REFRESH_FRACTION,
    SEQUENCE_CHANCE,
    SEQUENCE_LENGTHS,
    TYPE_SHOWN,
    WIDGET_PERIOD,
    WIDGET_REFRESH,
    WIDGET_SHARE,
)
from .tools import Tools

__all__ = ["GAME_KEYS", "HeuristicPolicy"]

SHOWN = "a key the screen shows"  # why such a key was chosen


class HeuristicPolicy(Policy):
    """The offline tester: its skills (each its own part, asked in turn), then exploration by energy."""

    name = "heuristic"

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        self.rng = context.rng()
        vocabulary = context.vocabulary
        self.inputs = InputCatalog(None if vocabulary is None or vocabulary.is_empty else vocabulary)
        types_characters = vocabulary is not None and vocabulary.types_characters
        self.notebook = Notebook(self.rng)
        self.screens = Screens()
        self.launch = 1
        self.quit_tried = False
        self.modes = Modes(self.notebook)
        self.restarts = Restarts(self.notebook, self.inputs)
        self.restart_button = RestartButton()
        self.prompts = PromptFollower(self.notebook, self.inputs)
        self.steering = Steering(self.notebook, goal=context.strategy == "goal", beat=context.beat)
        self.seeking = Seeking(self.notebook, self.steering)
        self.pursuit = Pursuit(self.notebook, context.expectations, goal=context.strategy == "goal")
        self.pairing = Pairing()
        self.tools = Tools()
        self.shown = ShownKeys(types_characters=types_characters)
        self.suspects = Suspects(self.notebook)
        self.depth = Depth(self.notebook, coverage=context.coverage, types_characters=types_characters)
        #: asked before the screen is looked at (in this order): undo a mode a key put the game in; restart a
        #: lost game (goal play)
        self.interjections: list[Skill] = [self.modes, *([self.restarts] if context.strategy == "goal" else [])]
        #: in a game that moves by itself: when widgets were last looked for (seconds into the run), and them
        self.latest_widgets: tuple[float, list[Widget]] = (-WIDGET_PERIOD, [])
        self.widget_period = WIDGET_PERIOD

    @property
    def animating(self) -> bool:
        """The picture changes by itself (seen between our steps): a visible change proves little then."""
        return self.notebook.animating

    # -- what the loop tells ------------------------------------------------------------------------------
    def record(self, step: Step) -> None:
        memory, now = self.notebook.memory, self.notebook.now
        novel = bool(step.after_hash) and step.after_hash not in memory.seen_states and not self.animating
        memory.seen_states.update(h for h in (step.before_hash, step.after_hash) if h)
        if now.attempt is None or step.action != now.expected:
            return  # a step the loop chose itself (it retries suspect targets): not ours to judge
        now.expected = None
        now.attempt.absorb(step, novel)
        if not now.pending:
            attempt, now.attempt = now.attempt, None
            self._finish(attempt)

    def _notice(self, observation: Observation) -> None:
        if observation.vocabulary is not None:
            self.inputs.learn(observation.vocabulary)
        if observation.launch != self.launch:  # the app started over: what works is kept, the rest is not
            self.launch = observation.launch
            self.notebook.start_over()
            for skill in (self.steering, self.seeking, self.pursuit, self.pairing, self.prompts, self.restart_button,
                          self.tools):
                skill.forget()
            return
        self.modes.notice(observation)
        self.notebook.moving = observation.moving
        history = observation.history
        if history and history[-1].after_hash:
            self.notebook.self_changes.append(observation.frame_hash != history[-1].after_hash)

    # -- decisions ----------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        self._notice(observation)
        turn = Turn(observation)
        for skill in self.interjections:
            move = skill.propose(turn)
            if isinstance(move, Decision):
                return move
        return self._explore(turn)

    def _explore(self, turn: Turn) -> Decision:
        observation, now = turn.observation, self.notebook.now
        if now.pending:
            return self._emit(now.pending.pop(0), "follow-up")
        turn.screen = self._screen(observation)
        prompted = self.prompts.propose(turn)
        if prompted is not None:
            return self._emit(prompted.action, prompted.note)
        turn.candidates = self._candidates(observation, turn.screen)
        opened = _popped_up(observation)
        appeared = [c for c in turn.candidates if opened and c.kind == "click" and c.name not in now.offered]
        now.offered = {c.name for c in turn.candidates}
        self.pairing.see(observation.frame)
        move = (self.restart_button.propose(turn) or self.steering.propose(turn) or self.seeking.propose(turn)
                or self.pursuit.propose(turn) or self.pairing.propose(turn) or self.tools.propose(turn))
        choice = move if isinstance(move, Choice) else self._choose(turn, appeared)
        candidate = choice.candidate
        self.pairing.clicked(candidate, observation.frame)
        self.tools.chosen(candidate)
        self.pursuit.chosen(candidate)
        now.attempt = Attempt(candidate, observation.frame_hash, turn.screen.index, observation.step)
        now.pending = list(candidate.actions[1:])
        label = f" ({candidate.label})" if candidate.label else ""
        return self._emit(candidate.actions[0], f"{choice.why}: {candidate.name}{label}", aimed=choice.why == SHOWN)

    def _candidates(self, observation: Observation, screen: ScreenMemory) -> list[Candidate]:
        """The inputs this screen offers, but those that disrupt the app (else a wait); each name's latest kept."""
        hold = self.context.beat if self.animating and self.context.beat else HOLD_SECONDS
        candidates = [c for c in self.inputs.candidates(screen.widgets, observation.size, hold=hold)
                      if c.name not in self.notebook.memory.disruptive] or [WAIT]
        self.notebook.memory.known.update((c.name, c) for c in candidates)
        return candidates

    def _emit(self, action: Action, note: str, *, aimed: bool = False) -> Decision:
        self.notebook.now.expected = action
        return Decision(action, note=note, aimed=aimed, heading=self._heading())

    def _heading(self) -> str:
        """The way a course-keeping avatar goes (``Player.heading``); "" when none is known."""
        return self.steering.player.heading if self.steering.player is not None else ""

    def _choose(self, turn: Turn, appeared: list[Candidate]) -> Choice:
        """What is under way first (a sequence, a streak), then what a right click popped up (a click beside a
        menu would only close it), the way back after a walk, the late quit, new inputs, a card not yet seen,
        the inputs not yet tried from a state met before, a replay, energy."""
        candidates = turn.candidates
        memory, now = self.notebook.memory, self.notebook.now
        if appeared:
            return Choice(self._fresh([c for c in appeared if c.name not in memory.stats] or appeared), "in the popup")
        if now.replay is not None and now.replay.queue:
            return Choice(now.replay.queue.pop(0), f"sequence {' → '.join(now.replay.names)}")
        fresh = [c for c in candidates if c.name not in memory.stats and not self._kind_known(c)]
        # breadth before depth: the app's own controls and keys are all tried once before one is repeated
        # at length (and an input that made new controls appear, a menu, is not repeated: they come first)
        own = [c for c in fresh if c.rank <= Rank.KEY]
        suspect = None if own else self.suspects.pick(candidates, turn.observation.frame_hash, heading=self._heading())
        if suspect is not None:  # (tried again on purpose, a walk under way or not)
            return suspect
        if now.streak is not None and not own:
            return Choice(now.streak.candidate, f"depth {now.streak.count + 1}")
        now.streak = None
        if own:
            return Choice(self._fresh(own), "new input")
        back = next((c for c in candidates if c.name == now.way_back), None)
        now.way_back = None
        if back is not None:
            return Choice(back, "the way back")
        return self._choose_freely(turn, fresh)

    def _choose_freely(self, turn: Turn, fresh: list[Candidate]) -> Choice:
        """Nothing under way: a key the screen shows, the late quit, new inputs, a card not yet seen, the inputs
        not yet tried from here, a replay, energy."""
        observation, candidates, screen = turn.observation, turn.candidates, turn.screen
        assert screen is not None
        shown = self.shown.keys(observation, candidates)
        if shown and self.rng.random() < TYPE_SHOWN:
            return Choice(self.rng.choice(shown), SHOWN)
        quit_input = self._quit_late(observation, screen)
        if quit_input is not None:
            return Choice(quit_input, "quit once, late")
        if fresh:
            return Choice(self._fresh(fresh), "new input")
        unturned = self.pairing.unturned(observation, candidates)
        if unturned is not None:
            return Choice(unturned, "a card not yet seen")
        untaken = self._untaken(observation.frame_hash, candidates)
        if untaken:
            weights = [self._weight(c, observation.frame_hash, screen) for c in untaken]
            return Choice(weighted_choice(self.rng, untaken, weights), "not yet tried from here")
        if self.rng.random() < SEQUENCE_CHANCE:
            replay = self._start_replay()
            if replay is not None:
                return Choice(replay.queue.pop(0), f"sequence {' → '.join(replay.names)}")
        pooled = Counter(c.kind for c in candidates if self._kind_known(c))
        weights = [self._weight(c, observation.frame_hash, screen) / (pooled[c.kind] if self._kind_known(c) else 1)
                   for c in candidates]
        return Choice(weighted_choice(self.rng, candidates, weights), "energy")

    def _fresh(self, fresh: list[Candidate]) -> Candidate:
        """Methodical: every input once, each kind of input (keys, clicks, right clicks, fields...) in turn,
        the app's own controls and keys first and in order; a board's many cells in a seeded random order."""
        best = min(fresh, key=lambda c: (self.notebook.memory.kind_tries[c.kind], c.rank))
        if best.rank <= Rank.KEY:
            return best
        return self.rng.choice([c for c in fresh if (c.kind, c.rank) == (best.kind, best.rank)])

    def _kind_known(self, candidate: Candidate) -> bool:
        """In a game that moves by itself, a click or pointer move on what is drawn lands somewhere new each
        time: after a few tries of its kind it is one input of that kind, weighed by what the kind did, not a
        new input at every place (a person does not click each asteroid to learn clicks do nothing): its places
        share one input's weight."""
        return (self.animating and candidate.rank >= Rank.DRAWN and candidate.kind != "press"
                and self.notebook.memory.kind_tries[candidate.kind] >= KIND_BREADTH)

    def _weight(self, candidate: Candidate, state: str, screen: ScreenMemory) -> float:
        """Energy, lowered where the input did nothing, raised on a screen where it was never tried."""
        memory = self.notebook.memory
        here = 1.0 if candidate.name in memory.tried_on.get(screen.index, ()) else NOT_TRIED_HERE
        rank = RANK_WEIGHT[min(candidate.rank, len(RANK_WEIGHT) - 1)]
        stats = memory.stats.get(candidate.name) or memory.kind_stats[candidate.kind]
        return stats.weight(state) * here * rank

    def _untaken(self, state: str, candidates: list[Candidate]) -> list[Candidate]:
        """Back in a state of a still app it was in before, the app's own inputs not yet tried from there: a
        person back at a junction of a maze takes the way not yet taken (a maze with a small avatar is one
        screen, so the screen's memory cannot tell); a game that moves by itself never comes back to a state."""
        if self.animating:
            return []
        stats = self.notebook.memory.stats
        tried = {c.name for c in candidates if c.name in stats and state in stats[c.name].tried_states}
        untaken = [c for c in candidates if c.rank <= Rank.KEY and c.name not in tried]
        return untaken if tried else []

    def _start_replay(self) -> Replay | None:
        memory = self.notebook.memory
        names = memory.sequences.pick(self.rng, memory.effective())
        if names is None or any(name not in memory.known for name in names):
            return None
        self.notebook.now.replay = Replay(names, [memory.known[name] for name in names])
        return self.notebook.now.replay

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
        memory, now, name = self.notebook.memory, self.notebook.now, attempt.candidate.name
        effect = attempt.changed or attempt.lines > 0
        # under coverage new code is the reward; without it, a picture never seen before
        gain = float(attempt.lines) if self.context.coverage else float(attempt.novel)
        memory.stats.setdefault(name, InputStats()).update(effect=effect, gain=gain, state=attempt.state)
        memory.kind_stats.setdefault(attempt.candidate.kind, InputStats()).update(effect=effect, gain=gain,
                                                                                  state=attempt.state)
        memory.tried_on.setdefault(attempt.screen, set()).add(name)
        memory.log.append(Tried(name, effect, attempt.candidate.kind, attempt.step))
        self.shown.typed(attempt.candidate)
        memory.kind_tries[attempt.candidate.kind] += 1
        now.finished = name
        now.recent = [*now.recent, name][-max(SEQUENCE_LENGTHS):]
        if attempt.lines > 0:
            memory.sequences.add(now.recent, attempt.lines)
        if now.replay is None:
            self.depth.deepen(attempt, effect, cards=self.pairing.deck())
            return
        now.replay.gain += gain
        if not now.replay.queue:
            memory.sequences.replayed(now.replay.names, now.replay.gain)
            now.replay = None

    # -- screens ----------------------------------------------------------------------------------------------
    def _screen(self, observation: Observation) -> ScreenMemory:
        screen, new = self.screens.visit(perceptual_hash(observation.frame))
        stats = self.notebook.memory.stats.get(self.notebook.now.finished or "")
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


def _popped_up(observation: Observation) -> bool:
    """Whether the last input was a right click that changed the window (a context menu popped up)."""
    last = observation.history[-1] if observation.history else None
    return last is not None and last.action.kind == "right_click" and last.changed
