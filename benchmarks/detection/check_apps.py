"""Validate the detection benchmark's apps: manifests, mutants, and a real launch of each correct app.

Run with the project's venv (python-xlib is needed to see windows):

    /work/main/.venv/bin/python benchmarks/detection/check_apps.py [APP ...] [--mutants] [--static]

For every app (all of apps/ by default):
  * bugs.json has the documented schema (see README.md), three bugs, unique kebab-case names;
  * each bug's line_before occurs exactly once in its file (and is a whole line), and the mutated file compiles;
  * the app imports nothing beyond the stdlib, tkinter, pygame and its own modules;
  * the correct app, launched under a private Xvfb (:70-:79), shows a window of the manifest's size within
    a few seconds, prints no traceback and is still alive after 3 s; SIGTERM then ends it with exit code 0.
With --mutants each bug variant is launched the same way: it must show its window and survive 3 s without
input (a seeded bug must need a tester's input to show). --static skips every launch.
Exit status 0 when everything passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TOP_KEYS = {"title", "toolkit", "genre", "entry", "size", "playtest", "bugs"}
PLAYTEST_KEYS = {"strategy", "expect", "max_steps", "timeout"}
BUG_KEYS = {"name", "kind", "file", "line_before", "line_after", "how_it_shows"}
ALLOWED_THIRD_PARTY = {"pygame"}
LIVE_SECONDS = 3.0
SIZE_TOLERANCE = 8  # px: Tk's natural sizes differ a little between font setups


def check_manifest(app: str, manifest: dict) -> list[str]:
    problems: list[str] = []
    folder = harness.APPS / app
    missing, extra = TOP_KEYS - manifest.keys(), manifest.keys() - TOP_KEYS
    if missing or extra:
        problems.append(f"top-level keys: missing {sorted(missing)}, unknown {sorted(extra)}")
    if not isinstance(manifest.get("title"), str) or not manifest.get("title"):
        problems.append("title must be a non-empty string")
    if manifest.get("toolkit") not in ("tk", "pygame"):
        problems.append(f"toolkit must be 'tk' or 'pygame', not {manifest.get('toolkit')!r}")
    if not isinstance(manifest.get("genre"), str) or not manifest.get("genre"):
        problems.append("genre must be a non-empty string")
    entry = manifest.get("entry")
    if not isinstance(entry, str) or not (folder / entry).is_file():
        problems.append(f"entry {entry!r} is not a file of the app")
    size = manifest.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) for v in size)
            and 0 < size[0] <= 640 and 0 < size[1] <= 480):
        problems.append(f"size must be [w, h] with w <= 640 and h <= 480, not {size!r}")

    playtest = manifest.get("playtest")
    if not isinstance(playtest, dict) or set(playtest) != PLAYTEST_KEYS:
        problems.append(f"playtest must have exactly the keys {sorted(PLAYTEST_KEYS)}")
    else:
        if playtest["strategy"] not in ("coverage", "goal", "random"):
            problems.append(f"playtest.strategy {playtest['strategy']!r} is unknown")
        if not isinstance(playtest["max_steps"], int) or playtest["max_steps"] <= 0:
            problems.append("playtest.max_steps must be a positive integer")
        if not isinstance(playtest["timeout"], (int, float)) or playtest["timeout"] <= 0:
            problems.append("playtest.timeout must be a positive number")
        expect = playtest["expect"]
        if not isinstance(expect, list):
            problems.append("playtest.expect must be a list")
        else:
            for item in expect:
                if not (isinstance(item, dict) and len(item) == 1 and next(iter(item)) in harness.EXPECT_KEYS):
                    problems.append(f"expectation {item!r} must be one of {{text|no_text|final_text: regex}}, "
                                    "{alive: true}")
                    continue
                key, value = next(iter(item.items()))
                if key == "alive":
                    if value is not True:
                        problems.append("{'alive': ...} takes true")
                    continue
                try:
                    re.compile(value)
                except (re.error, TypeError) as exc:
                    problems.append(f"expectation {key}: {value!r} is not a regex ({exc})")

    bugs = manifest.get("bugs")
    if not isinstance(bugs, list) or len(bugs) != 3:
        problems.append("bugs must be a list of exactly 3 bugs")
        return problems
    names = Counter(bug.get("name") for bug in bugs if isinstance(bug, dict))
    for name, count in names.items():
        if count > 1:
            problems.append(f"bug name {name!r} is used {count} times")
    for bug in bugs:
        problems += [f"bug {bug.get('name')!r}: {p}" for p in check_bug(folder, bug)]
    if manifest.get("toolkit") in ("tk", "pygame") and any(b.get("kind") == "expectation" for b in bugs):
        texts = [e for e in (playtest or {}).get("expect", []) if isinstance(e, dict) and "alive" not in e]
        if not texts:
            problems.append("an expectation bug needs a text expectation in playtest.expect")
    return problems


def check_bug(folder: Path, bug: object) -> list[str]:
    if not isinstance(bug, dict):
        return ["must be an object"]
    problems = []
    if set(bug) != BUG_KEYS:
        problems.append(f"keys must be exactly {sorted(BUG_KEYS)}")
    if not isinstance(bug.get("name"), str) or not NAME.match(bug["name"]):
        problems.append("name must be kebab-case")
    if bug.get("kind") not in harness.KINDS:
        problems.append(f"kind must be one of {harness.KINDS}")
    if not isinstance(bug.get("how_it_shows"), str) or len(bug["how_it_shows"]) < 20:
        problems.append("how_it_shows must be a sentence")
    before, after = bug.get("line_before"), bug.get("line_after")
    if not (isinstance(before, str) and isinstance(after, str)) or "\n" in before or "\n" in after:
        problems.append("line_before and line_after must be single-line strings")
        return problems
    if before == after:
        problems.append("line_after equals line_before")
    path = folder / str(bug.get("file"))
    if not path.is_file() or path.suffix != ".py":
        problems.append(f"file {bug.get('file')!r} is not a Python file of the app")
        return problems
    source = path.read_text(encoding="utf-8")
    if source.count(before) != 1:
        problems.append(f"line_before occurs {source.count(before)} times in {path.name} (must be once)")
        return problems
    try:
        mutated = harness.mutate(source, bug)
    except ValueError as exc:
        problems.append(str(exc))
        return problems
    try:
        compile(mutated, str(path), "exec")
    except SyntaxError as exc:
        problems.append(f"the mutated {path.name} does not compile: {exc}")
    return problems


def check_imports(app: str) -> list[str]:
    folder = harness.APPS / app
    local = {p.stem for p in folder.glob("*.py")}
    allowed = set(sys.stdlib_module_names) | ALLOWED_THIRD_PARTY | local
    problems = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] not in allowed:
                    problems.append(f"{path.name} imports {name}, which is not stdlib/tkinter/pygame/local")
    return problems


def source_lines(app: str) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (harness.APPS / app).glob("*.py"))


def check_launch(app: str, display: str, bug: str | None, size: list[int]) -> list[str]:
    label = bug or "correct"
    run = harness.launch(app, display, bug)
    problems = []
    try:
        if run.window is None:
            problems.append(f"{label}: no window within 8 s (alive: {run.alive()})")
            return problems
        w, h = run.window.width, run.window.height
        if abs(w - size[0]) > SIZE_TOLERANCE or abs(h - size[1]) > SIZE_TOLERANCE:
            problems.append(f"{label}: window is {w}x{h}, the manifest says {size[0]}x{size[1]}")
        time.sleep(LIVE_SECONDS)
        if not run.alive():
            problems.append(f"{label}: exited with {run.proc.returncode} within {LIVE_SECONDS:.0f} s")
        if run.tracebacks():
            problems.append(f"{label}: printed a traceback without input:\n{run.stderr()[-600:]}")
        if not any(win.wid == run.window.wid for win in harness.top_windows(display)):
            problems.append(f"{label}: its window disappeared")
    finally:
        code = run.stop()
    if code != 0 and not problems:
        problems.append(f"{label}: SIGTERM gave exit code {code} (must be 0)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("apps", nargs="*", help="app folders to check (default: all)")
    parser.add_argument("--mutants", action="store_true", help="also launch every bug variant")
    parser.add_argument("--static", action="store_true", help="no launches: manifests and sources only")
    args = parser.parse_args(argv)
    apps = args.apps or harness.app_names()
    if not args.static:
        harness.python_ok()

    failures = 0
    kinds: Counter[str] = Counter()
    toolkits: Counter[str] = Counter()
    display_ctx = harness.Xvfb() if not args.static else None
    try:
        display = display_ctx.__enter__().display if display_ctx else ""
        for app in apps:
            try:
                manifest = harness.load_manifest(app)
            except (OSError, ValueError) as exc:
                print(f"FAIL {app}: bugs.json: {exc}")
                failures += 1
                continue
            problems = check_manifest(app, manifest) + check_imports(app)
            lines = source_lines(app)
            if not 100 <= lines <= 400:
                problems.append(f"{lines} lines of Python (expected 100-300 plus a little)")
            if not args.static and not problems:
                problems += check_launch(app, display, None, manifest["size"])
                if args.mutants:
                    for bug in manifest["bugs"]:
                        problems += check_launch(app, display, bug["name"], manifest["size"])
            for bug in manifest.get("bugs", []):
                kinds[bug.get("kind", "?")] += 1
            toolkits[manifest.get("toolkit", "?")] += 1
            status = "FAIL" if problems else "ok  "
            bug_list = ", ".join(f"{b.get('name')} ({b.get('kind')})" for b in manifest.get("bugs", []))
            print(f"{status} {app:8} {manifest.get('toolkit', '?'):6} {lines:4} lines  {bug_list}")
            for problem in problems:
                print(f"     - {problem}")
            failures += bool(problems)
    finally:
        if display_ctx:
            display_ctx.__exit__(None, None, None)

    print(f"\n{len(apps)} apps ({dict(toolkits)}), {sum(kinds.values())} bugs: {dict(sorted(kinds.items()))}")
    missing = [kind for kind in harness.KINDS if kinds[kind] < 3] if not args.apps else []
    if missing:
        print(f"FAIL: fewer than 3 bugs of kind {missing}")
        failures += 1
    print("all checks passed" if not failures else f"{failures} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
