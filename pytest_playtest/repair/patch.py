"""A developer's repair: whole files proposed by the model, checked, and shown as a unified diff.

The reply holds one fenced block per changed file, its info string naming the file (```python main.py);
with a single source file an unnamed first block is that file. Python files must parse.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Mapping

from .reply import Unusable

_BLOCK = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<code>.*?)^[ \t]*(?P=fence)[ \t]*$",
                    re.S | re.M)


def proposed_files(reply: str, sources: Mapping[str, str]) -> dict[str, str]:
    """The new content of each file the reply changes (paths as in ``sources``); ``Unusable`` if none."""
    changed: dict[str, str] = {}
    for match in _BLOCK.finditer(reply):
        name = _named(match["info"], sources) or (next(iter(sources)) if len(sources) == 1 else None)
        if name is not None and name not in changed:
            changed[name] = match["code"]
    if not changed:
        raise Unusable("the reply has no fenced code block naming one of the files "
                       f"({', '.join(sources)})")
    for name, text in changed.items():
        if name.endswith(".py"):
            try:
                ast.parse(text, name)
            except SyntaxError as exc:
                raise Unusable(f"the new {name} does not parse: line {exc.lineno}: {exc.msg}") from None
    return {name: text for name, text in changed.items() if text != sources[name]}


def unified_diff(before: Mapping[str, str], after: Mapping[str, str]) -> str:
    """A ``patch -p1``-style diff of the changed files."""
    return "".join(
        "".join(difflib.unified_diff(before[name].splitlines(keepends=True), text.splitlines(keepends=True),
                                     f"a/{name}", f"b/{name}"))
        for name, text in sorted(after.items()))


def _named(info: str, sources: Mapping[str, str]) -> str | None:
    """The source an info string (``python main.py``, ``main.py``, ``# file: app/main.py``) names."""
    words = info.replace(":", " ").split()
    for word in reversed(words):
        if word in sources:
            return word
        for name in sources:
            if name.endswith("/" + word):
                return name
    return None
