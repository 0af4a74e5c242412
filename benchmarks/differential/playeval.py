"""Divergence alone against expectations: which of a suite's mutants each catches, mutant by mutant.

    .venv/bin/python benchmarks/differential/playeval.py [--suite benchmarks/playeval-mini] [--samples mutants]
                                                          [--references 1] [--workers 2] [--out table.md]

Two benchmark runs over the same samples: the suite as written with ``--playtest-benchmark-differential off`` (the
playtests and their expectations judge), and the suite with every task's expectations removed and
``--playtest-benchmark-differential on`` (the oracles and the task's reference judge). For each sample that reached the
play stage it prints what caught it: the expectations, divergence from the reference, both or neither (and
the oracles, which catch a crash in either run); then the reference samples (``samples/reference.jsonl``) are
run the second way, where none may fail: ``--references N`` runs each N times, every one a replay against the
one recording of its task's reference (the self-consistency of the references).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PROPERTY = "playtest_benchmark"
KIND = re.compile(r"\[([a-z_]+)\]")


def without_expectations(suite: Path, into: Path) -> Path:
    """The suite's tasks with no expectations, their repos named by absolute path, in ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    lines = []
    for line in (suite / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            task = json.loads(line)
            task["repo"] = str((suite / task["repo"]).resolve())
            task["playtest"]["expect"] = []
            lines.append(json.dumps(task))
    (into / "tasks.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return into / "tasks.jsonl"


def repeated(samples: Path, times: int, into: Path) -> Path:
    """The samples file with each line ``times`` times in a row (a task's samples are numbered in order)."""
    lines = [line for line in samples.read_text(encoding="utf-8").splitlines() if line.strip()]
    target = into / f"{samples.stem}-x{times}.jsonl"
    target.write_text("".join(f"{line}\n" * times for line in lines), encoding="utf-8")
    return target


def play_outcomes(tasks: Path, samples: Path, work: Path, name: str, workers: int, *options: str
                  ) -> dict[tuple[str, int], dict[str, Any]]:
    """One benchmark run; each sample's play stage: its outcome, what failed it, the finding kinds."""
    results = work / f"{name}.json"
    command = [sys.executable, "-m", "pytest", str(tasks), "--playtest", "-q", "-p", "no:cacheprovider",
               "-n", str(workers), "--playtest-benchmark-samples", str(samples), "--playtest-results", str(results),
               "--playtest-output", str(work / f"{name}-artifacts"), "--rootdir", str(tasks.parent), *options]
    subprocess.run(command, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    outcomes: dict[tuple[str, int], dict[str, Any]] = {}
    for line in results.with_name(f"{name}.store.jsonl").read_text(encoding="utf-8").splitlines():
        report = json.loads(line)
        props = dict(report.get("user_properties", [])).get(PROPERTY) or {}
        if props.get("stage") != "play" or report.get("when") != "call" or report["outcome"] == "skipped":
            continue  # a sample that failed an earlier stage never played
        text = json.dumps(report.get("longrepr") or "")
        outcomes[(props["task_id"], props["sample"])] = {
            "outcome": report["outcome"], "failed_by": props.get("failed_by"),
            "kinds": sorted(set(KIND.findall(text)))}
    return outcomes


def caught(as_written: dict[str, Any] | None, alone: dict[str, Any] | None) -> str:
    """What caught a sample: its expectations (first run), divergence from the reference (second run), both;
    the oracles, when the second run failed it without expectations and without diverging; or neither."""
    expectation = bool(as_written and "expectation" in as_written["kinds"])
    divergence = bool(alone and alone["failed_by"] == "divergence")
    if divergence:
        return "both" if expectation else "divergence"
    if alone and alone["outcome"] == "failed":
        return "oracles"
    return "expectation" if expectation else "neither"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, default=REPO / "benchmarks" / "playeval-mini")
    parser.add_argument("--samples", default="mutants")
    parser.add_argument("--references", type=int, default=1, help="runs of each reference sample (default 1)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    suite = args.suite.resolve()
    samples = suite / "samples" / f"{args.samples}.jsonl"
    completions = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="playeval-diff-") as folder:
        work = Path(folder)
        alone_tasks = without_expectations(suite, work / suite.name)
        as_written = play_outcomes(suite / "tasks.jsonl", samples, work, "as-written", args.workers,
                                   "--playtest-benchmark-differential", "off")
        alone = play_outcomes(alone_tasks, samples, work, "alone", args.workers)
        reference_samples = repeated(suite / "samples" / "reference.jsonl", args.references, work)
        references = play_outcomes(alone_tasks, reference_samples, work, "references", args.workers)
    rows = ["| task | sample | completion | as written | no expectations, with the reference | caught by |",
            "|---|---|---|---|---|---|"]
    tally: dict[str, int] = {}
    index: dict[str, int] = {}
    for sample in completions:
        task_id = sample["task_id"]
        number = index[task_id] = index.get(task_id, -1) + 1
        first, second = as_written.get((task_id, number)), alone.get((task_id, number))
        if first is None and second is None:
            continue  # it never reached the play stage
        verdict = caught(first, second)
        tally[verdict] = tally.get(verdict, 0) + 1
        code = " ⏎ ".join(sample["completion"].strip().splitlines())[:70].replace("|", "\\|")
        rows.append(f"| {task_id} | s{number} | `{code}` | {_describe(first)} | {_describe(second)} | {verdict} |")
    failed_references = sorted(key for key, run in references.items() if run["outcome"] != "passed")
    lines = [*rows, "", "caught by: " + ", ".join(f"{name} {count}" for name, count in sorted(tally.items())),
             f"reference samples, no expectations, with the reference: {len(references) - len(failed_references)} "
             f"of {len(references)} pass" + (f" (failed: {failed_references})" if failed_references else "")]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


def _describe(run: dict[str, Any] | None) -> str:
    if run is None:
        return "-"
    if run["outcome"] == "passed":
        return "pass"
    return f"{run['outcome']} ({', '.join(run['kinds']) or run['failed_by']})"


if __name__ == "__main__":
    raise SystemExit(main())
