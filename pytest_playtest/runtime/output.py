"""What the app prints: its stdout and stderr read line by line by threads of their own, so a traceback printed by
a Tk callback is seen while the app keeps running.

Once the app has exited, its output is read only after those threads reached the end of its pipes: on a busy
machine they may lag behind the exit, and a crash judged before they caught up would lose its traceback.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any

#: How long the output of an app that has exited may take to be read to the end of its pipes: the readers
#: are seconds behind only on a very busy machine; a pipe still open after that is held by a child the app
#: left running, which may never close it.
OUTPUT_DRAIN = 2.0


@dataclass(frozen=True)
class OutputLine:
    stream: str
    text: str
    time: float


class Output:
    """The lines an app printed on both streams, in the order they were read."""

    def __init__(self) -> None:
        self.lines: list[OutputLine] = []
        self._changed = threading.Condition()
        self._readers: list[threading.Thread] = []
        self._drain_deadline: float | None = None  # set when the app's output is first read after its exit

    def follow(self, proc: subprocess.Popen[bytes]) -> None:
        """Read the process's stdout and stderr as it prints."""
        for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr)):
            reader = threading.Thread(target=self._read, args=(name, stream), daemon=True,
                                      name=f"playtest-{name}-{proc.pid}")
            reader.start()
            self._readers.append(reader)

    def _read(self, name: str, stream: Any) -> None:
        for raw in iter(stream.readline, b""):
            line = OutputLine(name, raw.decode("utf-8", "replace").rstrip("\n"), time.monotonic())
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        stream.close()

    def text(self, stream: str | None = None, since: int = 0, *, exited: bool) -> str:
        """What was printed (one stream, or both interleaved) from line ``since`` on; once the app has ``exited``,
        everything it printed."""
        if exited:
            self._drain()
        with self._changed:
            lines = self.lines[since:]
        return "\n".join(line.text for line in lines if stream is None or line.stream == stream)

    def _drain(self) -> None:
        """Wait until the readers reached the end of the pipes, at most OUTPUT_DRAIN seconds after the first
        read of the exited app's output (a pipe a child holds open does not delay every later read)."""
        if self._drain_deadline is None:
            self._drain_deadline = time.monotonic() + OUTPUT_DRAIN
        for reader in self._readers:
            reader.join(max(self._drain_deadline - time.monotonic(), 0.0))

    def wait_for(self, pattern: str, *, timeout: float) -> bool:
        """Whether a line matching ``pattern`` is printed within ``timeout`` seconds (or was already)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                if any(regex.search(line.text) for line in self.lines):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)

    def join(self, timeout: float) -> None:
        """Wait for each reader to reach the end of its pipe, at most ``timeout`` seconds each."""
        for reader in self._readers:
            reader.join(timeout=timeout)
