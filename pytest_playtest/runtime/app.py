"""The app under test: launched as untrusted code, watched, and killed with everything it started.

The app runs in its own session/process group with a scrubbed environment (no API keys or tokens);
its whole group is killed on teardown, and by a watchdog if the test process itself is killed
(:mod:`.process`). Its stdout and stderr are read continuously by threads, so a traceback printed by a Tk
callback is seen while the app keeps running; once it has exited, its output is read only after those threads
reached the end of its pipes (:mod:`.output`). Its window is found and followed through X (:mod:`.window`).

With ``coverage=CoverageSetup(...)`` a Python app runs under coverage.py through the bootstrap
(:mod:`.coverage_boot`, :mod:`.app_coverage`): the lines it reaches stream in while it runs
(``app.coverage_stream``) and teardown gives it time to save its data (see :meth:`App.terminate`).

With ``sandbox=Sandbox(...)`` the app runs inside bubblewrap (:mod:`.sandbox`): ``proc`` is then the
sandbox and :attr:`App.pid` the app inside it, which teardown signals first so it can shut down cleanly.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AppError, SandboxError
from .app_coverage import AppCoverage
from .coverage import CoverageReport, CoverageSetup, CoverageStream
from .output import Output
from .process import AppProcess
from .sandbox import Sandbox
from .window import AppWindow, Dialog, Geometry

if TYPE_CHECKING:
    from .display import Display

#: Variables never handed to the app: credentials of the tester must not reach untrusted code.
SECRET_NAME = re.compile(r"(_API_KEY|_TOKEN|_SECRET|_PASSWORD|_ACCESS_KEY)$|^(OPENAI|ANTHROPIC)_", re.I)

APP_ENV_DEFAULTS = {
    "SDL_AUDIODRIVER": "dummy",
    "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    "PYTHONFAULTHANDLER": "1",
    "PYTHONUNBUFFERED": "1",
    "SDL_VIDEO_WINDOW_POS": "0,0",
}
#: The folder whose ``sitecustomize`` seeds a Python app's ``random`` and ``numpy.random`` (PLAYTEST_SEED).
SEEDING = Path(__file__).with_name("seeding")


def app_argv(target: str | Sequence[str], cwd: Path | None = None) -> list[str]:
    """The argv to run: a ``.py`` path runs with this interpreter; an argv[0] of ``python`` too."""
    if isinstance(target, str | Path):
        target = str(target)
        argv = [sys.executable, target] if target.endswith(".py") else shlex.split(target)
    else:
        argv = [str(a) for a in target]
    if not argv:
        raise AppError("the app to launch is empty")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    script = next((a for a in argv[1:2] if a.endswith(".py")), None) if argv[0] == sys.executable else None
    if script is not None:
        path = Path(script) if Path(script).is_absolute() else (cwd or Path.cwd()) / script
        if not path.is_file():
            raise AppError(f"app file not found: {path}")
    return argv


def scrubbed_environment(display_env: Mapping[str, str], extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The app's environment: ours minus secrets, plus the display and quiet/safe toolkit settings."""
    env = {k: v for k, v in os.environ.items() if not SECRET_NAME.search(k)}
    env.pop("XAUTHORITY", None)
    env.update(APP_ENV_DEFAULTS)
    env.update(display_env)
    for key, value in (extra or {}).items():
        if SECRET_NAME.search(key):
            raise AppError(f"refusing to pass {key} to the app under test: it looks like a secret")
        env[key] = str(value)
    return env


def seeded_environment(seed: int, env: Mapping[str, str]) -> dict[str, str]:
    """What a Python app needs in its environment to draw the same random numbers on every launch: its
    ``random`` and ``numpy.random`` seeded before its code runs, and its string hashes (the order of a set)
    fixed, unless the test's ``env`` fixed them already."""
    path = os.pathsep.join(p for p in (str(SEEDING), env.get("PYTHONPATH", "")) if p)
    return {"PLAYTEST_SEED": str(seed), "PYTHONPATH": path,
            "PYTHONHASHSEED": env.get("PYTHONHASHSEED", str(seed % 2**32))}


#: How often teardown repeats the wake-up while it waits for a covered app to save and exit.
WAKE_INTERVAL = 0.25


class App:
    """A running app under test: its process group, output, window and coverage, each a part of its own."""

    def __init__(
        self,
        target: str | Sequence[str],
        display: Display,
        *,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        coverage: CoverageSetup | None = None,
        sandbox: Sandbox | None = None,
        seed: int | None = None,
    ) -> None:
        self.display = display
        #: The box the app runs in (None: its own process group only).
        self.sandbox = sandbox
        self.cwd = Path(cwd) if cwd else None
        self.argv = app_argv(target, self.cwd)
        self.launch_argv = self.argv
        #: File descriptors the app inherits (a browser's DevTools pipes).
        self.pass_fds: tuple[int, ...] = ()
        self.env = scrubbed_environment(display.env(), env)
        if seed is not None:
            self.env.update(seeded_environment(seed, self.env))
        self.process = AppProcess(sandbox)
        self.output = Output()
        self.window = AppWindow(display, self.process)
        self.coverage = AppCoverage(coverage)

    # -- life cycle ---------------------------------------------------------------------------------
    def start(self) -> App:
        read_fd = write_fd = None
        if self.coverage.setup is not None:
            read_fd, write_fd = self._prepare_coverage(self.coverage.setup)
        try:
            proc = self.process.spawn(self.launch_argv, self.env, cwd=self.cwd,
                                      pass_fds=self.pass_fds if write_fd is None else (*self.pass_fds, write_fd))
        except (OSError, SandboxError) as exc:
            if read_fd is not None:
                os.close(read_fd)
            raise AppError(f"could not start {shlex.join(self.argv)}: {exc}") from None
        finally:
            if write_fd is not None:
                os.close(write_fd)
        if read_fd is not None:
            self.coverage.follow(read_fd)
        self.process.guard()
        self.output.follow(proc)
        return self

    def _prepare_coverage(self, setup: CoverageSetup) -> tuple[int | None, int | None]:
        """Wrap the argv in the coverage bootstrap; the pipe's (read, write) fds when it streams."""
        wrapped, read_fd, write_fd = self.coverage.wrap(setup, self.argv, self.cwd)
        if wrapped is not None:
            self.launch_argv = wrapped
        return read_fd, write_fd

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        """The first process started: the app, or the sandbox it runs in (None until started)."""
        return self.process.proc

    @property
    def pid(self) -> int:
        """The app's own process (inside its sandbox, when it has one; the sandbox's while it starts)."""
        return self.process.pid

    def poll(self) -> int | None:
        """The exit code (negative: killed by that signal), or None while it runs."""
        return self.process.poll()

    def limit_hit(self) -> str | None:
        """Which sandbox limit stopped the app (None: none did, or no sandbox)."""
        if self.sandbox is None or self.alive:
            return None
        return self.sandbox.limit_hit(self.poll(), self.text_output())

    @property
    def alive(self) -> bool:
        return self.process.alive

    def wait(self, timeout: float) -> int | None:
        return self.process.wait(timeout)

    @property
    def exit_signal(self) -> str | None:
        return self.process.exit_signal

    def terminate(self, grace: float = 1.0) -> int | None:
        """Stop the app and everything in its process group; returns its exit code.

        The group gets SIGTERM, ``grace`` seconds, then SIGKILL; in a sandbox the app itself gets the
        SIGTERM (signalled as a group, bwrap would die first and SIGKILL the app). A covered app must save its data
        first: SIGTERM goes to the app process alone (its handler saves and exits), its windows get
        a ClientMessage that wakes a Tk app blocked in its event loop, and the group is SIGKILLed
        after ``max(grace, setup.grace)`` seconds, or as soon as the app has exited.
        """
        if self.proc is None:
            return None
        if self.process.alive:
            if self.covered and self.coverage.setup is not None:
                self._stop_saving(max(grace, self.coverage.setup.grace))
            else:
                self.process.stop(grace)
        code = self.process.reap()
        self.output.join(timeout=2)
        if self.coverage.stream is not None:
            self.coverage.stream.join(timeout=2)
        return code

    def _stop_saving(self, grace: float) -> None:
        """SIGTERM to the covered app itself, woken up until it exits or ``grace`` runs out."""
        if not self.process.signal_app(signal.SIGTERM):
            return
        deadline = time.monotonic() + grace
        while True:
            self.wake()
            left = deadline - time.monotonic()
            if left <= 0 or self.wait(min(WAKE_INTERVAL, left)) is not None:
                return

    def wake(self) -> int:
        """Send a ClientMessage to the app's windows (see :meth:`.window.AppWindow.wake`); how many were sent one."""
        return self.window.wake()

    # -- coverage -----------------------------------------------------------------------------------
    @property
    def coverage_setup(self) -> CoverageSetup | None:
        """How to measure coverage (None: not asked); see also ``covered`` and ``coverage_refused``."""
        return self.coverage.setup

    @property
    def coverage_source(self) -> Path | None:
        return self.coverage.source

    @property
    def coverage_refused(self) -> str | None:
        """Why coverage was asked for but not measured (not a Python app of this interpreter)."""
        return self.coverage.refused

    @property
    def coverage_stream(self) -> CoverageStream | None:
        """The lines the app reaches, live (None unless covered)."""
        return self.coverage.stream

    @property
    def covered(self) -> bool:
        """Whether the app was launched under coverage."""
        return self.coverage.covered

    def coverage_report(self) -> CoverageReport | None:
        """Lines and branches hit/total of the app's own files, after it exited; None when not measured
        (see :meth:`.app_coverage.AppCoverage.report`)."""
        if not self.covered:
            return None
        if self.alive:
            raise AppError("the coverage report is read after the app exited (terminate() it first)")
        return self.coverage.report()

    # -- output ---------------------------------------------------------------------------------------
    def text_output(self, stream: str | None = None, since: int = 0) -> str:
        """What the app printed (one stream, or both interleaved) from line ``since`` on; once the app has
        exited, everything it printed."""
        return self.output.text(stream, since, exited=self.process.ended)

    def wait_for_output(self, pattern: str, *, timeout: float) -> bool:
        return self.output.wait_for(pattern, timeout=timeout)

    # -- the window ---------------------------------------------------------------------------------
    def wait_for_window(self, *, timeout: float = 15.0) -> bool:
        """Wait for the app's largest mapped top-level window; False if the app exited or time ran out."""
        return self.window.adopt(timeout)

    @property
    def has_window(self) -> bool:
        return self.window.shown

    def window_geometry(self) -> Geometry:
        """Where the window is on the screen now (see :meth:`.window.AppWindow.geometry`)."""
        return self.window.geometry()

    def unread_display_input(self) -> int | None:
        """Bytes of X events and replies the app's processes have left unread (None: unknown)."""
        return self.process.unread_display_input()

    def dialog(self) -> Dialog | None:
        """A dialog the app shows over its window (a second top-level window), if any."""
        return self.window.dialog()

    def answer(self, dialog: Dialog) -> None:
        """Answer a dialog with its default button (Enter)."""
        self.window.answer(dialog)

    def focus(self) -> None:
        """Give the window keyboard focus; with no window manager, keys go where the focus is set."""
        self.window.focus()
