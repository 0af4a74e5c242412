"""Text operations of Notes. Pure Python, no Tk."""

from __future__ import annotations

import re

WELCOME = (
    "Hello! This is Notes.\n"
    "Shopping list\n"
    "- milk\n"
    "- eggs\n"
    "- bread\n"
    "Right-click the text for more tools."
)


def word_count(text: str) -> int:
    return len(re.findall(r"\S+", text))


def line_count(text: str) -> int:
    return text.count("\n") + 1 if text else 0


def sort_lines(text: str) -> str:
    """The lines in alphabetical order, ignoring case."""
    return "\n".join(sorted(text.split("\n"), key=str.casefold))


def status_line(text: str) -> str:
    return f"Words: {word_count(text)}   Lines: {line_count(text)}"
