"""The playtest loop: observe → decide → act → check, until the goal, a bug, or a bound.

OCR never runs on the loop's hot path unless a policy asks for it: a background reader OCRs the most
recent new frame for the expectations, and the last frame is read once at the end.
"""

from __future__ import annotations

import json
import random
import time
from functools import partial
from pathlib import Path
from typing import Literal

import numpy as np

from ..actions import POINTER_KINDS, Action
from ..errors import ActionError, AppError, DisplayError, PolicyError
from ..files import FRAMES_DIR, VOCABULARY_FILE, ScreenshotMode
from ..geometry import Box
from ..policies import make_policy
from ..policies.base import Observation, Policy, PolicyContext, PolicyFactory
from ..runtime.display import Display
from ..runtime.executor import Executor
from ..runtime.screen import NO_CHANGE, Change, Screen, difference, frame_hash
from ..source import Vocabulary
from ..source.announced import announced
from ..trajectory import Step, Trajectory
from ..verdict import Finding, Status, Verdict
from ..vision import Vision, Widget
from ..vision.motion import MotionWatch
from .controls import DeadControls
from .differential import Sights
from .launcher import Launcher
from .oracles import Oracles
from .retries import Retries
from .spec import Pacing, RunResult, RunSpec
from .web import DomReader, WebPage
from .workers import FrameWriter, TextReader

STARTUP_TIMEOUT = 20.0
#: Seconds a running app may take to show the window that replaces its old one (pygame's set_mode, a
#: fullscreen toggle), under load too.
WINDOW_REPLACED = 6.0
#: Seconds that must be left in a run for a relaunch to be worth it (start, first paint, a few steps).
RELAUNCH_TIME_LEFT = 5.0
#: A run launches its app at most this many times (it is launched again after each normal exit).
MAX_LAUNCHES = 20
#: Seconds between looks at a real-time game while a step's beat runs.
PLAY_POLL = 0.02
#: Every this many steps, the app is watched without input: GLANCE seconds when it looks still (whether it
#: moves slowly); a beat after one step in ``WATCH_EVERY_MOVING`` when it moves by itself: how often its own
#: motion looks like an effect is the chance level its inputs are judged against, and a few dozen beats
#: measure it. Those beats come after steps drawn at random (from the run's seed): at fixed steps they would
#: keep in step with a game that does the same thing at the same time after each launch (a snake reaching the
#: wall it was launched towards), and measure that moment over and over.
WATCH_EVERY = 5
WATCH_EVERY_MOVING = 3
GLANCE = 0.25
#: A differential run looks again at a window that differs from its golden run's, once it has stood still for
#: LOOK_AGAIN_STILL seconds (at most LOOK_AGAIN): pictures and fonts of a page arrive late.
LOOK_AGAIN, LOOK_AGAIN_STILL = 1.0, 0.2
#: How far (pixels) from the resting pointer a control's hover or focus drawing may reach.
POINTER_REACH = 64


def run_session(
    spec: RunSpec,
    *,
    display: Display,
    vision: Vision,
    policies: PolicyFactory | None = None,
    artifacts: Path | None = None,
    screenshots: ScreenshotMode = "on",
    default_cwd: Path | None = None,
) -> RunResult:
    """Run one playtest and return its result; never raises for the app's faults or infrastructure."""
    started = time.monotonic()
    launcher = Launcher(spec, display, vision, cwd=_app_cwd(spec, default_cwd), artifacts=artifacts)
    steps: list[Step] = []
    try:
        playthrough = Playthrough(spec, launcher, vision, policies=policies, artifacts=artifacts,
                                  screenshots=screenshots, started=started)
        steps = playthrough.steps
        result = playthrough.run()
    except (AppError, DisplayError, PolicyError) as exc:
        verdict = Verdict(status="error", error=str(exc), steps=len(steps), policy=spec.policy,
                          duration=time.monotonic() - started)
        result = RunResult(verdict, steps)
    finally:
        coverage = launcher.close()
    result.verdict.coverage = coverage
    result.verdict.notes.extend(launcher.notes)
    result.stdout, result.stderr = launcher.outputs()
    return result


def _app_cwd(spec: RunSpec, fallback: Path | None) -> Path | None:
    if spec.cwd:
        return Path(spec.cwd)
    if isinstance(spec.app, str) and spec.app.endswith(".py"):
        return Path(spec.app).parent
    return fallback


StopReason = Literal["exit", "freeze", "goal", "expectation", "finish"]


class Playthrough:
    """One run of one app: observe → decide → act → check, then finish into a RunResult.

    The state of the run lives here (steps, the previous frame, tokens, why it stopped); the oracles judge
    what happened, the policy decides what to do, the executor acts.
    """

    def __init__(self, spec: RunSpec, launcher: Launcher, vision: Vision, *, policies: PolicyFactory | None,
                 artifacts: Path | None,
                 screenshots: ScreenshotMode, started: float) -> None:
        self.spec, self.launcher, self.vision, self.policies = spec, launcher, vision, policies
        self.artifacts = artifacts
        self.started, self.deadline = started, started + spec.timeout
        self.pacing = spec.pacing
        self.beat = spec.pacing.beat_for(spec.timeout, spec.max_steps)
        self.app = launcher.start()
        self.surface = launcher.surface
        self.oracles = Oracles(self.app, spec.expect, spec.oracles, watch=self.surface.watch)
        self.retries = Retries(self.oracles)
        self.frames = FrameWriter(artifacts / FRAMES_DIR) if artifacts and screenshots != "off" else None
        self.steps: list[Step] = []
        self.tokens = self.prompt_tokens = self.cached_tokens = 0
        self.stopped_by: StopReason | None = None
        self.judged: list[Finding] = []  # the policy's own "fail" verdicts
        self.policy: Policy | None = None
        self.reader: TextReader | DomReader | None = None
        self.screen: Screen | None = None
        self.executor: Executor | None = None
        self.previous: np.ndarray | None = None
        self.notes: list[str] = []
        self.controls: DeadControls | None = None
        self.pointer: tuple[int, int] | None = None  # where the pointer rests, in window coordinates
        self.motion = MotionWatch()  # the ticks of the current launch, when it moves by itself
        self.unseen = 0.0  # how long the last input left the app unwatched before it was given (deciding on it)
        self.chance_beats = random.Random(spec.seed)  # when to watch an app that moves by itself without input
        self.lights_buttons = False  # whether the app was seen to highlight a button the pointer rests on
        self.sights = Sights(vision, spec.differential.reference) if spec.differential else None

    # -- the run ----------------------------------------------------------------------------------------
    def run(self) -> RunResult:
        """Play until the goal, a bug or a bound; never raises for the app's faults."""
        if not self._shown():
            self.oracles.check_no_window()
            self.stopped_by = "exit"
            return self.finish()
        self.reader = self._reader()
        try:
            if not self._first_look():
                return self.finish()
            while len(self.steps) < self.spec.max_steps and time.monotonic() < self.deadline:
                if not self.step():
                    break
            self._wind_down()
            return self.finish(bounded=self.stopped_by is None)
        except PolicyError as exc:
            return self.finish(error=str(exc))
        finally:
            self.close()

    def step(self) -> bool:
        """One observe → decide → act → check; False when the run is over."""
        now = time.monotonic()
        frame = self.observe(now)
        if frame is None:
            return self.stopped_by is None
        if self.check(now):
            return False
        step = self.decide(frame, now)
        if step.action.kind == "finish":
            self._finish_step(step)
            return False
        self.act(step, frame)
        if self.stopped_by is None and not self._scripted and self._watch_now(step.index):
            self._watch_without_input()
        return self.stopped_by is None

    def observe(self, now: float) -> np.ndarray | None:
        """The window now, offered to the background reader; None when there is no window to look at."""
        assert self.screen is not None and self.previous is not None
        try:
            frame = self.screen.screenshot()
        except AppError:
            self._window_lost(len(self.steps))
            return None
        self.oracles.observe_idle(self._changed_by_itself(self.previous, frame), now)
        if self.reader:
            self.reader.offer(frame, self.screen.last_hash, len(self.steps))
        return frame

    def _changed_by_itself(self, before: np.ndarray, after: np.ndarray) -> bool:
        """Whether the window changed with no input of ours in between. A change around the resting pointer
        alone is the last input's aftermath (a button's hover or focus ring fading in), not the app moving."""
        assert self.screen is not None
        change = self.screen.effect(before, after)
        if not change or change.box is None or self.pointer is None:
            return bool(change)
        x, y = self.pointer
        reach = Box(x - POINTER_REACH, y - POINTER_REACH, 2 * POINTER_REACH, 2 * POINTER_REACH)
        return reach.union(Box(*change.box)) != reach

    def check(self, now: float) -> bool:
        """The oracles that need no input: output, exit, freeze, and whether the expectations end the run (a
        forbidden text seen; every expectation met only when the spec asks to stop then)."""
        oracles, done = self.oracles, len(self.steps)
        oracles.check_output(done)
        if oracles.check_exit(done):
            return self._exited()
        if oracles.check_freeze(done, now):
            self.stopped_by = "freeze"
        elif oracles.stalled(now) and self._budget_left():
            return self._relaunch(f"the app stood still for {oracles.still_for(now):.1f}s and the last "
                                  f"{oracles.inputs_without_effect} inputs changed nothing after step {done} (its game "
                                  "was over for good)")
        elif self.spec.stop_when_met and self.reader and oracles.expectations.goal_met(self.reader.text):
            self.stopped_by = "goal"
        elif oracles.expectations.violated:  # a forbidden text was seen: the bug is found
            self.stopped_by = "expectation"
        return self.stopped_by is not None

    def decide(self, frame: np.ndarray, now: float) -> Step:
        """Ask the policy (or retry a suspect target in a new state) and record the step it chose."""
        assert self.screen is not None and self.policy is not None
        key = self.screen.last_hash
        # (the step first: the reader may read anew meanwhile, and text newer than its step is only old news)
        text_read_at = self.reader.read_at if self.reader else 0
        seen_text = self.reader.text if self.reader else ""
        self._read_announced(seen_text, key)
        observation = Observation(step=len(self.steps) + 1, frame=frame, frame_hash=key,
                                  elapsed=now - self.started, history=self.steps, vision=self.vision,
                                  seen_text=seen_text, text_read_at=text_read_at,
                                  launch=len(self.launcher.apps), page=self._page(),
                                  movers=self.motion.movers() if self.oracles.animating else (),
                                  stopped_at=self._stopped_at(), moving=self.oracles.animating,
                                  vocabulary=self.controls.vocabulary if self.controls else None)
        retry = None if self._scripted else self.retries.next(
            key, lambda: self._widgets(frame, key))
        decision = self.policy.decide(observation) if retry is None else retry
        self.tokens += decision.tokens
        self.prompt_tokens += decision.prompt_tokens
        self.cached_tokens += decision.cached_tokens
        step = Step(index=len(self.steps) + 1, action=decision.action, before_hash=key, tokens=decision.tokens,
                    prompt_tokens=decision.prompt_tokens, cached_tokens=decision.cached_tokens,
                    started=now - self.started, note=decision.note, window=observation.size, text=seen_text,
                    launch=observation.launch, caption=decision.caption, aimed=decision.aimed)
        self.steps.append(step)
        return step

    def _read_announced(self, seen_text: str, key: str) -> None:
        """An input the screen names that the code reading did not find (a help line's "Right click: flag")
        joins what the app handles (the dead-control check's vocabulary, which the policy is shown): the policy
        tries it and the check judges it."""
        if self.controls is None:
            return
        handled = self.controls.vocabulary
        text = "\n".join([seen_text, *(w.text for w in self.surface.known_widgets(key) if w.text)])
        learned = announced(handled, text)
        if learned is handled:
            return
        named = ", ".join(f"{b} click" for b in learned.buttons if b not in handled.buttons)
        self.notes.append(f"the screen names an input its code reading did not find ({named}): it is played and "
                          "judged as the app's own")
        self.controls.vocabulary = learned

    def _stopped_at(self) -> float | None:
        """When the app, known to move by itself, stopped moving (seconds into the run); None while it moves."""
        stopped = self.motion.stopped() if self.oracles.animating else None
        return None if stopped is None else stopped - self.started

    def act(self, step: Step, frame: np.ndarray) -> None:
        """Perform the step's action, wait for its effect, and let the oracles and the policy judge it."""
        assert self.screen is not None and self.policy is not None
        key, seen = self.screen.last_hash, frame
        state = key  # the frame the effect is judged against, and its hash
        stream = self.app.coverage_stream
        reached = stream.total_lines() if stream else 0
        left = self._button_left(step.action, key)
        acted_at = time.monotonic()
        try:
            frame, state = self._hover(frame, key, step.action)
            acted_at = time.monotonic()
            self.unseen = acted_at - self.started - step.started
            held = partial(self._watch, by_itself=step.action.kind == "wait")
            self._executor().perform(step.action, pause=held)
            self.pointer = _rests_at(step.action) or self.pointer
        except (ActionError, AppError) as exc:
            step.error = str(exc)
        try:
            after, change, on_widget = self._effect(frame, step.action, seen=(seen, key), left=left)
            judged = True
            if self.oracles.animating:
                if not self._scripted:  # (what changes in the rest of the beat may be the input's doing still)
                    after = self._watch(self.started + step.started + self.beat - time.monotonic(),
                                        by_itself=False)
                change, judged = self._motion_effect(acted_at, change)
        except AppError:
            if self._window_lost(step.index):
                return
            after = self.screen.screenshot()
            change, on_widget, judged = self.screen.effect(frame, after), False, False
        step.after_hash = self.screen.last_hash
        step.changed, step.changed_fraction, step.changed_box = bool(change), change.fraction, change.box
        if stream:  # the app reports new lines every ~20 ms: the step's own reach arrives within that
            step.new_lines = stream.wait_for_new(self.pacing.coverage_report, since=reached)
        step.duration = time.monotonic() - self.started - step.started
        if self.frames:
            step.screenshot = self.frames.write(step.index, after)
        self.oracles.after_step(step, on_widget, time.monotonic(), state=state,
                                buttons=self._buttons(key))
        if self.controls is not None:
            self.controls.observe(step, judged=judged, moving=self.oracles.animating)
        if self.oracles.frozen:
            self.stopped_by = "freeze"
        self.policy.record(step)
        self.previous = after
        self._take_sight(step, after)
        step.findings.extend(dict.fromkeys(f.kind for f in self.oracles.findings
                                           if f.step == step.index and f.kind not in step.findings))

    def _watch(self, seconds: float, *, by_itself: bool = True) -> np.ndarray:
        """Let the app run for ``seconds`` (a key held down, the rest of a real-time game's beat), looking at it
        all the while: the motion watch sees its ticks, the freeze oracle when it last moved. Not
        ``by_itself``: an input is under way (a key held down) or has just been given (the rest of its beat), and
        what changes is not the app moving on its own (a puzzle's tile slid by the key would make a still app
        look like a game; a form's list drawn late on a busy machine, counted so, kept a form page "moving like
        a game", and it was launched again as over for good). The newest frame."""
        assert self.screen is not None
        until = min(time.monotonic() + seconds, self.deadline)
        frame = self.screen.last
        while time.monotonic() < until:
            time.sleep(min(PLAY_POLL, max(until - time.monotonic(), 0.0)))
            try:
                latest = self.screen.screenshot()
            except AppError:
                break  # the next observation finds out why
            if self.screen.effect(frame, latest):
                self.oracles.observe_idle(True, time.monotonic(), by_itself=by_itself)
            frame = latest
        return frame

    def _watch_now(self, index: int) -> bool:
        """Whether to watch the app without input after step ``index``."""
        if self.oracles.animating:
            return self.chance_beats.random() < 1 / WATCH_EVERY_MOVING
        return index % WATCH_EVERY == 0

    def _watch_without_input(self) -> None:
        """Watch the app for a while without touching it. An app that moves by itself, slowly too (letters that
        fall a pixel every tenth of a second look still between two quick inputs), is seen to; and for one
        known to move, how often its own motion looks like an effect is what its inputs' effects are measured
        against (a game spawns things, turns its ghosts). The watch begins as an input's does: after the app went
        unwatched as long as the last input took to decide on. Its frames went unseen meanwhile, and the motion
        seen across that gap is predicted less well: without it, inputs would look more effective than
        none.)"""
        if self.oracles.animating:
            time.sleep(max(min(self.unseen, self.deadline - time.monotonic()), 0.0))
        started = time.monotonic()
        self._watch(self.beat if self.oracles.animating else GLANCE)
        self.motion.watched_alone(started)
        surprise = self.motion.surprise(started, learn=True) if self.oracles.animating else None
        if surprise is not None and surprise.telling and self.controls is not None:
            self.controls.observe_baseline(surprise.effect)

    @property
    def _scripted(self) -> bool:
        """Whether the policy's inputs are a script, performed as written (``Policy.scripted``)."""
        return self.policy is not None and self.policy.scripted

    def _motion_effect(self, acted_at: float, change: Change) -> tuple[Change, bool]:
        """An input's effect on an app that moves by itself: what its next ticks changed beyond the app's own
        motion (vision.motion), and whether that could be judged (it moved meanwhile, and its own motion
        would not have hidden an effect)."""
        surprise = self.motion.surprise(acted_at)
        if surprise is None:
            return change, False
        if not surprise.effect or surprise.box is None:
            return NO_CHANGE, surprise.telling
        box = surprise.box
        return Change(surprise.fraction, (box.x, box.y, box.w, box.h)), True

    def finish(self, *, bounded: bool = False, error: str | None = None) -> RunResult:
        """The verdict: findings of the oracles, the expectations and the policy; artifacts closed."""
        if self.frames:
            self.frames.close()
        if self.reader:
            self.reader.close()  # reads what it was last offered: every frame seen counts for the expectations
        findings = [*self.oracles.findings, *self.judged, *(self.controls.findings() if self.controls else []),
                    *(getattr(self.policy, "findings", []) if self.policy is not None else []),
                    *(self.sights.findings() if self.sights else [])]
        exit_code = self.app.poll()
        if error is None:
            final_text = self._final_text()
            findings.extend(self.oracles.expectations.findings(final_text, exit_code, len(self.steps)))
            if bounded and self.spec.strategy == "goal" and self._judges_goal() and not findings:
                findings.append(Finding("timeout", f"the goal was not reached within {self.spec.max_steps} steps "
                                                   f"/ {self.spec.timeout:g}s", step=len(self.steps)))
        self._time(findings)
        status: Status = "error" if error else ("fail" if findings else "pass")
        verdict = Verdict(status=status, findings=findings, steps=len(self.steps), tokens=self.tokens,
                          prompt_tokens=self.prompt_tokens, cached_tokens=self.cached_tokens,
                          policy=self.spec.policy, duration=time.monotonic() - self.started, exit_code=exit_code,
                          error=error, artifacts=self.frames.folder.parent if self.frames else None)
        policy_notes = self.policy.notes if self.policy is not None else []
        verdict.notes.extend([*self.notes, *self.oracles.notes, *policy_notes,
                              *(self.sights.notes() if self.sights else [])])
        if self.spec.record and self.artifacts is not None:
            self._record()
        return RunResult(verdict, self.steps, sights=self.sights.taken if self.sights else [])

    def _time(self, findings: list[Finding]) -> None:
        """When each finding was made: the end of its step (0 for what the untouched app showed)."""
        for finding in findings:
            if finding.seconds is None and finding.step is not None and finding.step <= len(self.steps):
                done = self.steps[finding.step - 1] if finding.step else None
                finding.seconds = round(done.started + done.duration, 2) if done is not None else 0.0

    def close(self) -> None:
        if self.frames:
            self.frames.close()
        if self.reader:
            self.reader.close()
        if self.screen:
            self.screen.close()
        if self.policy is not None:
            self.policy.close()

    # -- parts of the run ---------------------------------------------------------------------------------
    def _first_look(self) -> bool:
        """Wait for the first paint, watch the untouched app, and make the policy; False if it exited."""
        assert self.screen is not None
        first = self._painted(min(5.0, self.spec.timeout))
        if first is None:
            return False
        painted, frame = first
        if self.frames:
            self.frames.write(0, painted)
        self._take_sight(None, frame)
        context = PolicyContext(
            strategy=self.spec.strategy, goal=self.spec.goal, expectations=self.spec.expect, seed=self.spec.seed,
            max_steps=self.spec.max_steps, timeout=self.spec.timeout, window=(frame.shape[1], frame.shape[0]),
            options=self.spec.options, artifacts=self.artifacts, vocabulary=self._vocabulary(),
            coverage=self.app.coverage_stream is not None, beat=self.beat,
        )
        if context.vocabulary is not None:
            self.controls = DeadControls(context.vocabulary)
            self.oracles.know_inputs(context.vocabulary)
        self.policy = make_policy(self.spec.policy, context, self.policies)
        self.previous = frame
        return True

    def _painted(self, timeout: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The first painted frame and the frame after watching the untouched app; None if it exited.

        Some apps replace their first window while they set up (SDL may recreate it): then the new one is
        looked at once more.
        """
        assert self.screen is not None
        for attempt in range(2):
            try:
                painted = self.screen.wait_until_painted(timeout=timeout)
                return painted, _watch_animation(self.screen, painted, self.oracles, self.pacing.animation_probe)
            except AppError:
                if self._window_lost(0):
                    return None
                if attempt:
                    raise
        return None

    def _take_sight(self, step: Step | None, frame: np.ndarray) -> None:
        """In a differential run, what the screen shows after ``step`` (None: before the first input)."""
        if self.sights is not None:
            self.sights.take(step, frame, alive=self.app.alive, moving=self.oracles.animating, page=self._page(),
                             again=self._look_again)

    def _look_again(self) -> np.ndarray | None:
        """The window once it has stood still for a moment (at most ``LOOK_AGAIN`` seconds); None without one."""
        if self.screen is None:
            return None
        try:
            self.screen.screenshot()
            _until_still(self.screen, LOOK_AGAIN_STILL, limit=LOOK_AGAIN)
        except AppError:
            return None
        return self.screen.last

    def _wind_down(self) -> None:
        """After the last step: watch a still animating app for a freeze, read the last frame."""
        assert self.screen is not None and self.previous is not None
        done = len(self.steps)
        if self.oracles.animating and self.stopped_by is None and not self.oracles.check_exit(done):
            _watch_stillness(self.screen, self.previous, self.oracles, done)
        if self.reader:
            self.reader.offer(self.previous, frame_hash(self.previous), done)
        self.oracles.check_output(done)
        self.oracles.check_exit(done)

    def _finish_step(self, step: Step) -> None:
        """The policy ended the run with its own verdict."""
        step.after_hash = step.before_hash
        if step.action.verdict == "fail":
            reason = step.action.reason or "the tester judged the behaviour wrong"
            self.judged.append(Finding("judge", reason, step=step.index))
        self.stopped_by = "finish"

    def _effect(self, frame: np.ndarray, action: Action, *, seen: tuple[np.ndarray, str],
                left: Widget | None) -> tuple[np.ndarray, Change, bool]:
        """The frame after an action, how it differs from ``frame``, and whether a click on a widget showed
        nothing. Widgets are found on the frame ``seen`` before the pointer moved (with its hash): a hover
        highlight can hide a button's outline.

        A change inside the button the pointer ``left`` alone is that button losing its highlight late (a
        toolkit may draw it in a second pass, a loaded machine later still), not the action's effect: the
        effect is looked for from that frame on.
        """
        assert self.screen is not None
        credit = self.spec.strategy == "coverage"
        after = _settle(self.screen, frame, action, self.pacing, self.deadline, self.oracles.animating,
                        credit=credit)
        change = self.screen.effect(frame, after)
        if left is not None and change.box is not None and left.encloses(Box(*change.box)):
            frame = after
            after = _settle(self.screen, frame, action, self.pacing, self.deadline, False, credit=credit)
            change = self.screen.effect(frame, after)
        # an unchanged frame of an animating app means nothing: no widget is judged there
        on_widget = not change and not self.oracles.animating and self._on_button(action, *seen)
        if on_widget:
            change = self.screen.wait_for_change(frame, timeout=self.pacing.confirm, compare=self.screen.effect)
            after = self.screen.last
            on_widget = not change
        return after, change, on_widget

    def _buttons(self, key: str) -> list[Widget]:
        """The buttons of the frame of this hash, when its widgets are known already (finding them only for
        this would cost an OCR pass per step)."""
        return [w for w in self.surface.known_widgets(key) if w.kind == "button"]

    def _widgets(self, frame: np.ndarray, key: str) -> list[Widget]:
        return self.surface.widgets(frame, key)

    def _on_button(self, action: Action, frame: np.ndarray, key: str) -> bool:
        """Whether the action is a click that landed on a button (``Surface.on_button``)."""
        if action.target is None or action.kind not in ("click", "double_click"):
            return False
        return self.surface.on_button(action.target, frame, key)

    def _button_left(self, action: Action, key: str) -> Widget | None:
        """The button the pointer rests on and is about to leave for the action's target, if any (known
        only when the app does not animate: an animating app is not hovered before input)."""
        target = action.target
        if self.pointer is None or target is None or self.oracles.animating:
            return None
        button = self._button_at(key, self.pointer)
        return button if button is not None and not button.box.contains(*target) else None

    def _button_at(self, key: str, point: tuple[int, int]) -> Widget | None:
        return next((w for w in self._buttons(key) if w.box.contains(*point)), None)

    def _hover(self, frame: np.ndarray, key: str, action: Action) -> tuple[np.ndarray, str]:
        """The frame (and its hash) to compare the action's effect against, with the pointer already on the
        target.

        Toolkits highlight what the pointer rests on; without this, a dead button "reacts" to its click.
        Once the app has been seen to light a button so, the wait for the highlight of the next button is
        as long as for any effect (a loaded machine draws it late); a hover may be drawn in more than one
        pass, so once something changed the window must stay still for ``hover`` seconds.
        (An animating app changes anyway, so there is nothing to gain there.)
        """
        assert self.screen is not None
        if self.oracles.animating or action.kind not in POINTER_KINDS or action.target is None:
            return frame, key
        self._executor().hover(*action.target)
        button = self._button_at(key, action.target)
        wait = self.pacing.settle if button is not None and self.lights_buttons else self.pacing.hover
        change = self.screen.wait_for_change(frame, timeout=wait, interval=0.003, compare=self.screen.effect)
        if not change:
            return frame, key
        if button is not None and change.box is not None and button.box.intersection(Box(*change.box)).area:
            self.lights_buttons = True
        _until_still(self.screen, self.pacing.hover, limit=self.pacing.settle)
        return self.screen.last, self.screen.last_hash

    def _executor(self) -> Executor:
        assert self.executor is not None
        return self.executor

    def _window_lost(self, step: int) -> bool:
        """The window vanished: True when the app exited (judged by the exit oracle).

        An app that is still running may have replaced its window (pygame's set_mode does): the new one
        is looked up, and only if there is none does the error stand.
        """
        self.app.wait(2.0)
        if self._has_exited(step):
            return True
        if self.app.wait_for_window(timeout=WINDOW_REPLACED):
            return False
        self.app.wait(2.0)  # it may have been exiting all along: a quit key closes the window first
        if self._has_exited(step):
            return True
        raise AppError("the app is running but its window is gone")

    def _has_exited(self, step: int) -> bool:
        """Whether the app exited (judged by the exit oracle; the app is relaunched when that is due)."""
        self.oracles.check_output(step)
        if not self.oracles.check_exit(step):
            return False
        self._exited()
        return True

    # -- launches -------------------------------------------------------------------------------------------
    def _shown(self) -> bool:
        """Wait for the current launch's window; False when it exited without one."""
        startup = min(STARTUP_TIMEOUT, max(self.deadline - time.monotonic(), 0.1))
        if not self.app.wait_for_window(timeout=startup):
            self.oracles.check_output(len(self.steps))
            if not self.oracles.check_exit(len(self.steps)):
                raise AppError(f"the app showed no window within {startup:g}s")
            return False
        if self.screen is not None:
            self.screen.close()
        self.screen = Screen(self.app.display, self.app)
        self.motion = MotionWatch(own=self.motion.own)  # a new launch does what the last did by itself
        self.screen.watcher = self.motion.add
        self.executor = Executor(self.app.display, self.app)
        return True

    def _exited(self) -> bool:
        """The app exited: the run stops (True), unless it was a normal exit with budget left, after which
        the app is launched again and the run goes on (False)."""
        if not self._may_relaunch():
            self.stopped_by = "exit"
            return True
        return self._relaunch(f"the app exited normally (code 0) after step {len(self.steps)}")

    def _relaunch(self, why: str) -> bool:
        """Launch the app again (the current launch is ended) and go on; True when the run must stop because
        the new launch showed no window in the time left."""
        self.notes.append(f"{why}; launched it again (launch {len(self.launcher.apps) + 1})")
        self.app = self.launcher.start()
        self.oracles.follow(self.app)
        self.retries.cancel()
        try:
            shown = self._shown() and self._painted(min(5.0, self.deadline - time.monotonic())) is not None
        except AppError as exc:  # too slow for the time left: the run ends here, the app did nothing wrong
            self.notes.append(f"the relaunched app showed no window before the run's time ran out ({exc})")
            shown = False
        if not shown:
            self.stopped_by = "exit"
            return True
        self.previous = self.screen.last if self.screen else None
        return False

    def _may_relaunch(self) -> bool:
        """A normal exit (code 0) with budget left, in a run that does not expect the app to exit."""
        expects_exit = any(e.kind == "exits" for e in self.spec.expect)
        return self.app.poll() == 0 and not expects_exit and self._budget_left()

    def _budget_left(self) -> bool:
        """Whether steps, time and launches are left for another launch of the app."""
        return (len(self.steps) < self.spec.max_steps and self.deadline - time.monotonic() > RELAUNCH_TIME_LEFT
                and len(self.launcher.apps) < MAX_LAUNCHES)

    def _vocabulary(self) -> Vocabulary | None:
        """The inputs the app's source handles (a Python or a web app's; None for others), kept in the artifacts."""
        vocabulary = self.surface.vocabulary()
        if vocabulary is None or (vocabulary.is_empty and not vocabulary.sources):
            return None
        if self.artifacts is not None:
            (self.artifacts / VOCABULARY_FILE).write_text(json.dumps(vocabulary.to_dict(), indent=2) + "\n")
        return vocabulary

    def _reader(self) -> TextReader | DomReader | None:
        """What reads the app's text for the expectations: the DOM of a web page, else OCR when needed."""
        return self.surface.reader(self.oracles.expectations)

    def _page(self) -> WebPage | None:
        return self.surface.page()

    def _final_text(self) -> str:
        return self.surface.final_text(self.app, self.oracles.expectations)

    def _judges_goal(self) -> bool:
        return self.policy is not None and self.policy.judges_goal

    def _record(self) -> None:
        assert self.artifacts is not None
        steps = self.steps
        header = {"app": self.spec.app, "policy": self.spec.policy, "strategy": self.spec.strategy,
                  "goal": self.spec.goal, "seed": self.spec.seed, "window": list(steps[0].window) if steps else None}
        Trajectory(header, steps).write(self.artifacts)


def _watch_animation(screen: Screen, frame: np.ndarray, oracles: Oracles, seconds: float) -> np.ndarray:
    """Watch the untouched app for a moment: an app that redraws by itself is animating."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.02)
        latest = screen.screenshot()
        oracles.observe_idle(bool(screen.effect(frame, latest)), time.monotonic())
        frame = latest
    return frame


def _watch_stillness(screen: Screen, frame: np.ndarray, oracles: Oracles, step: int) -> None:
    """The bounds ran out while an animating app stands still: watch it without input until it moves
    again or ``freeze_after`` has passed since its last change, so a fast run cannot end before a freeze
    can be told from a pause."""
    while oracles.still_for(time.monotonic()) < oracles.settings.freeze_after:
        time.sleep(0.02)
        try:
            latest = screen.screenshot()
        except AppError:
            return
        if difference(frame, latest):  # a blinking cursor counts here: the event loop runs
            oracles.observe_idle(True, time.monotonic())
            return
    oracles.check_freeze(step, time.monotonic())


def _settle(screen: Screen, before: np.ndarray, action: Action, pacing: Pacing,
            deadline: float, animating: bool, *, credit: bool) -> np.ndarray:
    """The frame after an action: the first changed frame, or the same one after ``settle`` seconds.

    An animating app changes on its own, so waiting for a change tells nothing there. With ``credit``
    (exploration, where each effect must belong to the input that caused it) the loop waits for the app's
    next drawn frame after the one in flight (two changes, at most ``next_frame`` seconds); otherwise it
    takes the frame as it is and goes on at its own pace, not at the app's frame rate.
    """
    if action.kind == "wait":
        return screen.screenshot()
    if animating:
        if credit:
            frame = screen.screenshot()
            for _ in range(2):
                if not screen.wait_for_change(frame, timeout=pacing.next_frame, interval=0.003):
                    break
                frame = screen.last
        return screen.screenshot()
    timeout = min(pacing.settle, max(deadline - time.monotonic(), 0.0))
    if screen.wait_for_change(before, timeout=timeout, interval=0.003, compare=screen.effect):
        _until_still(screen, pacing.repaint, limit=timeout)
    return screen.last


def _rests_at(action: Action) -> tuple[int, int] | None:
    """Where the pointer stays after the action (None: the action does not move it)."""
    if action.kind == "drag" and action.x2 is not None and action.y2 is not None:
        return action.x2, action.y2
    return action.target


def _until_still(screen: Screen, still: float, *, limit: float) -> None:
    """Poll until the window has stayed the same for ``still`` seconds (at most ``limit`` seconds)."""
    latest, since = screen.last, time.monotonic()
    deadline = since + limit
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.003)
        if screen.effect(latest, screen.screenshot()):
            latest, since = screen.last, time.monotonic()
