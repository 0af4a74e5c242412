"""Python's error reports in an app's output: where a traceback starts, where it ends, what it says.

One reader for every stage that judges the output (the exec stage of the benchmark, the play oracles): a Tk
callback's error or a thread's is an error as much as the main thread's traceback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..verdict import Location, LocationHow
from .places import place

#: a line that opens an error report (stripped before matching)
TRACEBACK_START = re.compile(
    r"^(Traceback \(most recent call last\):|Exception in Tkinter callback|Exception in thread .*|"
    r"Fatal Python error: .*)$"
)
#: the line that names the exception at the end of a report
EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w.]*)(?:Error|Exception|Exit|Interrupt|Warning)\b.*$|^\w+Error$")


def has_traceback(lines: Sequence[str]) -> bool:
    """Whether any of the lines opens an error report."""
    return any(TRACEBACK_START.match(line.strip()) for line in lines)


def last_exception_line(block: Sequence[str]) -> str:
    """The exception a report ends with (its last non-empty line when none looks like one)."""
    for line in reversed(block):
        stripped = line.strip()
        if stripped and EXCEPTION_LINE.match(stripped):
            return stripped
    return next((line.strip() for line in reversed(block) if line.strip()), "traceback")


def split_tracebacks(lines: Sequence[str]) -> list[list[str]]:
    """Traceback blocks in the app's output, each from its header to the exception line."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if TRACEBACK_START.match(line.strip()):
            if current is not None and not line.startswith("Traceback"):
                blocks.append(current)
                current = None
            if current is None:
                current = [line]
                continue
        if current is not None:
            current.append(line)
            if not line.startswith((" ", "\t")) and EXCEPTION_LINE.match(line.strip()):
                blocks.append(current)
                current = None
    if current is not None and len(current) > 1:
        blocks.append(current)
    return blocks


@dataclass(frozen=True)
class Frame:
    """One frame of a Python stack: the file, the line (1-based) and the function."""

    file: str
    line: int
    function: str


#: a frame of a traceback (``File "x.py", line 3, in f``) or of a faulthandler dump (``File "x.py", line 3 in f``)
FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:,? in (?P<function>.+))?\s*$')
#: folders whose code is never the app's own: installed packages, and this plugin (it may run inside the app)
NOT_THE_APPS = ("site-packages", "dist-packages")
PLUGIN = Path(__file__).resolve().parent.parent


def frames_of(lines: Sequence[str], *, innermost_first: bool) -> list[Frame]:
    """The frames named in a stack's lines, innermost first (a traceback lists them outermost first, a
    faulthandler dump innermost first)."""
    frames = [Frame(m["file"], int(m["line"]), (m["function"] or "").strip())
              for m in map(FRAME.match, lines) if m is not None]
    return frames if innermost_first else frames[::-1]


def is_own(file: str, root: Path) -> bool:
    """Whether a frame's file is the app's own code: under the app's folder, not an installed package's, not
    this plugin's, and a real file (not ``<string>`` or a frozen module)."""
    path = Path(file)
    if not path.is_absolute():
        path = root / path
    try:
        resolved = path.resolve()
    except OSError:
        return False
    if not resolved.is_file() or any(part in NOT_THE_APPS for part in resolved.parts):
        return False
    return resolved.is_relative_to(root.resolve()) and not resolved.is_relative_to(PLUGIN)


def own_frame(frames: Sequence[Frame], root: Path) -> Frame | None:
    """The innermost frame of the app's own code (frames innermost first)."""
    return next((frame for frame in frames if is_own(frame.file, root)), None)


def located(frame: Frame, root: Path, how: LocationHow) -> Location:
    """A frame as a finding's Location: its file relative to the app's folder, and the line's text."""
    path = Path(frame.file) if Path(frame.file).is_absolute() else root / frame.file
    return place(path, frame.line, root, how, function=frame.function)
