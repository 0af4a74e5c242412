"""Golden runs as the oracle: record one on each app's correct version, check its bug variants against it.

    .venv/bin/python benchmarks/differential/run.py CASES.json [--steps 150] [--timeout 60] [--workers 2]
                                                   [--workdir DIR] [--out results.json]

CASES.json is a list of ``{"id": "<app>-<variant>", "run": {playtest.run() arguments}}`` in which each app
has an ``<app>-original`` case: the shape the third-party corpus's runners write into their work folder
(``cases.json``), so a corpus run's variants can be measured here as they were built there. Per app, one
test (in parallel under xdist): the original is played as the test would be (its expectations left out:
this measures divergence alone) and recorded as a golden run (two replays measure its noise); then the
original is checked against it again (a divergence there is a false one) and so is every variant. It
prints, per variant, what the replay's oracles found and whether it diverged, and the totals.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ORIGINAL = "original"

TEST_FILE = '''"""One test per app: a golden run recorded on its original, checked on each variant."""
import json
import pathlib

import pytest

from pytest_playtest.golden import GoldenRun
from pytest_playtest.loop.spec import RunSpec

HERE = pathlib.Path(__file__).resolve().parent
SETUP = json.loads((HERE / "setup.json").read_text(encoding="utf-8"))


def outcome(case_id, role, result, note=""):
    verdict = result.verdict
    diverged = next((f for f in verdict.findings if f.kind == "diverges"), None)
    return {"id": case_id, "role": role, "status": verdict.status, "kinds": verdict.kinds(),
            "error": verdict.error, "steps": verdict.steps, "seconds": round(verdict.duration, 1),
            "diverged_at": diverged.step if diverged else None,
            "divergence": diverged.message if diverged else "", "note": note}


@pytest.mark.parametrize("app", sorted(SETUP["apps"]))
def test_app(playtest, app):
    cases = SETUP["apps"][app]
    runtime = playtest.runtime

    def spec(case):
        arguments = {**case["run"], "expect": [], "max_steps": SETUP["steps"], "timeout": SETUP["timeout"]}
        return RunSpec.from_kwargs(arguments, defaults=runtime.settings, where=case["id"])

    def golden(mode):
        return GoldenRun.of_test(runtime, mode, HERE / "golden" / "test_apps.py", test=f"test_apps.py::{app}")

    original = next(case for case in cases if case["id"].endswith("-original"))
    result, recorded = golden("update").play(spec(original), artifacts=HERE / "artifacts" / original["id"] / "record",
                                             default_cwd=HERE)
    rows = [outcome(original["id"], "record", result, recorded)]
    if recorded in ("recorded", "updated"):
        for case in [original, *(case for case in cases if case is not original)]:
            result, _ = golden("check").play(spec(case), artifacts=HERE / "artifacts" / case["id"], default_cwd=HERE)
            rows.append(outcome(case["id"], "check", result))
    (HERE / "results" / (app + ".json")).write_text(json.dumps(rows, indent=1), encoding="utf-8")
'''


def group(cases: list[dict]) -> dict[str, list[dict]]:
    """The cases by app (the id's part before its first hyphen); apps without an original are left out."""
    apps: dict[str, list[dict]] = {}
    for case in cases:
        apps.setdefault(case["id"].split("-", 1)[0], []).append(case)
    return {app: found for app, found in apps.items() if any(c["id"] == f"{app}-{ORIGINAL}" for c in found)}


def play(args: argparse.Namespace, work: Path) -> int:
    cases = json.loads(Path(args.cases).read_text(encoding="utf-8"))
    setup = {"apps": group(cases), "steps": args.steps, "timeout": args.timeout}
    (work / "setup.json").write_text(json.dumps(setup, indent=1), encoding="utf-8")
    (work / "test_differential.py").write_text(TEST_FILE, encoding="utf-8")
    (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (work / "results").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    command = [args.python, "-m", "pytest", str(work / "test_differential.py"), "--playtest", "-q",
               "-p", "no:cacheprovider", "-c", str(work / "pytest.ini"), "--rootdir", str(work),
               "--playtest-output", str(work / "artifacts"), "-n", str(args.workers)]
    with (work / "pytest.log").open("w") as log:
        return subprocess.run(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT).returncode


def report(work: Path) -> dict:
    rows = [row for path in sorted((work / "results").glob("*.json"))
            for row in json.loads(path.read_text(encoding="utf-8"))]
    checks = [row for row in rows if row["role"] == "check"]
    originals = [row for row in checks if row["id"].endswith(f"-{ORIGINAL}")]
    variants = [row for row in checks if not row["id"].endswith(f"-{ORIGINAL}")]
    for row in rows:
        caught = f"DIVERGES at step {row['diverged_at']}" if row["diverged_at"] is not None else ""
        others = ", ".join(k for k in row["kinds"] if k != "diverges")
        print(f"{row['id']:42} {row['role']:7} {row['status']:6} {caught:24} {others:22} {row['seconds']:6.1f}s "
              f"{row['note'] or row['error'] or ''}")
    diverged = [row for row in variants if row["diverged_at"] is not None]
    false = [row for row in originals if row["diverged_at"] is not None]
    recorded = [row for row in rows if row["role"] == "record" and row["note"] in ("recorded", "updated")]
    print(f"\ngolden runs recorded: {len(recorded)} of {sum(row['role'] == 'record' for row in rows)} apps; "
          f"variants diverged: {len(diverged)}/{len(variants)}; originals diverged (false): "
          f"{len(false)}/{len(originals)}")
    return {"rows": rows, "diverged": [row["id"] for row in diverged], "false": [row["id"] for row in false]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", help="a cases.json: [{id: <app>-<variant>, run: {...}}], with <app>-original cases")
    parser.add_argument("--steps", type=int, default=150, help="steps per run (default 150)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per run (default 60)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--workdir", help="kept; default a new temporary folder")
    parser.add_argument("--python", default=str(REPO / ".venv" / "bin" / "python"))
    parser.add_argument("--out", help="write the outcomes as JSON here")
    args = parser.parse_args(argv)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="playtest-differential-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    code = play(args, work)
    result = report(work)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"work folder: {work} (pytest exit code {code})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
