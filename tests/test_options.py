"""The options as users spell them: one table, an ini twin each, choices in --help, deprecated spellings that
still work and warn once. None of these tests starts a display."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pytest_playtest.config import OPTIONS, Option, ini_name
from tests.support import REPO, no_display_env

ALIASES = [(alias, option.flag) for option in OPTIONS for alias in option.aliases]
#: prints the benchmark settings the session sees, through the one reader every module uses
READER = """
from pytest_playtest.config import setting

def test_read(request):
    for name in ("playtest_benchmark_k", "playtest_benchmark_samples", "playtest_benchmark_resume"):
        print(f"{name}={setting(request.config, name)!r}")
"""


@pytest.fixture(scope="module")
def help_output() -> str:
    result = subprocess.run([sys.executable, "-m", "pytest", "--help"], env=no_display_env(), capture_output=True,
                            text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.flag)
def test_help_lists_every_option_with_its_ini_twin_and_choices(option: Option, help_output: str) -> None:
    text = " ".join(help_output.split())  # argparse wraps the help anywhere
    assert option.flag in text and f"(ini: {option.ini}" in text
    assert re.search(rf"^  {option.ini} \({option.kind}\):", help_output, re.M)  # the ini-options section
    if option.choices:
        assert f"{option.flag}={{{','.join(option.choices)}}}" in text
    for alias in option.aliases:
        metavar = "" if option.kind == "bool" else f"={{{','.join(option.choices)}}}" if option.choices \
            else f"={ini_name(alias).upper()}"
        assert f"{alias}{metavar} deprecated: use {option.flag}" in text
        assert re.search(rf"^  {ini_name(alias)} \({option.kind}\):\s+deprecated: use {option.ini}", help_output,
                         re.M)


def test_option_names_are_unique_and_grouped() -> None:
    names = [name for option in OPTIONS for name in (option.flag, *option.aliases)]
    assert len(names) == len(set(names))
    assert all(name.startswith("--playtest") for name in names)
    benchmark = [o.flag for o in OPTIONS if o.aliases]
    assert all(flag.startswith("--playtest-benchmark-") for flag in benchmark)
    assert {ini_name(alias) for alias, _ in ALIASES} == {"playtest_samples", "playtest_k", "playtest_repair",
                                                         "playtest_differential", "playtest_shard",
                                                         "playtest_shard_costs", "playtest_resume"}


def test_a_bad_ini_value_of_a_choice_names_the_option_and_its_ini_twin(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--playtest", "-o", "playtest_screenshots=sometimes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--playtest-screenshots / ini playtest_screenshots: must be one of on, off, "
                                 "only-on-failure, got 'sometimes'*"])


def test_a_bad_choice_on_the_command_line_is_refused_by_argparse(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--playtest", "--playtest-golden", "sometimes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--playtest-golden: invalid choice: 'sometimes'*"])


def test_new_spellings_need_no_warning(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(READER)
    pytester.makeini("[pytest]\nplaytest_benchmark_samples = s.jsonl\n")
    result = pytester.runpytest("-s", "--playtest-benchmark-k", "1,3", "--playtest-benchmark-resume",
                                "-W", "error::DeprecationWarning")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*playtest_benchmark_k='1,3'", "playtest_benchmark_samples='s.jsonl'",
                                 "playtest_benchmark_resume=True"])


def test_deprecated_flags_and_ini_names_still_work_with_a_warning(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(READER)
    pytester.makeini("[pytest]\nplaytest_samples = old.jsonl\n")
    result = pytester.runpytest("-s", "--playtest-k", "1,3", "--playtest-resume")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*playtest_benchmark_k='1,3'", "playtest_benchmark_samples='old.jsonl'",
                                 "playtest_benchmark_resume=True"])
    for old, new in (("--playtest-k", "--playtest-benchmark-k"), ("--playtest-resume", "--playtest-benchmark-resume"),
                     ("ini playtest_samples", "ini playtest_benchmark_samples")):
        result.stdout.fnmatch_lines([f"*PytestPlaytestDeprecationWarning: {old} is deprecated: use {new}"])
    assert result.stdout.str().count("is deprecated: use") == 3


def test_a_new_spelling_wins_over_an_old_one_and_the_command_line_over_the_ini_file(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(READER)
    pytester.makeini("[pytest]\nplaytest_samples = old.jsonl\nplaytest_benchmark_samples = new.jsonl\n"
                     "playtest_benchmark_k = 5\n")
    result = pytester.runpytest("-s", "--playtest-k", "2", "-p", "no:warnings")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*playtest_benchmark_k='2'", "playtest_benchmark_samples='new.jsonl'"])


def test_a_deprecated_spelling_warns_once_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one(): pass\n\ndef test_two(): pass\n")
    result = pytester.runpytest_subprocess("--playtest-k", "1", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    assert result.stdout.str().count("--playtest-k is deprecated") == 1


def _options_section() -> str:
    text = (REPO / "docs" / "writing-playtests.md").read_text(encoding="utf-8")
    return text[text.index("## Options\n"):].split("\n## ", 1)[0]


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.flag)
def test_the_docs_list_every_option_with_its_ini_twin_choices_and_old_spellings(option: Option) -> None:
    rows = [line for line in _options_section().splitlines() if line.startswith(f"| `{option.flag}` |")]
    assert len(rows) == 1, f"docs/writing-playtests.md, Options: no row for {option.flag}"
    assert f"| `{option.ini}` |" in rows[0]
    assert all(f"`{choice}`" in rows[0] for choice in option.choices)
    for alias in option.aliases:
        assert f"| `{alias}` | `{ini_name(alias)}` | `{option.flag}` |" in _options_section()
