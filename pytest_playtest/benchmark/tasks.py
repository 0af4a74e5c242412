"""Benchmark suite files: the task list (``tasks.jsonl``) and model samples (``samples/*.jsonl``).

Both loaders are forgiving per line and strict per field: a bad line becomes an error naming the file,
the line and the field, and every other line still loads, so one typo does not hide a whole suite.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ExpectationError
from ..expect import Expectation, parse_list
from ..loop.spec import STRATEGIES

LANGUAGES: tuple[str, ...] = ("python", "javascript", "typescript")
CATEGORIES: tuple[str, ...] = (
    "game-emulation",
    "classic-games",
    "game-engine",
    "standalone-apps",
    "desktop-widgets",
    "mmorpg",
)

TASK_FIELDS: tuple[str, ...] = (
    "task_id",
    "language",
    "category",
    "repo",
    "file",
    "symbol",
    "signature",
    "requirement",
    "context",
    "run",
    "build",
    "unit_tests",
    "playtest",
)
#: Fields a task may leave out: no extra files to read, nothing to build before the app runs.
OPTIONAL_TASK_FIELDS: tuple[str, ...] = ("context", "build")
PLAYTEST_FIELDS: tuple[str, ...] = ("strategy", "goal", "expect", "max_steps", "timeout")

# Dotted identifiers; `$` is allowed because JavaScript and TypeScript symbols may use it.
_SYMBOL = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


@dataclass(frozen=True)
class LineError:
    """A problem with one line of a JSONL file; ``field`` is None when the line itself is unreadable."""

    path: Path
    line: int
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        if self.field is None:
            return f"{where}: {self.message}"
        return f"{where}: field '{self.field}': {self.message}"


class TaskError(LineError):
    """A problem with one line of ``tasks.jsonl``."""


class SampleError(LineError):
    """A problem with one line of a samples file."""


@dataclass(frozen=True)
class PlaytestSpec:
    """How the play stage tests a task: the marker arguments of ``@pytest.mark.playtest``."""

    strategy: str
    goal: str
    expect: list[Expectation]
    max_steps: int
    timeout: float


@dataclass
class Task:
    """One benchmark task: a symbol to implement inside an app repository, and how to judge it.

    ``repo`` is absolute; ``file`` and ``context`` stay relative to it, so the same paths apply to the
    copy of the repository a sample is spliced into. ``path`` and ``line`` locate the task's definition.
    """

    task_id: str
    language: str
    category: str
    repo: Path
    file: str
    symbol: str
    signature: str
    requirement: str
    context: list[str]
    run: list[str]
    unit_tests: list[str]
    playtest: PlaytestSpec
    path: Path
    line: int
    #: argv run in the repo copy before the app starts (e.g. esbuild for TypeScript); None: nothing to build
    build: list[str] | None = None


@dataclass
class Sample:
    """One model completion for a task; ``index`` counts from 0 within its task, in file order."""

    task_id: str
    completion: str
    tokens: int | None
    index: int
    path: Path
    line: int


class _InvalidField(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def resolve_argv(argv: Iterable[str], python: str | os.PathLike[str]) -> list[str]:
    """Return ``argv`` with an ``argv[0]`` of exactly ``python`` replaced by the interpreter ``python``.

    Task files say ``python`` to mean "the interpreter running pytest", so the app runs with the
    same environment (and packages) as the harness.
    """
    argv = list(argv)
    if argv and argv[0] == "python":
        argv[0] = os.fspath(python)
    return argv


def _jsonl_objects(path: Path) -> Iterable[tuple[int, dict[str, Any] | str]]:
    """Yield (line number, object) for each non-blank line, or (line number, reason) when unreadable."""
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                yield number, f"not valid JSON: {exc.msg} (column {exc.colno})"
                continue
            if not isinstance(value, dict):
                yield number, f"must be a JSON object, got {type(value).__name__}"
                continue
            yield number, value


def _nonempty_string(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _InvalidField(field, f"must be a non-empty string, got {value!r}")
    return value


def _choice(field: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _InvalidField(field, f"must be one of {', '.join(choices)}; got {value!r}")
    return value


def _argv(field: str, value: Any) -> list[str]:
    is_argv = isinstance(value, list) and value and all(isinstance(arg, str) for arg in value) and value[0]
    if not is_argv:
        raise _InvalidField(field, f"must be a non-empty list of strings (an argv), got {value!r}")
    return value


def _positive_number(field: str, value: Any, *, integer: bool) -> Any:
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
        kind = "integer" if integer else "number"
        raise _InvalidField(field, f"must be a positive {kind}, got {value!r}")
    return value


def _path_in_repo(field: str, value: Any, repo: Path, *, must_be_file: bool) -> str:
    """A relative path that stays inside ``repo`` (the sample's copy replaces the repo) and exists."""
    value = _nonempty_string(field, value)
    if Path(value).is_absolute():
        raise _InvalidField(field, f"must be relative to the repo, got absolute path {value!r}")
    target = (repo / value).resolve()
    if not target.is_relative_to(repo.resolve()):
        raise _InvalidField(field, f"{value!r} points outside the repo {repo}")
    if not target.exists():
        raise _InvalidField(field, f"{value!r} does not exist in {repo}")
    if must_be_file and not target.is_file():
        raise _InvalidField(field, f"{value!r} is not a file in {repo}")
    return value


def _playtest(value: Any) -> PlaytestSpec:
    if not isinstance(value, dict):
        raise _InvalidField("playtest", f"must be an object with {', '.join(PLAYTEST_FIELDS)}; got {value!r}")
    unknown = sorted(set(value) - set(PLAYTEST_FIELDS))
    if unknown:
        raise _InvalidField(f"playtest.{unknown[0]}", f"unknown field; expected {', '.join(PLAYTEST_FIELDS)}")
    for name in PLAYTEST_FIELDS:
        if name not in value:
            raise _InvalidField(f"playtest.{name}", "missing")
    try:
        expectations = parse_list(value["expect"])
    except ExpectationError as exc:
        raise _InvalidField("playtest.expect", str(exc)) from None
    return PlaytestSpec(
        strategy=_choice("playtest.strategy", value["strategy"], STRATEGIES),
        goal=_nonempty_string("playtest.goal", value["goal"]),
        expect=expectations,
        max_steps=_positive_number("playtest.max_steps", value["max_steps"], integer=True),
        timeout=float(_positive_number("playtest.timeout", value["timeout"], integer=False)),
    )


def _task(raw: dict[str, Any], base: Path, path: Path, line: int) -> tuple[Task | None, list[TaskError]]:
    """Validate every field of one task line independently, so one pass reports all its problems."""
    errors: list[TaskError] = []
    values: dict[str, Any] = {}

    def check(field: str, validate: Callable[[], Any]) -> None:
        try:
            values[field] = validate()
        except _InvalidField as exc:
            errors.append(TaskError(path, line, exc.field, exc.message))

    for name in sorted(set(raw) - set(TASK_FIELDS)):
        errors.append(TaskError(path, line, name, f"unknown field; expected {', '.join(TASK_FIELDS)}"))
    for name in TASK_FIELDS:
        if name not in raw and name not in OPTIONAL_TASK_FIELDS:
            errors.append(TaskError(path, line, name, "missing"))

    def repo() -> Path:
        folder = (base / _nonempty_string("repo", raw["repo"])).resolve()
        if not folder.is_dir():
            raise _InvalidField("repo", f"{raw['repo']!r} is not a folder (looked for {folder})")
        return folder

    def symbol() -> str:
        if not isinstance(raw["symbol"], str) or not _SYMBOL.fullmatch(raw["symbol"]):
            raise _InvalidField(
                "symbol", f"must be a dotted name like 'Game.on_click', got {raw['symbol']!r}"
            )
        return raw["symbol"]

    def context() -> list[str]:
        paths = raw.get("context", [])
        if not isinstance(paths, list):
            raise _InvalidField("context", f"must be a list of paths in the repo, got {paths!r}")
        return [_path_in_repo("context", item, values["repo"], must_be_file=False) for item in paths]

    simple: dict[str, Callable[[], Any]] = {
        "task_id": lambda: _nonempty_string("task_id", raw["task_id"]),
        "language": lambda: _choice("language", raw["language"], LANGUAGES),
        "category": lambda: _choice("category", raw["category"], CATEGORIES),
        "repo": repo,
        "symbol": symbol,
        "signature": lambda: _nonempty_string("signature", raw["signature"]),
        "requirement": lambda: _nonempty_string("requirement", raw["requirement"]),
        "run": lambda: _argv("run", raw["run"]),
        "build": lambda: _argv("build", raw["build"]),
        "unit_tests": lambda: _argv("unit_tests", raw["unit_tests"]),
        "playtest": lambda: _playtest(raw["playtest"]),
    }
    for name, validate in simple.items():
        if name in raw:
            check(name, validate)
    # Paths inside the repo can only be checked once the repo itself is known to be valid.
    if "repo" in values:
        if "file" in raw:
            check("file", lambda: _path_in_repo("file", raw["file"], values["repo"], must_be_file=True))
        check("context", context)

    if errors:
        return None, errors
    return Task(**values, path=path, line=line), []


def load_tasks(path: str | os.PathLike[str]) -> tuple[list[Task], list[TaskError]]:
    """Load a suite's ``tasks.jsonl``: the valid tasks in file order, and an error for each problem.

    Every field is checked (types, allowed values, that ``repo`` is a folder next to the file and that
    ``file``/``context`` exist inside it, that ``playtest.expect`` parses); an unknown field is an error
    too, since a misspelled optional field would otherwise be silently dropped. A line with problems yields
    one ``TaskError`` per problem and no task; the other lines still load. A repeated ``task_id`` is an
    error on the later line. Blank lines are skipped. Raises ``OSError`` if the file cannot be read.
    """
    path = Path(path)
    base = path.parent
    tasks: list[Task] = []
    errors: list[TaskError] = []
    first_line_of: dict[str, int] = {}
    for number, raw in _jsonl_objects(path):
        if isinstance(raw, str):
            errors.append(TaskError(path, number, None, raw))
            continue
        task, problems = _task(raw, base, path, number)
        if task is None:
            errors.extend(problems)
            continue
        if task.task_id in first_line_of:
            message = f"duplicate task_id {task.task_id!r} (first on line {first_line_of[task.task_id]})"
            errors.append(TaskError(path, number, "task_id", message))
            continue
        first_line_of[task.task_id] = number
        tasks.append(task)
    return tasks, errors


def load_samples(
    path: str | os.PathLike[str], known_task_ids: Iterable[str]
) -> tuple[dict[str, list[Sample]], list[SampleError]]:
    """Load a samples file (HumanEval convention): ``{"task_id", "completion", "tokens"?}`` per line.

    Returns the samples grouped by task_id (tasks in order of first appearance, samples in file order,
    each with its 0-based ``index`` within the task) and an error per bad line: unreadable JSON, a
    missing or mistyped field, or a task_id not in ``known_task_ids``. Other keys are ignored, as
    HumanEval-style tools add their own (e.g. ``result``). ``tokens`` may be absent or null (unknown).
    Raises ``OSError`` if the file cannot be read.
    """
    path = Path(path)
    known = set(known_task_ids)
    samples: dict[str, list[Sample]] = {}
    errors: list[SampleError] = []
    for number, raw in _jsonl_objects(path):
        if isinstance(raw, str):
            errors.append(SampleError(path, number, None, raw))
            continue
        task_id = raw.get("task_id")
        completion = raw.get("completion")
        tokens = raw.get("tokens")
        if not isinstance(task_id, str):
            problem = "missing" if task_id is None else f"must be a string, got {task_id!r}"
            errors.append(SampleError(path, number, "task_id", problem))
        elif task_id not in known:
            errors.append(SampleError(path, number, "task_id", f"unknown task {task_id!r}"))
        elif not isinstance(completion, str):
            problem = (
                "missing" if completion is None else f"must be a string, got {type(completion).__name__}"
            )
            errors.append(SampleError(path, number, "completion", problem))
        elif tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0):
            errors.append(
                SampleError(path, number, "tokens", f"must be a non-negative integer, got {tokens!r}")
            )
        else:
            group = samples.setdefault(task_id, [])
            group.append(Sample(task_id, completion, tokens, len(group), path, number))
    return samples, errors
