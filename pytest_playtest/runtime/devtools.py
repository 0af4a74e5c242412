"""A small client of the Chrome DevTools protocol over ``--remote-debugging-pipe``.

Chromium reads commands from its fd 3 and writes replies and events to its fd 4, each a JSON object
ending in a NUL byte. No TCP port is opened, so no other process on the machine can drive the browser.
A reader thread splits the stream: replies go to the call waiting for their id, events are kept in
order for whoever asks (``events_since``). Why a hand-written client: see docs/web-apps.md.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import DevToolsError, DevToolsTimeout

#: How long a command may take before the client stops waiting for it (seconds).
DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Event:
    """One protocol event: its method, parameters, and the page session it came from ("" for the browser)."""

    method: str
    params: dict[str, Any]
    session: str = ""
    time: float = field(default_factory=time.monotonic)


class DevTools:
    """The protocol connection to one browser: ``call`` commands, read ``events_since``."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._reader = os.fdopen(read_fd, "rb", buffering=0)
        self._writer = os.fdopen(write_fd, "wb", buffering=0)
        self._write_lock = threading.Lock()
        self._changed = threading.Condition()
        self._next_id = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._waiting: set[int] = set()
        self.events: list[Event] = []
        #: called on the reader thread for events of their method (they must not wait for replies)
        self._handlers: dict[str, Callable[[Event], None]] = {}
        self.closed = False
        self._thread = threading.Thread(target=self._read, daemon=True, name="playtest-devtools")
        self._thread.start()

    def on(self, method: str, handler: Callable[[Event], None]) -> None:
        """Call ``handler`` with every event of ``method`` as it arrives (on the reader thread: it may
        ``send`` commands, never wait for a reply)."""
        self._handlers[method] = handler

    def send(self, method: str, params: dict[str, Any] | None = None, *, session: str = "") -> None:
        """Send a command without waiting for its reply (dropped when it comes); a closed pipe is ignored."""
        with self._changed:
            self._next_id += 1
            ident = self._next_id
        try:
            self._write(ident, method, params, session)
        except (OSError, ValueError):  # ValueError: our end was closed already
            pass

    def _write(self, ident: int, method: str, params: dict[str, Any] | None, session: str) -> None:
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self._write_lock:
            self._writer.write(json.dumps(message).encode() + b"\0")

    def call(self, method: str, params: dict[str, Any] | None = None, *, session: str = "",
             timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Send a command and wait for its result; raises DevToolsTimeout or DevToolsError."""
        with self._changed:
            self._next_id += 1
            ident = self._next_id
            self._waiting.add(ident)
        try:
            self._write(ident, method, params, session)
        except OSError as exc:
            self._forget(ident)
            raise DevToolsError(f"the browser's pipe is closed ({exc})") from None
        deadline = time.monotonic() + timeout
        with self._changed:
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if self.closed or left <= 0:
                    self._waiting.discard(ident)
                    if self.closed:
                        raise DevToolsError(f"the browser closed its pipe before answering {method}")
                    raise DevToolsTimeout(f"{method} was not answered within {timeout:g}s")
                self._changed.wait(left)
            self._waiting.discard(ident)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise DevToolsError(f"{method}: {reply['error'].get('message', reply['error'])}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def _forget(self, ident: int) -> None:
        with self._changed:
            self._waiting.discard(ident)

    def events_since(self, index: int) -> list[Event]:
        """The events received after the first ``index`` ones."""
        with self._changed:
            return self.events[index:]

    def _read(self) -> None:
        buffer = b""
        while chunk := self._read_chunk():
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                self._dispatch(raw)
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def _read_chunk(self) -> bytes:
        try:
            return self._reader.read(65536) or b""
        except (OSError, ValueError):
            return b""

    def _dispatch(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return  # not a protocol message: nothing waits for it
        event = None
        with self._changed:
            if "id" in message:
                if message["id"] in self._waiting:  # a reply nobody waits for any more is dropped
                    self._replies[message["id"]] = message
            elif "method" in message:
                event = Event(message["method"], message.get("params", {}), message.get("sessionId", ""))
                self.events.append(event)
            self._changed.notify_all()
        handler = self._handlers.get(event.method) if event is not None else None
        if handler is not None and event is not None:
            handler(event)

    def close(self) -> None:
        """Close our ends of the pipes (the reader ends when the browser's end closes too)."""
        for stream in (self._writer, self._reader):
            try:
                stream.close()
            except OSError:
                pass
        self._thread.join(timeout=2)
