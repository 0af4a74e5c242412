"""Where a frozen Python app is stuck: the stacks of its threads, dumped on a signal, read by the tester.

The app's start-up hook (``seeding/sitecustomize.py``, the one that seeds its randomness) arms
``faulthandler`` on ``STACK_SIGNAL`` when ``PLAYTEST_STACKS`` names a file, and writes ``ARMED`` there. The
dump is written by faulthandler's C handler, at once, whatever the app's Python code is doing (a ``while`` that
never ends, a sleep in a loop). The signal is sent only to a launch whose hook armed itself: to any other
process it would be fatal. The wait for the dump is bounded: a launch that does not answer gives no stack.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from .tracebacks import Frame, frames_of, is_own

#: the signal the hook dumps on: a real-time one, which no app sets a handler for by chance
STACK_SIGNAL = signal.SIGRTMIN + 6
#: what the hook writes first to the dump file once faulthandler is armed
ARMED = "playtest: stack dumps armed"
#: the environment the hook reads
STACKS_ENV, SIGNAL_ENV = "PLAYTEST_STACKS", "PLAYTEST_STACK_SIGNAL"
#: [s] how long a dump may take to appear, and how long it must stay the same to be whole
DUMP_WAIT, DUMP_STILL = 1.0, 0.05
THREAD_HEADER = ("Thread 0x", "Current thread 0x")


class StackDumps:
    """The dump file of one launch: the hook's environment, and dumps on request."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def env(self) -> dict[str, str]:
        """What the app's environment must hold for its hook to arm the dumps."""
        return {STACKS_ENV: str(self.path), SIGNAL_ENV: str(int(STACK_SIGNAL))}

    def armed(self) -> bool:
        """Whether the launch's hook armed faulthandler (only then may the signal be sent)."""
        try:
            with self.path.open(encoding="utf-8", errors="replace") as dump:
                return dump.readline().strip() == ARMED
        except OSError:
            return False

    def dump(self, pid: int, *, timeout: float = DUMP_WAIT) -> str | None:
        """Ask the launch (process ``pid``) for its threads' stacks; the dump's text, None when it gave none in
        time (not armed, gone, or the signal not allowed)."""
        if not self.armed():
            return None
        before = self.path.stat().st_size
        try:
            os.kill(pid, STACK_SIGNAL)
        except OSError:
            return None
        deadline, size, since = time.monotonic() + timeout, before, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(DUMP_STILL / 2)
            now = self.path.stat().st_size
            if now != size:
                size, since = now, time.monotonic()
            elif size > before and time.monotonic() - since >= DUMP_STILL:
                break
        if size <= before:
            return None
        with self.path.open("rb") as dump:
            dump.seek(before)
            return dump.read().decode("utf-8", errors="replace")


def threads(text: str) -> list[list[Frame]]:
    """The stacks of a faulthandler dump, one per thread, each innermost first."""
    stacks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith(THREAD_HEADER):
            stacks.append([])
        elif stacks:
            stacks[-1].append(line)
    return [frames_of(lines, innermost_first=True) for lines in stacks]


def stuck_frame(text: str, root: Path) -> Frame | None:
    """The innermost frame of the app's own code in the thread that runs the app's script (its outermost own
    frame is module code: the GUI's main loop was called from there), else in the first thread that runs any
    of the app's code."""
    owned = [[frame for frame in stack if is_own(frame.file, root)] for stack in threads(text)]
    owned = [stack for stack in owned if stack]
    main = next((stack for stack in owned if stack[-1].function == "<module>"), None)
    chosen = main or (owned[0] if owned else None)
    return chosen[0] if chosen else None
