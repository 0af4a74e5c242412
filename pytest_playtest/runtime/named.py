"""Where a value an error names is written in the app's code.

An exception is often raised far from its cause: a colour name mistyped in a table fails where the colour is
drawn, a dictionary key written as a string fails where it is looked up as a number, an attribute misspelt where
it is set fails where it is read. A person reading such an error searches the code for the value it names; when
the code writes that value in one place only, that place is where it came from. When the value is written in
many places, the one a frame of the traceback passes down (``move(0, 20)`` for ``KeyError: 0``) is. And an
operator method that raises (``__add__`` of a vector class) got an operand of the wrong kind: the caller that
wrote the operation is where it came from.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..verdict import Location
from .places import place, relative_name
from .tracebacks import Frame, frames_of, is_own, last_exception_line, located

#: quoted values in an exception's text ('large', "yelow")
QUOTED = re.compile(r"""'([^'\n]{1,60})'|"([^"\n]{1,60})\"""")
#: the value after an exception's last colon, when it is a single bare word or number (``KeyError: 4``,
#: ``bad color string: yelow``)
BARE = re.compile(r":\s*([\w.\-]{1,60})\s*$")
#: a quoted type in Python's messages (``'vector' object has no attribute``): the object's class, not a value
OF_TYPE = re.compile(r"""'[^'\n]*' object\b""")
#: an attribute missing on an object of some type: ``'list' object has no attribute 'rect'`` (type, attribute)
MISSING_ATTRIBUTE = re.compile(r"AttributeError: '(\w+)' object has no attribute '(\w+)'")
#: Python's own suggestion for a misspelt name (``Did you mean: 'orignal'?``): where that name is set
SUGGESTED = re.compile(r"Did you mean:? '?([A-Za-z_]\w*)'?\??")
#: words Python's messages quote that name types, not values of the app's
TYPE_WORDS = frozenset({"int", "str", "float", "list", "tuple", "dict", "set", "NoneType", "bool", "bytes",
                        "object", "function", "module", "type", "method"})
#: the methods Python calls for an operator (``__add__``, ``__radd__``, ``__iadd__``, ``__eq__``...)
OPERATOR_METHOD = re.compile(r"__[ir]?(?:add|sub|mul|matmul|truediv|floordiv|mod|pow|and|or|xor|lshift|rshift|"
                             r"eq|ne|lt|le|gt|ge|neg|pos|abs|getitem|setitem|contains)__")
#: [files] read at most, so a large folder costs a bounded time
MAX_FILES = 200


def raised_at(block: Sequence[str], root: Path, sources: Sequence[str] = ()) -> Location | None:
    """Where a traceback's error comes from in the app's own code (the files of its frames and ``sources``, the
    modules the app imports, relative to ``root``): the one place that writes a value it names, else the one
    frame that passes that value down, else the innermost frame of the app's code that is not an operator
    method."""
    frames = [frame for frame in frames_of(block, innermost_first=False) if is_own(frame.file, root)]
    if not frames:
        return None
    exception = last_exception_line(block)
    files = {*(_path(frame, root).resolve() for frame in frames), *((root / name).resolve() for name in sources)}
    return (named_value_at(exception, frames[0], root, sorted(files)) or passed_value_at(exception, frames, root)
            or passed_object_at(exception, frames, root) or located(_operation(frames), root, "traceback"))


def named_value_at(exception: str, frame: Frame, root: Path, files: Sequence[Path]) -> Location | None:
    """The one place in the app's Python ``files`` that writes a value the exception names (a string literal
    equal to it; for a misspelt name, the one place that sets the name Python suggests, when nothing reads
    it), when that is not the line that raised; None when no value is written exactly once."""
    suggested = SUGGESTED.search(exception)
    wanted = _values(exception[:suggested.start()] if suggested else exception)
    trees = list(_sources(files))
    places = list(_assignments(trees, suggested[1])) if suggested else []
    if places and _read_anywhere(trees, suggested[1] if suggested else ""):
        return None  # the suggested name is in use: the name that raised is the misspelt one
    if not places:
        places = [at for at in _literals(trees) if at[2] in wanted]
    unique = {(path, line) for path, line, _ in places}
    if len(unique) != 1:
        return None
    path, line = unique.pop()
    raised = _path(frame, root)
    if path.resolve() == raised.resolve() and line == frame.line:
        return None
    location = place(path, line, root, "value")
    location.detail = (f"the value the error names is written here; raised at {relative_name(raised, root)}:"
                       f"{frame.line}" + (f" in {frame.function}" if frame.function else ""))
    return location


def passed_value_at(exception: str, frames: Sequence[Frame], root: Path) -> Location | None:
    """The one frame of the app's code, outside the innermost, whose line passes a literal the exception names
    as a call's argument (``move(0, 20)`` for ``KeyError: 0``; frames innermost first)."""
    wanted = _values(exception)
    passing = [frame for frame in frames[1:] if wanted & _arguments_at(frame, root)]
    if len(passing) != 1:
        return None
    location = located(passing[0], root, "value")
    location.detail = (f"passes the value the error names; raised at {relative_name(_path(frames[0], root), root)}"
                       f":{frames[0].line}" + (f" in {frames[0].function}" if frames[0].function else ""))
    return location


def passed_object_at(exception: str, frames: Sequence[Frame], root: Path) -> Location | None:
    """The caller's frame, when the error is an attribute missing on a parameter of the function that raised
    (``actor.rect`` of ``Explosion(actor)`` handed a list): the wrong object came from the call (frames
    innermost first)."""
    missing = MISSING_ATTRIBUTE.search(exception)
    if missing is None or len(frames) < 2 or not _parameters_reading(frames[0], root, missing[2]):
        return None
    location = located(frames[1], root, "traceback")
    location.detail = (f"passes the {missing[1]} that has no '{missing[2]}'; raised at "
                       f"{relative_name(_path(frames[0], root), root)}:{frames[0].line} in {frames[0].function}")
    return location


def _parameters_reading(frame: Frame, root: Path, attribute: str) -> set[str]:
    """The parameters (``self`` and ``cls`` aside) of the function around a frame's line that the line reads
    ``attribute`` of; a function's own parameter is a value its caller chose."""
    try:
        tree = ast.parse(_path(frame, root).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return set()
    functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                 and node.lineno <= frame.line <= (node.end_lineno or node.lineno)]
    if not functions:
        return set()
    arguments = max(functions, key=lambda node: node.lineno).args
    parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]} - {"self", "cls"}
    return {node.value.id for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == attribute
            and node.lineno == frame.line and isinstance(node.value, ast.Name) and node.value.id in parameters}


def _operation(frames: Sequence[Frame]) -> Frame:
    """The innermost frame that is not an operator's method (``__add__``, ``__iadd__``): an operator that
    raises was handed a wrong operand by the code that wrote the operation."""
    return next((frame for frame in frames if not OPERATOR_METHOD.fullmatch(frame.function)), frames[0])


def _arguments_at(frame: Frame, root: Path) -> set[str]:
    """The literal arguments of the calls on a frame's line, as text (``0``, ``'w'`` → ``w``)."""
    try:
        tree = ast.parse(_path(frame, root).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return set()
    return {str(argument.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
            and node.lineno <= frame.line <= (node.end_lineno or node.lineno)
            for argument in node.args if isinstance(argument, ast.Constant)}


def _path(frame: Frame, root: Path) -> Path:
    return Path(frame.file) if Path(frame.file).is_absolute() else root / frame.file


def _values(exception: str) -> set[str]:
    message = exception.split(":", 1)[1] if ":" in exception else exception
    message = OF_TYPE.sub("", message)
    values = {a or b for a, b in QUOTED.findall(message)}
    bare = BARE.search(":" + message)
    if bare:
        values.add(bare[1])
    return {value for value in values if value not in TYPE_WORDS and value.strip()}


def _sources(files: Sequence[Path]) -> Iterator[tuple[Path, ast.Module]]:
    for path in files[:MAX_FILES]:
        if path.suffix != ".py":
            continue
        try:
            yield path, ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue


Trees = Sequence[tuple[Path, ast.Module]]


def _literals(trees: Trees) -> Iterator[tuple[Path, int, str]]:
    """Every string literal of the app's code (docstrings and other lone strings aside) and where."""
    for path, tree in trees:
        lone = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in lone:
                yield path, node.lineno, node.value


def _assignments(trees: Trees, name: str) -> Iterator[tuple[Path, int, str]]:
    """Where the app's code sets an attribute or a variable of this name."""
    for path, tree in trees:
        for node in ast.walk(tree):
            stored = isinstance(getattr(node, "ctx", None), ast.Store)
            if stored and (isinstance(node, ast.Attribute) and node.attr == name
                           or isinstance(node, ast.Name) and node.id == name):
                yield path, node.lineno, name


def _read_anywhere(trees: Trees, name: str) -> bool:
    for _, tree in trees:
        for node in ast.walk(tree):
            loaded = isinstance(getattr(node, "ctx", None), ast.Load)
            if loaded and (isinstance(node, ast.Attribute) and node.attr == name
                           or isinstance(node, ast.Name) and node.id == name):
                return True
    return False
