"""Put a model's completion in place of one function of a source file: one interface for every language.

Each language has a small module behind this one: ``splice_python`` locates the symbol with ``ast``,
``splice_script`` (JavaScript and TypeScript) with tree-sitter. Both swap text, so the rest of the file
keeps its comments and formatting, and both splice a completion that does not parse all the same, so a
broken sample fails later, at the exec stage, for the same reason it would fail for a user.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..errors import SpliceError
from . import splice_python, splice_script

#: The languages whose symbols can be located (the task languages of ``tasks.LANGUAGES``).
SPLICE_LANGUAGES: tuple[str, ...] = ("python", "javascript", "typescript")
#: Folders never copied with a repository: bytecode could mask the spliced source, history is not needed.
_NOT_COPIED = ("__pycache__", ".git", "node_modules")
#: Installed JavaScript packages are linked into the copy, not copied (they are large and read-only).
NODE_MODULES = "node_modules"


def _check(language: str) -> None:
    if language not in SPLICE_LANGUAGES:
        raise SpliceError(f"cannot splice {language!r} code: expected one of {', '.join(SPLICE_LANGUAGES)}")


def splice_source(
    source: str,
    symbol: str,
    completion: str,
    signature: str | None = None,
    *,
    filename: str = "<source>",
    language: str = "python",
) -> str:
    """Return ``source`` with the function ``symbol`` replaced by ``completion``.

    A completion that defines the symbol itself replaces its whole definition, re-indented to fit; any
    other completion is its body. Python: ``symbol`` is ``name``, ``Class.method`` or ``Outer.Inner.method``;
    the span runs from its first decorator; a body goes under ``signature`` (``def`` and ``:`` added when
    missing; without one the original def lines are reused). JavaScript/TypeScript: ``symbol`` is a
    top-level function, a ``const`` bound to an arrow function or function expression, or
    ``Class.method``; a body goes between the original header's braces (``signature`` is not needed).

    Raises ``SpliceError`` naming the symbol and ``filename`` if the symbol is not a function there (or, for
    Python, if ``source`` does not parse).
    """
    _check(language)
    if language == "python":
        return splice_python.splice_source(source, symbol, completion, signature, filename=filename)
    return splice_script.splice_source(source, symbol, completion, language=language, filename=filename)


def definition_source(source: str, symbol: str, *, filename: str = "<source>", language: str = "python") -> str:
    """The whole lines of ``symbol``'s current definition (decorators or ``export`` included): the
    reference completion of a task. Raises ``SpliceError`` as ``splice_source`` does."""
    _check(language)
    if language == "python":
        return splice_python.definition_source(source, symbol, filename=filename)
    return splice_script.definition_source(source, symbol, language=language, filename=filename)


def syntax_error(source: str, *, filename: str = "<source>", language: str = "python") -> str | None:
    """Why ``source`` does not parse as ``language`` (``line N: …``), or None when it does."""
    _check(language)
    if language == "python":
        return splice_python.syntax_error(source, filename=filename)
    return splice_script.syntax_error(source, language=language, filename=filename)


def splice_repo(
    repo: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    file: str,
    symbol: str,
    completion: str,
    signature: str | None = None,
    *,
    language: str = "python",
) -> Path:
    """Copy ``repo`` to ``dest`` and splice ``completion`` over ``symbol`` in ``dest/file``; return ``dest``.

    ``dest`` must not exist yet. ``__pycache__``, ``.git`` and ``node_modules`` are not copied; a top-level
    ``node_modules`` (the repo's installed JavaScript packages, e.g. its build tool) is linked instead, so
    the copy builds and tests like the original. The original repo is never modified. The file is read
    and written as UTF-8 with its line endings preserved. Raises ``SpliceError`` as ``splice_source`` does.
    """
    _check(language)
    dest = Path(dest)
    shutil.copytree(repo, dest, ignore=shutil.ignore_patterns(*_NOT_COPIED), ignore_dangling_symlinks=True)
    installed = Path(repo, NODE_MODULES)
    if installed.is_dir():
        (dest / NODE_MODULES).symlink_to(installed.resolve(), target_is_directory=True)
    target = dest / file
    with open(target, encoding="utf-8", newline="") as handle:
        source = handle.read()
    spliced = splice_source(source, symbol, completion, signature, filename=file, language=language)
    with open(target, "w", encoding="utf-8", newline="") as handle:
        handle.write(spliced)
    return dest


__all__ = ["SPLICE_LANGUAGES", "SpliceError", "definition_source", "splice_repo", "splice_source", "syntax_error"]
