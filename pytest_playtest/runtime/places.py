"""A place in the app's code as a finding's ``Location``: the file relative to the app's folder, the line's text
and the lines around it, read from the file on disk."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..verdict import Location, LocationHow

#: [lines] shown before and after a located line in its excerpt
EXCERPT_AROUND = 3


def place(path: Path, line: int, root: Path, how: LocationHow, *, function: str = "", detail: str = "") -> Location:
    """Line ``line`` (1-based) of ``path`` as a Location (its file named relative to ``root`` when inside it)."""
    name = relative_name(path, root)
    lines = source_lines(path)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return Location(file=name, line=line, how=how, function=function, text=text, detail=detail,
                    excerpt=excerpt(lines, line))


def relative_name(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` when inside it, else whole."""
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)


def source_lines(path: Path) -> list[str]:
    """The lines of a source file ([] when it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def excerpt(lines: Sequence[str], line: int) -> str:
    """The lines around ``line`` (1-based), numbered, the line itself marked with ``>``."""
    first, last = max(line - EXCERPT_AROUND, 1), min(line + EXCERPT_AROUND, len(lines))
    width = len(str(last))
    return "\n".join(f"{'>' if number == line else ' '} {number:>{width}} | {lines[number - 1]}"
                     for number in range(first, last + 1))
