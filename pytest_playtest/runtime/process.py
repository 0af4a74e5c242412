"""The app's processes: started in a session of their own (inside the sandbox, when there is one), watched by a
watchdog that kills the whole group if the test process itself is killed, and stopped with everything they started.

In a sandbox, ``proc`` is bubblewrap and :attr:`AppProcess.pid` the app inside it, which is signalled itself:
signalled as a group, bwrap would die first and SIGKILL the app before it could shut down cleanly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import AppError
from .procfs import group_pids, unread_display_bytes
from .sandbox import Sandbox, exit_code, sandboxed_pid

#: How long :attr:`AppProcess.pid` waits for a sandboxed app to appear inside its sandbox.
SANDBOX_START = 5.0

#: Kills the app's process group once its stdin closes: that happens when the test process dies, even
#: by SIGKILL, so nothing the app started (children included) outlives the test run.
WATCHDOG = 'read -r _; kill -9 -"$0" 2>/dev/null'


class AppProcess:
    """The app's process group: started, watched, signalled and reaped."""

    def __init__(self, sandbox: Sandbox | None) -> None:
        #: The box the app runs in (None: its own process group only).
        self.sandbox = sandbox
        self.proc: subprocess.Popen[bytes] | None = None
        self._inner_pid: int | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None

    def spawn(self, argv: Sequence[str], env: Mapping[str, str], *, cwd: Path | None,
              pass_fds: tuple[int, ...]) -> subprocess.Popen[bytes]:
        """Start ``argv`` in a session of its own, its output piped; raises OSError or SandboxError when it cannot
        be started."""
        if self.sandbox is not None:
            argv, env = self.sandbox.wrap(argv, env)
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=pass_fds,
        )
        return self.proc

    def guard(self) -> None:
        """Start the watchdog that kills the group when the test process dies."""
        assert self.proc is not None
        self._watchdog = subprocess.Popen(["sh", "-c", WATCHDOG, str(self.proc.pid)], stdin=subprocess.PIPE,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)

    @property
    def group(self) -> int:
        """The process group: its leader is the first process started (the sandbox, when there is one)."""
        if self.proc is None:
            raise AppError("the app has not been started")
        return self.proc.pid

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

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def ended(self) -> bool:
        """Whether it was started and has exited."""
        return self.proc is not None and self.proc.poll() is not None

    def poll(self) -> int | None:
        """The exit code (negative: killed by that signal), or None while it runs."""
        if self.proc is None:
            return None
        code = self.proc.poll()
        return exit_code(code) if self.sandbox is not None else code

    def wait(self, timeout: float) -> int | None:
        try:
            code = self.proc.wait(timeout) if self.proc else None
        except subprocess.TimeoutExpired:
            return None
        return exit_code(code) if self.sandbox is not None else code

    @property
    def exit_signal(self) -> str | None:
        code = self.poll()
        if code is not None and code < 0:
            try:
                return signal.Signals(-code).name
            except ValueError:
                return f"signal {-code}"
        return None

    def unread_display_input(self) -> int | None:
        """Bytes of X events and replies the app's processes have left unread (None: unknown)."""
        if self.proc is None or not self.alive:
            return None
        return unread_display_bytes(group_pids(self.proc.pid))

    def signal_app(self, signum: signal.Signals) -> bool:
        """Send the app's own process a signal; False when it is gone already."""
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            return False
        return True

    def stop(self, grace: float) -> None:
        """SIGTERM (to the group, or in a sandbox to the app itself), then ``grace`` seconds to exit."""
        try:
            if self.sandbox is not None:
                os.kill(self.pid, signal.SIGTERM)
            else:
                os.killpg(self.group, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.wait(grace)

    def reap(self) -> int | None:
        """SIGKILL whatever is left of the group, children that ignored SIGTERM included; close the sandbox and
        the watchdog. Returns the exit code."""
        pgid = self.group
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
        return code
