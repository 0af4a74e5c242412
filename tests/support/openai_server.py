"""A real loopback HTTP server speaking the OpenAI Chat Completions wire format, for testing the LLM tester.

It serves ``POST /v1/chat/completions`` on 127.0.0.1 (a free port) and answers from a script, one entry
per request, in order; once the script is used up it repeats ``default``. Script entries:

- ``("click", {"x": 10, "y": 20})``: one tool call (the arguments may also be a raw string, e.g. bad JSON);
- ``"some text"``: an assistant message with that content and no tool call;
- ``Reply(...)``: content and/or several tool calls, with chosen token usage and an optional delay;
- ``Failure(429, "message")``: an HTTP error with an OpenAI-style error body;
- a callable taking the request JSON and returning any of the above.

Every completion carries ``usage`` (``prompt_tokens``/``completion_tokens``, per entry, and
``prompt_tokens_details.cached_tokens`` when the entry gives them). With ``estimate_usage`` the server counts
them itself, as ``policies.request_size`` estimates them: the prompt from the request, the cached tokens as
the head it shares with one of the last requests (an engine that caches prompt prefixes at message
boundaries), the completion from the reply. Every request is recorded in ``requests`` (path, lower-cased
headers, JSON body) for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pytest_playtest.policies.request_size import measure, shared_prefix, text_tokens

COMPLETIONS_PATH = "/v1/chat/completions"


@dataclass
class Reply:
    """One assistant message: text content and/or tool calls ``(name, arguments)``."""

    content: str | None = None
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    prompt_tokens: int = 100
    completion_tokens: int = 20
    #: reported as ``usage.prompt_tokens_details.cached_tokens`` when given
    cached_tokens: int | None = None
    #: seconds to wait before answering (to provoke client timeouts)
    delay: float = 0.0


@dataclass
class Failure:
    """An HTTP error answer with an OpenAI-style body ``{"error": {"message", "type", ...}}``."""

    status: int
    message: str = "simulated failure"
    retry_after: float | None = None


Entry = Reply | Failure | tuple | str | Callable[[dict[str, Any]], "Entry"]


def tool(name: str, arguments: dict[str, Any] | str | None = None, *, content: str | None = None,
         prompt_tokens: int = 100, completion_tokens: int = 20, cached_tokens: int | None = None) -> Reply:
    """A reply with a single tool call, optionally with reasoning text and chosen usage."""
    return Reply(content=content, tool_calls=[(name, arguments if arguments is not None else {})],
                 prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cached_tokens=cached_tokens)


def act(kind: str, fields: dict[str, Any] | None = None, **reply: Any) -> Reply:
    """A reply calling the tester's tool, ``act``, for one input: its kind and fields."""
    return tool("act", {"kind": kind, **(fields or {})}, **reply)


def request_text(request: dict[str, Any]) -> str:
    """All the text a request sends: the system message (the task), then the step's text."""
    texts = []
    for message in request["messages"]:
        content = message["content"]
        texts.extend([content] if isinstance(content, str) else
                     [part["text"] for part in content if part["type"] == "text"])
    return "\n".join(texts)


@dataclass(frozen=True)
class Received:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]
    body: Any


class OpenAIServer:
    """The scripted server; ``url`` is the base URL to give the client (``http://127.0.0.1:PORT/v1``)."""

    def __init__(self, script: Iterable[Entry] = (),
                 default: Entry = ("finish", {"verdict": "pass", "reason": "script exhausted"}), *,
                 estimate_usage: bool = False) -> None:
        self.script: deque[Entry] = deque(script)
        self.default = default
        self.estimate_usage = estimate_usage
        self.requests: list[Received] = []
        #: the usage each completion answered with: (prompt, completion, cached) tokens
        self.usages: list[tuple[int, int, int | None]] = []
        self._lock = threading.Lock()
        self._counter = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------------------------------
    def start(self) -> OpenAIServer:
        owner = self

        class Handler(_Handler):
            server_owner = owner

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01},
                                        name="openai-loopback", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def address(self) -> tuple[str, int]:
        assert self._httpd is not None, "the server is not running"
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}/v1"

    # -- the script ---------------------------------------------------------------------------------------
    def add(self, *entries: Entry) -> None:
        with self._lock:
            self.script.extend(entries)

    def bodies(self) -> list[Any]:
        """The JSON bodies of the completion requests received so far."""
        return [r.body for r in self.requests if r.path == COMPLETIONS_PATH]

    def _answer(self, received: Received) -> tuple[int, dict[str, str], dict[str, Any], float]:
        """Status, extra headers, JSON body and delay for one request."""
        with self._lock:
            earlier = self.bodies()[-CACHED_REQUESTS:]
            self.requests.append(received)
            entry = self.script.popleft() if self.script else self.default
            self._counter += 1
            number = self._counter
        while callable(entry):
            entry = entry(received.body)
        if isinstance(entry, tuple):
            entry = tool(*entry)
        elif isinstance(entry, str):
            entry = Reply(content=entry)
        if isinstance(entry, Failure):
            headers = {"Retry-After": f"{entry.retry_after:g}"} if entry.retry_after is not None else {}
            error = {"message": entry.message, "type": _error_type(entry.status), "param": None, "code": None}
            return entry.status, headers, {"error": error}, 0.0
        if not isinstance(entry, Reply):
            raise TypeError(f"unknown script entry {entry!r}")
        if self.estimate_usage and isinstance(received.body, dict):
            entry = _estimated(entry, received.body, earlier)
        with self._lock:
            self.usages.append((entry.prompt_tokens, entry.completion_tokens, entry.cached_tokens))
        return 200, {}, _completion(entry, number, received.body), entry.delay


#: How many earlier requests the estimated cache remembers.
CACHED_REQUESTS = 4


def _estimated(reply: Reply, body: dict[str, Any], earlier: list[Any]) -> Reply:
    """The reply with the usage the request and the reply's own text come to."""
    written = len(reply.content or "") + sum(len(name) + len(arguments if isinstance(arguments, str)
                                                            else json.dumps(arguments))
                                             for name, arguments in reply.tool_calls)
    cached = max((shared_prefix(body, before) for before in earlier if isinstance(before, dict)), default=0)
    return Reply(content=reply.content, tool_calls=reply.tool_calls, prompt_tokens=measure(body).total,
                 completion_tokens=text_tokens(written), cached_tokens=cached, delay=reply.delay)


def _error_type(status: int) -> str:
    if status == 429:
        return "rate_limit_exceeded"
    return "server_error" if status >= 500 else "invalid_request_error"


def _completion(reply: Reply, number: int, request: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{number}_{index}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for index, (name, arguments) in enumerate(reply.tool_calls)
        ]
    model = request.get("model", "unknown") if isinstance(request, dict) else "unknown"
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{
            "index": 0,
            "message": message,
            "logprobs": None,
            "finish_reason": "tool_calls" if reply.tool_calls else "stop",
        }],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            **({"prompt_tokens_details": {"cached_tokens": reply.cached_tokens}}
               if reply.cached_tokens is not None else {}),
        },
    }


class _Handler(BaseHTTPRequestHandler):
    server_owner: OpenAIServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body: Any = json.loads(raw or b"null")
        except json.JSONDecodeError:
            body = raw.decode("utf-8", "replace")
        received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        if self.path != COMPLETIONS_PATH:
            self.server_owner.requests.append(received)
            error = {"message": f"no route {self.path}", "type": "invalid_request_error"}
            self._send(404, {}, {"error": error})
            return
        status, headers, payload, delay = self.server_owner._answer(received)
        if delay:
            time.sleep(delay)
        self._send(status, headers, payload)

    def _send(self, status: int, headers: dict[str, str], payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (a timeout test); nothing left to tell it

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the test output should show the test's own failures, not an access log."""
