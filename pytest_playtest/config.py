"""The plugin's settings in one leaf module: the option/ini table, ``Settings`` read from them, the stash keys and
the output path.

Every other module that needs a setting, a stash key or the output folder takes it from here; this module
imports nothing of the package but the data modules, so importing it costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from .errors import SpecError
from .files import SCREENSHOT_MODES, ScreenshotMode
from .geometry import parse_size
from .settings import (
    CASE_MODES,
    DIFFERENTIAL_MODES,
    GOLDEN_MODES,
    PLAYTEST_ARGUMENTS,
    SANDBOX_MODES,
    GoldenMode,
    Settings,
)
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
#: The arguments of the playtest marker and of run() (``settings.PLAYTEST_ARGUMENTS``, which loop/spec.py checks).
MARKER_ARGUMENTS = PLAYTEST_ARGUMENTS


def marker_help() -> str:
    """The playtest marker's line in ``pytest --markers``."""
    arguments = ", ".join(f"{name}=..." for name in MARKER_ARGUMENTS)
    return f"playtest({arguments}): a playtest of a GUI app; see docs/writing-playtests.md"


def ini_name(flag: str) -> str:
    """The ini twin of a flag: its name in underscores (``--playtest-max-steps`` → ``playtest_max_steps``)."""
    return flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Option:
    """One command line option and its ini twin (same name, underscores).

    A ``bool`` option is a flag (``--playtest-record``) whose ini twin is a boolean. ``choices`` are the values
    an enumerated option takes: ``pytest --help`` lists them and argparse checks the command line; the ini
    value is checked where the setting is read (``settings_from``, the benchmark and scenario readers), by an
    error naming the option and its ini twin. ``aliases`` are earlier spellings of the flag: they and their ini
    twins still work, with a ``PytestPlaytestDeprecationWarning`` (``deprecated_spellings``).
    """

    flag: str
    help: str
    default: str | None = None
    kind: Literal["string", "bool"] = "string"
    choices: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def ini(self) -> str:
        return ini_name(self.flag)

    @property
    def names(self) -> tuple[str, ...]:
        """The ini twin, then the deprecated spellings' (each also the dest of its flag), in precedence order."""
        return (self.ini, *(ini_name(alias) for alias in self.aliases))

    def described(self) -> str:
        """The option's line in ``pytest --help``: its help, ini twin and default."""
        default = "" if self.kind == "bool" or self.default is None else f"; default: {self.default}"
        return f"{self.help} (ini: {self.ini}{default})"


#: Every option of the plugin, in the order ``pytest --help`` lists them. Benchmark-only options are
#: ``--playtest-benchmark-*`` and scenario options ``--playtest-scenario-*``; ``--playtest-results`` is
#: written by both. ``--playtest-policy`` lists no choices: plugins add policy names (the make_policy hook).
OPTIONS: tuple[Option, ...] = (
    Option("--playtest", "run playtests (tests using the playtest marker or fixture)", kind="bool"),
    Option("--playtest-size", "size of the virtual display, WIDTHxHEIGHT", "1024x768"),
    Option("--playtest-display", "use this running X display (:N) instead of starting Xvfb"),
    Option("--playtest-output", "folder for per-test artifacts", DEFAULT_OUTPUT),
    Option("--playtest-policy", "default policy: heuristic, random, llm, replay or a plugin's", "heuristic"),
    Option("--playtest-max-steps", "default bound on actions per run", "50"),
    Option("--playtest-timeout", "default bound on seconds per run", "60"),
    Option("--playtest-screenshots",
           "keep every run's screenshots (on), none (off) or only those of runs that did not pass (only-on-failure)",
           "on", choices=SCREENSHOT_MODES),
    Option("--playtest-record", "record every run's trajectory (trajectory.jsonl) in its artifacts folder",
           kind="bool"),
    Option("--playtest-coverage",
           "measure the code coverage of Python apps under test and steer exploration by it", kind="bool"),
    Option("--playtest-results",
           "write a benchmark's metrics and scenario files' functional completeness to this JSON file"),
    Option("--playtest-model", "model name for policy llm", None),
    Option("--playtest-base-url", "OpenAI-compatible endpoint for policy llm (else OPENAI_BASE_URL)", None),
    Option("--playtest-replay",
           "replay recorded runs from this folder (a recording's output root or one test's folder)", None),
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
           "(independent), for files whose front matter does not say", "sequential", choices=CASE_MODES),
    Option("--playtest-sandbox",
           "run apps under test in a bubblewrap sandbox (unset: auto for benchmark samples, off for hand-written "
           "playtests)", choices=SANDBOX_MODES),
    Option("--playtest-sandbox-limits",
           "sandbox limits, e.g. address_space=4G,cpu_seconds=600,file_size=1G,open_files=1024,processes=128",
           None),
    Option("--playtest-golden",
           "golden runs (playtest-golden/ beside the tests): check (a playtest that has one replays it and fails "
           "where the app now diverges), record (also keep one for each passing playtest that has none), update "
           "(record every one anew) or off", "check", choices=GOLDEN_MODES),
    # -- benchmark suites (tasks.jsonl): docs/benchmark.md, docs/benchmark-scale.md, docs/repair.md
    Option("--playtest-benchmark-samples",
           "benchmark samples file (JSONL) for tasks.jsonl suites; without it each task's own code is the sample",
           aliases=("--playtest-samples",)),
    Option("--playtest-benchmark-k", "comma-separated k values for Exec@k, Pass@k, Play@k", "1",
           aliases=("--playtest-k",)),
    Option("--playtest-benchmark-repair",
           "repair rounds a benchmark sample that fails a stage gets (asks --playtest-model for new code)", "0",
           aliases=("--playtest-repair",)),
    Option("--playtest-benchmark-differential",
           "on: each benchmark task's reference is recorded once, and a sample that passes its playtest replays the "
           "reference's inputs and fails where it shows something else", "on", choices=DIFFERENTIAL_MODES,
           aliases=("--playtest-differential",)),
    Option("--playtest-benchmark-shard",
           "run shard I of N of a benchmark (I/N, 1-based; auto/N takes I from JOB_COMPLETION_INDEX): the tasks are "
           "dealt out evenly, by id or by --playtest-benchmark-shard-costs", aliases=("--playtest-shard",)),
    Option("--playtest-benchmark-shard-costs",
           "an earlier benchmark run's store (a .store.jsonl): --playtest-benchmark-shard deals the costliest tasks "
           "first, so that every shard gets its share of them", aliases=("--playtest-shard-costs",)),
    Option("--playtest-benchmark-resume",
           "go on from the run store beside --playtest-results, skipping the benchmark stages it holds",
           kind="bool", aliases=("--playtest-resume",)),
)
#: Each option by its ini twin and by its deprecated spellings' ini twins.
OPTION_BY_NAME: dict[str, Option] = {name: option for option in OPTIONS for name in option.names}

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
    """An option's value: the command line, else the ini file, else the table's default (False for a flag).

    ``ini`` is the option's ini twin (a deprecated spelling's is read as the option's). A deprecated spelling
    counts where the new one is not given, on the command line and in the ini file alike. The ini twins are
    registered without a default, so that an ini value given is told from one that is not.
    """
    option = OPTION_BY_NAME.get(ini)
    names = option.names if option else (ini,)
    for name in names:
        value = config.getoption(name, default=None)
        if value is not None:
            return value
    for name in names:
        value = _ini_value(config, name)
        if value is not None:
            return value
    if option is None:
        return None
    return False if option.kind == "bool" else option.default


def _ini_value(config: pytest.Config, name: str) -> Any:
    """The ini file's value for ``name`` (None: not given, or not registered: the plugin is not loaded)."""
    try:
        value = config.getini(name)
    except ValueError:
        return None
    # an ini twin has no default: pytest answers None, or "" / [] for a value not given (pytest 8)
    return None if value is None or value == "" or value == [] else value


def deprecated_spellings(config: pytest.Config) -> list[tuple[str, str]]:
    """The deprecated spellings this session uses, each with the spelling to use instead (for the warnings)."""
    used = []
    for option in OPTIONS:
        for alias in option.aliases:
            if config.getoption(ini_name(alias), default=None) is not None:
                used.append((alias, option.flag))
            if _ini_value(config, ini_name(alias)) is not None:
                used.append((f"ini {ini_name(alias)}", f"ini {option.ini}"))
    return used


def enabled(config: pytest.Config) -> bool:
    """Whether playtests run in this session (``--playtest`` or ini ``playtest = true``)."""
    return bool(setting(config, "playtest"))


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


#: What ``playtest_launch_args`` holds: how the session's apps are launched (docs/writing-playtests.md, "The
#: fixture chain"). All but ``env`` are settings of the session's Runtime.
LAUNCH_ARGS = ("size", "display", "sandbox", "sandbox_limits", "env")


def launch_args(settings: Settings) -> dict[str, Any]:
    """The launch arguments as the command line and ini file give them: where ``playtest_launch_args`` starts."""
    width, height = settings.size
    return {"size": f"{width}x{height}", "display": settings.display, "sandbox": settings.sandbox,
            "sandbox_limits": settings.sandbox_limits, "env": {}}


def launched(settings: Settings, args: Any) -> tuple[Settings, dict[str, str]]:
    """The session's settings with the launch arguments ``args`` in place (a key left out keeps the session's),
    and the extra environment; a SpecError names the fixture and what is wrong."""
    where = "the playtest_launch_args fixture"
    if not isinstance(args, Mapping):
        raise SpecError(f"{where} must return a dict, got {type(args).__name__}")
    unknown = sorted(set(args) - set(LAUNCH_ARGS))
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(map(str, unknown))}; known: {', '.join(LAUNCH_ARGS)}")
    env = args.get("env") or {}
    if not isinstance(env, Mapping) or not all(isinstance(name, str) for name in env):
        raise SpecError(f"{where}: env must be a mapping of variable names to values, got {env!r}")
    changes = {name: args[name] for name in LAUNCH_ARGS[:-1] if name in args}
    try:
        if "size" in changes:
            changes["size"] = parse_size(changes["size"])
        if "sandbox" in changes:
            changes["sandbox"] = _sandbox_mode(changes["sandbox"])
        for name in ("display", "sandbox_limits"):
            if changes.get(name) is not None and not isinstance(changes[name], str):
                raise ValueError(f"{name} must be a string or None, got {changes[name]!r}")
    except ValueError as exc:
        raise SpecError(f"{where}: {exc}") from None
    return replace(settings, **changes), {name: str(value) for name, value in env.items()}


def _checked(config: pytest.Config, name: str, convert: Callable[[Any], Any]) -> Any:
    raw = setting(config, name)
    try:
        return convert(raw)
    except (TypeError, ValueError) as exc:
        raise pytest.UsageError(f"{OPTION_BY_NAME[name].flag} / ini {name}: {exc}") from None


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
    if raw not in SANDBOX_MODES:
        raise ValueError(f"must be one of {', '.join(SANDBOX_MODES)}, got {raw!r}")
    return str(raw)

