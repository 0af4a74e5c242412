"""Where a frozen Python app is stuck: the stacks of its threads, dumped on a signal, read by the tester.

A hang is a loop that never ends, and one stack shows only where that loop happened to be: often inside a
function the loop calls, or the standard library's. So the tester samples the stack twice and names the
innermost ``while`` loop of the app's code that encloses a frame of both samples (a bounded loop in a function
the endless one calls is left between the samples; the endless one never is); with no such loop, the innermost
frame of the app's code in the first sample. The same samples, taken seconds apart, also show a hang whose X
connection looks live: an event handler that never returns (``handler_loop``).

The app's start-up hook (``seeding/sitecustomize.py``, the one that seeds its randomness) arms
``faulthandler`` on ``STACK_SIGNAL`` when ``PLAYTEST_STACKS`` names a file, and writes ``ARMED`` there. The
dump is written by faulthandler's C handler, at once, whatever the app's Python code is doing (a ``while`` that
never ends, a sleep in a loop). The signal is sent only to a launch whose hook armed itself: to any other
process it would be fatal. The wait for the dump is bounded: a launch that does not answer gives no stack.
"""

from __future__ import annotations

import ast
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
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
#: [s] between the two samples of a frozen app's stack: long enough for a bounded inner loop to end
SAMPLE_GAP = 0.1
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


def own_stack(text: str, root: Path) -> list[Frame]:
    """The frames of the app's own code, innermost first, in the thread that runs the app's script (its
    outermost own frame is module code: the GUI's main loop was called from there), else in the first thread
    that runs any of the app's code."""
    return [frame for frame in app_thread(text, root) if is_own(frame.file, root)]


def app_thread(text: str, root: Path) -> list[Frame]:
    """All frames, innermost first, of the thread ``own_stack`` reads."""
    running = [stack for stack in threads(text) if any(is_own(frame.file, root) for frame in stack)]
    main = next((stack for stack in running
                 if [frame for frame in stack if is_own(frame.file, root)][-1].function == "<module>"), None)
    return main or (running[0] if running else [])


@dataclass(frozen=True)
class Stuck:
    """Where a frozen app is stuck: ``frame`` names the endless loop's header when one was found (``loop``),
    else the innermost frame of the app's code; ``sampled`` is that innermost frame."""

    frame: Frame
    sampled: Frame
    loop: bool


def stuck_at(dumps: Sequence[str], root: Path) -> Stuck | None:
    """Where the app is stuck, from one or more samples of its stack (see the module's docstring)."""
    stacks = [own_stack(text, root) for text in dumps]
    if not stacks or not stacks[0]:
        return None
    sampled = stacks[0][0]
    trees: dict[str, ast.Module | None] = {}
    loops = [_loops_of(stack, root, trees) for stack in stacks if stack]
    common = next((loop for loop in loops[0] if all(loop in other for other in loops[1:])), None)
    return Stuck(common or sampled, sampled, common is not None)


def handler_loop(dumps: Sequence[str], root: Path) -> Stuck | None:
    """The endless loop an event handler of the app's code is in, when every sample shows one: the same
    ``while`` loop of its own code (``stuck_at``), in a function the toolkit called back (library code lies
    between it and the app's outer code: a button's command run by Tk's main loop, an ``update`` run by a game
    framework), and not one that hands control back (a coroutine's or a generator's loop awaits or yields).
    While a handler runs, its toolkit handles no other event: one that never returns has hung the app, however
    its X connection looks (a loop that configures widgets reads the connection's events into the toolkit's
    queue, unhandled)."""
    stuck = stuck_at(dumps, root)
    if stuck is None or not stuck.loop or _hands_back(stuck.frame, root):
        return None
    return stuck if all(_called_back(app_thread(text, root), stuck.frame, root) for text in dumps) else None


def _called_back(stack: Sequence[Frame], loop: Frame, root: Path) -> bool:
    """Whether the frame running ``loop`` was called by library code that the app's own code called."""
    inner = next((i for i, frame in enumerate(stack) if (frame.file, frame.function) == (loop.file, loop.function)),
                 None)
    if inner is None:
        return False
    outer = [is_own(frame.file, root) for frame in stack[inner + 1:]]
    library = next((i for i, own in enumerate(outer) if not own), None)
    return library is not None and any(outer[library:])


def _hands_back(loop: Frame, root: Path) -> bool:
    """Whether the function holding a loop awaits or yields (its caller runs between its turns)."""
    path = loop.file if Path(loop.file).is_absolute() else str(root / loop.file)
    tree = _parsed(path)
    if tree is None:
        return False
    holder = next((node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                   and node.name == loop.function and node.lineno <= loop.line <= (node.end_lineno or node.lineno)),
                  None)
    return holder is not None and (isinstance(holder, ast.AsyncFunctionDef) or any(
        isinstance(node, ast.Await | ast.Yield | ast.YieldFrom) for node in ast.walk(holder)))


def _loops_of(stack: Sequence[Frame], root: Path, trees: dict[str, ast.Module | None]) -> list[Frame]:
    """The ``while`` loops enclosing each frame of a stack, innermost first, each as a frame at its header."""
    loops = []
    for frame in stack:
        path = frame.file if Path(frame.file).is_absolute() else str(root / frame.file)
        if path not in trees:
            trees[path] = _parsed(path)
        tree = trees[path]
        headers = enclosing_whiles(tree, frame.line) if tree is not None else []
        loops += [Frame(frame.file, header, frame.function) for header in headers]
    return loops


def _parsed(path: str) -> ast.Module | None:
    try:
        return ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None


def enclosing_whiles(tree: ast.Module, line: int) -> list[int]:
    """The header lines of the ``while`` loops around line ``line`` of a module, innermost first, within the
    function that holds the line (a loop of an outer function does not run inside a nested one)."""
    headers: list[int] = []
    node: ast.AST = tree
    while True:
        inside = next((child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)
                       and child.lineno <= line <= (child.end_lineno or child.lineno)), None)
        if inside is None:
            return headers[::-1]
        if isinstance(inside, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            headers = []
        elif isinstance(inside, ast.While):
            headers.append(inside.lineno)
        node = inside
