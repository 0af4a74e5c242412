"""Play the detection benchmark's apps (benchmarks/detection/apps) through the real loop.

Used by tests/test_heuristic.py and by hand (``python -m tests.detection_runs APP[/BUG] ...``) to judge the
offline tester: each correct app must pass, each seeded bug should be found (its ``kind`` among the
verdict's finding kinds) within the manifest's ``playtest`` bounds.

The app runs under coverage (``coverage=True``) unless asked otherwise: the policy then gets
``Step.new_lines``; the loop reads the app's vocabulary itself.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest_playtest.loop.playthrough import run_session
from pytest_playtest.loop.spec import RunResult, RunSpec
from pytest_playtest.runtime.display import Display
from pytest_playtest.vision import Vision

REPO = Path(__file__).resolve().parent.parent
DETECTION = REPO / "benchmarks" / "detection" / "apps"
DEFAULTS = SimpleNamespace(policy="heuristic", max_steps=150, timeout=60.0, options={})


def manifest(app: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DETECTION / app / "bugs.json").read_text(encoding="utf-8"))
    return data


def copy_app(app: str, bug: str | None, into: Path) -> Path:
    """The app folder copied under ``into``, with the bug's one line replaced."""
    folder = into / (f"{app}-{bug}" if bug else app)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(DETECTION / app, folder, ignore=shutil.ignore_patterns("__pycache__", "bugs.json"))
    if bug is not None:
        spec = next(b for b in manifest(app)["bugs"] if b["name"] == bug)
        path = folder / spec["file"]
        lines = path.read_text(encoding="utf-8").split("\n")
        hits = [i for i, line in enumerate(lines) if line == spec["line_before"]]
        assert len(hits) == 1, f"{app}/{bug}: line_before found {len(hits)} times"
        lines[hits[0]] = spec["line_after"]
        path.write_text("\n".join(lines), encoding="utf-8")
    return folder


def play_detection(app: str, bug: str | None, display: Display, vision: Vision, tmp: Path, *,
                   policy: str = "heuristic", seed: int = 0, coverage: bool = True,
                   artifacts: Path | None = None, **overrides: Any) -> RunResult:
    """One run of the app (or its bug variant) with the manifest's playtest spec."""
    folder = copy_app(app, bug, tmp)
    kwargs = {**manifest(app)["playtest"], "app": [sys.executable, str(folder / "main.py")], "cwd": str(folder),
              "policy": policy, "seed": seed, **overrides}
    spec = RunSpec.from_kwargs({**kwargs, "coverage": coverage}, defaults=DEFAULTS, where=f"{app}/{bug}")
    return run_session(spec, display=display, vision=vision, artifacts=artifacts,
                       screenshots="on" if artifacts else "off")


def cases(selection: list[str]) -> list[tuple[str, str | None]]:
    """``APP`` (the correct app and its bugs), ``APP/BUG``, ``APP/-`` (the correct app only); all if empty."""
    apps = sorted(p.name for p in DETECTION.iterdir() if (p / "bugs.json").exists())
    found: list[tuple[str, str | None]] = []
    for item in selection or apps:
        app, _, bug = item.partition("/")
        if bug == "-":
            found.append((app, None))
        elif bug:
            found.append((app, bug))
        else:
            found += [(app, None), *((app, b["name"]) for b in manifest(app)["bugs"])]
    return found


def main(argv: list[str]) -> None:
    """Run cases one at a time and print a line per run (JSON lines to ``--out FILE`` too)."""
    policy, out, seed = "heuristic", None, 0
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--policy":
            policy = next(args)
        elif arg == "--out":
            out = Path(next(args))
        elif arg == "--seed":
            seed = int(next(args))
        else:
            rest.append(arg)
    if policy == "old":
        _register_old_heuristic()
    import tempfile

    display = Display((800, 600))
    display.start()
    vision = Vision()
    try:
        for app, bug in cases(rest):
            with tempfile.TemporaryDirectory(prefix="detect-") as tmp:
                started = time.monotonic()
                result = play_detection(app, bug, display, vision, Path(tmp), policy=policy, seed=seed)
                verdict = result.verdict
                want = next((b["kind"] for b in manifest(app)["bugs"] if b["name"] == bug), None)
                found = (want in verdict.kinds()) if want else verdict.passed
                row = {"app": app, "bug": bug or "-", "kind": want or "-", "ok": found,
                       "kinds": verdict.kinds(), "steps": verdict.steps, "status": verdict.status,
                       "seconds": round(time.monotonic() - started, 1),
                       "first": [f.describe()[:160] for f in verdict.findings][:3]}
                print(json.dumps(row, ensure_ascii=False), flush=True)
                if out:
                    with out.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        display.stop()


def _register_old_heuristic() -> None:
    """The heuristic as committed (git HEAD), as the policy "old", for the baseline."""
    import subprocess
    import types

    from pytest_playtest import policies

    source = subprocess.run(["git", "show", "HEAD:pytest_playtest/policies/heuristic.py"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType("pytest_playtest.policies.old_heuristic")
    module.__package__ = "pytest_playtest.policies"
    sys.modules[module.__name__] = module
    exec(compile(source, "old_heuristic.py", "exec"), module.__dict__)
    policies.BUILTIN["old"] = "pytest_playtest.policies.old_heuristic:HeuristicPolicy"


if __name__ == "__main__":
    main(sys.argv[1:])
