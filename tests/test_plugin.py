"""The plugin as pytest sees it: options, marker, skipping, importing without a display."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields

import pytest

from tests.support import APPS, REPO, no_display_env

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def test_import_needs_no_display() -> None:
    result = subprocess.run([sys.executable, "-c", "import pytest_playtest, pytest_playtest.plugin; print('ok')"],
                            env=no_display_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_help_lists_options_without_display() -> None:
    result = subprocess.run([sys.executable, "-m", "pytest", "--help"], env=no_display_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for option in ("--playtest", "--playtest-size", "--playtest-display", "--playtest-output",
                   "--playtest-policy", "--playtest-screenshots"):
        assert option in result.stdout


def test_playtests_are_skipped_without_the_flag(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.playtest(app="game.py")
        def test_marked():
            pass

        def test_fixture(playtest):
            pass

        def test_plain():
            pass
        """
    )
    result = pytester.runpytest("-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*--playtest*"])


def test_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.playtest(*"])


def test_bad_option_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--playtest", "--playtest-size", "big")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--playtest-size*WIDTHxHEIGHT*"])


def test_a_bad_token_price_is_a_usage_error_naming_the_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--playtest", "--playtest-token-price", "input=cheap")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--playtest-token-price / ini playtest_token_price: input must be a number*"])


def test_ini_twin_enables_and_configures(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nplaytest = true\nplaytest_max_steps = 7\n")
    pytester.makepyfile(
        """
        def test_settings(playtest):
            assert playtest.runtime.settings.max_steps == 7
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_marker_argument_names_it_and_others_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.playtest(app="x.py", max_step=3)
        def test_typo(playtest):
            playtest.run()

        def test_other():
            pass
        """
    )
    result = pytester.runpytest("--playtest")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*unknown playtest argument(s) max_step*"])


def test_importing_the_plugin_loads_none_of_the_machinery() -> None:
    """pytest imports the plugin in every session: it must cost nothing until playtests are enabled."""
    code = ("import sys, pytest_playtest.plugin\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('numpy', 'PIL', 'cv2', 'mss', 'Xlib', "
            "'pytest_playtest.')))))")
    result = subprocess.run([sys.executable, "-c", code], env=no_display_env(), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["pytest_playtest.config", "pytest_playtest.errors", "pytest_playtest.files",
                                     "pytest_playtest.geometry", "pytest_playtest.hookspecs", "pytest_playtest.plugin",
                                     "pytest_playtest.settings", "pytest_playtest.usage"]


def test_the_xdist_controller_loads_no_vision(pytester: pytest.Pytester) -> None:
    """With --playtest the controller schedules and reports; OpenCV, numpy and the loop load in workers only."""
    pytester.makeconftest(
        """
        import sys

        def pytest_sessionfinish(session):
            if not hasattr(session.config, "workerinput"):
                heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("cv2", "numpy", "PIL", "mss", "rapidocr")
                               or m.startswith(("pytest_playtest.loop.playthrough", "pytest_playtest.vision")))
                print("controller loaded:", " ".join(heavy) or "nothing heavy")
        """
    )
    pytester.makepyfile(
        """
        def test_one():
            pass

        def test_two():
            pass
        """
    )
    result = pytester.runpytest_subprocess("--playtest", "-n", "2", "-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*controller loaded: nothing heavy"])


def test_playtest_is_exported_for_annotations() -> None:
    from pytest_playtest import Action, Playtest, Verdict, expect
    from pytest_playtest.fixture import Playtest as FixtureObject

    assert Playtest is FixtureObject
    assert expect.text("x").kind == "text" and Action.press("a").key == "a" and not Verdict("fail")


@pytest.mark.gui
def test_playtest_defaults_set_arguments_for_a_directory(pytester: pytest.Pytester) -> None:
    app = pytester.path / "toy.py"
    app.write_text((APPS / "tk_toy.py").read_text())
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture
        def playtest_defaults():
            return {"app": "toy.py", "max_steps": 2, "policy": "random", "seed": 3}
        """
    )
    pytester.makepyfile(
        """
        import pytest

        def test_defaults_apply(playtest):
            verdict = playtest.run()
            assert verdict.policy == "random" and verdict.steps <= 2, verdict.summary()

        @pytest.mark.playtest(max_steps=1)
        def test_the_marker_overrides(playtest):
            assert playtest.marker_kwargs["max_steps"] == 1 and playtest.marker_kwargs["policy"] == "random"
            assert playtest.run().steps <= 1
        """
    )
    pytester.runpytest("--playtest", "-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_playtest_defaults_must_be_a_dict(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("import pytest\n\n@pytest.fixture\ndef playtest_defaults():\n    return ['app.py']\n")
    pytester.makepyfile("def test_x(playtest):\n    pass\n")
    result = pytester.runpytest("--playtest")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*SpecError: *playtest_defaults fixture must return a dict, got list*"])


def test_misuse_inside_a_test_is_a_spec_error(pytester: pytest.Pytester) -> None:
    """A test written wrongly fails that test with a SpecError (a PlaytestError and ValueError), never a
    pytest.UsageError that would read as a bad command line."""
    pytester.makepyfile(
        """
        import pytest
        from pytest_playtest import SpecError

        @pytest.mark.playtest("game.py")
        def test_positional(playtest):
            pass

        def test_launch_without_an_app(playtest):
            with pytest.raises(SpecError, match="needs an app"):
                playtest.launch()

        @pytest.mark.playtest(app="game.py")
        def test_an_unknown_button(playtest):
            with pytest.raises(SpecError, match="takes button= 'left' or 'right', got 'middle'"):
                playtest.click(10, 10, button="middle")
        """
    )
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*SpecError: *takes keyword arguments only, got ('game.py',)*"])


def test_the_marker_help_lists_every_argument_the_spec_checks(pytester: pytest.Pytester) -> None:
    from pytest_playtest.loop.spec import _ARGUMENTS, NOT_ARGUMENTS, RunSpec
    from pytest_playtest.settings import PLAYTEST_ARGUMENTS

    # one table: the spec checks exactly its names, each a field of RunSpec
    assert list(_ARGUMENTS) == list(PLAYTEST_ARGUMENTS)
    assert set(PLAYTEST_ARGUMENTS) == {f.name for f in fields(RunSpec)} - set(NOT_ARGUMENTS)
    result = pytester.runpytest("--markers")
    line = next(x for x in result.stdout.lines if x.startswith("@pytest.mark.playtest("))
    assert all(f"{name}=..." in line for name in PLAYTEST_ARGUMENTS)


def test_the_docs_describe_every_marker_argument() -> None:
    from pytest_playtest.settings import PLAYTEST_ARGUMENTS

    text = (REPO / "docs" / "writing-playtests.md").read_text(encoding="utf-8")
    table = text[text.index("## The marker"):text.index("### Defaults for a directory")]
    for name in PLAYTEST_ARGUMENTS:
        assert f"| `{name}`" in table or f", `{name}` |" in table, f"the marker table lacks {name}"


@pytest.mark.gui
def test_a_conftest_adds_a_policy_and_an_unknown_name_is_an_error(pytester: pytest.Pytester) -> None:
    app = pytester.path / "toy.py"
    app.write_text((APPS / "tk_toy.py").read_text())
    pytester.makeconftest(
        """
        from pytest_playtest import Action
        from pytest_playtest.policies import Decision, Policy

        class PressPlus(Policy):
            name = "press-plus"

            def decide(self, observation):
                return Decision(Action.press("plus"))

        def pytest_playtest_make_policy(name, context, config):
            return PressPlus(context) if name == "press-plus" else None
        """
    )
    pytester.makepyfile(
        """
        import pytest
        from pytest_playtest import expect

        @pytest.mark.playtest(app="toy.py", policy="press-plus", max_steps=3, expect=[expect.text("Count: [1-9]")])
        def test_the_conftest_policy_plays(playtest):
            verdict = playtest.run()
            assert verdict.passed and verdict.policy == "press-plus", verdict.summary()

        @pytest.mark.playtest(app="toy.py", policy="no-such-policy", max_steps=3)
        def test_an_unknown_policy(playtest):
            verdict = playtest.run()
            assert verdict.status == "error" and "unknown policy 'no-such-policy'" in verdict.error
            assert "heuristic, random, llm, replay" in verdict.error
        """
    )
    # in a process of its own: the OCR engine the expectation loads must not outlive the inner session's modules
    pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_the_session_runtime_serves_playtests_whose_launch_args_are_the_command_lines(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from pytest_playtest.config import RUNTIME_KEY

        def test_the_chain(request, playtest_launch_args, playtest_runtime, playtest):
            assert playtest_launch_args == {"size": "800x600", "display": None, "sandbox": None,
                                            "sandbox_limits": None, "env": {}}
            assert playtest_runtime is request.config.stash[RUNTIME_KEY] is playtest.runtime
        """
    )
    pytester.runpytest("--playtest", "--playtest-size", "800x600", "-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_bad_launch_args_fail_the_tests_that_use_them(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture(scope="session")
        def playtest_launch_args(playtest_launch_args):
            return {**playtest_launch_args, "size": "huge", "colour": "blue"}
        """
    )
    pytester.makepyfile("def test_x(playtest):\n    pass\n\ndef test_plain():\n    pass\n")
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*SpecError: the playtest_launch_args fixture: unknown key(s) colour; known: size, "
                                 "display, sandbox, sandbox_limits, env*"])


LAUNCH_ARGS_APP = """
import os
import tkinter as tk

root = tk.Tk()
print(f"screen {root.winfo_screenwidth()}x{root.winfo_screenheight()}", flush=True)
print(f"greeting {os.environ.get('PLAYTEST_GREETING')}", flush=True)
tk.Label(root, text="launched as the conftest says", width=40, height=5).pack()
root.mainloop()
"""


@pytest.mark.gui
def test_a_conftest_changes_the_launch_args_and_the_app_sees_them(pytester: pytest.Pytester) -> None:
    """The fixture chain as a conftest.py uses it: a display size and an environment variable for every app of
    the session, seen by a real app on its own display."""
    (pytester.path / "app.py").write_text(LAUNCH_ARGS_APP)
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture(scope="session")
        def playtest_launch_args(playtest_launch_args):
            return {**playtest_launch_args, "size": "640x480", "env": {"PLAYTEST_GREETING": "from-conftest"}}
        """
    )
    pytester.makepyfile(
        """
        import time

        from pytest_playtest.config import RUNTIME_KEY

        def test_the_app_sees_the_launch_args(request, playtest, playtest_runtime):
            assert playtest_runtime is not request.config.stash[RUNTIME_KEY]
            app = playtest.launch("app.py")
            assert app.has_window, playtest.output
            deadline = time.monotonic() + 10
            while "greeting" not in playtest.output and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "screen 640x480" in playtest.output and "greeting from-conftest" in playtest.output, playtest.output
            assert playtest.screenshot().shape[1] <= 640
        """
    )
    # in a process of its own, as every inner session that starts an app
    result = pytester.runpytest_subprocess("--playtest", "--playtest-size", "800x600", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
