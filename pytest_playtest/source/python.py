"""The inputs an app's code handles, read from its Python source with ``ast`` (the app is never imported).

Before a run the tester reads the app's files and lists what the code reacts to: pygame key constants
(``pygame.K_LEFT``, bare ``K_SPACE`` from ``pygame.locals``, names bound to them in another module of the
app, dicts and tuples of them, ``key.get_pressed()[K_UP]``), Tk ``bind`` sequences, characters compared
with ``event.char`` / ``keysym`` / ``unicode``, mouse buttons, drags, button and menu labels, text
fields. A key whose handler ends the app (``sys.exit``, ``pygame.quit``, ``running = False`` /
``done = True`` loop flags, ``root.destroy``, ``quit()``, a ``return`` out of the main loop, a function
doing one of these) is also a quit key, so the tester can leave it alone.

Every pygame ``K_*`` constant in the app's files is a key of the app (it exists to be compared with a
pressed key); strings count where they are compared with a key-ish value (``event.keysym``, ``.char``,
``.unicode``, ``pygame.key.name()``, a variable holding one), looked up with one (``KEYS.get(event.keysym)``)
or bound (``bind("<Left>")``, also through loop variables and ``f"<KeyPress-{k}>"``).

Key names are those ``Action.press`` accepts (``runtime/xinput.py``): "left", "enter", "escape", "space",
"a", "1", "f1", "+", X keysym names for the rest ("KP_Add"). Hotkeys are "+"-joined, modifiers first
("ctrl+s", "ctrl+shift+z", "ctrl++"); ``split_hotkey`` turns one into ``Action.hotkey`` arguments.

Order: keys, hotkeys, quit keys and texts are in first-seen order: files in scan order (``scan_app``:
the entry script, then the modules it imports, breadth first; ``scan``: the order given, folders
sorted), each file in source order. Mouse buttons are in the fixed order left, right, middle, wheel.

Standard library only; nothing here raises on a bad file: syntax errors and unreadable files are skipped.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .files import (
    BUTTON_ORDER,
    MAX_BYTES,
    MAX_FILES,
    SOUND_MODULES,
    Budget,
    Module,
    display_name,
    parse_file,
    skip_dir,
    skip_file,
    tree_files,
)
from .found import Found
from .scanner import Scanner
from .tables import Analysis, Collector, Tables
from .vocabulary import Vocabulary

# -- entry points ------------------------------------------------------------------------------------------------


def _collect(module: Module, tables: Tables) -> None:
    try:
        Collector(module, tables).visit(module.tree)
    except RecursionError:
        pass


def _analyse(modules: list[Module], tables: Tables) -> Vocabulary:
    analysis = Analysis(tables)
    found = Found()
    for module in modules:
        try:
            Scanner(module, analysis, found).run()
        except RecursionError:
            continue
    quit_keys = [k for k in found.quit_keys if k in found.keys or k in found.hotkeys]
    return Vocabulary.of_keys(
        tuple(found.keys),
        quit_keys=tuple(quit_keys),
        restart_keys=tuple(k for k in found.restart_keys if k in found.keys and k not in quit_keys),
        option_keys=tuple(found.option_keys()),
        hotkeys=tuple(found.hotkeys),
        buttons=tuple(b for b in BUTTON_ORDER if b in found.buttons),
        drags=found.drags,
        pointer=found.pointer,
        texts=tuple(found.texts),
        quit_texts=tuple(found.quit_texts),
        typing=found.typing,
        sound=found.sound or any(map(_imports_sound, modules)),
        sources=tuple(m.name for m in modules),
        handlers=tuple((name, file, line) for name in found.places for file, line in found.handled_at(name)),
    )


def _imports_sound(module: Module) -> bool:
    for _, name, names in module.imports:
        for dotted in (name, *(f"{name}.{n}" for n in names)):
            if any(dotted == m or dotted.startswith(m + ".") for m in SOUND_MODULES):
                return True
    return False


def scan(paths: Iterable[Path], *, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> Vocabulary:
    """The vocabulary of these files (folders: their ``.py`` files, sorted, tests and venvs skipped)."""
    budget = Budget(max_files, max_bytes)
    tables = Tables()
    modules: list[Module] = []
    seen: set[Path] = set()
    for path in paths:
        path = Path(path)
        for file in tree_files(path) if path.is_dir() else [path]:
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            module = parse_file(file, budget)
            if module is not None:
                _collect(module, tables)
                modules.append(module)
    return _analyse(modules, tables)


@dataclass
class _Entry:
    script: Path
    roots: list[Path]  # where absolute imports are looked for
    bound: Path  # only files under this folder belong to the app
    tree: Path  # the folder read whole when the app imports dynamically
    extra: list[Path] = field(default_factory=list)  # package __init__ files run before the entry


def _find_module(name: str, cwd: Path) -> _Entry | None:
    parts = [p for p in name.split(".") if p]
    if not parts:
        return None
    roots = [cwd, cwd / "src", *(Path(p) if p else cwd for p in sys.path)]
    for root in roots:
        if not root.is_dir():
            continue
        base = root.joinpath(*parts)
        for script in (base.with_name(base.name + ".py"), base / "__main__.py"):
            if script.is_file():
                top = root / parts[0]
                tree = top if top.is_dir() else root
                # under cwd, modules next to the package are the app's too (cwd is on sys.path with -m)
                bound = root if root in roots[:2] else tree
                inits = [root.joinpath(*parts[:n], "__init__.py") for n in range(1, len(parts) + 1)]
                return _Entry(script, [root], bound, tree, [p for p in inits if p.is_file()])
    return None


def _find_entry(app: str | Sequence[str], cwd: Path) -> _Entry | None:
    if isinstance(app, str):
        whole = Path(app) if Path(app).is_absolute() else cwd / app
        if app.endswith((".py", ".pyw")) and whole.is_file():
            return _Entry(whole, [whole.parent], whole.parent, whole.parent)
        try:
            argv = shlex.split(app)
        except ValueError:
            argv = app.split()
    else:
        argv = [str(a) for a in app]
    for i, arg in enumerate(argv):
        if arg == "-m" and i + 1 < len(argv):
            return _find_module(argv[i + 1], cwd)
        if arg.startswith("-m") and len(arg) > 2 and i > 0:
            return _find_module(arg[2:], cwd)
        if arg.endswith((".py", ".pyw")):
            path = Path(arg) if Path(arg).is_absolute() else cwd / arg
            if path.is_file():
                return _Entry(path, [path.parent], path.parent, path.parent)
    if argv:  # an executable script with a python shebang
        path = Path(argv[0]) if Path(argv[0]).is_absolute() else cwd / argv[0]
        try:
            with path.open("rb") as script:
                first = script.readline(200)
        except OSError:
            return None
        if first.startswith(b"#!") and b"python" in first:
            return _Entry(path, [path.parent], path.parent, path.parent)
    return None


def _allowed(path: Path, bound: Path) -> bool:
    try:
        relative = path.relative_to(bound)
    except ValueError:
        return False
    return not any(skip_dir(part) for part in relative.parts[:-1]) and not skip_file(path.name)


def _import_candidates(module: Module, imp: tuple[int, str, tuple[str, ...]], roots: list[Path]) -> list[Path]:
    level, name, names = imp
    parts = [p for p in name.split(".") if p]
    if level:
        base = module.path.parent
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    else:
        bases = list(roots)
        if not parts:
            return []
    for base in bases:
        found: list[Path] = []
        for n in range(1, len(parts) + 1):  # packages on the way run their __init__
            init = base.joinpath(*parts[:n], "__init__.py")
            if init.is_file():
                found.append(init)
        target = base.joinpath(*parts)
        if parts and target.with_name(target.name + ".py").is_file():
            found.append(target.with_name(target.name + ".py"))
        elif target.is_dir():
            for sub in names:
                if sub == "*":
                    continue
                for candidate in (target / f"{sub}.py", target / sub / "__init__.py"):
                    if candidate.is_file():
                        found.append(candidate)
                        break
        if found:
            return found
    return []


def scan_app(
    app: str | Sequence[str],
    cwd: Path | None,
    *,
    whole_tree: bool = False,
    names_under: Path | None = None,
    max_files: int = MAX_FILES,
    max_bytes: int = MAX_BYTES,
) -> Vocabulary:
    """The vocabulary of the app launched as ``app`` (a ``.py`` path, a command line or an argv).

    The entry is the first ``.py`` of the command (or ``-m module``, looked up under ``cwd``, ``cwd/src``
    and ``sys.path`` on disk, never imported). Read: the entry, then the app modules it imports (breadth
    first), and, when an app file imports dynamically (``importlib``, ``__import__``) or ``whole_tree`` is
    set, every other ``.py`` of the entry's folder tree (sorted). Never outside that tree; venvs, caches,
    ``site-packages`` and tests are skipped; at most ``max_files`` files / ``max_bytes`` bytes. Files are named
    relative to ``names_under`` (the app's folder, where the run looks them up) when the entry lies in it, else
    to ``cwd``, else to the entry's folder.
    """
    base = Path(cwd) if cwd is not None else Path.cwd()
    entry = _find_entry(app, base)
    if entry is None:
        return Vocabulary()
    budget = Budget(max_files, max_bytes)
    tables = Tables()
    display_base = next((folder for folder in (names_under, base)
                         if folder is not None and entry.tree.is_relative_to(folder)), entry.roots[0])

    modules: list[Module] = []
    seen: set[Path] = set()
    queue = [entry.script, *entry.extra]
    tree_added = False
    while budget.files > 0:
        if not queue:
            if tree_added or not (whole_tree or any(m.dynamic for m in modules)):
                break
            tree_added = True
            queue.extend(tree_files(entry.tree))
            continue
        path = queue.pop(0)
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if path != entry.script and not _allowed(path, entry.bound):
            continue
        module = parse_file(path, budget, display_name(path, display_base))
        if module is None:
            continue
        _collect(module, tables)
        modules.append(module)
        for imp in module.imports:
            queue.extend(_import_candidates(module, imp, entry.roots))
    return _analyse(modules, tables)
