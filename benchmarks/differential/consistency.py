"""Self-consistency of golden runs: record them on correct apps, check them again and again; none may diverge.

    .venv/bin/python benchmarks/differential/consistency.py [--repeat 10] [--workers 2] [FOLDER]

A folder of apps and their playtests (default ``sample_projects/``) is copied into a temporary folder; its
``test_*.py`` playtests (scenario files keep no golden runs) are recorded there with
``--playtest-golden record``, then the playtests that kept one are checked ``--repeat`` times. It prints, per
check, how many golden runs were checked and which tests diverged, and the total: the number to keep at 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT = REPO / "sample_projects"


def copy(folder: Path, work: Path) -> list[Path]:
    """The folder copied under ``work`` (without golden runs of its own); the test files of the copy."""
    target = work / folder.name
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("playtest-golden", "__pycache__"))
    return sorted(target.glob("**/test_*.py"))


def run(python: str, targets: list[Path], work: Path, workers: int, *options: str) -> dict[str, list[str]]:
    """One pytest session over the playtests; each test's finding kinds, from the JUnit report's properties."""
    junit = work / "junit.xml"
    command = [python, "-m", "pytest", *map(str, targets), "--playtest", "-q", "-p", "no:cacheprovider",
               "-n", str(workers), "-k", "not playtest.md", "--junitxml", str(junit),
               "--playtest-output", str(work / "artifacts"), *options]
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    subprocess.run(command, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found: dict[str, list[str]] = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        properties = {p.get("name"): p.get("value") or "" for p in case.iter("property")}
        if "playtest_status" in properties:
            name = f"{case.get('classname')}::{case.get('name')}"
            found[name] = [*properties.get("playtest_findings", "").split(","), properties.get("playtest_golden", "")]
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT, help="default: sample_projects")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--python", default=str(REPO / ".venv" / "bin" / "python"))
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="playtest-consistency-"))
    targets = copy(args.folder.resolve(), work)
    started = time.monotonic()
    recorded = run(args.python, targets, work, args.workers, "--playtest-golden", "record")
    print(f"recorded: {sum('recorded' in kinds for kinds in recorded.values())} of {len(recorded)} playtests "
          f"({time.monotonic() - started:.0f}s)")
    # the checks play only the playtests that kept a golden run (the others explore as usual: time, not data)
    kept = " or ".join(name.rpartition("::")[2] for name, kinds in recorded.items() if "recorded" in kinds)
    diverged_total = 0
    for number in range(1, args.repeat + 1):
        started = time.monotonic()
        checked = run(args.python, targets, work, args.workers, "-k", kept)
        diverged = sorted(name for name, kinds in checked.items() if "diverges" in kinds)
        diverged_total += len(diverged)
        print(f"check {number}: {sum('checked' in kinds for kinds in checked.values())} golden runs checked, "
              f"{len(diverged)} diverged {diverged or ''} ({time.monotonic() - started:.0f}s)")
    print(f"divergences in {args.repeat} checks: {diverged_total}; work folder: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
