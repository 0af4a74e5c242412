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

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from PIL import Image

from . import expect as expect_module
from .actions import Action
from .config import GOLDEN_KEY, HAND_RECORD_KEY, VERDICTS_KEY
from .errors import AppError, PlaytestTimeout, SpecError
from .files import FRAMES_DIR, HAND_DIR, STORYBOARD_FILE, TRAJECTORY_FILE, frame_path
from .geometry import Box, parse_size
from .golden import GoldenRun
from .loop.launcher import make_sandbox
from .loop.spec import RunSpec
from .loop.surface import surface_of
from .report.artifacts import artifacts_dir
from .report.storyboard import build_storyboard
from .runtime.app import App
from .runtime.browser import WEB_INDEX, WEB_SUFFIXES
from .runtime.executor import Executor
from .runtime.screen import Change, Screen, difference
from .trajectory import Step
from .verdict import Verdict

#: App paths looked up beside the test file when relative: Python scripts and web pages.
RESOLVED_SUFFIXES = (".py", *WEB_SUFFIXES)

if TYPE_CHECKING:
    from .pipeline import Runtime
    from .runtime.sandbox import Sandbox
    from .vision import Grid, Widget


class Playtest:
    """The ``playtest`` fixture: launch an app, see it, drive it, or play-test it with ``run()``.

    Coordinates are relative to the app window's top-left corner. Frames are numpy RGB arrays.
    """

    def __init__(self, runtime: Runtime, item: pytest.Item, marker_kwargs: Mapping[str, Any],
                 *, rootdir: Path, env: Mapping[str, str] | None = None) -> None:
        self.runtime = runtime
        self.item = item
        self.marker_kwargs = dict(marker_kwargs)
        self.rootdir = rootdir
        #: extra environment of every app this test launches (``playtest_launch_args``' ``env``); the ``env``
        #: of ``run()`` (and the marker) or of ``launch()`` adds to it
        self.env = dict(env or {})
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
        """A relative ``.py`` or ``.html`` path (or a web app's folder) is looked up beside the test file, then in
        the rootdir."""
        if not isinstance(target, str | Path) or Path(target).is_absolute():
            return target if isinstance(target, str) else [str(part) for part in target]
        if str(target).endswith(RESOLVED_SUFFIXES):
            for base in (self.test_dir, self.rootdir, Path.cwd()):
                if (base / target).is_file():
                    return str((base / target).resolve())
        if "://" not in str(target):
            for base in (self.test_dir, self.rootdir):
                if (base / target / WEB_INDEX).is_file():
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
        sandbox: Any = None,
        seed: int | None = None,
    ) -> App:
        """Start the app (default: the marker's ``app``; a web app opens in Chromium), wait for its window and
        first paint.

        ``sandbox`` (default: the marker's, else the session's) boxes it as ``run(sandbox=...)`` does;
        ``seed`` (default: the marker's, else 0) seeds its randomness as ``run(seed=...)`` does.

        If the app exits before showing a window, the returned App reports its exit code
        (``app.poll()``) and output; screenshots and input then raise.
        """
        target = app if app is not None else self.marker_kwargs.get("app")
        if target is None:
            raise SpecError(f"{self.item.nodeid}: launch() needs an app (argument or marker app=)")
        self.close()
        target = self.resolve(target)
        if cwd is None and isinstance(target, str) and target.endswith(".py"):
            cwd = Path(target).parent
        display = self.runtime.display(parse_size(size) if size else None)
        workdir = Path(cwd or self.test_dir)
        surface = surface_of(target, workdir, self.runtime.vision)

        def box() -> Sandbox | None:
            asked = sandbox if sandbox is not None else self.marker_kwargs.get("sandbox")
            policy = RunSpec.from_kwargs({"app": target, "sandbox": asked}, defaults=self.runtime.settings,
                                         where=self.item.nodeid).sandbox
            return make_sandbox(policy, display, cwd=workdir)

        seed = seed if seed is not None else int(self.marker_kwargs.get("seed", 0))
        self.app = surface.new_launch(display, env={**self.env, **(env or {})}, coverage=None, sandbox=box,
                                      seed=seed)
        self.app.start()
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
        """Click at (x, y) with the ``"left"`` or ``"right"`` button."""
        kinds = {"left": Action.click, "right": Action.right_click}
        if button not in kinds:
            raise SpecError(f"{self.item.nodeid}: click() takes button= {' or '.join(map(repr, kinds))}, "
                            f"got {button!r}")
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

    def text(self) -> str:
        """The text in the window now (OCR, offline)."""
        screen, _ = self._require_window()
        frame = screen.screenshot()
        return self.runtime.vision.text(frame, key=screen.last_hash)

    def wait_for_text(self, pattern: str, *, timeout: float = 5.0, raising: bool = True) -> str | None:
        """Wait until the regex ``pattern`` is in the window's text, searched as ``expect.text`` searches it
        (case-insensitive, per line and per text box); the match."""
        screen, _ = self._require_window()
        wanted = expect_module.text(pattern)
        deadline = time.monotonic() + timeout
        seen = ""
        while True:
            frame = screen.screenshot()
            seen = self.runtime.vision.text(frame, key=screen.last_hash)
            boxes = self.runtime.vision.read(frame, key=screen.last_hash)
            match = wanted.search(seen, [box.text for box in boxes])
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
        spec.env = {**self.env, **spec.env}
        if isinstance(spec.app, str | list):
            spec.app = self.resolve(spec.app)
        artifacts = self._artifacts_dir()
        if spec.options.get("replay"):
            spec.options["replay"] = self._recording(Path(spec.options["replay"]))
        golden = GoldenRun.of_test(self.runtime, settings.golden if spec.policy != "replay" else "off",
                                   Path(str(self.item.path)), test=self.item.nodeid, run=len(self.verdicts) + 1)
        result, outcome = golden.play(spec, artifacts=artifacts, default_cwd=self.test_dir)
        if outcome:
            self.item.stash.setdefault(GOLDEN_KEY, []).append(outcome)
        self.verdicts.append(result.verdict)
        self.item.stash.setdefault(VERDICTS_KEY, []).append(result.verdict)
        return result.verdict

    def _recording(self, source: Path) -> Path:
        """A replay source is one run's folder, or a recorded output root holding this test's folder."""
        if source.is_file() or (source / TRAJECTORY_FILE).is_file():
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
