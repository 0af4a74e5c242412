"""Launches of the app under test for one run: the first, and a fresh one after each normal exit.

Each launch is measured under coverage when the run asks for it (its own data file; the run's report
combines them), and every launch is terminated when the run ends.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import AppError, CoverageError, SandboxError
from ..files import STACKS_FILE
from ..runtime.app import App
from ..runtime.coverage import CoverageSetup, combined_report
from ..runtime.display import Display
from ..runtime.sandbox import Sandbox, SandboxPolicy, resolve
from ..runtime.scratch import scratch_dir
from ..runtime.stacks import StackDumps
from ..verdict import CoverageReport
from ..vision import Vision
from .spec import RunSpec
from .surface import Surface, surface_of

#: The coverage data of launch N of a run, in the run's artifacts folder (or a temporary one).
COVERAGE_DATA = "coverage-{launch}.data"


def make_sandbox(policy: SandboxPolicy, display: Display, *, cwd: Path | None,
                 writable: list[Path] | None = None) -> Sandbox | None:
    """A new box for one launch, as ``policy`` asks (None: none); no sandbox where one is required is an
    AppError (the run's status is then "error")."""
    try:
        resolved = resolve(policy)
    except SandboxError as exc:
        raise AppError(str(exc)) from None
    if resolved is None:
        return None
    return Sandbox(resolved, workdir=cwd, display=display.env().get("DISPLAY"), writable=writable or [])


class Launcher:
    """Starts the app of a spec, as often as the run needs it, and cleans up after all of them."""

    def __init__(self, spec: RunSpec, display: Display, vision: Vision, *, cwd: Path | None,
                 artifacts: Path | None) -> None:
        self.spec, self.display, self.vision, self.cwd = spec, display, vision, cwd
        self._surface: Surface | None = None
        self.apps: list[App] = []
        self.notes: list[str] = []
        self._artifacts = artifacts
        self._scratch: Path | None = None  # what _own_dir() made without an artifacts folder
        self._coverage_dir = self._own_dir() if spec.coverage else None
        self._stacks: dict[int, StackDumps] = {}  # by id of the launch: a desktop app's stack dumps

    @property
    def root(self) -> Path:
        """The app's folder: where its own code lives (a frame of a traceback or a stack dump in it is the app's)."""
        return self.surface.root()

    @property
    def app(self) -> App:
        """The current launch."""
        if not self.apps:
            raise AppError("the app has not been launched")
        return self.apps[-1]

    @property
    def surface(self) -> Surface:
        """The kind of app under test (a desktop app or a web page), decided at the first launch."""
        if self._surface is None:
            rules = [e.pattern or "" for e in self.spec.expect if e.kind == "rule"]
            self._surface = surface_of(self.spec.app, self.cwd, self.vision, rules=rules)
        return self._surface

    def start(self) -> App:
        """A new launch of the app, started (the previous one, if any, is terminated)."""
        if self.apps:
            self.app.terminate()
        surface = self.surface
        setup = None
        if self._coverage_dir is not None and surface.measures_coverage:
            data_file = self._coverage_dir / COVERAGE_DATA.format(launch=len(self.apps) + 1)
            setup = CoverageSetup(data_file=data_file)
        elif self.spec.coverage and not self.notes:
            self.notes.append("coverage not measured: it is measured for Python apps, not web apps")
        replay = self.spec.differential is not None
        if replay:
            self._park_pointer()
        stacks = StackDumps(self._stacks_dir() / STACKS_FILE.format(launch=len(self.apps) + 1)) \
            if surface.measures_coverage else None
        env = {**self.spec.env, **(stacks.env() if stacks is not None else {})}
        app = surface.new_launch(self.display, env=env, coverage=setup, sandbox=self._sandbox,
                                 seed=self.spec.seed, replay=replay)
        if stacks is not None:
            self._stacks[id(app)] = stacks
        self.apps.append(app)
        app.start()
        surface.follow(app)
        if app.coverage_refused and not self.notes:
            self.notes.append(f"coverage not measured: {app.coverage_refused}")
        return app

    def _park_pointer(self) -> None:
        """Put the pointer in the display's far corner: a replay's first paint must not show a button lit by
        where the run before it left the pointer (the display is shared by a process's runs)."""
        width, height = self.display.size
        self.display.input().move(width - 1, height - 1)

    def _sandbox(self) -> Sandbox | None:
        writable = [self._coverage_dir] if self._coverage_dir is not None else []
        if self.surface.measures_coverage:
            writable.append(self._stacks_dir())
        return make_sandbox(self.spec.sandbox, self.display, cwd=self.cwd, writable=writable)

    def _stacks_dir(self) -> Path:
        """The folder the stack dumps of a desktop app's launches go to."""
        return self._own_dir()

    def _own_dir(self) -> Path:
        """Where the run's files about the app go: the artifacts, else a scratch folder removed by close()."""
        if self._artifacts is not None:
            self._artifacts.mkdir(parents=True, exist_ok=True)
            return self._artifacts
        if self._scratch is None:
            self._scratch = scratch_dir("playtest-scratch-")
        return self._scratch

    def stacks_of(self, app: App) -> StackDumps | None:
        """The stack dumps of a launch (None: not a desktop app)."""
        return self._stacks.get(id(app))

    def outputs(self) -> tuple[str, str]:
        """stdout and stderr of every launch, each launch after the first headed by a marker line."""
        parts: dict[str, list[str]] = {"stdout": [], "stderr": []}
        for number, app in enumerate(self.apps, start=1):
            for stream, texts in parts.items():
                header = f"--- launch {number} ---\n" if number > 1 else ""
                texts.append(header + app.text_output(stream))
        return "".join(parts["stdout"]), "".join(parts["stderr"])

    def close(self) -> CoverageReport | None:
        """Terminate every launch; the combined coverage of all of them (None when not measured)."""
        for app in self.apps:
            app.terminate()
        boxed = [app.sandbox for app in self.apps if app.sandbox is not None]
        if boxed:
            self.notes.append(boxed[-1].summary())
            self.notes.extend(dict.fromkeys(note for box in boxed for note in box.notes))
        try:
            return self._coverage_report()
        finally:
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)

    def _coverage_report(self) -> CoverageReport | None:
        covered = [app for app in self.apps if app.covered]
        if not covered:
            return None
        try:
            for app in covered:
                app.coverage_report()  # saves what a killed launch only streamed
            source = covered[0].coverage_source
            assert source is not None
            files = [Path(app.coverage_setup.data_file) for app in covered if app.coverage_setup is not None]
            return combined_report(files, source)
        except (CoverageError, AppError) as exc:
            self.notes.append(f"coverage could not be read: {exc}")
            return None
