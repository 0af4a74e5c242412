import json
import shutil
from pathlib import Path

import pytest

from pytest_playtest.benchmark.tasks import load_samples, load_tasks, resolve_argv
from pytest_playtest.expect import Expectation
from tests.support import REPO

SUITE = REPO / "fixtures" / "benchmark" / "suite"


@pytest.fixture
def suite(tmp_path):
    """A writable copy of the fixture suite, so each test can write its own tasks.jsonl."""
    shutil.copytree(SUITE, tmp_path / "suite")
    return tmp_path / "suite"


def good_task():
    return json.loads((SUITE / "tasks.jsonl").read_text().splitlines()[0])


def write_lines(path, *lines):
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def test_loads_the_fixture_suite():
    tasks, errors = load_tasks(SUITE / "tasks.jsonl")
    assert errors == []
    assert [task.task_id for task in tasks] == ["tiles/merge_line", "tiles/move_left"]
    first, second = tasks
    assert first.repo == (SUITE / "repos" / "tiles").resolve() and first.repo.is_absolute()
    assert first.file == "tiles/logic.py"
    assert first.context == ["tiles/__main__.py"]
    assert first.run == ["python", "-m", "tiles"]
    assert first.playtest.strategy == "goal"
    assert all(isinstance(item, Expectation) for item in first.playtest.expect)
    assert [item.kind for item in first.playtest.expect] == ["text", "alive"]
    assert (first.path, first.line) == (SUITE / "tasks.jsonl", 1)
    assert second.context == []  # optional
    assert first.build is None  # optional: nothing to build
    assert second.playtest.timeout == 30.5 and second.playtest.max_steps == 20


def test_a_build_argv_is_loaded(suite: Path) -> None:
    task = good_task()
    task["build"] = ["esbuild", "app.ts", "--outdir=."]
    tasks, errors = load_tasks(write_lines(suite / "tasks.jsonl", task))
    assert errors == [] and tasks[0].build == ["esbuild", "app.ts", "--outdir=."]


def with_field(name, value):
    task = good_task()
    task["task_id"] = "bad"
    if "." in name:
        outer, inner = name.split(".")
        task[outer][inner] = value
    else:
        task[name] = value
    return task


def without_field(name):
    task = good_task()
    task["task_id"] = "bad"
    if "." in name:
        outer, inner = name.split(".")
        del task[outer][inner]
    else:
        del task[name]
    return task


BAD_FIELDS = [
    ("task_id", "", "non-empty string"),
    ("task_id", 7, "non-empty string"),
    ("language", "rust", "must be one of python, javascript, typescript"),
    ("category", "puzzle", "must be one of game-emulation, classic-games"),
    ("repo", "repos/missing", "is not a folder"),
    ("repo", 3, "non-empty string"),
    ("file", "tiles/nope.py", "does not exist"),
    ("file", "tiles", "is not a file"),
    ("file", "../../tasks.jsonl", "outside the repo"),
    ("file", "/etc/hostname", "absolute"),
    ("symbol", "Game..x", "dotted name"),
    ("symbol", "on click", "dotted name"),
    ("symbol", None, "dotted name"),
    ("signature", "", "non-empty string"),
    ("requirement", ["text"], "non-empty string"),
    ("context", "tiles/logic.py", "must be a list"),
    ("context", ["tiles/missing.py"], "does not exist"),
    ("run", [], "non-empty list of strings"),
    ("run", "python -m tiles", "non-empty list of strings"),
    ("unit_tests", ["python", 3], "non-empty list of strings"),
    ("build", "esbuild app.ts", "non-empty list of strings"),
    ("build", [], "non-empty list of strings"),
    ("playtest", "play it", "must be an object"),
    ("playtest.strategy", "explore", "must be one of goal, coverage"),
    ("playtest.goal", "", "non-empty string"),
    ("playtest.expect", [{"txt": "Score"}], "unknown expectation key"),
    ("playtest.expect", [{"text": "("}], "bad regex"),
    ("playtest.max_steps", 0, "positive integer"),
    ("playtest.max_steps", 2.5, "positive integer"),
    ("playtest.timeout", -1, "positive number"),
    ("playtest.timeout", True, "positive number"),
    ("playtest.timeout", "60", "positive number"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD_FIELDS)
def test_a_bad_field_is_reported_and_the_other_tasks_still_load(suite, field, value, message):
    tasks_file = write_lines(suite / "tasks.jsonl", good_task(), with_field(field, value))
    tasks, errors = load_tasks(tasks_file)
    assert [task.task_id for task in tasks] == ["tiles/merge_line"]
    assert len(errors) == 1, errors
    (error,) = errors
    assert (error.path, error.line, error.field) == (tasks_file, 2, field)
    assert message in error.message
    assert str(error) == f"{tasks_file}:2: field '{field}': {error.message}"


@pytest.mark.parametrize(
    "field",
    ["task_id", "language", "category", "repo", "file", "symbol", "signature", "requirement", "run",
     "unit_tests", "playtest", "playtest.strategy", "playtest.goal", "playtest.expect", "playtest.max_steps",
     "playtest.timeout"],
)  # fmt: skip
def test_a_missing_field_is_reported(suite, field):
    tasks, errors = load_tasks(write_lines(suite / "tasks.jsonl", without_field(field)))
    assert tasks == []
    assert [(error.field, error.message) for error in errors] == [(field, "missing")]


def test_unknown_fields_are_reported(suite):
    task = good_task()
    task["contexts"] = []
    task["playtest"]["steps"] = 3
    tasks, errors = load_tasks(write_lines(suite / "tasks.jsonl", task))
    assert tasks == []
    assert sorted(error.field for error in errors) == ["contexts", "playtest.steps"]
    assert all("unknown field" in error.message for error in errors)


def test_every_problem_of_a_line_is_reported_at_once(suite):
    task = good_task()
    task.update(language="rust", category="puzzle", run=[])
    tasks, errors = load_tasks(write_lines(suite / "tasks.jsonl", task))
    assert tasks == []
    assert [error.field for error in errors] == ["language", "category", "run"]


def test_unreadable_lines_and_blank_lines(suite):
    tasks_file = write_lines(suite / "tasks.jsonl", "{not json", "", "[1, 2]", good_task())
    tasks, errors = load_tasks(tasks_file)
    assert [task.line for task in tasks] == [4]
    assert [(error.line, error.field) for error in errors] == [(1, None), (3, None)]
    assert str(errors[0]).startswith(f"{tasks_file}:1: not valid JSON")
    assert str(errors[1]) == f"{tasks_file}:3: must be a JSON object, got list"


def test_duplicate_task_id_is_an_error_on_the_later_line(suite):
    tasks, errors = load_tasks(write_lines(suite / "tasks.jsonl", good_task(), good_task()))
    assert len(tasks) == 1
    assert [(error.line, error.field) for error in errors] == [(2, "task_id")]
    assert "duplicate task_id 'tiles/merge_line' (first on line 1)" in str(errors[0])


def test_repo_is_relative_to_the_tasks_file_not_the_working_directory(suite, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    tasks, errors = load_tasks("suite/tasks.jsonl")
    assert errors == []
    assert tasks[0].repo == (suite / "repos" / "tiles").resolve()
    assert str(tasks[0].path) == "suite/tasks.jsonl"


def test_resolve_argv_replaces_only_a_leading_python():
    assert resolve_argv(["python", "-m", "tiles"], "/venv/bin/python3") == [
        "/venv/bin/python3",
        "-m",
        "tiles",
    ]
    assert resolve_argv(["python3", "main.py"], "/venv/bin/python") == ["python3", "main.py"]
    assert resolve_argv(["node", "python"], "/venv/bin/python") == ["node", "python"]
    assert resolve_argv([], "/venv/bin/python") == []
    assert resolve_argv(("python", "x.py"), Path("/venv/bin/python")) == ["/venv/bin/python", "x.py"]


KNOWN = ["tiles/merge_line", "tiles/move_left"]


def test_loads_the_fixture_samples():
    samples, errors = load_samples(SUITE / "samples" / "model-a.jsonl", KNOWN)
    assert errors == []
    assert list(samples) == KNOWN
    merge = samples["tiles/merge_line"]
    assert [(sample.index, sample.line, sample.tokens) for sample in merge] == [
        (0, 1, 120),
        (1, 2, 40),
        (2, 4, None),
    ]
    assert merge[1].completion.startswith("    return tuple(")
    assert samples["tiles/move_left"][0].tokens is None


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        ('{"task_id": ', None, "not valid JSON"),
        ('"just a string"', None, "must be a JSON object"),
        ({"completion": "return 1"}, "task_id", "missing"),
        ({"task_id": 3, "completion": "return 1"}, "task_id", "must be a string"),
        ({"task_id": "tiles/unknown", "completion": "return 1"}, "task_id", "unknown task 'tiles/unknown'"),
        ({"task_id": "tiles/move_left"}, "completion", "missing"),
        ({"task_id": "tiles/move_left", "completion": ["return 1"]}, "completion", "must be a string"),
        ({"task_id": "tiles/move_left", "completion": "", "tokens": -1}, "tokens", "non-negative integer"),
        ({"task_id": "tiles/move_left", "completion": "", "tokens": "12"}, "tokens", "non-negative integer"),
        ({"task_id": "tiles/move_left", "completion": "", "tokens": True}, "tokens", "non-negative integer"),
        ({"task_id": "tiles/move_left", "completion": "", "tokens": 1.5}, "tokens", "non-negative integer"),
    ],
)
def test_a_bad_sample_line_is_reported_and_the_rest_still_loads(tmp_path, line, field, message):
    good = {"task_id": "tiles/move_left", "completion": "return True", "tokens": 5}
    samples_file = write_lines(tmp_path / "samples.jsonl", good, line, good)
    samples, errors = load_samples(samples_file, KNOWN)
    assert [(sample.index, sample.line) for sample in samples["tiles/move_left"]] == [(0, 1), (1, 3)]
    assert len(errors) == 1
    (error,) = errors
    assert (error.path, error.line, error.field) == (samples_file, 2, field)
    assert message in error.message
    assert str(error).startswith(f"{samples_file}:2: ")


def test_an_empty_completion_is_a_sample_not_an_error(tmp_path):
    samples, errors = load_samples(
        write_lines(tmp_path / "s.jsonl", {"task_id": "a", "completion": ""}), ["a"]
    )
    assert errors == [] and samples["a"][0].completion == ""
