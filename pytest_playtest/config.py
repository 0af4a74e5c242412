"""The plugin's settings in one leaf module: the option/ini table, ``Settings`` read from them, the stash keys and
the output path.

Every other module that needs a setting, a stash key or the output folder takes it from here; this module
imports nothing of the package but the data modules, so importing it costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .files import SCREENSHOT_MODES, ScreenshotMode
from .geometry import parse_size
from .settings import GOLDEN_MODES, GoldenMode, Settings
from .usage import TokenPrice

if TYPE_CHECKING:
    from .pipeline import Runtime
    from .verdict import Verdict

SKIP_REASON = "playtest tests are skipped without --playtest (pass --playtest to run them)"
DEFAULT_OUTPUT = "playtest-results"
#: Plugin names under which the benchmark collector and the report hooks are registered.
BENCHMARK_PLUGIN = "playtest-benchmark"
REPORT_PLUGIN = "playtest-report"
SCENARIO_PLUGIN = "playtest-scenarios"
#: The arguments of the playtest marker and of run(), in the order the marker's help lists them. Each is
#: checked by its own function in loop/spec.py (whose table has exactly these names; a test holds them equal).
MARKER_ARGUMENTS = ("app", "strategy", "goal", "expect", "max_steps", "timeout", "policy", "seed", "size", "env",
                    "cwd", "record", "stop_when_met", "coverage", "oracles", "options", "sandbox")


def marker_help() -> str:
    """The playtest marker's line in ``pytest --markers``."""
    arguments = ", ".join(f"{name}=..." for name in MARKER_ARGUMENTS)
    return f"playtest({arguments}): a playtest of a GUI app; see docs/writing-playtests.md"


@dataclass(frozen=True)
class Option:
    """One command line option and its ini twin (same name, underscores)."""

    flag: str
    help: str
    default: str | None

    @property
    def ini(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


OPTIONS: tuple[Option, ...] = (
    Option("--playtest-size", "size of the virtual display, WIDTHxHEIGHT", "1024x768"),
    Option("--playtest-display", "use this running X display (:N) instead of starting Xvfb", None),
    Option("--playtest-output", "folder for per-test artifacts", DEFAULT_OUTPUT),
    Option("--playtest-policy", "default policy: heuristic, random, llm, replay", "heuristic"),
    Option("--playtest-max-steps", "default bound on actions per run", "50"),
    Option("--playtest-timeout", "default bound on seconds per run", "60"),
    Option("--playtest-screenshots", "keep screenshots: on, off or only-on-failure", "on"),
    Option("--playtest-samples",
           "benchmark samples file (JSONL) for tasks.jsonl suites; without it each task's own code is the sample",
           None),
    Option("--playtest-k", "benchmark: comma-separated k values for Exec@k, Pass@k, Play@k", "1"),
    Option("--playtest-results", "benchmark: write the metrics to this JSON file", None),
    Option("--playtest-model", "model name for policy llm", None),
    Option("--playtest-base-url", "OpenAI-compatible endpoint for policy llm (else OPENAI_BASE_URL)", None),
    Option("--playtest-replay",
           "replay recorded runs from this folder (a recording's output root or one test's folder)", None),
    Option("--playtest-repair",
           "benchmark: repair rounds a sample that fails a stage gets (asks --playtest-model for new code)", "0"),
    Option("--playtest-prompts", "a folder whose files replace the packaged prompts (tester and repair)", None),
    Option("--playtest-token-price",
           "dollars per million model tokens, for a cost estimate: input=2.5,cached=1.25,output=10 (or one number "
           "for all; cached and output default to input)", None),
    Option("--playtest-scenario-apps",
           "the app of each scenario file without front matter: PATTERN=APP entries (a glob of the file's name "
           "or path, a .py path or command line from the rootdir), one per line or ;-separated", None),
    Option("--playtest-scenario-login",
           "credentials the login and registration steps of scenario files without a login: front matter type: "
           "username=NAME;password=SECRET[;email=ADDRESS]", None),
    Option("--playtest-scenario-cases",
           "whether a scenario case after one that did not pass is skipped (sequential) or run from a fresh launch "
           "(independent), for files whose front matter does not say", "sequential"),
    Option("--playtest-sandbox",
           "run apps under test in a bubblewrap sandbox: auto, on or off (unset: auto for benchmark samples, "
           "off for hand-written playtests)", None),
    Option("--playtest-sandbox-limits",
           "sandbox limits, e.g. address_space=4G,cpu_seconds=600,file_size=1G,open_files=1024,processes=128",
           None),
    Option("--playtest-golden",
           "golden runs (playtest-golden/ beside the tests): check (a playtest that has one replays it and fails "
           "where the app now diverges), record (also keep one for each passing playtest that has none), update "
           "(record every one anew) or off", "check"),
    Option("--playtest-differential",
           "benchmark: on (each task's reference is recorded once, and a sample that passes its playtest replays the "
           "reference's inputs and fails where it shows something else) or off", "on"),
    Option("--playtest-shard",
           "benchmark: run shard I of N (I/N, 1-based; auto/N takes I from JOB_COMPLETION_INDEX): the tasks are "
           "dealt out evenly, by id or by --playtest-shard-costs",
           None),
    Option("--playtest-shard-costs",
           "benchmark: an earlier run's store (a .store.jsonl): --playtest-shard deals the costliest tasks first, "
           "so that every shard gets its share of them", None),
)

# -- stash keys: how the fixture, the reports and the benchmark hand data to each other ------------------------
#: The process's displays and OCR engine, made in pytest_configure when playtests are enabled.
RUNTIME_KEY: pytest.StashKey[Runtime] = pytest.StashKey()
#: The Verdicts of every ``playtest.run()`` of a test, in order; the fixture appends, the report reads.
VERDICTS_KEY: pytest.StashKey[list[Verdict]] = pytest.StashKey()
#: Benchmark results (the ``--playtest-results`` dict) for the HTML summary; the benchmark puts them there.
METRICS_KEY: pytest.StashKey[dict[str, Any]] = pytest.StashKey()
#: A test's record of the inputs it sent by hand: called with whether the test failed, it writes the
#: steps' frames and storyboard and returns their folder (None when there is nothing to keep).
HAND_RECORD_KEY: pytest.StashKey[Callable[[bool], Path | None]] = pytest.StashKey()
#: What became of the golden run of each ``playtest.run()`` of a test ("checked", "recorded"...; golden.py).
GOLDEN_KEY: pytest.StashKey[list[str]] = pytest.StashKey()


def setting(config: pytest.Config, ini: str) -> Any:
    """An option's value: the command line, else the ini file, else the default."""
    value = config.getoption(ini, default=None)
    if value is not None:
        return value
    try:
        return config.getini(ini)
    except ValueError:  # the ini key is not registered: the plugin is not loaded
        return None


def enabled(config: pytest.Config) -> bool:
    """Whether playtests run in this session (``--playtest`` or ini ``playtest = true``)."""
    flag = config.getoption("playtest", default=None)
    if flag is not None:
        return bool(flag)
    try:
        return bool(config.getini("playtest"))
    except ValueError:
        return False


def output_root(config: pytest.Config) -> Path:
    """The output root: ``--playtest-output``, else ini ``playtest_output``, else ``playtest-results``.

    Relative paths are taken from the directory pytest was invoked in, as for ``--html`` and ``--junitxml``,
    so the controller and every xdist worker agree on it.
    """
    return config.invocation_params.dir / Path(setting(config, "playtest_output") or DEFAULT_OUTPUT)


def settings_from(config: pytest.Config) -> Settings:
    """Read and check every setting; a bad value is a UsageError naming the option and its ini twin."""
    replay = setting(config, "playtest_replay")
    options = {name: value for name, value in (("model", setting(config, "playtest_model")),
                                               ("base_url", setting(config, "playtest_base_url")),
                                               ("replay", replay),
                                               ("prompts_dir", setting(config, "playtest_prompts"))) if value}
    policy = config.getoption("playtest_policy", default=None) or ("replay" if replay else None)
    return Settings(
        size=_checked(config, "playtest_size", parse_size),
        display=setting(config, "playtest_display") or None,
        output=output_root(config),
        policy=str(policy or setting(config, "playtest_policy")),
        max_steps=_checked(config, "playtest_max_steps", _positive(int)),
        timeout=_checked(config, "playtest_timeout", _positive(float)),
        screenshots=_checked(config, "playtest_screenshots", _screenshot_mode),
        record=bool(setting(config, "playtest_record")),
        coverage=bool(setting(config, "playtest_coverage")),
        options=options,
        sandbox=_checked(config, "playtest_sandbox", _sandbox_mode),
        # checked where it is parsed (loop.spec), which names the option in the error
        sandbox_limits=setting(config, "playtest_sandbox_limits") or None,
        token_price=_checked(config, "playtest_token_price", _token_price),
        golden=_checked(config, "playtest_golden", _golden_mode),
    )


def _checked(config: pytest.Config, name: str, convert: Callable[[Any], Any]) -> Any:
    raw = setting(config, name)
    try:
        return convert(raw)
    except (TypeError, ValueError) as exc:
        option = "--" + name.replace("_", "-")
        raise pytest.UsageError(f"{option} / ini {name}: {exc}") from None


def _positive(kind: Callable[[Any], float]) -> Callable[[Any], Any]:
    def convert(raw: Any) -> Any:
        value = kind(raw)
        if value <= 0:
            raise ValueError(f"must be positive, got {raw!r}")
        return value

    return convert


def _screenshot_mode(raw: Any) -> ScreenshotMode:
    for mode in SCREENSHOT_MODES:
        if raw == mode:
            return mode
    raise ValueError(f"must be one of {', '.join(SCREENSHOT_MODES)}, got {raw!r}")


def _token_price(raw: Any) -> TokenPrice | None:
    return TokenPrice.parse(raw) if raw else None


def _golden_mode(raw: Any) -> GoldenMode:
    for mode in GOLDEN_MODES:
        if raw == mode:
            return mode
    raise ValueError(f"must be one of {', '.join(GOLDEN_MODES)}, got {raw!r}")


def _sandbox_mode(raw: Any) -> str | None:
    if raw in (None, ""):
        return None
    if raw not in ("auto", "on", "off"):
        raise ValueError(f"must be auto, on or off, got {raw!r}")
    return str(raw)

