"""The ``playtest`` fixture object: the low-level API for hand-written tests and ``run()`` for playtests.

Low level::

    def test_counter(playtest):
        playtest.launch("counter/main.py")
        playtest.click(60, 120)
        playtest.wait_for_text(r"Count: 1", timeout=3)

Whole playtest::

    @pytest.mark.playtest(app="snake/main.py", strategy="goal", expect=[expect.text(r"Score: [1-9]")])
    def test_snake(playtest):
        verdict = playtest.run()
        assert verdict, verdict.summary()
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from PIL import Image

from .actions import Action, Executor
from .app import App, AppError
from .display import Display, DisplayError, parse_size
from .report import (
    FRAMES_DIR,
    HAND_DIR,
    HAND_RECORD_KEY,
    STORYBOARD_FILE,
    VERDICTS_KEY,
    artifacts_dir,
    build_storyboard,
    finalize_artifacts,
    frame_path,
)
from .screen import Change, Screen, difference
from .session import RunResult, RunSpec, run_session
from .trajectory import Step
from .verdict import Verdict

if TYPE_CHECKING:
    from .vision import Box, Grid, Vision, Widget

SCREENSHOT_MODES = ("on", "off", "only-on-failure")


class PlaytestTimeout(AssertionError):
    """A wait of the low-level API ran out (no change, text not seen)."""


@dataclass(frozen=True)
class Settings:
    """The session-wide defaults, from command line options and ini values."""

    size: tuple[int, int]
    display: str | None
    output: Path
    policy: str
    max_steps: int
    timeout: float
    screenshots: str
    record: bool
    options: Mapping[str, Any]

    @classmethod
    def from_config(cls, config: pytest.Config, setting: Callable[[pytest.Config, str], Any]) -> Settings:
        def checked(name: str, convert: Callable[[Any], Any]) -> Any:
            raw = setting(config, name)
            try:
                return convert(raw)
            except (TypeError, ValueError) as exc:
                option = "--" + name.replace("_", "-")
                raise pytest.UsageError(f"{option} / ini {name}: {exc}") from None

        def positive(kind: type) -> Callable[[Any], Any]:
            def convert(raw: Any) -> Any:
                value = kind(raw)
                if value <= 0:
                    raise ValueError(f"must be positive, got {raw!r}")
                return value
            return convert

        def screenshots(raw: Any) -> str:
            if raw not in SCREENSHOT_MODES:
                raise ValueError(f"must be one of {', '.join(SCREENSHOT_MODES)}, got {raw!r}")
            return str(raw)

        replay = setting(config, "playtest_replay")
        model = setting(config, "playtest_model")
        base_url = setting(config, "playtest_base_url")
        options = {name: value for name, value in (("model", model), ("base_url", base_url),
                                                   ("replay", replay)) if value}
        policy = config.getoption("playtest_policy", default=None) or ("replay" if replay else None)
        output = Path(setting(config, "playtest_output"))
        if not output.is_absolute():
            output = config.invocation_params.dir / output
        return cls(
            size=checked("playtest_size", parse_size),
            display=setting(config, "playtest_display") or None,
            output=output,
            policy=str(policy or setting(config, "playtest_policy")),
            max_steps=checked("playtest_max_steps", positive(int)),
            timeout=checked("playtest_timeout", positive(float)),
            screenshots=checked("playtest_screenshots", screenshots),
            record=bool(setting(config, "playtest_record")),
            options=options,
        )


class Runtime:
    """What one test process shares between its playtests: the display and the OCR engine."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._displays: dict[tuple[int, int], Display] = {}
        self._vision: Vision | None = None

    def display(self, size: tuple[int, int] | None = None) -> Display:
        """The process's display of that size, started on first use (a private one for odd sizes)."""
        size = size or self.settings.size
        if size not in self._displays:
            existing = self.settings.display if size == self.settings.size else None
            self._displays[size] = Display(size, existing=existing)
        display = self._displays[size]
        display.start()
        return display

    @property
    def vision(self) -> Vision:
        if self._vision is None:
            from .vision import Vision

            self._vision = Vision()
        return self._vision

    def close(self) -> None:
        for display in self._displays.values():
            display.stop()
        self._displays.clear()


class Playtest:
    """The ``playtest`` fixture: launch an app, see it, drive it, or play-test it with ``run()``.

    Coordinates are relative to the app window's top-left corner. Frames are numpy RGB arrays.
    """

    def __init__(self, runtime: Runtime, item: pytest.Item, marker_kwargs: Mapping[str, Any],
                 *, rootdir: Path) -> None:
        self.runtime = runtime
        self.item = item
        self.marker_kwargs = dict(marker_kwargs)
        self.rootdir = rootdir
        self.app: App | None = None
        self._screen: Screen | None = None
        self._executor: Executor | None = None
        self._before_input: np.ndarray | None = None
        self.verdicts: list[Verdict] = []
        # inputs sent by hand and the window when each began (then the final one): the test's storyboard
        self._hand_steps: list[Step] = []
        self._hand_frames: list[np.ndarray] = []
        item.stash[HAND_RECORD_KEY] = self.keep_hand_record

    # -- where things are -----------------------------------------------------------------------------
    @property
    def test_dir(self) -> Path:
        return Path(str(self.item.path)).parent

    def resolve(self, target: str | Sequence[str]) -> str | list[str]:
        """A relative ``.py`` path is looked up beside the test file, then in the rootdir."""
        if isinstance(target, str | Path) and str(target).endswith(".py") and not Path(target).is_absolute():
            for base in (self.test_dir, self.rootdir, Path.cwd()):
                if (base / target).is_file():
                    return str((base / target).resolve())
        return target if isinstance(target, str) else [str(part) for part in target]

    # -- low-level API ----------------------------------------------------------------------------------
    def launch(
        self,
        app: str | Sequence[str] | None = None,
        *,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        size: str | tuple[int, int] | None = None,
        timeout: float = 15.0,
    ) -> App:
        """Start the app (default: the marker's ``app``), wait for its window and first paint.

        If the app exits before showing a window, the returned App reports its exit code
        (``app.poll()``) and output; screenshots and input then raise.
        """
        target = app if app is not None else self.marker_kwargs.get("app")
        if target is None:
            raise pytest.UsageError(f"{self.item.nodeid}: launch() needs an app (argument or marker app=)")
        self.close()
        target = self.resolve(target)
        if cwd is None and isinstance(target, str) and target.endswith(".py"):
            cwd = Path(target).parent
        display = self.runtime.display(parse_size(size) if size else None)
        self.app = App(target, display, cwd=cwd or self.test_dir, env=env).start()
        if self.app.wait_for_window(timeout=timeout):
            self._screen = Screen(display, self.app)
            self._executor = Executor(display, self.app)
            self._screen.wait_until_painted(timeout=timeout)
        return self.app

    def _require_window(self) -> tuple[Screen, Executor]:
        if self.app is None:
            raise AppError("no app launched: call playtest.launch() first")
        if self._screen is None or self._executor is None:
            code = self.app.poll()
            state = f"exited with code {code}" if code is not None else "is still starting"
            raise AppError(f"the app has no window: it {state}\n{self.app.text_output('stderr')[-2000:]}")
        return self._screen, self._executor

    def screenshot(self) -> np.ndarray:
        """The app window now, as an RGB array of shape (height, width, 3)."""
        screen, _ = self._require_window()
        return screen.screenshot()

    def perform(self, action: Action) -> None:
        """Perform any Action; remembers the frame before it for ``wait_for_change()``.

        Every input is also kept for the test's storyboard (``by-hand/`` in its artifacts folder).
        """
        screen, executor = self._require_window()
        self._before_input = screen.screenshot()
        self._hand_frames.append(self._before_input)
        height, width = self._before_input.shape[:2]
        self._hand_steps.append(Step(index=len(self._hand_steps) + 1, action=action,
                                     before_hash=screen.last_hash, window=(width, height)))
        executor.perform(action)

    def keep_hand_record(self, failed: bool) -> Path | None:
        """Write the inputs this test sent by hand as frames and a storyboard (see HAND_RECORD_KEY).

        Each step's frame is the window when the next input began (the last one: now), what the test
        looked at in between.
        """
        mode = self.runtime.settings.screenshots
        steps, frames = self._hand_steps, self._hand_frames
        if not steps or mode == "off" or (mode == "only-on-failure" and not failed):
            return None
        try:
            frames = [*frames, self.screenshot()]
        except AppError:
            frames = [*frames, frames[-1]]  # the app is gone: its last frame stands
        folder = artifacts_dir(self.runtime.settings.output, self.item.nodeid) / HAND_DIR
        frames_dir = folder / FRAMES_DIR
        frames_dir.mkdir(parents=True, exist_ok=True)
        for index, frame in enumerate(frames[: len(steps) + 1]):
            Image.fromarray(frame).save(frame_path(frames_dir, index))
        for step, before, after in zip(steps, frames, frames[1:], strict=False):
            change = difference(before, after)
            step.changed, step.changed_fraction, step.changed_box = bool(change), change.fraction, change.box
        build_storyboard(steps, frames_dir, [], folder / STORYBOARD_FILE)
        self._hand_steps, self._hand_frames = [], []
        return folder

    def click(self, x: int, y: int, *, button: str = "left") -> None:
        kinds = {"left": Action.click, "right": Action.right_click}
        self.perform(kinds[button](x, y))

    def double_click(self, x: int, y: int) -> None:
        self.perform(Action.double_click(x, y))

    def drag(self, x1: int, y1: int, x2: int, y2: int) -> None:
        self.perform(Action.drag(x1, y1, x2, y2))

    def press(self, key: str, *, times: int = 1) -> None:
        self.perform(Action.press(key, times))

    def hotkey(self, *keys: str) -> None:
        self.perform(Action.hotkey(*keys))

    def type(self, text: str) -> None:
        self.perform(Action.type_text(text))

    def scroll(self, x: int, y: int, direction: str = "down", amount: int = 3) -> None:
        self.perform(Action.scroll(x, y, direction, amount))

    def wait_for_change(self, timeout: float = 2.0, *, since: np.ndarray | None = None,
                        raising: bool = True) -> Change:
        """Wait until the window differs from ``since`` (default: the frame before the last input)."""
        screen, _ = self._require_window()
        reference = since if since is not None else self._before_input
        if reference is None:
            reference = screen.screenshot()
        change = screen.wait_for_change(reference, timeout=timeout)
        if not change and raising:
            raise PlaytestTimeout(f"the window did not change within {timeout:g}s")
        return change

    def changed_since(self, frame: np.ndarray) -> bool:
        return bool(difference(frame, self.screenshot()))

    def text(self) -> str:
        """The text in the window now (OCR, offline)."""
        screen, _ = self._require_window()
        frame = screen.screenshot()
        return self.runtime.vision.text(frame, key=screen.last_hash)

    def wait_for_text(self, pattern: str, *, timeout: float = 5.0, raising: bool = True) -> str | None:
        """Wait until the regex ``pattern`` (case-insensitive) is in the window's text; the match."""
        screen, _ = self._require_window()
        regex = re.compile(pattern, re.IGNORECASE)
        deadline = time.monotonic() + timeout
        seen = ""
        while True:
            frame = screen.screenshot()
            seen = self.runtime.vision.text(frame, key=screen.last_hash)
            match = regex.search(seen)
            if match:
                return match.group(0)
            if time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        if raising:
            raise PlaytestTimeout(f"text /{pattern}/ not seen within {timeout:g}s; last seen:\n{seen}")
        return None

    def widgets(self) -> list[Widget]:
        """What looks interactive in the window now: buttons, fields, texts and shapes (vision)."""
        screen, _ = self._require_window()
        frame = screen.screenshot()
        return self.runtime.vision.widgets(frame, key=screen.last_hash)

    def find(self, template: np.ndarray | str | Path, *, threshold: float = 0.9) -> list[Box]:
        """Where an image (an RGB array or a file) appears in the window now, best match first."""
        return self.runtime.vision.find(self.screenshot(), template, threshold=threshold)

    def read_grid(self, rows: int, cols: int, box: Box | None = None, *, cell_text: bool = True) -> Grid:
        """The board in the window now as a ``rows`` x ``cols`` matrix (see ``Vision.read_grid``)."""
        return self.runtime.vision.read_grid(self.screenshot(), rows, cols, box, cell_text=cell_text)

    @property
    def output(self) -> str:
        """Everything the app printed so far (stdout and stderr, interleaved)."""
        return self.app.text_output() if self.app else ""

    # -- the whole playtest -----------------------------------------------------------------------------
    def run(self, **overrides: Any) -> Verdict:
        """Play-test the app with the marker's arguments (each may be overridden here).

        Returns a Verdict; infrastructure problems (no display, missing app file, an endpoint that is
        down) give ``status == "error"``, never ``"fail"``.
        """
        self.close()
        settings = self.runtime.settings
        kwargs = {**self.marker_kwargs, **overrides}
        spec = RunSpec.from_kwargs(kwargs, defaults=settings, where=self.item.nodeid)
        if isinstance(spec.app, str | list):
            spec.app = self.resolve(spec.app)
        artifacts = self._artifacts_dir()
        if spec.options.get("replay"):
            spec.options["replay"] = self._recording(Path(spec.options["replay"]))
        try:
            display = self.runtime.display(spec.size)
        except DisplayError as exc:
            result = RunResult(Verdict(status="error", error=str(exc), policy=spec.policy), [])
        else:
            result = run_session(
                spec,
                display=display,
                vision=self.runtime.vision,
                config=self.item.config,
                artifacts=artifacts,
                screenshots=settings.screenshots,
                default_cwd=self.test_dir,
            )
        finalize_artifacts(artifacts, result.verdict, result.steps, stdout=result.stdout, stderr=result.stderr,
                           screenshots=settings.screenshots)
        self.verdicts.append(result.verdict)
        self.item.stash.setdefault(VERDICTS_KEY, []).append(result.verdict)
        return result.verdict

    def _recording(self, source: Path) -> Path:
        """A replay source is one run's folder, or a recorded output root holding this test's folder."""
        if source.is_file() or (source / "trajectory.jsonl").is_file():
            return source
        return artifacts_dir(source, self.item.nodeid, len(self.verdicts) + 1)

    def _artifacts_dir(self) -> Path:
        return artifacts_dir(self.runtime.settings.output, self.item.nodeid, len(self.verdicts) + 1)

    def close(self) -> None:
        """Stop the launched app (and everything it started)."""
        if self._screen is not None:
            self._screen.close()
            self._screen = None
        self._executor = None
        if self.app is not None:
            self.app.terminate()
            self.app = None
