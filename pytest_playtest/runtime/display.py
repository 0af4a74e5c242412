"""The X display apps run on: one Xvfb per process (per xdist worker), started lazily, orphan-proof.

Xvfb is started with ``-displayfd``: it picks a free display number itself and writes it to a pipe the
moment it accepts connections, so the start waits exactly as long as the server needs (no fixed poll that
fails under load), within a generous bound. A server that exits before it is ready is started again; the
error of the last attempt quotes Xvfb's own output. It runs under ``setpriv --pdeathsig KILL``, so it dies
with the process that started it even when that process is SIGKILLed, and the test process's
``os.environ["DISPLAY"]`` is never touched. ``--playtest-display :N`` uses an existing server instead.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DisplayError, XvfbMissing
from ..geometry import DEFAULT_SIZE
from .scratch import scratch_dir

if TYPE_CHECKING:
    from .xinput import XInput

#: The longest a start may take before it counts as failed (Xvfb answers in milliseconds when idle; a
#: machine busy loading OCR models took over 10 s). The wait ends as soon as the server is ready.
START_BOUND = 60.0
#: Starts of Xvfb before giving up (a server that dies during its start is started again).
START_ATTEMPTS = 3
#: How much of Xvfb's output an error quotes.
OUTPUT_TAIL = 1500


def xvfb_argv(size: tuple[int, int], displayfd: int) -> list[str]:
    """The command that starts Xvfb (dying with its parent when ``setpriv`` is there)."""
    real = shutil.which("Xvfb")
    if real is None:
        raise XvfbMissing(
            "Xvfb is not installed: install it (Debian: apt-get install xvfb) or pass "
            "--playtest-display :N to use a running X server"
        )
    width, height = size
    # -nolisten tcp: the server is reachable through its local socket only
    argv = [real, "-displayfd", str(displayfd), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
            "-noreset"]
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--", *argv] if setpriv else argv


class XvfbProcess:
    """One running Xvfb: its process, display name and output log."""

    def __init__(self, size: tuple[int, int], log: Path) -> None:
        self.log = log
        read_fd, write_fd = os.pipe()
        try:
            with open(log, "ab") as out:
                self.proc = subprocess.Popen(xvfb_argv(size, write_fd), pass_fds=(write_fd,),
                                             stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        except OSError as exc:
            os.close(read_fd)
            raise DisplayError(f"could not start Xvfb: {exc}") from None
        finally:
            os.close(write_fd)
        try:
            self.name = self._ready(read_fd)
        finally:
            os.close(read_fd)

    def _ready(self, read_fd: int) -> str:
        """Wait until Xvfb writes its display number (it is then accepting connections)."""
        received = b""
        deadline = time.monotonic() + START_BOUND
        while not received.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise DisplayError(f"Xvfb was not ready within {START_BOUND:g}s{self.output()}")
            readable, _, _ = select.select([read_fd], [], [], min(left, 0.5))
            if readable:
                chunk = os.read(read_fd, 64)
                if not chunk:  # the pipe closed: Xvfb exited before it was ready
                    break
                received += chunk
            elif self.proc.poll() is not None:
                break
        if not received.strip().isdigit():
            code = self.proc.wait()
            raise DisplayError(f"Xvfb exited with code {code} before it was ready{self.output()}")
        return f":{int(received)}"

    def output(self) -> str:
        """Xvfb's own words, for an error message."""
        try:
            text = self.log.read_text(errors="replace").strip()
        except OSError:
            return ""
        return f"; Xvfb said:\n{text[-OUTPUT_TAIL:]}" if text else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # lets it remove its lock file and socket
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Display:
    """An X display: a private Xvfb started on first use, or an existing server (``existing=":N"``)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, existing: str | None = None) -> None:
        self.size = size
        self.existing = existing
        self._xvfb: XvfbProcess | None = None
        self._workdir: Path | None = None
        self._environ: dict[str, str] = {}
        self._xlib: Any = None
        self._input: XInput | None = None
        self._lock = threading.RLock()
        #: Starts that failed before the one that worked (their errors), for the curious.
        self.failed_starts: list[str] = []

    # -- life cycle ---------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return bool(self._environ)

    @property
    def name(self) -> str:
        self.start()
        return self._environ["DISPLAY"]

    @property
    def pid(self) -> int | None:
        """The Xvfb process id (setpriv execs it: same process), or None for an existing display."""
        return self._xvfb.proc.pid if self._xvfb is not None else None

    def start(self) -> None:
        """Start the server if needed; raises DisplayError with the cause."""
        with self._lock:
            if self.started:
                return
            if self.existing:
                self._environ = {"DISPLAY": self.existing}
                if os.environ.get("XAUTHORITY"):
                    self._environ["XAUTHORITY"] = os.environ["XAUTHORITY"]
                self.xlib()  # fail now, clearly, if the server is not there
                return
            self._workdir = scratch_dir("playtest-display-")
            log = self._workdir / "xvfb.log"
            for attempt in range(1, START_ATTEMPTS + 1):
                try:
                    self._xvfb = XvfbProcess(self.size, log)
                    break
                except XvfbMissing:
                    self._cleanup_workdir()
                    raise
                except DisplayError as exc:
                    self.failed_starts.append(str(exc))
                    if attempt == START_ATTEMPTS:
                        self._cleanup_workdir()
                        raise DisplayError(f"could not start Xvfb ({attempt} attempts): {exc}") from None
                    log.write_text("")  # the next attempt's error quotes only its own output
            assert self._xvfb is not None
            self._environ = {"DISPLAY": self._xvfb.name}

    def stop(self) -> None:
        with self._lock:
            if self._xlib is not None:
                try:
                    self._xlib.close()
                except Exception:  # noqa: BLE001 - a dead server cannot refuse a close any better
                    pass
                self._xlib = None
            if self._xvfb is not None:
                self._xvfb.stop()
                self._xvfb = None
            self._environ = {}
            self._input = None
            self._cleanup_workdir()

    def _cleanup_workdir(self) -> None:
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    # -- what clients of the display need -------------------------------------------------------
    def env(self) -> dict[str, str]:
        """The variables an X client needs to reach this display (DISPLAY, XAUTHORITY)."""
        self.start()
        return dict(self._environ)

    def xlib(self) -> Any:
        """A shared python-xlib connection to the display (opened on first use)."""
        with self._lock:
            if self._xlib is None:
                from Xlib import display as xdisplay
                from Xlib.error import DisplayError as XDisplayError

                name = self._environ.get("DISPLAY") or self.name
                try:
                    self._xlib = xdisplay.Display(name)
                except (XDisplayError, OSError, ConnectionError) as exc:
                    raise DisplayError(f"cannot connect to X display {name}: {exc}") from None
            return self._xlib

    def input(self) -> XInput:
        """Real input (XTest) on this display's connection."""
        with self._lock:
            if self._input is None:
                from .xinput import XInput

                self._input = XInput(self.xlib())
            return self._input
