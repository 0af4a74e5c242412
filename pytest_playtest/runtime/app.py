"""The app under test: launched as untrusted code, watched, and killed with everything it started.

The app runs in its own session/process group with a scrubbed environment (no API keys or tokens);
its whole group is killed on teardown, and by a watchdog if the test process itself is killed. Its stdout
and stderr are read continuously by threads, so a traceback printed by a Tk callback is seen while
the app keeps running. Once it has exited, its output is read only after those threads reached the end of
its pipes (see :meth:`App.text_output`): on a busy machine they may lag behind the exit, and a crash
judged before they caught up would lose its traceback.

With ``coverage=CoverageSetup(...)`` a Python app runs under coverage.py through the bootstrap
(:mod:`.coverage_boot`): the lines it reaches stream in while it runs (``app.coverage_stream``) and
teardown gives it time to save its data (see :meth:`App.terminate`).

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
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import AppError, CoverageError, SandboxError
from .coverage import CoverageReport, CoverageSetup, CoverageStream, coverage_argv, default_source, report
from .procfs import group_pids, unread_display_bytes
from .sandbox import Sandbox, exit_code, sandboxed_pid

if TYPE_CHECKING:
    from .display import Display

#: Seconds a running app may go without a window between destroying one and showing its replacement.
WINDOW_GAP = 0.5

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


@dataclass(frozen=True)
class Geometry:
    """The window's client area in root (screen) coordinates."""

    x: int
    y: int
    width: int
    height: int


@dataclass(frozen=True)
class OutputLine:
    stream: str
    text: str
    time: float


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


#: The ClientMessage type that wakes a covered app blocked in its toolkit's event loop at teardown.
WAKE_ATOM = "_PLAYTEST_WAKE"
#: How long the output of an app that has exited may take to be read to the end of its pipes: the readers
#: are seconds behind only on a very busy machine; a pipe still open after that is held by a child the app
#: left running, which may never close it.
OUTPUT_DRAIN = 2.0
#: How long :attr:`App.pid` waits for a sandboxed app to appear inside its sandbox.
SANDBOX_START = 5.0

#: How often teardown repeats the wake-up while it waits for a covered app to save and exit.
WAKE_INTERVAL = 0.25

#: Kills the app's process group once its stdin closes: that happens when the test process dies, even
#: by SIGKILL, so nothing the app started (children included) outlives the test run.
WATCHDOG = 'read -r _; kill -9 -"$0" 2>/dev/null'


def _ignore_x_error(*_: Any) -> bool:
    """An X error handler that drops the error: python-xlib prints it unless the handler returns true."""
    return True


class App:
    """A running app under test."""

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
        self._inner_pid: int | None = None
        self.cwd = Path(cwd) if cwd else None
        self.argv = app_argv(target, self.cwd)
        #: How to measure coverage (None: not asked); see also ``covered`` and ``coverage_refused``.
        self.coverage_setup = coverage
        self.coverage_source: Path | None = None
        #: Why coverage was asked for but not measured (not a Python app of this interpreter).
        self.coverage_refused: str | None = None
        #: The lines the app reaches, live (None unless covered).
        self.coverage_stream: CoverageStream | None = None
        self.launch_argv = self.argv
        #: File descriptors the app inherits (a browser's DevTools pipes).
        self.pass_fds: tuple[int, ...] = ()
        self.env = scrubbed_environment(display.env(), env)
        if seed is not None:
            self.env.update(seeded_environment(seed, self.env))
        self.output: list[OutputLine] = []
        self._output_changed = threading.Condition()
        self._readers: list[threading.Thread] = []
        self._drain_deadline: float | None = None  # set when the app's output is first read after its exit
        self._window: Any = None
        self.proc: subprocess.Popen[bytes] | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None

    # -- life cycle ---------------------------------------------------------------------------------
    def start(self) -> App:
        read_fd = write_fd = None
        if self.coverage_setup is not None:
            read_fd, write_fd = self._prepare_coverage(self.coverage_setup)
        argv, env = self.launch_argv, self.env
        try:
            if self.sandbox is not None:
                argv, env = self.sandbox.wrap(argv, env)
            self.proc = subprocess.Popen(
                argv,
                cwd=self.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                pass_fds=self.pass_fds if write_fd is None else (*self.pass_fds, write_fd),
            )
        except (OSError, SandboxError) as exc:
            if read_fd is not None:
                os.close(read_fd)
            raise AppError(f"could not start {shlex.join(self.argv)}: {exc}") from None
        finally:
            if write_fd is not None:
                os.close(write_fd)
        if read_fd is not None:
            self.coverage_stream = CoverageStream(read_fd).start()
        self._watchdog = subprocess.Popen(["sh", "-c", WATCHDOG, str(self.proc.pid)], stdin=subprocess.PIPE,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)
        for name, stream in (("stdout", self.proc.stdout), ("stderr", self.proc.stderr)):
            reader = threading.Thread(target=self._read, args=(name, stream), daemon=True,
                                      name=f"playtest-{name}-{self.proc.pid}")
            reader.start()
            self._readers.append(reader)
        return self

    def _prepare_coverage(self, setup: CoverageSetup) -> tuple[int | None, int | None]:
        """Wrap the argv in the coverage bootstrap; the pipe's (read, write) fds when it streams."""
        source = default_source(self.argv, self.cwd)
        if source is None:
            self.coverage_refused = f"not a Python app of {sys.executable}: {shlex.join(self.argv)}"
            return None, None
        if setup.source is not None:
            source = (self.cwd or Path.cwd()) / setup.source  # an absolute source stays as it is
        self.coverage_source = source.resolve()
        data_file = Path(setup.data_file).absolute()
        try:
            data_file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AppError(f"cannot write coverage data to {data_file}: {exc}") from None
        read_fd, write_fd = os.pipe() if setup.stream else (None, None)
        wrapped = coverage_argv(self.argv, self.coverage_source, data_file, write_fd)
        assert wrapped is not None
        self.launch_argv = wrapped
        return read_fd, write_fd

    @property
    def covered(self) -> bool:
        """Whether the app was launched under coverage."""
        return self.coverage_source is not None

    def _read(self, name: str, stream: Any) -> None:
        for raw in iter(stream.readline, b""):
            line = OutputLine(name, raw.decode("utf-8", "replace").rstrip("\n"), time.monotonic())
            with self._output_changed:
                self.output.append(line)
                self._output_changed.notify_all()
        stream.close()

    @property
    def pid(self) -> int:
        """The app's own process (inside its sandbox, when it has one; the sandbox's while it starts)."""
        if self.proc is None:
            raise AppError("the app has not been started")
        if self.sandbox is None:
            return self.proc.pid
        deadline = time.monotonic() + SANDBOX_START
        while self._inner_pid is None and self.proc.poll() is None and time.monotonic() < deadline:
            self._inner_pid = sandboxed_pid(self.proc.pid)
            if self._inner_pid is None:
                time.sleep(0.005)
        return self._inner_pid or self.proc.pid

    def poll(self) -> int | None:
        """The exit code (negative: killed by that signal), or None while it runs."""
        if self.proc is None:
            return None
        code = self.proc.poll()
        return exit_code(code) if self.sandbox is not None else code

    def limit_hit(self) -> str | None:
        """Which sandbox limit stopped the app (None: none did, or no sandbox)."""
        if self.sandbox is None or self.alive:
            return None
        return self.sandbox.limit_hit(self.poll(), self.text_output())

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait(self, timeout: float) -> int | None:
        try:
            code = self.proc.wait(timeout) if self.proc else None
        except subprocess.TimeoutExpired:
            return None
        return exit_code(code) if self.sandbox is not None else code

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
        pgid = self.proc.pid
        if self.proc.poll() is None:
            if self.covered and self.coverage_setup is not None:
                self._stop_saving(max(grace, self.coverage_setup.grace))
            else:
                try:
                    if self.sandbox is not None:
                        os.kill(self.pid, signal.SIGTERM)
                    else:
                        os.killpg(pgid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                self.wait(grace)
        # whatever is left of the group, including children that ignored SIGTERM, goes now
        for _ in range(50):
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                break
            if not group_pids(pgid):
                break
            time.sleep(0.01)
        code = self.wait(5)
        if self.sandbox is not None:
            self.sandbox.close()
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            if self._watchdog.stdin is not None:
                self._watchdog.stdin.close()
            self._watchdog = None
        for reader in self._readers:
            reader.join(timeout=2)
        if self.coverage_stream is not None:
            self.coverage_stream.join(timeout=2)
        return code

    def _stop_saving(self, grace: float) -> None:
        """SIGTERM to the covered app itself, woken up until it exits or ``grace`` runs out."""
        assert self.proc is not None
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace
        while True:
            self.wake()
            left = deadline - time.monotonic()
            if left <= 0 or self.wait(min(WAKE_INTERVAL, left)) is not None:
                return

    def wake(self) -> int:
        """Send a ClientMessage to the app's windows: a Tk app blocked in Tcl_DoOneEvent returns to
        Python and runs its pending signal handlers. Returns how many windows were sent one."""
        try:
            from Xlib.protocol import event

            conn = self.display.xlib()
            windows = {window.id: window for window in self._top_level_windows()} if self.alive else {}
            if self._window is not None:
                windows.setdefault(self._window.id, self._window)
            atom = conn.intern_atom(WAKE_ATOM)
            for window in windows.values():
                message = event.ClientMessage(window=window, client_type=atom, data=(32, [0] * 5))
                # an empty event mask delivers it to the client that created the window; a window
                # destroyed meanwhile answers BadWindow later, which must not be printed
                window.send_event(message, event_mask=0, propagate=False, onerror=_ignore_x_error)
            conn.flush()
        except Exception:  # noqa: BLE001 - a dead display or window must not stop the teardown
            return 0
        return len(windows)

    def coverage_report(self) -> CoverageReport | None:
        """Lines and branches hit/total of the app's own files, after it exited; None when not measured.

        When the app could not save its data (it ignored SIGTERM and was killed), the report is
        made from what it streamed (files it never ran are then missing from it).
        """
        if not self.covered or self.coverage_setup is None or self.coverage_source is None:
            return None
        if self.alive:
            raise AppError("the coverage report is read after the app exited (terminate() it first)")
        data_file = Path(self.coverage_setup.data_file).absolute()
        try:
            measured = report(data_file, self.coverage_source)
        except CoverageError:
            measured = None
        if (measured is None or not measured.files) and self.coverage_stream is not None \
                and self.coverage_stream.total_lines():
            self.coverage_stream.save(data_file, self.coverage_source)
            try:
                measured = report(data_file, self.coverage_source)
            except CoverageError:
                return None
        return measured

    @property
    def exit_signal(self) -> str | None:
        code = self.poll()
        if code is not None and code < 0:
            try:
                return signal.Signals(-code).name
            except ValueError:
                return f"signal {-code}"
        return None

    # -- output ---------------------------------------------------------------------------------------
    def text_output(self, stream: str | None = None, since: int = 0) -> str:
        """What the app printed (one stream, or both interleaved) from line ``since`` on; once the app has
        exited, everything it printed."""
        if self.proc is not None and self.proc.poll() is not None:
            self._drain()
        with self._output_changed:
            lines = self.output[since:]
        return "\n".join(line.text for line in lines if stream is None or line.stream == stream)

    def _drain(self) -> None:
        """Wait until the readers reached the end of the pipes, at most OUTPUT_DRAIN seconds after the first
        read of the exited app's output (a pipe a child holds open does not delay every later read)."""
        if self._drain_deadline is None:
            self._drain_deadline = time.monotonic() + OUTPUT_DRAIN
        for reader in self._readers:
            reader.join(max(self._drain_deadline - time.monotonic(), 0.0))

    def wait_for_output(self, pattern: str, *, timeout: float) -> bool:
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._output_changed:
            while True:
                if any(regex.search(line.text) for line in self.output):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._output_changed.wait(left)

    # -- the window ---------------------------------------------------------------------------------
    def _top_level_windows(self) -> list[Any]:
        from Xlib import X
        from Xlib.error import XError
        from Xlib.ext import res

        conn = self.display.xlib()
        if not conn.has_extension("X-Resource"):
            raise AppError("the X server has no X-Resource extension: cannot map windows to processes")
        pids = set(group_pids(self.proc.pid if self.proc else self.pid))
        found = []
        for window in conn.screen().root.query_tree().children:
            try:
                attributes = window.get_attributes()
                if attributes.map_state != X.IsViewable or attributes.win_class != X.InputOutput:
                    continue
                geometry = window.get_geometry()
                if geometry.width < 8 or geometry.height < 8:
                    continue
                reply = conn.res_query_client_ids([{"client": window.id, "mask": res.LocalClientPIDMask}])
            except XError:
                continue  # the window went away while we looked
            owners = {value for entry in reply.ids for value in entry.value}
            if owners & pids:
                found.append((geometry.width * geometry.height, window))
        return [window for _, window in sorted(found, key=lambda pair: -pair[0])]

    def wait_for_window(self, *, timeout: float = 15.0) -> bool:
        """Wait for the app's largest mapped top-level window; False if the app exited or time ran out."""
        return self._adopt_window(timeout)

    def _adopt_window(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive:
                return False
            windows = self._top_level_windows()
            if windows:
                self._window = windows[0]
                return True
            time.sleep(0.01)
        return False

    @property
    def has_window(self) -> bool:
        return self._window is not None

    def window_geometry(self) -> Geometry:
        """Where the window is on the screen now (it may have moved or been resized).

        An app that destroys its window while still running may be replacing it (SDL may, while it sets
        up): its new window is adopted when one appears within WINDOW_GAP seconds.
        """
        if self._window is None:
            raise AppError("the app has no window (yet)")
        from Xlib.error import XError

        try:
            return self._geometry()
        except XError as exc:
            if not self._adopt_window(WINDOW_GAP):
                raise AppError(f"the app window is gone: {exc}") from None
        try:
            return self._geometry()
        except XError as exc:
            raise AppError(f"the app window is gone: {exc}") from None

    def _geometry(self) -> Geometry:
        geometry = self._window.get_geometry()
        origin = self.display.xlib().screen().root.translate_coords(self._window, 0, 0)
        return Geometry(origin.x, origin.y, geometry.width, geometry.height)

    def unread_display_input(self) -> int | None:
        """Bytes of X events and replies the app's processes have left unread (None: unknown)."""
        if self.proc is None or not self.alive:
            return None
        return unread_display_bytes(group_pids(self.proc.pid))

    def focus(self) -> None:
        """Give the window keyboard focus; with no window manager, keys go where the focus is set."""
        from Xlib import X
        from Xlib.error import XError

        if self._window is None:
            return
        try:
            self._window.set_input_focus(X.RevertToParent, X.CurrentTime)
            self.display.xlib().sync()
        except XError:
            pass
