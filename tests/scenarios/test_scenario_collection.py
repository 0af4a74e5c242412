"""Collecting scenario files: items per Functionality, malformed files as failing items, nothing without --playtest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import APPS, no_display_env

GOOD = """---
app: toy.py
---
#### Functionalities 1. Counting
- **Step**: press +
  **Expectation**: "Count: 1"

#### Functionalities 2. Broken
- **Step**: press +
"""


def test_without_playtest_scenario_files_are_neither_collected_nor_imported(tmp_path: Path) -> None:
    (tmp_path / "notes.playtest.md").write_text(GOOD)
    (tmp_path / "TestCases_Notes.md").write_text(GOOD)
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    pass\n")
    code = ("import sys, pytest\n"
            f"code = pytest.main([{str(tmp_path)!r}, '-q', '-p', 'no:cacheprovider'])\n"
            "print('MODULES', *sorted(m for m in sys.modules if m.startswith(('pytest_playtest.scenarios', "
            "'pytest_playtest.loop', 'numpy', 'yaml'))))\n"
            "sys.exit(code)")
    result = subprocess.run([sys.executable, "-c", code], env=no_display_env(), capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    assert result.stdout.splitlines()[-1] == "MODULES"


def test_each_functionality_is_an_item_and_a_malformed_one_fails_naming_its_line(
        pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("toy.py").write_text((APPS / "tk_toy.py").read_text())
    pytester.path.joinpath("counter.playtest.md").write_text(GOOD)
    bad = "---\napp: toy.py\nsize: huge\n---\n#### Functionalities 1. X\n- **Step**: a **Expectation**: b\n"
    pytester.path.joinpath("bad.playtest.md").write_text(bad)

    collected = pytester.runpytest("--playtest", "--collect-only", "-q")
    collected.stdout.fnmatch_lines(["bad.playtest.md::line 3 (1)",
                                    "counter.playtest.md::Functionalities 1. Counting",
                                    "counter.playtest.md::Functionalities 2. Broken"])

    result = pytester.runpytest("--playtest", "-k", "line or Broken", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        f"*malformed scenario: {pytester.path / 'bad.playtest.md'}:3: front matter: playtest argument "
        "size='huge'*",
        f"*malformed scenario: {pytester.path / 'counter.playtest.md'}:9: 1 Step(s) without an Expectation*",
        "*functional completeness*",
        "bad.playtest.md: FC 0/0 (1 malformed item(s))",
    ])


def test_a_front_matter_key_the_run_does_not_know_is_named_with_its_line(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("toy.py").write_text("print('x')\n")
    pytester.path.joinpath("a.playtest.md").write_text(
        "---\napp: toy.py\ntimeout: -1\n---\n#### Functionalities 1. X\n- **Step**: a **Expectation**: b\n")

    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*a.playtest.md:3: front matter: playtest argument timeout=-1: must be positive"])


def test_fsd_bench_files_take_their_app_from_the_mapping(pytester: pytest.Pytester) -> None:
    pytester.mkdir("apps").joinpath("notes.py").write_text("print('x')\n")
    body = "### Black Box Unit Test Cases\n\n#### Functionalities 1. One\n- **Step**: a\n  **Expectation**: b\n"
    pytester.path.joinpath("TestCases_Notes.md").write_text(body)
    pytester.path.joinpath("TestCases_Other.md").write_text(body)

    result = pytester.runpytest("--playtest", "--collect-only", "-q",
                                "--playtest-scenario-apps", "TestCases_Notes.md=apps/notes.py")
    result.stdout.fnmatch_lines(["TestCases_Notes.md::Functionalities 1. One", "TestCases_Other.md::line 1 (1)"])

    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "-k", "Other",
                                "--playtest-scenario-apps", "TestCases_Notes.md=apps/notes.py")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*TestCases_Other.md:1: no app to test*--playtest-scenario-apps*"])

    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--playtest-scenario-apps", "oops")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*entry 'oops' is not PATTERN=APP*"])


def test_a_rule_on_a_desktop_app_and_a_malformed_rule_are_failing_items_naming_their_line(
        pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("toy.py").write_text((APPS / "tk_toy.py").read_text())
    pytester.path.joinpath("desktop.playtest.md").write_text(
        "---\napp: toy.py\n---\n#### Functionalities 1. Rules\n- **Step**: press +\n"
        "  **Expectation**: \"Count: 1\"\n- **Step**: press +\n  **Expectation**: `#count == 2`\n")
    pytester.path.joinpath("page.playtest.md").write_text(
        "---\napp: page.html\n---\n#### Functionalities 1. Rules\n- **Step**: press up\n"
        "  **Expectation**: `#count == 'two` (a quote left open)\n")

    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider")

    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        f"*malformed scenario: {pytester.path / 'desktop.playtest.md'}:8: Expectation of case 2: the rule "
        "`#count == 2` reads a web page's DOM, but app='toy.py' is a desktop app (rules are for .html files, web app "
        "folders and URLs)"])
    result.stdout.fnmatch_lines([
        f"*malformed scenario: {pytester.path / 'page.playtest.md'}:6: Expectation of case 1: rule \"#count == 'two\": "
        "cannot read the clause*"])


def test_credentials_and_case_independence_are_checked_where_they_are_given(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("toy.py").write_text("print('x')\n")
    case = "#### Functionalities 1. X\n- **Step**: press up\n  **Expectation**: \"Count: 1\"\n"
    pytester.path.joinpath("login.playtest.md").write_text(f"---\napp: toy.py\nlogin: alice\n---\n{case}")
    pytester.path.joinpath("cases.playtest.md").write_text(f"---\napp: toy.py\ncases: shuffled\n---\n{case}")
    pytester.path.joinpath("fine.playtest.md").write_text(
        f"---\napp: toy.py\nlogin: {{username: alice, password: wonderland}}\ncases: independent\n---\n{case}")

    result = pytester.runpytest("--playtest", "--collect-only", "-q", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["cases.playtest.md::line 3 (1)", "fine.playtest.md::Functionalities 1. X",
                                 "login.playtest.md::line 3 (1)"])
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "-k", "line")
    result.stdout.fnmatch_lines(["*login.playtest.md:3: login: must be a mapping of username, password, email*"])
    result.stdout.fnmatch_lines(["*cases.playtest.md:3: cases must be one of sequential, independent, got 'shuffled'"])

    # the ini's credentials are for files without a login: key, checked for each of them
    result = pytester.runpytest("--playtest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                "-o", "playtest_scenario_login=username=alice", "fine.playtest.md")
    result.stdout.fnmatch_lines(["fine.playtest.md::Functionalities 1. X"])
    pytester.path.joinpath("TestCases_Notes.md").write_text(case)
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "-o", "playtest_scenario_login=username=alice",
                                "-o", "playtest_scenario_apps=TestCases_*.md=toy.py", "TestCases_Notes.md")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*TestCases_Notes.md:1: --playtest-scenario-login / ini playtest_scenario_login: "
                                 "password is missing"])


def test_a_step_before_the_first_functionality_fails_alone(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("toy.py").write_text("print('x')\n")
    pytester.path.joinpath("stray.playtest.md").write_text(
        "---\napp: toy.py\n---\n- **Step**: press up\n#### Functionalities 1. Good\n- **Step**: press up\n"
        "  **Expectation**: \"Count: 1\"\n")

    result = pytester.runpytest("--playtest", "--collect-only", "-q", "-p", "no:cacheprovider")

    result.stdout.fnmatch_lines(["stray.playtest.md::line 4 (1)", "stray.playtest.md::Functionalities 1. Good"])
