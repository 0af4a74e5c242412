"""What the splicers of every language share: their error, and the text helpers that re-indent code."""

from __future__ import annotations

import re
import textwrap


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split exactly where ``ast`` counts line numbers (unlike splitlines)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


def leading_whitespace(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def normalise(text: str) -> str:
    """``text`` with ``\\n`` line endings, no blank lines around it, and its common indentation removed."""
    lines = [line.rstrip("\r\n") for line in split_lines(text)]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return textwrap.dedent("".join(line + "\n" for line in lines))


def indent_text(text: str, prefix: str) -> str:
    """Every non-blank line of ``text`` with ``prefix`` before it (blank lines become empty)."""
    return "".join(prefix + line if line.strip() else "\n" for line in split_lines(text))
