"""``playtest-repair ARTIFACTS SOURCE...``: propose a patch for a failing playtest and play the patched app.

The model sees the source files and the playtest's report (verdict, findings, steps, storyboard) and
answers with corrected files. Each candidate is tried in a copy of the project, by running the same test
with pytest (so it goes through the plugin's own launch, sandbox and oracles); a failing candidate's new
report feeds the next round. Everything goes into ``ARTIFACTS/repair/``:

    patch.diff     the proposed change (apply from the project root: ``git apply`` or ``patch -p1``)
    verdict.json   the patched app's verdict
    rounds.json    every round: tokens, the files tried, the verdict or why there was nothing to try
    round-N/       round N's playtest artifacts (storyboard, frames, trajectory)

The user's files are never written. Exit 0 when the patched app passes, 1 when no round made it pass,
2 for bad input or when the model or the display could not be used.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..errors import EndpointError, PolicyError, RepairInputError
from ..files import VERDICT_FILE
from ..report.artifacts import OUTPUT_MARKER, slugify
from ..trajectory import Step, Trajectory
from ..verdict import Verdict
from .diagnosis import Diagnosis
from .loop import Round
from .model import RepairModel
from .patch import proposed_files, unified_diff
from .prompt import RepairPrompt
from .reply import Unusable

REPAIR_DIR = "repair"
PATCH_FILE = "patch.diff"
ROUNDS_FILE = "rounds.json"
#: Never copied into the project copy: history, caches, environments, and playtest output folders.
NOT_COPIED = (".git", "__pycache__", ".pytest_cache", ".venv", "venv", "node_modules", ".mypy_cache", ".ruff_cache")
TEST_TIMEOUT = 900


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        repair = DeveloperRepair.from_args(args)
    except RepairInputError as exc:
        print(f"playtest-repair: error: {exc}", file=sys.stderr)
        return 2
    return repair.run()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="playtest-repair",
        description="Propose a patch for a failing playtest from its artifacts, and play the patched app. "
                    "Writes ARTIFACTS/repair/ (patch.diff, verdict.json, rounds.json); never changes your files.")
    parser.add_argument("artifacts", type=Path, help="the failing playtest's artifacts folder (holds verdict.json)")
    parser.add_argument("sources", type=Path, nargs="+", help="the source file(s) the fault may be in")
    parser.add_argument("--root", type=Path, default=Path("."), help="the project root (default: the current folder)")
    parser.add_argument("--test", help="the test's node id (default: the collected test whose artifacts folder "
                                       "this is)")
    parser.add_argument("--rounds", type=int, default=3, help="at most this many proposals (default 3)")
    parser.add_argument("--model", required=True, help="model name at the OpenAI-compatible endpoint")
    parser.add_argument("--base-url", help="the endpoint (else OPENAI_BASE_URL); the key comes from OPENAI_API_KEY")
    parser.add_argument("--prompts", type=Path, help="a folder whose files replace the packaged prompts")
    parser.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for the pytest run of the patched app (repeatable)")
    return parser


class DeveloperRepair:
    """The rounds of one failing playtest of a developer's project."""

    def __init__(self, artifacts: Path, root: Path, sources: dict[str, str], test: str, rounds: int,
                 options: dict[str, object], pytest_args: list[str]) -> None:
        self.artifacts = artifacts
        self.root = root
        self.sources = sources
        self.test = test
        self.rounds = rounds
        self.options = options
        self.pytest_args = pytest_args
        self.out = artifacts / REPAIR_DIR

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> DeveloperRepair:
        artifacts, root = args.artifacts.resolve(), args.root.resolve()
        if not (artifacts / VERDICT_FILE).is_file():
            raise RepairInputError(f"{artifacts} holds no {VERDICT_FILE}: give a playtest's artifacts folder")
        if args.rounds < 1:
            raise RepairInputError(f"--rounds must be at least 1, got {args.rounds}")
        sources: dict[str, str] = {}
        for path in args.sources:
            path = path.resolve()
            if not path.is_file() or not path.is_relative_to(root):
                raise RepairInputError(f"{path} is not a file inside the project root {root}")
            sources[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
        options: dict[str, object] = {"model": args.model, "base_url": args.base_url,
                                      "prompts_dir": str(args.prompts) if args.prompts else None}
        test = args.test or find_test(root, artifacts)
        return cls(artifacts, root, sources, test, args.rounds, {k: v for k, v in options.items() if v},
                   list(args.pytest_arg))

    def run(self) -> int:
        verdict = Verdict.from_dict(json.loads((self.artifacts / VERDICT_FILE).read_text(encoding="utf-8")))
        if verdict.passed:
            print(f"playtest-repair: {self.test} passed; nothing to repair")
            return 0
        verdict.artifacts = self.artifacts
        diagnosis = Diagnosis.from_verdict(verdict, recorded_steps(self.artifacts))
        try:
            model = RepairModel(self.options)
        except PolicyError as exc:  # a bad option names itself
            print(f"playtest-repair: error: {exc}", file=sys.stderr)
            return 2
        self.out.mkdir(parents=True, exist_ok=True)
        try:
            records, best = self._rounds(model, RepairPrompt(model.options), diagnosis)
        finally:
            model.close()
        (self.out / ROUNDS_FILE).write_text(json.dumps([r.to_dict() for r in records], indent=2) + "\n")
        return self._conclude(records, best)

    def _rounds(self, model: RepairModel, prompt: RepairPrompt, diagnosis: Diagnosis
                ) -> tuple[list[Round], tuple[dict[str, str], Verdict] | None]:
        current = dict(self.sources)
        records: list[Round] = []
        last: tuple[dict[str, str], Verdict] | None = None
        unusable: str | None = None
        for number in range(1, self.rounds + 1):
            record = Round(number, diagnosis.kind)
            records.append(record)
            try:
                answer = model.ask(prompt.file_messages(self.test, current, diagnosis, number, unusable))
            except EndpointError as exc:
                record.error = f"endpoint: {exc}"
                print(f"playtest-repair: warning: round {number} could not ask the model: {exc}", file=sys.stderr)
                break
            record.tokens = answer.tokens
            try:
                changed = proposed_files(answer.text, current)
            except Unusable as exc:
                record.error, record.completion, unusable = f"no usable code: {exc}", answer.text, str(exc)
                continue
            unusable = None
            candidate = {**current, **changed}
            record.completion = unified_diff(self.sources, _changed(self.sources, candidate))
            verdict, steps = self._play(candidate, self.out / f"round-{number}")
            record.verdict = verdict.status + (f": {', '.join(verdict.kinds())}" if verdict.kinds() else "")
            record.stages = {"play": verdict.passed}
            record.artifacts = str(verdict.artifacts) if verdict.artifacts else None
            record.tester_tokens = verdict.tokens
            last = (candidate, verdict)
            if verdict.passed or verdict.status == "error":
                break
            current, diagnosis = candidate, Diagnosis.from_verdict(verdict, steps)
        return records, last

    def _play(self, files: dict[str, str], output: Path) -> tuple[Verdict, list[Step]]:
        """The test, run by pytest in a copy of the project with ``files`` in place; artifacts in ``output``."""
        with tempfile.TemporaryDirectory(prefix="playtest-repair-") as scratch:
            project = Path(scratch) / self.root.name
            shutil.copytree(self.root, project, ignore=self._ignore, symlinks=True)
            for name, text in files.items():
                (project / name).write_text(text, encoding="utf-8")
            command = [sys.executable, "-m", "pytest", self.test, "--playtest", "--playtest-record", "-q",
                       "-p", "no:cacheprovider", "--playtest-output", str(output), *self.pytest_args]
            try:
                done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=TEST_TIMEOUT,
                                      stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                return Verdict("error", error=f"the patched test did not finish within {TEST_TIMEOUT} s"), []
        folder = output / self.artifacts.name if not self.artifacts.name.startswith("run-") else (
            output / self.artifacts.parent.name / self.artifacts.name)
        if not (folder / VERDICT_FILE).is_file():
            tail = (done.stdout + done.stderr).strip()[-1500:]
            return Verdict("error", error=f"the patched test left no verdict in {folder}:\n{tail}"), []
        verdict = Verdict.from_dict(json.loads((folder / VERDICT_FILE).read_text(encoding="utf-8")))
        verdict.artifacts = folder
        return verdict, recorded_steps(folder)

    def _ignore(self, folder: str, names: list[str]) -> set[str]:
        """Skip caches, environments and any playtest output folder (they may hold this very repair)."""
        return {name for name in names
                if name in NOT_COPIED or (Path(folder) / name / OUTPUT_MARKER).exists()}

    def _conclude(self, records: list[Round], best: tuple[dict[str, str], Verdict] | None) -> int:
        if best is None:
            reasons = "; ".join(r.error for r in records if r.error) or "no round ran"
            print(f"playtest-repair: no patch to try ({reasons})", file=sys.stderr)
            return 2 if any((r.error or "").startswith("endpoint:") for r in records) else 1
        files, verdict = best
        (self.out / PATCH_FILE).write_text(unified_diff(self.sources, _changed(self.sources, files)), encoding="utf-8")
        (self.out / VERDICT_FILE).write_text(json.dumps(verdict.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"playtest-repair: {len(records)} round(s); the patched app's playtest: {records[-1].verdict}")
        print(f"  patch:   {self.out / PATCH_FILE}")
        print(f"  verdict: {self.out / VERDICT_FILE}")
        if verdict.status == "error":
            return 2
        return 0 if verdict.passed else 1


def find_test(root: Path, artifacts: Path) -> str:
    """The node id whose artifacts folder ``artifacts`` is (folder names are ``slugify(nodeid)``)."""
    slug = artifacts.parent.name if artifacts.name.startswith("run-") else artifacts.name
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=root, capture_output=True, text=True, timeout=TEST_TIMEOUT, stdin=subprocess.DEVNULL)
    for line in done.stdout.splitlines():
        if "::" in line and slugify(line.strip()) == slug:
            return line.strip()
    raise RepairInputError(f"no test collected in {root} has the artifacts folder {slug}; name it with --test")


def recorded_steps(folder: Path) -> list[Step]:
    """The steps of a run, when it was recorded (``--playtest-record``); none otherwise."""
    try:
        return Trajectory.read(folder).steps
    except (FileNotFoundError, ValueError):
        return []


def _changed(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    return {name: text for name, text in after.items() if text != before.get(name)}


if __name__ == "__main__":
    sys.exit(main())
