"""The playtest loop: observe → decide → act → check, until the goal, a bug, or a bound.

OCR never runs on the loop's hot path unless a policy asks for it: a background reader OCRs the most
recent new frame for the expectations, and the last frame is read once at the end.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import expect as expect_module
from .actions import POINTER_KINDS, ActionError, Executor
from .app import App, AppError
from .display import DisplayError, parse_size
from .oracles import Oracles, OracleSettings
from .policies import make_policy
from .policies.base import Observation, PolicyContext, PolicyError
from .screen import Screen, difference, frame_hash
from .trajectory import Step, Trajectory
from .verdict import Finding, Verdict

if TYPE_CHECKING:
    from .display import Display
    from .vision import Vision

STRATEGIES = ("goal", "coverage")
STARTUP_TIMEOUT = 20.0


class SpecError(ValueError):
    """A marker or run() argument that is wrong; the message names the test and the argument."""


@dataclass
class RunSpec:
    """Everything a run needs, from the marker, run() arguments and the session defaults."""

    app: str | list[str] | None = None
    strategy: str = "coverage"
    goal: str = ""
    expect: list[expect_module.Expectation] = field(default_factory=list)
    max_steps: int = 50
    timeout: float = 60.0
    policy: str = "heuristic"
    size: tuple[int, int] | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    seed: int = 0
    record: bool = False
    oracles: OracleSettings = field(default_factory=OracleSettings)
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_kwargs(cls, kwargs: Mapping[str, Any], *, defaults: Any, where: str) -> RunSpec:
        """Validate marker/run() arguments; ``defaults`` supplies policy, max_steps and timeout."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise SpecError(f"{where}: unknown playtest argument(s) {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(known))}")

        def bad(name: str, why: str) -> SpecError:
            return SpecError(f"{where}: playtest argument {name}={kwargs.get(name)!r}: {why}")

        spec = cls(policy=defaults.policy, max_steps=defaults.max_steps, timeout=defaults.timeout,
                   options=dict(defaults.options), record=bool(getattr(defaults, "record", False)))
        if kwargs.get("app") is None:
            raise bad("app", "an app to test is required (a .py path or an argv list)")
        app = kwargs["app"]
        if isinstance(app, Path):
            app = str(app)
        if not (isinstance(app, str) and app.strip()) and not (
            isinstance(app, Sequence) and not isinstance(app, str) and app and all(isinstance(a, str | Path)
                                                                                   for a in app)
        ):
            raise bad("app", "must be a .py path or a non-empty list of strings")
        spec.app = app if isinstance(app, str) else [str(a) for a in app]
        spec.goal = str(kwargs.get("goal", "") or "")
        strategy = kwargs.get("strategy", "goal" if spec.goal else "coverage")
        if strategy not in STRATEGIES:
            raise bad("strategy", f"must be one of {', '.join(STRATEGIES)}")
        spec.strategy = strategy
        try:
            spec.expect = expect_module.parse_list(kwargs.get("expect"))
        except expect_module.ExpectationError as exc:
            raise bad("expect", str(exc)) from None
        for name, kind in (("max_steps", int), ("timeout", float), ("seed", int)):
            if name in kwargs:
                value = kwargs[name]
                if isinstance(value, bool) or not isinstance(value, int | float) or (
                        kind is int and int(value) != value):
                    raise bad(name, f"must be a{'n integer' if kind is int else ' number'}")
                if name != "seed" and value <= 0:
                    raise bad(name, "must be positive")
                setattr(spec, name, kind(value))
        if "policy" in kwargs:
            if not isinstance(kwargs["policy"], str):
                raise bad("policy", "must be a policy name")
            spec.policy = kwargs["policy"]
        if kwargs.get("size") is not None:
            try:
                spec.size = parse_size(kwargs["size"])
            except ValueError as exc:
                raise bad("size", str(exc)) from None
        env = kwargs.get("env") or {}
        if not isinstance(env, Mapping) or not all(isinstance(k, str) for k in env):
            raise bad("env", "must be a mapping of variable names to values")
        spec.env = {k: str(v) for k, v in env.items()}
        if "record" in kwargs:
            spec.record = bool(kwargs["record"])
        if kwargs.get("cwd") is not None:
            spec.cwd = str(kwargs["cwd"])
        oracle_args = kwargs.get("oracles") or {}
        if isinstance(oracle_args, OracleSettings):
            spec.oracles = oracle_args
        elif isinstance(oracle_args, Mapping):
            try:
                spec.oracles = OracleSettings(**oracle_args)
            except TypeError as exc:
                raise bad("oracles", str(exc)) from None
        else:
            raise bad("oracles", "must be a mapping of threshold names to values")
        if isinstance(kwargs.get("options"), Mapping):
            spec.options.update(kwargs["options"])
        return spec


@dataclass
class RunResult:
    """A finished run: the verdict and what the reports are made of."""

    verdict: Verdict
    steps: list[Step]
    stdout: str = ""
    stderr: str = ""
    frames: Path | None = None


class TextReader:
    """OCRs the newest frame in the background and feeds the expectations; drops frames it can't keep up with."""

    def __init__(self, vision: Vision, on_text: Any) -> None:
        self._vision = vision
        self._on_text = on_text
        self._latest: tuple[np.ndarray, str, int] | None = None
        self._wake = threading.Condition()
        self._stop = False
        self.text = ""
        self._thread = threading.Thread(target=self._loop, daemon=True, name="playtest-ocr")
        self._thread.start()

    def offer(self, frame: np.ndarray, key: str, step: int) -> None:
        with self._wake:
            self._latest = (frame, key, step)
            self._wake.notify()

    def _loop(self) -> None:
        from .vision import changed_regions  # OpenCV loads with the first run, not with the plugin

        last_frame, last_key = None, ""
        while True:
            with self._wake:
                while not self._stop and (self._latest is None or self._latest[1] == last_key):
                    self._wake.wait()
                if self._latest is None or self._latest[1] == last_key:
                    return  # stopped, and the last frame offered has been read
                frame, key, step = self._latest
            if last_frame is not None:
                # only the places that changed since the last read are read again
                self._vision.read_changed(frame, key, last_key, changed_regions(last_frame, frame))
            last_frame, last_key = frame, key
            self.text = self._vision.text(frame, key=key)
            self._on_text(self.text, step)

    def close(self) -> None:
        """Stop once the last frame offered has been read."""
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout=30)


class FrameWriter:
    """Writes screenshots to disk in a background thread, off the loop's hot path."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._queue: queue.Queue[tuple[Path, np.ndarray] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="playtest-frames")
        self._thread.start()

    def path(self, index: int) -> Path:
        return self.folder / f"step-{index:04d}.png"

    def write(self, index: int, frame: np.ndarray) -> str:
        path = self.path(index)
        self._queue.put((path, frame))
        return str(path)

    def _loop(self) -> None:
        import cv2

        while (item := self._queue.get()) is not None:
            path, frame = item
            cv2.imwrite(str(path), np.ascontiguousarray(frame[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 1])

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)


def run_session(
    spec: RunSpec,
    *,
    display: Display,
    vision: Vision,
    config: Any = None,
    artifacts: Path | None = None,
    screenshots: str = "on",
    default_cwd: Path | None = None,
) -> RunResult:
    """Run one playtest and return its result; never raises for the app's faults or infrastructure."""
    started = time.monotonic()
    steps: list[Step] = []
    app: App | None = None
    try:
        app = App(spec.app, display, cwd=spec.cwd or _default_cwd(spec.app, default_cwd), env=spec.env).start()
        return _play(spec, app, display, vision, config, artifacts, screenshots, steps, started)
    except (AppError, DisplayError, PolicyError) as exc:
        verdict = Verdict(status="error", error=str(exc), steps=len(steps), policy=spec.policy,
                          duration=time.monotonic() - started)
        return RunResult(verdict, steps, *_outputs(app))
    finally:
        if app is not None:
            app.terminate()


def _default_cwd(app: str | list[str] | None, fallback: Path | None) -> Path | None:
    if isinstance(app, str) and app.endswith(".py"):
        return Path(app).parent
    return fallback


def _outputs(app: App | None) -> tuple[str, str]:
    if app is None:
        return "", ""
    return app.text_output("stdout"), app.text_output("stderr")


def _play(spec: RunSpec, app: App, display: Display, vision: Vision, config: Any, artifacts: Path | None,
          screenshots: str, steps: list[Step], started: float) -> RunResult:
    deadline = started + spec.timeout
    settings = spec.oracles
    oracles = Oracles(app, spec.expect, settings)
    frames = FrameWriter(artifacts / "frames") if artifacts and screenshots != "off" else None
    policy = None
    reader: TextReader | None = None

    def finish(status_hint: str | None = None, tokens: int = 0, error: str | None = None) -> RunResult:
        if frames:
            frames.close()
        if reader:
            reader.close()  # reads what it was last offered: every frame seen counts for the expectations
        result = _verdict(spec, app, oracles, vision, steps, started, tokens, error, frames, status_hint)
        result.verdict.notes.extend(policy.notes if policy is not None else [])
        if spec.record and artifacts is not None:
            header = {"app": spec.app, "policy": spec.policy, "strategy": spec.strategy, "goal": spec.goal,
                      "seed": spec.seed, "window": list(steps[0].window) if steps else None}
            Trajectory(header, steps).write(artifacts)
        return result

    if not app.wait_for_window(timeout=min(STARTUP_TIMEOUT, spec.timeout)):
        oracles.check_output(0)
        if not oracles.check_exit(0):
            raise AppError(f"the app showed no window within {min(STARTUP_TIMEOUT, spec.timeout):g}s")
        return finish()
    screen = Screen(display, app)
    executor = Executor(display, app)
    reader = TextReader(vision, oracles.expectations.observe_text) if oracles.expectations.needs_text else None
    tokens = 0
    try:
        first = _first_look(screen, oracles, settings, min(5.0, spec.timeout))
        if first is None:
            return finish()
        painted, frame = first
        if frames:
            frames.write(0, painted)
        context = PolicyContext(
            strategy=spec.strategy, goal=spec.goal, expectations=spec.expect, seed=spec.seed,
            max_steps=spec.max_steps, timeout=spec.timeout, window=(frame.shape[1], frame.shape[0]),
            options=spec.options, artifacts=artifacts,
        )
        policy = make_policy(spec.policy, context, config)
        previous = frame
        while len(steps) < spec.max_steps and time.monotonic() < deadline:
            now = time.monotonic()
            try:
                frame = screen.screenshot()
            except AppError:
                if _window_lost(app, oracles, len(steps)):
                    break
                continue
            oracles.observe_idle(bool(difference(previous, frame)), now)
            key = screen.last_hash
            if reader:
                reader.offer(frame, key, len(steps))
            oracles.check_output(len(steps))
            if oracles.check_exit(len(steps)) or oracles.check_freeze(len(steps), now):
                break
            if spec.strategy == "goal" and reader and oracles.expectations.goal_met(reader.text):
                oracles.stopped_by = "goal"
                break
            if oracles.expectations.violated:  # a forbidden text was seen: the bug is found
                oracles.stopped_by = "expectation"
                break
            observation = Observation(step=len(steps) + 1, frame=frame, frame_hash=key,
                                      elapsed=now - started, history=steps, vision=vision,
                                      seen_text=reader.text if reader else "")
            retry = oracles.retry_target(key)
            decision = policy.decide(observation) if retry is None else _retry_decision(retry)
            tokens += decision.tokens
            step = Step(index=len(steps) + 1, action=decision.action, before_hash=key, tokens=decision.tokens,
                        started=now - started, note=decision.note, window=observation.size,
                        text=observation.seen_text)
            steps.append(step)
            if decision.action.kind == "finish":
                step.after_hash = key
                if decision.action.verdict == "fail":
                    oracles.findings.append(Finding("judge", decision.action.reason or "the tester judged "
                                                    "the behaviour wrong", step=step.index))
                oracles.stopped_by = "finish"
                break
            state = key  # the frame the effect is judged against, and its hash
            on_widget = False
            try:
                frame, state = _hover(executor, screen, frame, key, decision.action, settings, oracles.animating)
                executor.perform(decision.action)
            except (ActionError, AppError) as exc:
                step.error = str(exc)
            try:
                after = _settle(screen, frame, decision.action, settings, deadline, oracles.animating)
                change = difference(frame, after)
                # an unchanged frame of an animating app means nothing: no widget is judged there
                on_widget = not change and not oracles.animating and _on_widget(decision.action, frame, key, vision)
                if on_widget:
                    change = screen.wait_for_change(frame, timeout=settings.confirm)
                    after = screen.last
                    on_widget = not change
            except AppError:
                if _window_lost(app, oracles, step.index):
                    break
                after = screen.screenshot()
                change = difference(frame, after)
            step.after_hash = screen.last_hash
            step.changed, step.changed_fraction, step.changed_box = bool(change), change.fraction, change.box
            step.duration = time.monotonic() - started - step.started
            if frames:
                step.screenshot = frames.write(step.index, after)
            oracles.after_step(step, on_widget, time.monotonic(), state=state)
            policy.record(step)
            previous = after
            for finding in oracles.findings:
                if finding.step == step.index and finding.kind not in step.findings:
                    step.findings.append(finding.kind)
            if oracles.stopped_by:
                break
        if oracles.animating and not oracles.stopped_by and not oracles.check_exit(len(steps)):
            _watch_stillness(screen, previous, oracles, len(steps))
        if reader:
            reader.offer(previous, frame_hash(previous), len(steps))
        oracles.check_output(len(steps))
        oracles.check_exit(len(steps))
        return finish(tokens=tokens, status_hint=None if oracles.stopped_by else "bounds")
    except PolicyError as exc:
        return finish(error=str(exc), tokens=tokens)
    finally:
        if reader:
            reader.close()
        screen.close()
        if policy is not None:
            policy.close()


def _first_look(screen: Screen, oracles: Oracles, settings: OracleSettings,
                timeout: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The first painted frame and the frame after watching the untouched app; None if it exited.

    Some apps replace their first window while they set up (SDL may recreate it): then the new one is
    looked at once more.
    """
    for attempt in range(2):
        try:
            painted = screen.wait_until_painted(timeout=timeout)
            return painted, _watch_animation(screen, painted, oracles, settings.animation_probe)
        except AppError:
            if _window_lost(screen.app, oracles, 0):
                return None
            if attempt:
                raise
    return None


def _watch_animation(screen: Screen, frame: np.ndarray, oracles: Oracles, seconds: float) -> np.ndarray:
    """Watch the untouched app for a moment: an app that redraws by itself is animating."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.02)
        latest = screen.screenshot()
        oracles.observe_idle(bool(difference(frame, latest)), time.monotonic())
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
        if difference(frame, latest):
            oracles.observe_idle(True, time.monotonic())
            return
    oracles.check_freeze(step, time.monotonic())


def _retry_decision(target: tuple[int, int]) -> Any:
    from .actions import Action
    from .policies.base import Decision

    return Decision(Action.click(*target), note="retry: confirm an input that had no visible effect")


def _window_lost(app: App, oracles: Oracles, step: int) -> bool:
    """The window vanished: True when the app exited (judged by the exit oracle).

    An app that is still running may have replaced its window (pygame's set_mode does): the new one
    is looked up, and only if there is none does the error stand.
    """
    app.wait(2.0)
    oracles.check_output(step)
    if oracles.check_exit(step):
        return True
    if app.wait_for_window(timeout=2.0):
        return False
    raise AppError("the app is running but its window is gone")


def _hover(executor: Executor, screen: Screen, frame: np.ndarray, key: str, action: Any,
           settings: OracleSettings, animating: bool) -> tuple[np.ndarray, str]:
    """The frame (and its hash) to compare the action's effect against, with the pointer already on the
    target.

    Toolkits highlight what the pointer rests on; without this, a dead button "reacts" to its click.
    (An animating app changes anyway, so there is nothing to gain there.)
    """
    if animating or action.kind not in POINTER_KINDS or action.target is None:
        return frame, key
    executor.hover(*action.target)
    if screen.wait_for_change(frame, timeout=settings.hover, interval=0.003):
        return screen.last, screen.last_hash
    return frame, key


def _settle(screen: Screen, before: np.ndarray, action: Any, settings: OracleSettings,
            deadline: float, animating: bool) -> np.ndarray:
    """The frame after an action: the first changed frame, or the same one after ``settle`` seconds.

    An animating app changes on its own, so waiting for a change tells nothing there: the loop takes the
    frame as it is and goes on at its own pace, not at the app's frame rate.
    """
    if action.kind == "wait" or animating:
        return screen.screenshot()
    timeout = min(settings.settle, max(deadline - time.monotonic(), 0.0))
    if screen.wait_for_change(before, timeout=timeout, interval=0.003):
        _until_still(screen, settings.repaint, limit=timeout)
    return screen.last


def _until_still(screen: Screen, still: float, *, limit: float) -> None:
    """Poll until the window has stayed the same for ``still`` seconds (at most ``limit`` seconds)."""
    latest, since = screen.last, time.monotonic()
    deadline = since + limit
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.003)
        if difference(latest, screen.screenshot()):
            latest, since = screen.last, time.monotonic()


def _on_widget(action: Any, frame: np.ndarray, key: str, vision: Vision) -> bool:
    target = action.target
    if target is None or action.kind not in ("click", "double_click"):
        return False
    return any(w.kind in ("button", "field") and w.box.contains(*target) for w in vision.widgets(frame, key=key))


def _final_text(app: App, vision: Vision) -> str:
    """The text of the last frame (the app may have exited: then nothing is on screen)."""
    if not (app.has_window and app.alive):
        return ""
    screen = Screen(app.display, app)
    try:
        frame = screen.screenshot()
        return vision.text(frame, key=screen.last_hash)
    except AppError:
        return ""
    finally:
        screen.close()


def _verdict(spec: RunSpec, app: App, oracles: Oracles, vision: Vision, steps: list[Step], started: float,
             tokens: int, error: str | None, frames: FrameWriter | None, status_hint: str | None) -> RunResult:
    findings = list(oracles.findings)
    exit_code = app.poll()
    if error is None:
        final_text = _final_text(app, vision) if oracles.expectations.needs_text else ""
        findings.extend(oracles.expectations.findings(final_text, exit_code, len(steps)))
        if status_hint == "bounds" and spec.strategy == "goal" and spec.policy == "llm" and not findings:
            findings.append(Finding("timeout", f"the goal was not reached within {spec.max_steps} steps / "
                                               f"{spec.timeout:g}s", step=len(steps)))
    status = "error" if error else ("fail" if findings else "pass")
    verdict = Verdict(status=status, findings=findings, steps=len(steps), tokens=tokens, policy=spec.policy,
                      duration=time.monotonic() - started, exit_code=exit_code, error=error,
                      artifacts=frames.folder.parent if frames else None)
    stdout, stderr = _outputs(app)
    return RunResult(verdict, steps, stdout, stderr, frames.folder if frames else None)
