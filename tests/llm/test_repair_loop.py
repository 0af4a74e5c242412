"""The repair loop without a display: reading replies, the prompt files, and rounds against the loopback
server with a stage runner that really splices and really runs the counter app's unit tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_playtest.benchmark.splice import splice_repo
from pytest_playtest.repair.diagnosis import Diagnosis
from pytest_playtest.repair.loop import RepairLoop, StageRun
from pytest_playtest.repair.model import RepairModel
from pytest_playtest.repair.patch import proposed_files, unified_diff
from pytest_playtest.repair.prompt import RepairPrompt, RepairTask, read_context
from pytest_playtest.repair.reply import Unusable, extract_code, validate
from tests.support import SAMPLES
from tests.support.openai_server import OpenAIServer, Reply

COUNTER = SAMPLES / "counter"
SOURCE = "class Game:\n    def score(self) -> int:\n        return 0\n"


@pytest.mark.parametrize(("reply", "code"), [
    ("Here:\n```python\nreturn 1\n```\nand\n```\nreturn 2\n```", "return 1\n"),
    ("~~~\nreturn 3\n~~~", "return 3\n"),
    ("return 4\n", "return 4\n"),
    ("Cut short:\n```python\nreturn 5\n", "return 5\n"),
])
def test_the_first_fenced_block_or_the_whole_reply(reply: str, code: str) -> None:
    assert extract_code(reply) == code


def test_a_reply_without_code_is_unusable() -> None:
    with pytest.raises(Unusable, match="holds no code"):
        extract_code("```python\n\n```")


def test_validation_splices_and_parses() -> None:
    assert "return 7" in validate(SOURCE, "Game.score", "return 7\n", "def score(self) -> int", "game.py")
    with pytest.raises(Unusable, match=r"does not parse: game.py, line 3"):
        validate(SOURCE, "Game.score", "return (7\n", "def score(self) -> int", "game.py")
    with pytest.raises(Unusable, match="'Game.level' not found in game.py"):
        validate(SOURCE, "Game.level", "return 7\n", None, "game.py")


def test_proposed_files_are_named_by_the_blocks_and_must_parse() -> None:
    sources = {"app/main.py": "x = 1\n", "app/logic.py": "y = 1\n"}
    assert proposed_files("```python main.py\nx = 2\n```\n```python app/logic.py\ny = 1\n```", sources) == {
        "app/main.py": "x = 2\n"}
    with pytest.raises(Unusable, match="naming one of the files"):
        proposed_files("```python\nx = 2\n```", sources)
    with pytest.raises(Unusable, match="the new app/main.py does not parse"):
        proposed_files("```python app/main.py\nx = (\n```", sources)
    assert proposed_files("```\nx = 3\n```", {"main.py": "x = 1\n"}) == {"main.py": "x = 3\n"}
    assert unified_diff(sources, {"app/main.py": "x = 2\n"}) == (
        "--- a/app/main.py\n+++ b/app/main.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n")


def test_prompt_files_are_overridden_file_by_file(tmp_path: Path) -> None:
    (tmp_path / "repair_exec.md").write_text("<!-- mine -->\nIt broke in round {round}:\n{evidence}")
    prompt = RepairPrompt(RepairModel({"model": "m", "base_url": "http://127.0.0.1:9/v1",
                                       "prompts_dir": str(tmp_path)}).options)
    task = RepairTask("t", "Count up.", "logic.py", "Counter.increment", "def increment(self) -> int",
                      context=read_context(COUNTER, ["unit_tests.py"]))
    messages = prompt.messages(task, "return 0\n", "source text", Diagnosis("exec", "SyntaxError: boom"), 2)
    text = messages[1]["content"][0]["text"]  # type: ignore[index]
    assert "It broke in round 2:\nSyntaxError: boom" in text and "mine" not in text
    assert "Count up." in text and "`unit_tests.py`" in text and "def test_starts_at_zero" in text
    assert "complete corrected definition of `Counter.increment`" in messages[0]["content"]  # packaged system


def test_a_prompt_with_an_unknown_placeholder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "repair_pass.md").write_text("{evidence} {score}")
    prompt = RepairPrompt(RepairModel({"model": "m", "base_url": "http://127.0.0.1:9/v1",
                                       "prompts_dir": str(tmp_path)}).options)
    task = RepairTask("t", "r", "logic.py", "f", "def f()")
    with pytest.raises(Exception, match=r"repair_pass.md: unknown placeholder\(s\) \{score\}"):
        prompt.messages(task, "pass\n", "", Diagnosis("pass", "1 failed"), 1)


class UnitTestStages:
    """Exec (compiles) and pass (the counter's unit tests) for real, in a fresh copy per round."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir

    def __call__(self, completion: str, number: int) -> StageRun:
        repo = splice_repo(COUNTER, self.workdir / f"r{number}", "logic.py", "Counter.increment", completion,
                           "def increment(self) -> int")
        tests = subprocess.run([sys.executable, "unit_tests.py"], cwd=repo, capture_output=True, text=True,
                               timeout=60)
        if tests.returncode:
            return StageRun({"exec": True, "pass": False}, Diagnosis("pass", tests.stdout + tests.stderr))
        return StageRun({"exec": True, "pass": True, "play": True})


def test_rounds_go_on_after_a_reply_without_code_and_stop_at_the_first_pass(
        openai_server: OpenAIServer, tmp_path: Path) -> None:
    openai_server.add(Reply(content="I think the counter is fine.\n```\n```", prompt_tokens=10, completion_tokens=5),
                      Reply(content="```python\nself.value += 2\nreturn self.value\n```", prompt_tokens=20),
                      Reply(content="```python\nself.value += 1\nreturn self.value\n```", prompt_tokens=30),
                      Reply(content="never asked"))
    model = RepairModel({"model": "m", "base_url": openai_server.url})
    task = RepairTask("counter/increment", "Add one.", "logic.py", "Counter.increment", "def increment(self) -> int")
    loop = RepairLoop(model, RepairPrompt(model.options), task, (COUNTER / "logic.py").read_text(), 4,
                      UnitTestStages(tmp_path), signature=task.signature)
    rounds = loop.run("self.value -= 1\nreturn self.value\n", Diagnosis("pass", "increment gave -1"))
    model.close()

    assert [r.error is not None for r in rounds] == [True, False, False]
    assert rounds[0].error == "no usable code: the reply holds no code" and rounds[0].tokens == 15
    assert rounds[1].stages == {"exec": True, "pass": False} and rounds[1].diagnosis == "pass"
    assert rounds[2].passed and rounds[2].completion == "self.value += 1\nreturn self.value\n"
    bodies = openai_server.bodies()
    assert len(bodies) == 3
    second, third = (body["messages"][1]["content"][0]["text"] for body in bodies[1:])
    assert "could not be used: the reply holds no code" in second
    # round 3 is told what round 2's version did to the unit tests
    assert "self.value += 2" in third and "FAIL test_increment_returns_and_stores_new_value" in third
    # the failing version is shown in its file, never the task's own code
    assert "self.value -= 1" in second and "self.value += 1\n        return" not in second


def test_bad_repair_options_are_usage_errors(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--playtest", "--playtest-benchmark-repair", "-2")
    result.stderr.fnmatch_lines(["*--playtest-benchmark-repair / ini playtest_benchmark_repair: "
                                 "expected a number of rounds >= 0*"])
    result = pytester.runpytest_subprocess("--playtest", "--playtest-benchmark-repair", "2")
    result.stderr.fnmatch_lines(["*--playtest-benchmark-repair asks a model for new code: pass --playtest-model NAME*"])


TOY_TASK = {
    "task_id": "toy/add", "language": "python", "category": "standalone-apps", "repo": "toy", "file": "logic.py",
    "symbol": "add", "signature": "def add(total: int, amount: int) -> int", "requirement": "Return the sum.",
    "run": ["python", "-c", "import logic"], "unit_tests": ["python", "-c", "import logic"],
    "playtest": {"strategy": "coverage", "goal": "none", "expect": [{"alive": True}], "max_steps": 1, "timeout": 5},
}


@pytest.fixture
def toy_suite(pytester: pytest.Pytester) -> Path:
    """A one-task suite whose only sample does not compile: the exec stage fails before any app starts."""
    suite = pytester.path / "suite"
    (suite / "toy").mkdir(parents=True)
    (suite / "toy" / "logic.py").write_text("def add(total: int, amount: int) -> int:\n    return total + amount\n")
    (suite / "tasks.jsonl").write_text(json.dumps(TOY_TASK) + "\n")
    (pytester.path / "samples.jsonl").write_text(json.dumps({"task_id": "toy/add", "completion": "return total +\n"}))
    return suite


def run_toy(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict]:
    result = pytester.runpytest_subprocess(
        "--playtest", "-p", "no:cacheprovider", "suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl",
        "--playtest-model", "m", "--playtest-benchmark-repair", "2", "--playtest-results", "results.json", *args)
    return result, json.loads((pytester.path / "results.json").read_text())


def test_an_exec_repair_prompt_carries_the_compile_error_and_a_reply_without_code_fails_its_round(
        pytester: pytest.Pytester, toy_suite: Path, openai_server: OpenAIServer) -> None:
    openai_server.default = Reply(content="```\n```", prompt_tokens=7, completion_tokens=3)
    result, results = run_toy(pytester, "--playtest-base-url", openai_server.url)

    result.assert_outcomes(failed=1, skipped=2)
    first, second = (body["messages"][1]["content"][0]["text"] for body in openai_server.bodies())
    assert "exec stage" in first and "logic.py does not compile" in first and "SyntaxError" in first
    assert "could not be used: the reply holds no code" in second
    assert results["repair"]["failed_rounds"] == 2 and results["repair"]["tokens"] == 20
    assert results["metrics"]["exec@1_r2"] == results["metrics"]["exec@1"] == 0.0
    result.stdout.fnmatch_lines(
        ["*round 2 (exec diagnosis, 10 tokens): failed: no usable code: the reply holds no code*"])


def test_a_repair_that_cannot_start_is_a_failed_round_and_a_warning(
        pytester: pytest.Pytester, toy_suite: Path, openai_server: OpenAIServer) -> None:
    result, results = run_toy(pytester, "--playtest-base-url", openai_server.url, "--playtest-prompts", "nowhere")

    result.assert_outcomes(failed=1, skipped=2)
    assert results["repair"]["errors"] == ["cannot repair: llm option prompts_dir: nowhere is not a folder"]
    result.stdout.fnmatch_lines(["*PlaytestRepairWarning: toy/add: cannot repair*"])
    assert openai_server.bodies() == []


def test_validation_of_javascript_uses_the_tree_sitter_splicer() -> None:
    source = "export function score(game) {\n  return 0;\n}\n"
    assert "return game.points;" in validate(source, "score", "return game.points;", None, "game.js", "javascript")
    with pytest.raises(Unusable, match=r"does not parse: game.js, line 2"):
        validate(source, "score", "return (game.points;", None, "game.js", "javascript")
