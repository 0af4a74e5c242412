"""What a run is asked to do: the marker and run() arguments, checked, with the session defaults filled in."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from .. import expect as expect_module
from ..errors import PytestPlaytestDeprecationWarning, SpecError
from ..geometry import parse_size
from ..rules import refused_on_desktop
from ..runtime.browser import looks_like_web_app
from ..runtime.sandbox import SANDBOX_MODES, Limits, SandboxPolicy
from ..settings import PLAYTEST_ARGUMENTS
from ..sights import Golden, Sight
from ..trajectory import Step
from ..verdict import Verdict
from .thresholds import MAX_BEAT, MIN_BEAT

Strategy = Literal["goal", "coverage"]
STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)


class _BadArgument(ValueError):
    """One argument is wrong: the message says why; from_kwargs adds where and which."""




@dataclass
class OracleSettings:
    """Thresholds of the generic oracles (per run; the ``oracles=`` marker argument overrides them, together
    with the loop's ``Pacing``)."""

    #: an app counts as animating after this many frame changes observed with no input involved
    animating_changes: int = 3
    #: an animating app whose window stays identical this long (seconds) while it spins the CPU or is stopped, not
    #: reading its input, is frozen (``IDLE_FREEZE`` times as long while it idles: a game may sleep on purpose)
    freeze_after: float = 2.0
    #: an idle app is frozen when this many inputs in a row had no effect, inputs of those kinds had
    #: an effect before, and the process is busy or stopped
    probe_inputs: int = 4
    #: retired: CPU use alone never makes a freeze (a title screen over a busy loop is not frozen); still
    #: accepted so existing ``oracles={...}`` arguments keep working, with a PytestPlaytestDeprecationWarning
    busy_cpu: float | None = None
    #: a backlog of X events the app has not read, unchanged over this many seconds (sampled
    #: ``unread_samples`` times, no input sent meanwhile), shows the app stopped handling input; a live
    #: app drains it at its next frame, however slow its frames
    unread_input_for: float = 1.0
    #: how many looks at the backlog over ``unread_input_for`` (one look can catch any app mid-frame)
    unread_samples: int = 4
    #: distinct screen states in which a click on a widget must have had no effect to be "unresponsive"
    #: (a target that ever had an effect in the run is never unresponsive)
    unresponsive_states: int = 3
    #: share of a CPU an app that reads no input must use to be hung (a loop), when no input ever worked; and
    #: one whose input is read but whose stack stays in one event handler's loop
    hang_cpu: float = 0.8
    #: seconds to wait, after a traceback appears, to tell an exception (app lives) from a crash
    crash_grace: float = 0.15
    #: a web page whose main thread does not run a trivial script within this many seconds is frozen
    page_answer: float = 2.0
    #: an app that animated and has stood still this long (seconds), ignoring ``probe_inputs`` inputs in a
    #: row while it reads them, has stopped for good (a game over with no restart): it is launched again
    stall_after: float = 3.0
    #: ... and only when it moved like a game: it changed by itself this often (per second of its launch, on
    #: average); a page whose toast faded now and then, standing still between inputs, is not over
    steady_rate: float = 0.5

    # -- dead controls (loop/controls.py; docs/verdicts.md "Dead controls") ---------------------------------
    #: an input of a still app that never had an effect is dead once tried this many times...
    dead_tries: int = 8
    #: ... on this many different screens (an input that works in one state only, a restart key on the game-over
    #: screen, is excused until then)
    dead_screens: int = 5
    #: a movement key whose opposite worked is judged once tried this many times right where that opposite had
    #: just moved the app: the way back is open there, while elsewhere a wall may stand
    way_back_tries: int = 2
    #: a whole kind of input (every key, the clicks on a drawn UI) is judged once tried this many times...
    kind_tries: int = 16
    #: ... its clicks at this many places (10 px apart)
    kind_places: int = 8
    #: on an app that moves by itself: beats watched without input before its own rate of effect-like changes
    #: (the chance level) is known
    chance_beats: int = 8
    #: ... an app whose own motion looks like an effect more often than this gives no evidence about its inputs
    max_chance: float = 0.3
    #: ... an input's effects are chance while they exceed the chance level by at most this many standard
    #: deviations
    chance_margin: float = 2.0
    #: ... and one key is dead while the app's other keys work only when its effects come this many standard
    #: errors less often than theirs (a direction key works only when the avatar is not heading that way
    #: already, so a working one may trail the others a little)
    dead_separation: float = 3.0

    def __post_init__(self) -> None:
        if self.busy_cpu is not None:
            warnings.warn("oracles={'busy_cpu': ...} is retired and has no effect: CPU use alone never makes a "
                          "freeze (docs/verdicts.md)", PytestPlaytestDeprecationWarning, stacklevel=3)


@dataclass
class Pacing:
    """How the loop paces itself around each input (seconds); set with the ``oracles=`` argument too."""

    #: the app is watched without input after its first paint, to learn whether it animates
    animation_probe: float = 0.3
    #: wait this long for a visible reaction after an input
    settle: float = 0.25
    #: after the first visible reaction, the window must stay the same this long for the drawing to be
    #: complete (a reaction drawn in two passes is one effect, not one and a stray change of the next step)
    repaint: float = 0.015
    #: a pointer rests on its target this long before the "before" frame is taken (hover highlights)
    hover: float = 0.03
    #: extra time granted to a widget click that showed nothing within ``settle`` (a slow repaint under
    #: load is not a dead button)
    confirm: float = 0.5
    #: exploring an animating app, how long the loop waits for each of the next two drawn frames after an
    #: input, so its effect is credited to it and not to the next step
    next_frame: float = 0.1
    #: with coverage, how long a step waits for the app's report of the lines its input reached (the app
    #: reports every ~20 ms; the wait ends as soon as new lines arrive)
    coverage_report: float = 0.03
    #: a step of a real-time game (an app that animates) lasts at least this long, as a player's decisions
    #: do: movement keys are held that long and the game is let run (0: ``play_share`` of the run's time
    #: spread over its steps, between ``MIN_BEAT`` and ``MAX_BEAT``)
    beat: float = 0.0
    #: the share of a run's time its steps of a real-time game should fill (the rest goes to launches)
    play_share: float = 0.5

    def beat_for(self, timeout: float, max_steps: int) -> float:
        """How long each step of a real-time game lasts in a run of these bounds."""
        if self.beat > 0:
            return self.beat
        return min(max(self.play_share * timeout / max(max_steps, 1), MIN_BEAT), MAX_BEAT)


class Defaults(Protocol):
    """The session-wide defaults a spec starts from (``settings.Settings`` is one; ``record`` and ``coverage`` are
    optional)."""

    @property
    def policy(self) -> str: ...
    @property
    def max_steps(self) -> int: ...
    @property
    def timeout(self) -> float: ...
    @property
    def options(self) -> Mapping[str, Any]: ...


#: The fields of a RunSpec that are not arguments of the marker: set by the harness, never by a test.
NOT_ARGUMENTS = ("pacing", "differential")


@dataclass(frozen=True)
class Differential:
    """A run that takes a sight after each step (``sights.Sight``), compared as it goes with ``reference``'s when
    there is one: any difference beyond the reference's noise is a ``diverges`` finding."""

    reference: Golden | None = None


@dataclass
class RunSpec:
    """Everything a run needs, from the marker, run() arguments and the session defaults."""

    app: str | list[str] = ""
    strategy: Strategy = "coverage"
    goal: str = ""
    expect: list[expect_module.Expectation] = field(default_factory=list)
    max_steps: int = 50
    timeout: float = 60.0
    policy: str = "heuristic"
    size: tuple[int, int] | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    seed: int = 0
    #: end the run as soon as every expectation is met (play reached at least one of them); by default a run
    #: keeps hunting for bugs until its bounds
    stop_when_met: bool = False
    record: bool = False
    coverage: bool = False
    oracles: OracleSettings = field(default_factory=OracleSettings)
    pacing: Pacing = field(default_factory=Pacing)
    options: dict[str, Any] = field(default_factory=dict)
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    #: a run that takes a sight after each step (set by golden runs, not an argument of the marker)
    differential: Differential | None = None

    @classmethod
    def from_kwargs(cls, kwargs: Mapping[str, Any], *, defaults: Defaults, where: str) -> RunSpec:
        """Validate marker/run() arguments; ``defaults`` supplies policy, max_steps, timeout, record, options
        (and optionally ``sandbox``, the session's mode, and ``sandbox_limits``)."""
        known = set(PLAYTEST_ARGUMENTS)
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise SpecError(f"{where}: unknown playtest argument(s) {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(known))}")
        spec = cls(policy=defaults.policy, max_steps=defaults.max_steps, timeout=defaults.timeout,
                   options=dict(defaults.options), record=bool(getattr(defaults, "record", False)),
                   coverage=bool(getattr(defaults, "coverage", False)))
        try:
            limits = Limits.parse(getattr(defaults, "sandbox_limits", None))
        except ValueError as exc:
            raise SpecError(f"--playtest-sandbox-limits: {exc}") from None
        spec.sandbox = SandboxPolicy(mode=getattr(defaults, "sandbox", None) or "off", limits=limits)
        arguments = {"app": None, **kwargs}
        for name, value in arguments.items():
            try:
                _ARGUMENTS[name](spec, value, arguments)
            except _BadArgument as exc:
                raise SpecError(f"{where}: playtest argument {name}={value!r}: {exc}") from None
        problem = desktop_rules([e.pattern or "" for e in spec.expect if e.kind == "rule"], spec.app)
        if problem:
            raise SpecError(f"{where}: playtest argument expect: {problem}")
        return spec


def desktop_rules(rules: Sequence[str], app: str | Sequence[str]) -> str | None:
    """Why DOM rules cannot be judged on an app that is a desktop one by its name (None: they can, or whether
    it is a web app shows only when it runs — then the launcher refuses them)."""
    if rules and looks_like_web_app(app) is False:
        return refused_on_desktop(rules[0], app)
    return None


@dataclass
class RunResult:
    """A finished run: the verdict and what the reports are made of."""

    verdict: Verdict
    steps: list[Step]
    stdout: str = ""
    stderr: str = ""
    frames: Path | None = None
    #: what the screen showed after each step, when the run was differential
    sights: list[Sight] = field(default_factory=list)


# -- one checker per argument: each sets its field on the spec or raises _BadArgument -----------------------
_Checker = Callable[[RunSpec, Any, Mapping[str, Any]], None]


def _app(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    if value is None:
        raise _BadArgument("an app to test is required (a .py path or an argv list)")
    if isinstance(value, str | Path) and str(value).strip():
        spec.app = str(value)
    elif isinstance(value, Sequence) and not isinstance(value, str) and value and all(
            isinstance(part, str | Path) for part in value):
        spec.app = [str(part) for part in value]
    else:
        raise _BadArgument("must be a .py path or a non-empty list of strings")


def _goal(spec: RunSpec, value: Any, arguments: Mapping[str, Any]) -> None:
    spec.goal = str(value or "")
    if "strategy" not in arguments:
        spec.strategy = "goal" if spec.goal else "coverage"


def _strategy(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    for strategy in STRATEGIES:
        if value == strategy:
            spec.strategy = strategy
            return
    raise _BadArgument(f"must be one of {', '.join(STRATEGIES)}")


def _expect(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    try:
        spec.expect = expect_module.parse_list(value)
    except expect_module.ExpectationError as exc:
        raise _BadArgument(str(exc)) from None


def _number(name: str, kind: type[int] | type[float], *, positive: bool) -> _Checker:
    def check(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or (kind is int and int(value) != value):
            raise _BadArgument(f"must be a{'n integer' if kind is int else ' number'}")
        if positive and value <= 0:
            raise _BadArgument("must be positive")
        setattr(spec, name, kind(value))

    return check


def _policy(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    if not isinstance(value, str):
        raise _BadArgument("must be a policy name")
    spec.policy = value


def _size(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    try:
        spec.size = None if value is None else parse_size(value)
    except ValueError as exc:
        raise _BadArgument(str(exc)) from None


def _env(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    env = value or {}
    if not isinstance(env, Mapping) or not all(isinstance(k, str) for k in env):
        raise _BadArgument("must be a mapping of variable names to values")
    spec.env = {k: str(v) for k, v in env.items()}


def _record(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    spec.record = bool(value)


def _stop_when_met(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    if not isinstance(value, bool):
        raise _BadArgument("must be True or False")
    spec.stop_when_met = value


def _coverage(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    if not isinstance(value, bool):
        raise _BadArgument("must be True or False")
    spec.coverage = value


def _cwd(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    spec.cwd = None if value is None else str(value)


def _oracles(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    """Oracle thresholds and loop pacing share the documented ``oracles=`` argument."""
    if isinstance(value, OracleSettings):
        spec.oracles = value
        return
    if not isinstance(value, Mapping):
        raise _BadArgument("must be a mapping of threshold names to values")
    pacing_names = {f.name for f in fields(Pacing)}
    try:
        spec.oracles = OracleSettings(**{k: v for k, v in value.items() if k not in pacing_names})
        spec.pacing = Pacing(**{k: v for k, v in value.items() if k in pacing_names})
    except TypeError as exc:
        raise _BadArgument(str(exc)) from None


def _sandbox(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    """``"auto"``/``"on"``/``"off"``, True/False, or a mapping of mode, network, paths and limits (a mapping
    without a mode turns the sandbox on)."""
    if value is None:
        return
    if isinstance(value, bool):
        value = "on" if value else "off"
    if isinstance(value, str):
        value = {"mode": value}
    elif isinstance(value, Mapping):
        value = {"mode": "on", **value}
    else:
        raise _BadArgument("must be auto, on, off, True, False or a mapping of mode, network, paths, limits")
    unknown = sorted(set(value) - {"mode", "network", "paths", "limits"})
    if unknown:
        raise _BadArgument(f"unknown key(s) {', '.join(unknown)}; known: limits, mode, network, paths")
    mode = value["mode"]
    if mode not in SANDBOX_MODES:
        raise _BadArgument(f"mode must be one of {', '.join(SANDBOX_MODES)}")
    paths = value.get("paths", ())
    if isinstance(paths, str | Path) or not all(isinstance(p, str | Path) for p in paths):
        raise _BadArgument("paths must be a list of folders the app may write")
    try:
        limits = Limits.parse(value.get("limits"), spec.sandbox.limits)
    except (ValueError, TypeError) as exc:
        raise _BadArgument(f"limits: {exc}") from None
    spec.sandbox = SandboxPolicy(mode=mode, network=bool(value.get("network", False)),
                                 paths=tuple(str(p) for p in paths), limits=limits)


def _options(spec: RunSpec, value: Any, _: Mapping[str, Any]) -> None:
    if isinstance(value, Mapping):
        spec.options.update(value)


_CHECKERS: dict[str, _Checker] = {
    "app": _app, "goal": _goal, "strategy": _strategy, "expect": _expect,
    "max_steps": _number("max_steps", int, positive=True), "timeout": _number("timeout", float, positive=True),
    "seed": _number("seed", int, positive=False), "policy": _policy, "size": _size, "env": _env,
    "record": _record, "stop_when_met": _stop_when_met, "coverage": _coverage, "cwd": _cwd, "oracles": _oracles,
    "options": _options, "sandbox": _sandbox,
}
#: The checker of each argument of the table (settings.PLAYTEST_ARGUMENTS): an argument without one fails at import.
_ARGUMENTS: dict[str, _Checker] = {name: _CHECKERS[name] for name in PLAYTEST_ARGUMENTS}
