"""Which files of an app are read, within what budget, and how each is parsed (``ast``, never imported)."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 200
MAX_BYTES = 2_000_000
MAX_FILE_BYTES = 512_000  # a bigger single .py is generated data, not the app's input handling

BUTTON_ORDER = ("left", "right", "middle", "wheel")

# -- reading the files ---------------------------------------------------------------------------------------

_SKIP_DIRS = frozenset({
    "__pycache__", "site-packages", "dist-packages", "node_modules", "venv", "virtualenv", "build", "dist",
    "tests", "test", "testing",
})
TK_MODULES = frozenset({"tkinter", "Tkinter", "customtkinter", "ttkbootstrap", "tkinterdnd2"})
#: modules that play sound (a dotted name counts with what it imports from: ``from pygame import mixer``)
SOUND_MODULES = frozenset({"pygame.mixer", "winsound", "playsound", "simpleaudio", "pyaudio", "sounddevice",
                            "pydub", "pyglet.media", "arcade.sound", "beepy"})


def skip_dir(name: str) -> bool:
    return (name in _SKIP_DIRS or name.startswith(".") or name.endswith((".egg-info", "_test", "_tests"))
            or name.startswith("test_"))


def skip_file(name: str) -> bool:
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


@dataclass
class Module:
    path: Path
    name: str
    tree: ast.Module
    uses_pygame: bool = False
    uses_tk: bool = False
    star: bool = False
    dynamic: bool = False
    imported: set[str] = field(default_factory=set)
    imports: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class Budget:
    files: int
    bytes: int


def parse_file(path: Path, budget: Budget, name: str | None = None) -> Module | None:
    """The parsed file, or None (unreadable, too big, not Python): never raises."""
    try:
        size = path.stat().st_size
        if budget.files <= 0 or size > MAX_FILE_BYTES or size > budget.bytes:
            return None
        source = path.read_bytes()
        tree = ast.parse(source, filename=str(path))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None
    budget.files -= 1
    budget.bytes -= len(source)
    return Module(path, name or str(path), tree)


def tree_files(root: Path) -> Iterator[Path]:
    """The ``.py`` files under ``root`` (sorted, depth first), skipping venvs, caches and tests."""
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not skip_dir(d) and not (here / d / "pyvenv.cfg").exists())
        for name in sorted(files):
            if name.endswith((".py", ".pyw")) and not skip_file(name):
                yield here / name


def display_name(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return str(path.relative_to(base))
        except ValueError:
            pass
    return str(path)
