"""The detection benchmark: each policy plays every app of apps/ and every seeded bug, with the same budget.

Run with ``make bench-detection`` (or ``.venv/bin/python benchmarks/detection/run.py``). For each policy it
prints one table: per app, the seeded bugs detected (the verdict reports the bug's finding kind), false alarms
on the correct version (any finding), the median seconds to detection and the line coverage the correct
version's run reached. Writes everything to ``benchmarks/detection/results-<host>.json``.

Every run is the manifest's playtest (strategy, expectations, max_steps, timeout) with coverage on, seed 0
(``--seed N`` for another: the policy's seed; the apps keep their own fixed layouts), through the same loop as
``playtest.run()``. Two worker processes, each with its own Xvfb. ``--repeat N``
plays every case N times and reports which cases did not give the same status and finding kinds every time
(the tables count the first run of each).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_playtest.loop.spec import RunResult
    from pytest_playtest.runtime.display import Display
    from pytest_playtest.vision import Vision

HERE = Path(__file__).resolve().parent
APPS = HERE / "apps"
POLICIES = ("heuristic", "random")
CORRECT = "correct"


@dataclass(frozen=True)
class Case:
    """One run: an app, a variant (``correct`` or a bug's name) and a policy."""

    app: str
    variant: str
    policy: str
    run: int = 0
    seed: int = 0


@dataclass
class Outcome:
    app: str
    variant: str
    policy: str
    run: int
    expected: str  # the bug's finding kind; "" for the correct version
    status: str
    kinds: list[str]
    detected: bool
    seconds_to_detection: float | None
    duration: float
    steps: int
    coverage: float | None
    first: str
    seed: int = 0


def manifest(app: str) -> dict:
    return json.loads((APPS / app / "bugs.json").read_text(encoding="utf-8"))


def variant_folder(app: str, variant: str, into: Path) -> Path:
    """A copy of the app with the named bug applied (the correct app for ``correct``)."""
    folder = into / f"{app}-{variant}"
    shutil.copytree(APPS / app, folder, ignore=shutil.ignore_patterns("bugs.json", "__pycache__"))
    if variant != CORRECT:
        bug = next(b for b in manifest(app)["bugs"] if b["name"] == variant)
        source = folder / bug["file"]
        text = source.read_text(encoding="utf-8")
        if text.count(bug["line_before"] + "\n") != 1:
            raise ValueError(f"{app}/{bug['file']}: the line of bug {variant} is not there exactly once")
        source.write_text(text.replace(bug["line_before"] + "\n", bug["line_after"] + "\n"), encoding="utf-8")
    return folder


def session(case: Case, display: Display, vision: Vision, scratch: Path, *,
            artifacts: Path | None = None) -> RunResult:
    """One run of the case: the manifest's playtest on a copy of the variant, coverage on."""
    from pytest_playtest.loop.playthrough import run_session
    from pytest_playtest.loop.spec import RunSpec

    spec_data = manifest(case.app)
    # a folder of its own: a worker plays the same variant again for another policy or run
    into = Path(tempfile.mkdtemp(prefix=f"{case.policy}-{case.run}-", dir=scratch))
    folder = variant_folder(case.app, case.variant, into)
    playtest = spec_data["playtest"]
    defaults = SimpleNamespace(policy=case.policy, max_steps=playtest["max_steps"], timeout=playtest["timeout"],
                               options={}, coverage=True)
    spec = RunSpec.from_kwargs({"app": [sys.executable, spec_data["entry"]], "cwd": str(folder), "seed": case.seed,
                                "strategy": playtest["strategy"], "expect": playtest["expect"]},
                               defaults=defaults, where=f"{case.app}/{case.variant}")
    return run_session(spec, display=display, vision=vision, artifacts=artifacts,
                       screenshots="on" if artifacts else "off")


def play(case: Case, display: Display, vision: Vision, scratch: Path) -> Outcome:
    spec_data = manifest(case.app)
    result = session(case, display, vision, scratch)
    verdict = result.verdict
    expected = "" if case.variant == CORRECT else next(
        b["kind"] for b in spec_data["bugs"] if b["name"] == case.variant)
    finding = verdict.first(expected) if expected else None
    seconds = None
    if finding is not None:
        step = result.steps[finding.step - 1] if finding.step and finding.step <= len(result.steps) else None
        seconds = step.started + step.duration if step else verdict.duration
    coverage = verdict.coverage
    return Outcome(case.app, case.variant, case.policy, case.run, expected, verdict.status, verdict.kinds(),
                   finding is not None, seconds, verdict.duration, verdict.steps,
                   coverage.lines_hit / coverage.lines_total if coverage and coverage.lines_total else None,
                   verdict.findings[0].message[:160] if verdict.findings else (verdict.error or ""), case.seed)


def worker(cases: list[Case], results: multiprocessing.Queue) -> None:
    from pytest_playtest.runtime.display import Display
    from pytest_playtest.vision import Vision

    display = Display((1024, 768))
    display.start()
    vision = Vision()
    try:
        with tempfile.TemporaryDirectory(prefix="playtest-detection-") as scratch:
            for case in cases:
                started = time.monotonic()
                try:
                    outcome = play(case, display, vision, Path(scratch))
                except Exception as exc:  # noqa: BLE001 - one broken case must not stall the table
                    outcome = Outcome(case.app, case.variant, case.policy, case.run, "", "error", [], False, None,
                                      0.0, 0, None, f"harness: {exc!r}", case.seed)
                print(f"{case.policy:9s} {case.app:8s} {case.variant:28s} {outcome.status:5s} "
                      f"{','.join(outcome.kinds):28s} {time.monotonic() - started:5.1f}s", flush=True)
                results.put(asdict(outcome))
    finally:
        display.stop()


def table(outcomes: list[Outcome], policy: str) -> str:
    rows = [f"policy {policy}",
            f"{'app':10s} {'bugs found':>10s} {'false alarms':>12s} {'median s to find':>16s} {'coverage':>8s}"]
    mine = [o for o in outcomes if o.policy == policy and o.run == 0]
    for app in sorted({o.app for o in mine}):
        bugs = [o for o in mine if o.app == app and o.variant != CORRECT]
        correct = [o for o in mine if o.app == app and o.variant == CORRECT]
        found = [o for o in bugs if o.detected]
        alarms = sum(o.status != "pass" for o in correct)
        times = [o.seconds_to_detection for o in found if o.seconds_to_detection is not None]
        coverage = correct[0].coverage if correct and correct[0].coverage is not None else None
        rows.append(f"{app:10s} {len(found):>5d} / {len(bugs):<3d} {alarms:>8d} / {len(correct):<3d}"
                    f"{statistics.median(times) if times else float('nan'):>16.1f} "
                    f"{'' if coverage is None else f'{coverage:.0%}':>8s}")
    bugs = [o for o in mine if o.variant != CORRECT]
    correct = [o for o in mine if o.variant == CORRECT]
    rows.append(f"{'all':10s} {sum(o.detected for o in bugs):>5d} / {len(bugs):<3d} "
                f"{sum(o.status != 'pass' for o in correct):>8d} / {len(correct):<3d}")
    return "\n".join(rows)


def reruns(outcomes: list[Outcome]) -> str:
    """Which cases gave the same status and finding kinds on every run."""
    results: dict[tuple[str, str, str], set[tuple[str, tuple[str, ...]]]] = {}
    for o in outcomes:
        results.setdefault((o.policy, o.app, o.variant), set()).add((o.status, tuple(o.kinds)))
    differing = [f"  {' '.join(case)}: {sorted(seen)}" for case, seen in sorted(results.items()) if len(seen) > 1]
    runs = len(outcomes) // max(len(results), 1)
    return "\n".join([f"reruns: {len(results) - len(differing)} of {len(results)} cases gave the same status and "
                      f"finding kinds on all {runs} runs", *differing])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policies", default=",".join(POLICIES), help="comma-separated policies to compare")
    parser.add_argument("--apps", default="", help="comma-separated apps (default: all of apps/)")
    parser.add_argument("--workers", type=int, default=2, help="parallel worker processes (2 cores: at most 2)")
    parser.add_argument("--variants", default="", help="comma-separated variants (correct, bug names; default all)")
    parser.add_argument("--repeat", type=int, default=1, help="play every case this many times (determinism)")
    parser.add_argument("--seed", type=int, default=0, help="the policies' seed (default 0)")
    parser.add_argument("--out", type=Path, default=None, help="results file (default results-<host>.json here)")
    args = parser.parse_args()
    apps = [a for a in args.apps.split(",") if a] or sorted(
        p.name for p in APPS.iterdir() if (p / "bugs.json").is_file())
    wanted = {v for v in args.variants.split(",") if v}
    cases = [Case(app, variant, policy, run, args.seed)
             for run in range(args.repeat) for policy in args.policies.split(",") for app in apps
             for variant in [CORRECT, *(b["name"] for b in manifest(app)["bugs"])]
             if not wanted or variant in wanted]
    queue: multiprocessing.Queue = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=worker, args=(cases[i::args.workers], queue))
               for i in range(args.workers)]
    for process in workers:
        process.start()
    outcomes = [Outcome(**queue.get()) for _ in cases]
    for process in workers:
        process.join()
    out = args.out or HERE / f"results-{platform.node() or 'local'}.json"
    out.write_text(json.dumps({"machine": {"python": platform.python_version(), "system": platform.platform()},
                               "outcomes": [asdict(o) for o in outcomes]}, indent=2) + "\n")
    print()
    for policy in args.policies.split(","):
        print(table(outcomes, policy) + "\n")
    if args.repeat > 1:
        print(reruns(outcomes) + "\n")
    print(f"written: {out}")


if __name__ == "__main__":
    main()
