"""The playtest loop: observe → decide → act → check, until the goal, a bug, or a bound.

The loop's parts each do one job: ``Launches`` sets the ``Stage`` for each launch of the app (and launches it
again after a normal exit or a game over for good), ``Probe`` performs an input as a careful person does and
judges its effect on a still app, ``Watches`` lets a real-time game run and watches it without input (the
chance level of effects), the oracles judge, the policy decides. OCR never runs on the loop's hot path unless a
policy asks for it: a background reader OCRs the most recent new frame for the expectations, and the last frame
is read once at the end.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import ActionError, AppError, DisplayError, PolicyError
from ..files import FRAMES_DIR, VOCABULARY_FILE, ScreenshotMode
from ..geometry import Box
from ..policies import make_policy
from ..policies.base import Observation, Policy, PolicyContext, PolicyFactory
from ..runtime.app import App
from ..runtime.display import Display
from ..runtime.screen import Change, Screen, frame_hash
from ..source import Vocabulary
from ..source.announced import announced
from ..source.randomness import UNSEEDED_LISTED, unseeded
from ..trajectory import Step, Trajectory
from ..verdict import Finding, Status, Verdict
from ..vision import Vision, Widget
from .controls import DeadControls
from .dialogs import Dialogs
from .differential import Sights
from .launcher import Launcher
from .launches import Launches
from .locating import Locator
from .oracles import Oracles
from .probing import Probe
from .retries import Retries
from .spec import RunResult, RunSpec
from .stage import Stage
from .thresholds import FIRST_PAINT, LOOK_AGAIN, LOOK_AGAIN_STILL
from .watching import Watches, until_still, watch_stillness
from .web import DomReader, WebPage
from .workers import FrameWriter, TextReader


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

    The state of the run lives here (steps, tokens, why it stopped); the stage holds the current launch, the
    oracles judge what happened, the policy decides what to do, the probe and the watches act and look.
    """

    def __init__(self, spec: RunSpec, launcher: Launcher, vision: Vision, *, policies: PolicyFactory | None,
                 artifacts: Path | None, screenshots: ScreenshotMode, started: float) -> None:
        self.spec, self.launcher, self.vision, self.policies = spec, launcher, vision, policies
        self.artifacts = artifacts
        self.started, self.deadline = started, started + spec.timeout
        self.pacing = spec.pacing
        self.beat = spec.pacing.beat_for(spec.timeout, spec.max_steps)
        self.stage = Stage(launcher.start())
        self.surface = launcher.surface
        self.oracles = Oracles(self.stage.app, spec.expect, spec.oracles, watch=self.surface.watch,
                               root=launcher.root, stacks=launcher.stacks_of)
        self.retries = Retries(self.oracles)
        self.frames = FrameWriter(artifacts / FRAMES_DIR) if artifacts and screenshots != "off" else None
        self.steps: list[Step] = []
        self.tokens = self.prompt_tokens = self.cached_tokens = 0
        self.stopped_by: StopReason | None = None
        self.judged: list[Finding] = []  # the policy's own "fail" verdicts
        self.policy: Policy | None = None
        self.reader: TextReader | DomReader | None = None
        self.notes: list[str] = []
        self.controls: DeadControls | None = None
        self.launches = Launches(launcher, self.stage, self.oracles, self.retries, spec=spec, deadline=self.deadline,
                                 steps=self.steps, notes=self.notes, ended=self._ended, page=self._page)
        self.probe = Probe(self.stage, self.surface, self.oracles, self.pacing, credit=spec.strategy == "coverage",
                           deadline=self.deadline)
        self.watches = Watches(self.stage, self.oracles, deadline=self.deadline, beat=self.beat, seed=spec.seed,
                               page=self._page)
        self.sights = Sights(vision, spec.differential.reference, root=launcher.root) if spec.differential else None
        self.locator = Locator(launcher.root)
        self.dialogs = Dialogs() if self.surface.own_dialogs else None

    @property
    def app(self) -> App:
        """The current launch (the stage's)."""
        return self.stage.app

    # -- the run ----------------------------------------------------------------------------------------
    def run(self) -> RunResult:
        """Play until the goal, a bug or a bound; never raises for the app's faults."""
        if not self.launches.shown():
            self.oracles.check_no_window()
            self.stopped_by = "exit"
            return self.finish()
        self.reader = self.surface.reader(self.oracles.expectations)
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
        if self.stopped_by is None and not self._scripted and self.watches.due(step.index):
            self.watches.without_input()
        return self.stopped_by is None

    def _ended(self) -> None:
        """The app exited for good (or its new launch showed no window in the time left): the run stops."""
        self.stopped_by = "exit"

    def observe(self, now: float) -> np.ndarray | None:
        """The window now, offered to the background reader; None when there is no window to look at."""
        screen, previous = self.stage.look(), self.stage.previous
        assert previous is not None
        try:
            frame = screen.screenshot()
        except AppError:
            self.launches.window_lost(len(self.steps))
            return None
        self.oracles.observe_idle(self.probe.changed_by_itself(previous, frame), now)
        if self.reader:
            self.reader.offer(frame, screen.last_hash, len(self.steps))
        return frame

    def check(self, now: float) -> bool:
        """The oracles that need no input: output, exit, freeze, and whether the expectations end the run (a
        forbidden text seen; every expectation met only when the spec asks to stop then)."""
        oracles, done = self.oracles, len(self.steps)
        if self.dialogs is not None:
            self.dialogs.answer(self.app, done)
        oracles.check_output(done)
        if oracles.check_exit(done):
            return self.launches.exited()
        if oracles.check_freeze(done, now):
            self.stopped_by = "freeze"
        elif oracles.stalled(now) and self.launches.budget_left():
            return self.launches.relaunch(
                f"the app stood still for {oracles.still_for(now):.1f}s and the last {oracles.inputs_without_effect} "
                f"inputs changed nothing after step {done} (its game was over for good)")
        elif self.spec.stop_when_met and self.reader and oracles.expectations.goal_met(self.reader.text):
            self.stopped_by = "goal"
        elif oracles.expectations.violated:  # a forbidden text was seen: the bug is found
            self.stopped_by = "expectation"
        return self.stopped_by is not None

    def decide(self, frame: np.ndarray, now: float) -> Step:
        """Ask the policy (or retry a suspect target in a new state) and record the step it chose."""
        assert self.policy is not None
        key = self.stage.look().last_hash
        # (the step first: the reader may read anew meanwhile, and text newer than its step is only old news)
        text_read_at = self.reader.read_at if self.reader else 0
        seen_text = self.reader.text if self.reader else ""
        if self.controls is not None:
            learn_announced(self.controls, "\n".join([seen_text, *(w.text for w in self.surface.known_widgets(key)
                                                                       if w.text)]), self.notes)
        observation = Observation(step=len(self.steps) + 1, frame=frame, frame_hash=key,
                                  elapsed=now - self.started, history=self.steps, vision=self.vision,
                                  seen_text=seen_text, text_read_at=text_read_at,
                                  launch=len(self.launcher.apps), page=self._page(),
                                  movers=self.stage.motion.movers() if self.oracles.animating else (),
                                  stopped_at=self._stopped_at(), moving=self.oracles.animating,
                                  vocabulary=self.controls.vocabulary if self.controls else None)
        retry = None if self._scripted else self.retries.next(key, lambda: self.surface.widgets(frame, key))
        decision = self.policy.decide(observation) if retry is None else retry
        self.tokens += decision.tokens
        self.prompt_tokens += decision.prompt_tokens
        self.cached_tokens += decision.cached_tokens
        step = Step(index=len(self.steps) + 1, action=decision.action, before_hash=key, tokens=decision.tokens,
                    prompt_tokens=decision.prompt_tokens, cached_tokens=decision.cached_tokens,
                    started=now - self.started, note=decision.note, window=observation.size, text=seen_text,
                    launch=observation.launch, caption=decision.caption, aimed=decision.aimed,
                    heading=decision.heading)
        self.steps.append(step)
        return step

    def _stopped_at(self) -> float | None:
        """When the app, known to move by itself, stopped moving (seconds into the run); None while it moves."""
        stopped = self.stage.motion.stopped() if self.oracles.animating else None
        return None if stopped is None else stopped - self.started

    def act(self, step: Step, frame: np.ndarray) -> None:
        """Perform the step's action, wait for its effect, and let the oracles and the policy judge it."""
        screen = self.stage.look()
        key = screen.last_hash
        stream = self.app.coverage_stream
        reached = stream.total_lines() if stream else 0
        before = stream.lines() if stream and self.sights is not None else None  # (what ran, for a divergence)
        left = self.probe.button_left(step.action, key)
        acted_at, hovered, state = self._perform(step, frame, key)
        outcome = self._outcome(step, hovered, seen=(frame, key), left=left, acted_at=acted_at)
        if outcome is None:
            return
        after, change, on_widget, judged = outcome
        step.after_hash = screen.last_hash
        step.changed, step.changed_fraction, step.changed_box = bool(change), change.fraction, change.box
        if stream:  # the app reports new lines every ~20 ms: the step's own reach arrives within that
            step.new_lines = stream.wait_for_new(self.pacing.coverage_report, since=reached)
            if before is not None:
                step.reached = stream.reached_since(before)
        step.duration = time.monotonic() - self.started - step.started
        if self.frames:
            step.screenshot = self.frames.write(step.index, after)
        self.oracles.after_step(step, on_widget, time.monotonic(), state=state, buttons=self.probe.buttons(key))
        set_going = self.watches.set_going(acted_at) if self.controls is not None else None
        self._learn(step, after, judged=judged, set_going=set_going)

    def _perform(self, step: Step, frame: np.ndarray, key: str) -> tuple[float, np.ndarray, str]:
        """Rest the pointer on the target, then give the input (a held key lets the app run meanwhile): when it
        was given, and the frame (and its hash) its effect is judged against."""
        acted_at, state = time.monotonic(), key
        try:
            frame, state = self.probe.hover(frame, key, step.action)
            acted_at = time.monotonic()
            self.watches.unseen = acted_at - self.started - step.started
            held = partial(self.watches.hold, by_itself=step.action.kind == "wait")
            self.stage.hands().perform(step.action, pause=held)
            self.probe.moved(step.action)
        except (ActionError, AppError) as exc:
            step.error = str(exc)
        return acted_at, frame, state

    def _outcome(self, step: Step, frame: np.ndarray, *, seen: tuple[np.ndarray, str], left: Widget | None,
                 acted_at: float) -> tuple[np.ndarray, Change, bool, bool] | None:
        """The frame after the input, its effect, whether a click on a widget showed nothing, and whether the
        effect could be judged (on an app that moves by itself: what the rest of its beat changed beyond its own
        motion); None when the window is gone because the app exited."""
        screen = self.stage.look()
        try:
            after, change, on_widget = self.probe.effect(frame, step.action, seen=seen, left=left)
            judged = True
            if self.oracles.animating:
                if not self._scripted:  # (what changes in the rest of the beat may be the input's doing still)
                    after = self.watches.hold(self.started + step.started + self.beat - time.monotonic(),
                                              by_itself=False)
                change, judged = self.watches.effect(acted_at, change)
        except AppError:
            if self.launches.window_lost(step.index):
                return None
            after = screen.screenshot()
            change, on_widget, judged = screen.effect(frame, after), False, False
        return after, change, on_widget, judged

    def _learn(self, step: Step, after: np.ndarray, *, judged: bool,
               set_going: dict[tuple[int, int], list[Box]] | None) -> None:
        """What the step did goes to the dead-control check, the policy and a differential run's sights."""
        assert self.policy is not None
        if self.controls is not None:
            target = step.action.target
            handled = step.action.kind != "click" or target is None or self.surface.handles_click(target,
                                                                                                 step.before_hash)
            self.controls.observe(step, judged=judged, moving=self.oracles.animating, handled=handled,
                                  set_going=set_going)
        if self.oracles.frozen:
            self.stopped_by = "freeze"
        self.policy.record(step)
        self.stage.previous = after
        self._take_sight(step, after)
        step.findings.extend(dict.fromkeys(f.kind for f in self.oracles.findings
                                           if f.step == step.index and f.kind not in step.findings))

    def _take_sight(self, step: Step | None, frame: np.ndarray) -> None:
        """In a differential run, what the screen shows after ``step`` (None: before the first input)."""
        if self.sights is not None:
            self.sights.take(step, frame, alive=self.app.alive, moving=self.oracles.animating, page=self._page(),
                             again=partial(look_again, self.stage.screen))

    def _wind_down(self) -> None:
        """After the last step: watch a still animating app for a freeze, read the last frame."""
        screen, previous = self.stage.look(), self.stage.previous
        assert previous is not None
        done = len(self.steps)
        if self.oracles.animating and self.stopped_by is None and not self.oracles.check_exit(done):
            watch_stillness(screen, previous, self.oracles, done)
        if self.reader:
            self.reader.offer(previous, frame_hash(previous), done)
        self.oracles.check_output(done)
        self.oracles.check_exit(done)

    def _finish_step(self, step: Step) -> None:
        """The policy ended the run with its own verdict."""
        step.after_hash = step.before_hash
        if step.action.verdict == "fail":
            reason = step.action.reason or "the tester judged the behaviour wrong"
            self.judged.append(Finding("judge", reason, step=step.index))
        self.stopped_by = "finish"

    @property
    def _scripted(self) -> bool:
        """Whether the policy's inputs are a script, performed as written (``Policy.scripted``)."""
        return self.policy is not None and self.policy.scripted

    def finish(self, *, bounded: bool = False, error: str | None = None) -> RunResult:
        """The verdict: findings of the oracles, the expectations and the policy; artifacts closed."""
        if self.frames:
            self.frames.close()
        if self.reader:
            self.reader.close()  # reads what it was last offered: every frame seen counts for the expectations
        if self.app.coverage_stream is not None:
            self.locator.reached = self.app.coverage_stream.lines()
        for finding in self.oracles.findings:
            if finding.kind == "unresponsive" and finding.location is None:  # a widget that did nothing
                finding.location = self.locator.commanded()
        dead = self.controls.findings(locate=self.locator.handled) if self.controls else []
        findings = [*self.oracles.findings, *self.judged, *dead,
                    *(getattr(self.policy, "findings", []) if self.policy is not None else []),
                    *(self.sights.findings() if self.sights else [])]
        exit_code = self.app.poll()
        if error is None:
            final_text = self.surface.final_text(self.app, self.oracles.expectations)
            findings.extend(self.oracles.expectations.findings(final_text, exit_code, len(self.steps),
                                                               locate=self.locator.produced))
            if bounded and self.spec.strategy == "goal" and self._judges_goal() and not findings:
                findings.append(Finding("timeout", f"the goal was not reached within {self.spec.max_steps} steps "
                                                   f"/ {self.spec.timeout:g}s", step=len(self.steps)))
        time_findings(findings, self.steps)
        status: Status = "error" if error else ("fail" if findings else "pass")
        verdict = Verdict(status=status, findings=findings, steps=len(self.steps), tokens=self.tokens,
                          prompt_tokens=self.prompt_tokens, cached_tokens=self.cached_tokens,
                          policy=self.spec.policy, duration=time.monotonic() - self.started, exit_code=exit_code,
                          error=error, artifacts=self.frames.folder.parent if self.frames else None)
        policy_notes = self.policy.notes if self.policy is not None else []
        dialogs = self.dialogs.notes() if self.dialogs is not None else []
        verdict.notes.extend([*self.notes, *dialogs, *self.oracles.notes, *policy_notes,
                              *(self.sights.notes() if self.sights else [])])
        if self.spec.record and self.artifacts is not None:
            record_trajectory(self.spec, self.steps, self.artifacts)
        return RunResult(verdict, self.steps, sights=self.sights.taken if self.sights else [])

    def close(self) -> None:
        if self.frames:
            self.frames.close()
        if self.reader:
            self.reader.close()
        self.stage.close()
        if self.policy is not None:
            self.policy.close()

    # -- parts of the run ---------------------------------------------------------------------------------
    def _first_look(self) -> bool:
        """Wait for the first paint, watch the untouched app, and make the policy; False if it exited."""
        first = self.launches.painted(min(FIRST_PAINT, self.spec.timeout))
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
            self._note_unseeded(context.vocabulary)
            self.locator = Locator(self.launcher.root, context.vocabulary)
            self.controls = DeadControls(context.vocabulary, self.spec.oracles)
            self.watches.controls = self.controls
            self.oracles.know_inputs(context.vocabulary)
        self.policy = make_policy(self.spec.policy, context, self.policies)
        self.stage.previous = frame
        return True

    def _vocabulary(self) -> Vocabulary | None:
        """The inputs the app's source handles (a Python or a web app's; None for others), kept in the artifacts."""
        vocabulary = self.surface.vocabulary()
        if vocabulary is None or (vocabulary.is_empty and not vocabulary.sources):
            return None
        if self.artifacts is not None:
            (self.artifacts / VOCABULARY_FILE).write_text(json.dumps(vocabulary.to_dict(), indent=2) + "\n")
        return vocabulary

    def _note_unseeded(self, vocabulary: Vocabulary) -> None:
        """A run to be compared with another (a golden run recorded or checked, a reference replayed) notes the
        randomness of the app that no seed reaches: its replays may differ by chance there."""
        if self.launcher.root is None or not (self.spec.record or self.spec.differential):
            return
        found = unseeded(self.launcher.root, vocabulary.sources)
        if found:
            self.notes.append("randomness the run cannot seed (replays may differ by chance): " + ", ".join(
                f"{what} at {file}:{line}" for file, line, what in found[:UNSEEDED_LISTED]))

    def _page(self) -> WebPage | None:
        return self.surface.page()

    def _judges_goal(self) -> bool:
        return self.policy is not None and self.policy.judges_goal


def learn_announced(controls: DeadControls, text: str, notes: list[str]) -> None:
    """An input the screen's ``text`` names that the code reading did not find (a help line's "Right click:
    flag") joins what the app handles (the dead-control check's vocabulary, which the policy is shown): the
    policy tries it and the check judges it."""
    handled = controls.vocabulary
    learned = announced(handled, text)
    if learned is handled:
        return
    named = ", ".join(f"{b} click" for b in learned.buttons if b not in handled.buttons)
    notes.append(f"the screen names an input its code reading did not find ({named}): it is played and judged as "
                 "the app's own")
    controls.vocabulary = learned


def look_again(screen: Screen | None) -> np.ndarray | None:
    """The window once it has stood still for a moment (at most ``LOOK_AGAIN`` seconds); None without one."""
    if screen is None:
        return None
    try:
        screen.screenshot()
        until_still(screen, LOOK_AGAIN_STILL, limit=LOOK_AGAIN)
    except AppError:
        return None
    return screen.last


def time_findings(findings: list[Finding], steps: list[Step]) -> None:
    """When each finding was made: the end of its step (0 for what the untouched app showed)."""
    for finding in findings:
        if finding.seconds is None and finding.step is not None and finding.step <= len(steps):
            done = steps[finding.step - 1] if finding.step else None
            finding.seconds = round(done.started + done.duration, 2) if done is not None else 0.0


def record_trajectory(spec: RunSpec, steps: list[Step], artifacts: Path) -> None:
    """The run's steps as trajectory.jsonl (``--playtest-record``)."""
    header = {"app": spec.app, "policy": spec.policy, "strategy": spec.strategy, "goal": spec.goal,
              "seed": spec.seed, "window": list(steps[0].window) if steps else None}
    Trajectory(header, steps).write(artifacts)
