"""Python's error reports in an app's output: where a traceback starts, where it ends, what it says.

One reader for every stage that judges the output (the exec stage of the benchmark, the play oracles): a Tk
callback's error or a thread's is an error as much as the main thread's traceback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
