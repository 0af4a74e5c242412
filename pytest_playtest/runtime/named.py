"""Where a value an error names is written in the app's code.

An exception is often raised far from its cause: a colour name mistyped in a table fails where the colour is
drawn, a dictionary key written as a string fails where it is looked up as a number, an attribute misspelt where
it is set fails where it is read. A person reading such an error searches the code for the value it names; when
the code writes that value in one place only, that place is where it came from.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..verdict import Location
from .places import place
from .tracebacks import Frame, frames_of, is_own, last_exception_line, located, own_frame

#: quoted values in an exception's text ('large', "yelow")
QUOTED = re.compile(r"""'([^'\n]{1,60})'|"([^"\n]{1,60})\"""")
#: the value after an exception's last colon, when it is a single bare word or number (``KeyError: 4``,
#: ``bad color string: yelow``)
BARE = re.compile(r":\s*([\w.\-]{1,60})\s*$")
#: Python's own suggestion for a misspelt name (``Did you mean: 'orignal'?``): where that name is set
SUGGESTED = re.compile(r"Did you mean:? '?([A-Za-z_]\w*)'?\??")
#: words Python's messages quote that name types, not values of the app's
TYPE_WORDS = frozenset({"int", "str", "float", "list", "tuple", "dict", "set", "NoneType", "bool", "bytes",
                        "object", "function", "module", "type", "method"})
#: [files] read at most, so a large folder costs a bounded time
MAX_FILES = 200


def raised_at(block: Sequence[str], root: Path) -> Location | None:
    """Where a traceback's error comes from in the app's own code: the one place that writes a value it names,
    else the innermost frame of the app's code."""
    frame = own_frame(frames_of(block, innermost_first=False), root)
    if frame is None:
        return None
    return named_value_at(last_exception_line(block), frame, root) or located(frame, root, "traceback")


def named_value_at(exception: str, frame: Frame, root: Path) -> Location | None:
    """The one place in the app's own Python code that writes a value the exception names (a string literal
    equal to it; for a misspelt name, the one place that sets the name Python suggests, when nothing reads
    it), when that is not the line that raised; None when no value is written exactly once."""
    suggested = SUGGESTED.search(exception)
    wanted = _values(exception[:suggested.start()] if suggested else exception)
    places = list(_assignments(root, suggested[1])) if suggested else []
    if places and _read_anywhere(root, suggested[1] if suggested else ""):
        return None  # the suggested name is in use: the name that raised is the misspelt one
    if not places:
        places = [at for at in _literals(root) if at[2] in wanted]
    unique = {(path, line) for path, line, _ in places}
    if len(unique) != 1:
        return None
    path, line = unique.pop()
    raised = Path(frame.file) if Path(frame.file).is_absolute() else root / frame.file
    if path.resolve() == raised.resolve() and line == frame.line:
        return None
    location = place(path, line, root, "value")
    location.detail = f"the value the error names is written here; raised at {_relative(raised, root)}:{frame.line}" \
                      + (f" in {frame.function}" if frame.function else "")
    return location


def _values(exception: str) -> set[str]:
    message = exception.split(":", 1)[1] if ":" in exception else exception
    values = {a or b for a, b in QUOTED.findall(message)}
    bare = BARE.search(message)
    if bare:
        values.add(bare[1])
    return {value for value in values if value not in TYPE_WORDS and value.strip()}


def _sources(root: Path) -> Iterator[tuple[Path, ast.Module]]:
    for count, path in enumerate(sorted(root.rglob("*.py"))):
        if count >= MAX_FILES:
            return
        if not is_own(str(path), root):
            continue
        try:
            yield path, ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue


def _literals(root: Path) -> Iterator[tuple[Path, int, str]]:
    """Every string literal of the app's code (docstrings and other lone strings aside) and where."""
    for path, tree in _sources(root):
        lone = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in lone:
                yield path, node.lineno, node.value


def _assignments(root: Path, name: str) -> Iterator[tuple[Path, int, str]]:
    """Where the app's code sets an attribute or a variable of this name."""
    for path, tree in _sources(root):
        for node in ast.walk(tree):
            stored = isinstance(getattr(node, "ctx", None), ast.Store)
            if stored and (isinstance(node, ast.Attribute) and node.attr == name
                           or isinstance(node, ast.Name) and node.id == name):
                yield path, node.lineno, name


def _read_anywhere(root: Path, name: str) -> bool:
    for _, tree in _sources(root):
        for node in ast.walk(tree):
            loaded = isinstance(getattr(node, "ctx", None), ast.Load)
            if loaded and (isinstance(node, ast.Attribute) and node.attr == name
                           or isinstance(node, ast.Name) and node.id == name):
                return True
    return False


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)
