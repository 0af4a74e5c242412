"""Runs a Python app under coverage.py and streams the lines it reaches to the harness.

    python coverage_boot.py --source DIR --data FILE [--fd N] -- app.py [args...]
    python coverage_boot.py --source DIR --data FILE [--fd N] -m module [args...]

(``python -m pytest_playtest.runtime.coverage_boot ...`` works too, but imports the package.)

This file runs inside the untrusted app's process, so it uses the standard library and coverage only.
The app runs as ``__main__`` as Python would run it (sys.argv, sys.path[0], exit codes, tracebacks),
with branch coverage limited to DIR. Every ~20 ms a daemon thread writes the lines and arcs first
reached since its last look to fd N, one compact JSON object per file and line:
``{"f": "path/relative/to/DIR.py", "l": [lines], "a": [[from, to], ...]}``.
The data is saved to FILE on every way out: a return, sys.exit, an uncaught exception, and SIGTERM
(which then still kills the app). SIGTERM is acted on by the main thread's handler or, when the main
thread is stuck in C code that releases the GIL (Tk's event loop, a modal dialog), by the thread,
which learns of it through the signal wakeup fd.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import sys
import threading
import time
from types import ModuleType, TracebackType
from typing import Any

INTERVAL = 0.02
#: Coverage's own warnings would change the app's stderr.
QUIET = ["already-imported", "couldnt-parse", "dynamic-conflict", "fork", "include-ignored", "module-not-imported",
         "module-not-measured", "module-not-python", "no-ctracer", "no-data-collected", "no-source", "no-sysmon",
         "no-sysmon-context", "pth", "trace-changed"]
USAGE = "usage: coverage_boot --source DIR --data FILE [--fd N] (-- script.py | -m module) [args...]"


class Reporter:
    """Copies the collector's data, writes what is new to the harness's pipe, saves on the way out."""

    def __init__(self, cov: Any, source: str, fd: int | None) -> None:
        self.cov, self.source, self.fd = cov, source, fd
        self.raw: dict[str, set[Any]] = {}
        self.sizes: dict[str, int] = {}
        self.lines: dict[str, set[int]] = {}
        self.names: dict[str, str] = {}
        self.pending = b""
        self.lock = threading.RLock()
        self.wake_fd = -1
        self.done = False
        self.handler: Any = None
        self.pid = os.getpid()

    def _name(self, path: str) -> str:
        if path not in self.names:
            relative = os.path.relpath(path, self.source)
            self.names[path] = path if relative.startswith("..") else relative
        return self.names[path]

    def collect(self) -> None:
        """Queue the lines and arcs first seen since the last call."""
        collector = getattr(self.cov, "_collector", None)
        if collector is None or self.fd is None:
            return
        branch = collector.branch
        packed = branch and getattr(getattr(collector, "core", None), "packed_arcs", False)
        out = []
        for path, values in collector.data.copy().items():  # dict and set copies are atomic under the GIL
            if self.sizes.get(path) == len(values):
                continue
            values = values.copy()
            self.sizes[path] = len(values)
            seen = self.raw.setdefault(path, set())
            new = values - seen
            if not new:
                continue
            seen |= new
            if packed:
                new = {_unpack(value) for value in new}
            lines = self.lines.setdefault(path, set())
            fresh = {n for arc in new for n in arc if n > 0} if branch else set(new)
            fresh -= lines
            lines |= fresh
            record = {"f": self._name(path), "l": sorted(fresh), "a": sorted(new) if branch else []}
            out.append(json.dumps(record, separators=(",", ":")) + "\n")
        if out:
            self.pending += "".join(out).encode()

    def send(self, patience: float = 0.0) -> None:
        """Write what is queued; never block the app, only wait up to ``patience`` seconds."""
        deadline = time.monotonic() + patience
        while self.pending and self.fd is not None:
            try:
                self.pending = self.pending[os.write(self.fd, self.pending):]
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    if len(self.pending) > 64 << 20:  # nobody reads: stop streaming, keep running
                        self._close()
                    return
                time.sleep(0.002)
            except OSError:  # EPIPE: the harness stopped listening
                self._close()

    def _close(self) -> None:
        fd, self.fd, self.pending = self.fd, None, b""
        try:
            if fd is not None:
                os.close(fd)
        except OSError:
            pass

    def run(self) -> None:
        while not self.done:
            if self.wake_fd >= 0:
                ready = select.select([self.wake_fd], [], [], INTERVAL)[0]
                terminated = ready and signal.SIGTERM in _drain(self.wake_fd)
                # only while the handler is ours: an app with a handler of its own ends its own way
                if terminated and signal.getsignal(signal.SIGTERM) is self.handler and not _sdl_handles_sigterm():
                    self.stop_on_sigterm(main_thread=False)
            else:
                time.sleep(INTERVAL)
            with self.lock:
                if not self.done:
                    self.collect()
                    self.send()

    def finish(self, stop: bool = True) -> None:
        """Send the last lines and save the data (once)."""
        with self.lock:
            if self.done or os.getpid() != self.pid:  # a forked child saves nothing of its parent's
                return
            self.done = True
            try:
                self.collect()
                self.send(patience=0.5)
                if stop:
                    self.cov.stop()
                self.cov.save()
            except Exception:  # noqa: BLE001 - the app's own exit must not change
                pass

    def on_sigterm(self, signum: int, frame: Any) -> None:
        """The main thread's SIGTERM handler."""
        if _sdl_handles_sigterm():
            import pygame

            pygame.event.post(pygame.event.Event(pygame.QUIT))
        else:
            self.stop_on_sigterm(main_thread=True)

    def stop_on_sigterm(self, main_thread: bool) -> None:
        if self.done:  # saved already: the app is on its way out
            return
        # a thread cannot stop the main thread's tracer: it saves what is there and the process dies
        self.finish(stop=main_thread)
        if main_thread:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        else:
            try:
                import ctypes

                libc = ctypes.CDLL(None)
                libc.signal.argtypes, libc.signal.restype = (ctypes.c_int, ctypes.c_void_p), ctypes.c_void_p
                libc.signal(signal.SIGTERM, None)  # SIG_DFL: only the main thread may call signal.signal
            except Exception:  # noqa: BLE001
                os._exit(128 + signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the signal is on its way
        os._exit(128 + signal.SIGTERM)


def _sdl_handles_sigterm() -> bool:
    """Whether SDL would own SIGTERM here: it installs its handler (which posts a QUIT event) only
    over the default one, so with ours in place, a pygame app's QUIT is posted by ours."""
    pygame = sys.modules.get("pygame")
    hint = os.environ.get("SDL_NO_SIGNAL_HANDLERS")
    if pygame is None or (hint is not None and hint.lower() not in ("0", "false")):
        return False
    try:
        return bool(pygame.display.get_init())
    except Exception:  # noqa: BLE001 - not the pygame we know
        return False


def _unpack(packed: int) -> tuple[int, int]:
    """An arc from the C tracer's packed integer (see coverage's Collector.flush_data)."""
    first, second = packed & 0xFFFFFFF, (packed >> 28) & 0xFFFFFFF
    return (-first if packed & (1 << 56) else first), (-second if packed & (1 << 57) else second)


def _drain(fd: int) -> set[int]:
    signals: set[int] = set()
    try:
        while chunk := os.read(fd, 512):
            signals.update(chunk)
    except OSError:
        pass
    return signals


def _parse(args: list[str]) -> tuple[str, str, int | None, bool, str, list[str]]:
    options: dict[str, str | None] = {"--source": None, "--data": None, "--fd": None}
    while args and args[0] in options:
        if len(args) < 2:
            break
        options[args[0]], args = args[1], args[2:]
    source, data, fd = options["--source"], options["--data"], options["--fd"]
    if source is None or data is None or not args or args[0] not in ("--", "-m") or len(args) < 2:
        sys.exit(USAGE)
    return source, data, int(fd) if fd else None, args[0] == "-m", args[1], args[2:]


def _without(tb: TracebackType | None, own_file: str) -> TracebackType | None:
    """The traceback from the first frame after this file's last one (runpy's too, under ``-m``)."""
    start, frame = tb, tb
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == own_file:
            start = frame.tb_next
        frame = frame.tb_next
    return start


def _report_uncaught(exc: BaseException, own_file: str) -> None:
    """Print an uncaught exception as Python does, without this file's frames."""
    tb = exc.__traceback__ = _without(exc.__traceback__, own_file)
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    try:
        sys.excepthook(type(exc), exc, tb)
    except BaseException as hook_exc:  # noqa: BLE001 - Python reports a failing hook this way
        hook_exc.__suppress_context__ = True
        hook_tb = hook_exc.__traceback__ = _without(hook_exc.__traceback__, own_file)
        print("Error in sys.excepthook:", file=sys.stderr)
        sys.__excepthook__(type(hook_exc), hook_exc, hook_tb)
        print("\nOriginal exception was:", file=sys.stderr)
        sys.__excepthook__(type(exc), exc, tb)


def main() -> None:
    source, data_file, fd, as_module, target, args = _parse(sys.argv[1:])
    source, data_file = os.path.realpath(source), os.path.abspath(data_file)
    own_file = sys._getframe().f_code.co_filename
    if not sys.flags.safe_path:
        del sys.path[0]  # this file's folder, which has a coverage.py of its own; the app's goes in below
    import coverage

    atexit.register(_last_exit_handler)  # registered first, so it runs last
    if fd is not None:
        os.set_blocking(fd, False)
        os.set_inheritable(fd, False)  # the app's children must not keep the pipe open
    main_module = ModuleType("__main__")
    main_module.__dict__["__builtins__"] = sys.modules["builtins"]
    if as_module:
        sys.argv = ["-m", *args]
        path0 = os.getcwd()
    else:
        sys.argv = [target, *args]
        path = os.path.abspath(target)
        try:
            with open(path, "rb") as handle:
                code = compile(handle.read(), path, "exec", dont_inherit=True)
        except OSError as exc:
            print(f"{sys.orig_argv[0]}: can't open file {path!r}: [Errno {exc.errno}] {exc.strerror}",
                  file=sys.stderr)
            sys.exit(2)
        except (SyntaxError, ValueError) as exc:  # Python reports these without a traceback
            _report_uncaught(exc, own_file)
            sys.exit(1)
        from importlib.machinery import SourceFileLoader

        main_module.__file__ = path
        main_module.__loader__ = SourceFileLoader("__main__", path)
        main_module.__spec__ = None
        main_module.__package__ = None
        path0 = os.path.dirname(os.path.realpath(path))
    if not sys.flags.safe_path:  # python -P / -I put no folder first
        sys.path.insert(0, path0)
    _STATE["boot"] = sys.modules.get(__name__)  # keep this module alive once __main__ is the app's
    sys.modules["__main__"] = main_module
    cov = coverage.Coverage(branch=True, source=[source], data_file=data_file, config_file=False)
    cov.set_option("run:disable_warnings", QUIET)
    cov.erase()
    reporter = Reporter(cov, source, fd)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        reporter.handler = reporter.on_sigterm
        signal.signal(signal.SIGTERM, reporter.handler)
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
        reporter.wake_fd = wake_read
    # started before coverage, so the thread itself is not traced
    threading.Thread(target=reporter.run, name="playtest-coverage", daemon=True).start()
    cov.start()
    atexit.register(reporter.finish)  # runs before coverage's own exit handler, after the app's
    try:
        if as_module:
            import runpy

            runpy._run_module_as_main(target, alter_argv=True)  # type: ignore[attr-defined]
        else:
            exec(code, main_module.__dict__)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - uncaught: report it as Python would, exit 1
        _report_uncaught(exc, own_file)
        # Python dies by SIGINT after its exit handlers when a KeyboardInterrupt was not caught
        _STATE["sigint"] = isinstance(exc, KeyboardInterrupt)
        sys.exit(1)


_STATE: dict[str, Any] = {}


def _last_exit_handler() -> None:
    if _STATE.get("sigint"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    main()
