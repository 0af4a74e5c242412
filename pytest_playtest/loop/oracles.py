"""Checks that need no model: crash, exception, freeze, unresponsive, expectations.

Each oracle turns what the session saw (exit status, the app's output, frame changes, OCR text) into
Findings. Thresholds live in OracleSettings (loop/spec.py, with the rest of a run's arguments);
docs/verdicts.md explains each and how to tune it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..runtime.named import raised_at
from ..runtime.places import relative_name
from ..runtime.procfs import cpu_seconds, process_state
from ..runtime.stacks import SAMPLE_GAP, StackDumps, handler_loop, stuck_at
from ..runtime.tracebacks import has_traceback, last_exception_line, located, split_tracebacks
from ..verdict import Finding, Location
from .expectations import ExpectationTracker
from .spec import OracleSettings
from .thresholds import IDLE_FREEZE, MAX_RETRIES, SAME_TARGET
from .web import PageWatch

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..expect import Expectation
    from ..runtime.app import App
    from ..source import Vocabulary
    from ..trajectory import Step
    from ..vision import Widget

    #: what watches a launch beyond its output (a web page's reports), given the oracles' notes
    Watching = Callable[[App, list[str]], PageWatch | None]


@dataclass
class Suspect:
    """A click target that has had no visible effect so far."""

    states: list[str] = field(default_factory=list)  # distinct states (hovered frames) where it did nothing
    tried_at: set[str] = field(default_factory=set)  # every frame hash it was tried at, hovered or not
    steps: list[int] = field(default_factory=list)  # the steps that tried it
    #: the inputs with an effect seen when its last state was counted: a state is another one only once an
    #: input changed the app since (a lingering hover highlight makes another picture of the same state)
    effects_at: int = -1


@dataclass
class BusyLook:
    """One look at an app whose X connection was drained: when, its CPU seconds then, its stack if it was busy."""

    at: float
    cpu: float
    stack: str | None = None


class Oracles:
    """The generic oracles of one run, fed by the session after every observation and step."""

    def __init__(self, app: App, expectations: list[Expectation], settings: OracleSettings, *,
                 watch: Watching = lambda app, notes: None, root: Path | None = None,
                 stacks: Callable[[App], StackDumps | None] = lambda app: None) -> None:
        self.app = app
        #: the app's folder: a frame of a traceback or a stack inside it is the app's own code
        self.root = root
        self._stacks = stacks
        self.settings = settings
        self.expectations = ExpectationTracker(expectations)
        self.findings: list[Finding] = []
        self._output_seen = 0
        self._reported_exceptions: set[str] = set()
        self._last_change = time.monotonic()
        self._idle_changes = 0
        self._launched = time.monotonic()
        self._no_effect_run: list[Step] = []
        self._effect_kinds: dict[str, int] = {}
        self._first_no_effect_at: float | None = None
        self._suspects: dict[tuple[int, int], Suspect] = {}  # click targets that did nothing so far
        self._effects = 0  # the inputs other than pointer moves that had a visible effect so far
        self._responsive: list[tuple[int, int]] = []  # click targets that had a visible effect
        self._reported: list[tuple[int, int]] = []  # click targets found unresponsive (once is enough)
        self._judge_widgets = True  # until the app's code is known to label no control (a drawn UI)
        self._sources: tuple[str, ...] = ()  # the modules the app imports, once its code is read
        self._previous: Step | None = None  # the step before the one being judged
        self._input_drained_at = -float("inf")  # when a look at the X connection last found no backlog
        self._busy_look: BusyLook | None = None  # the last such look's CPU time and, when busy, the app's stack
        #: remarks for the verdict (a web page's console errors)
        self.notes: list[str] = []
        self._watch = watch
        self.page = watch(app, self.notes)

    def know_inputs(self, vocabulary: Vocabulary) -> None:
        """Learn what the app's code handles. Only a desktop app whose code labels its controls (a toolkit's
        buttons and menus) has widgets to judge one by one: on a drawn UI (a canvas, a game surface) what looks
        like a button (a framed score, a board's tile) is drawn, the app's click handler decides by position,
        and a click on it that shows nothing is often right (a tile that may not move); its clicks are judged
        as a whole instead (loop.controls). A web page's buttons are real elements: always judged."""
        if self.page is None and vocabulary.sources:
            self._judge_widgets = bool(vocabulary.texts)
        self._sources = vocabulary.sources

    def follow(self, app: App) -> None:
        """Judge a new launch of the app from now on; what was found about earlier launches stays."""
        self.app = app
        self.page = self._watch(app, self.notes)
        self._output_seen = 0
        self._last_change = time.monotonic()
        self._idle_changes = 0
        self._launched = time.monotonic()
        self._no_effect_run.clear()
        self._first_no_effect_at = None
        self._input_drained_at = -float("inf")
        self._busy_look = None

    @property
    def frozen(self) -> bool:
        return any(f.kind == "freeze" for f in self.findings)

    @property
    def animating(self) -> bool:
        return self._idle_changes >= self.settings.animating_changes

    # -- exit and output -------------------------------------------------------------------------------
    def check_exit(self, step: int) -> bool:
        """True if the app has exited (a crash Finding is added for an abnormal exit, or a web page's crash)."""
        code = self.app.poll()
        if code is None:
            return self._page_crashed(step)
        if code != 0 and not any(f.kind == "crash" for f in self.findings):
            blocks = split_tracebacks(self.app.text_output("stderr").splitlines())
            why = f"killed by {self.app.exit_signal}" if code < 0 else f"exited with code {code}"
            limit = self.app.limit_hit()
            message = f"the app {why}" + (f" ({limit})" if limit else "")
            details = ""
            if blocks:
                error = last_exception_line(blocks[-1])
                message += f": {error}"
                details = "\n".join(blocks[-1])
                # the error the app died of may have been taken for a live app's exception when dying took
                # longer than crash_grace: it is the crash's
                self.findings = [f for f in self.findings if not (
                    f.kind == "exception" and last_exception_line(f.details.splitlines()) == error)]
            self.findings.append(Finding("crash", message, step=step, details=details,
                                         location=self._raised_at(blocks[-1]) if blocks else None))
        return True

    def _page_crashed(self, step: int) -> bool:
        """A web page whose renderer died ends the run like an app that exited (its browser lives on)."""
        crash = self.page.crash(step) if self.page is not None else None
        if crash is None:
            return False
        if not any(f.kind == "crash" for f in self.findings):
            self.findings.append(crash)
        return True

    def check_no_window(self) -> None:
        """The app exited cleanly without ever showing a window: a GUI app that never appeared did not play
        (an app expected to exit, ``expect.exits()``, is judged by that expectation instead)."""
        if self.app.poll() != 0 or any(e.kind == "exits" for e in self.expectations.expectations):
            return
        output = self.app.text_output().strip().splitlines()
        said = f"; it printed: {output[-1].strip()}" if output else ""
        self.findings.append(Finding("no_window", f"the app exited with code 0 without ever showing a window{said}",
                                     step=0, details="\n".join(output[-20:])))

    def check_output(self, step: int) -> None:
        """Tracebacks printed while the app keeps running are exceptions (once per distinct error); a web
        page's uncaught errors and failed requests too."""
        if self.page is not None:
            self.findings.extend(self.page.check_reports(step))
        lines = self.app.text_output().splitlines()
        if len(lines) <= self._output_seen or not has_traceback(lines[self._output_seen:]):
            return
        # a traceback right before dying is the crash's, not an exception of a live app
        self.app.wait(self.settings.crash_grace)
        if not self.app.alive:
            return
        lines = self.app.text_output().splitlines()
        for block in split_tracebacks(lines[self._output_seen:]):
            error = last_exception_line(block)
            if error in self._reported_exceptions:
                continue
            self._reported_exceptions.add(error)
            header = block[0].strip()
            where = " in a Tk callback" if "Tkinter" in header else (" in a thread" if "thread" in header else "")
            self.findings.append(Finding("exception", f"{error}{where} (the app kept running)", step=step,
                                         details="\n".join(block), location=self._raised_at(block)))
        self._output_seen = len(lines)

    # -- frames and inputs ---------------------------------------------------------------------------
    def observe_idle(self, changed: bool, now: float, *, by_itself: bool = True) -> None:
        """A frame comparison: with ``by_itself``, no input of ours in between (animation detection); else
        while an input is under way (a key held down), whose own effect proves no motion of the app's."""
        if changed:
            if by_itself:
                self._idle_changes += 1
            self._saw_change(now)

    def still_for(self, now: float) -> float:
        """Seconds since the window last changed."""
        return now - self._last_change

    def _saw_change(self, now: float) -> None:
        self._last_change = now

    def _not_handling_input(self, *, busy: bool = False) -> str | None:
        """Why the app shows it no longer handles input, else None: it is stopped, or X events wait in its
        connection unread and the backlog stays unchanged for ``unread_input_for`` seconds (with ``busy``,
        while the app also spins the CPU: a hang in a loop, not a pause).

        One look proves nothing (a slow frame leaves events queued for a moment), and neither does CPU use
        alone (a title screen over a busy loop): only a backlog that never drains. Each look spawns ``ss``,
        so after a look found no backlog the next waits ``unread_input_for``.
        """
        if self.page is not None:
            return None  # a browser reads X events even when its page is stuck: the page is asked instead
        pid = self.app.pid
        if process_state(pid) in ("T", "t"):
            return "stopped"
        now = time.monotonic()
        if now - self._input_drained_at < self.settings.unread_input_for:
            return None
        cpu_before = cpu_seconds(pid)
        backlog = [self.app.unread_display_input()]
        interval = self.settings.unread_input_for / max(self.settings.unread_samples - 1, 1)
        while backlog[-1] and len(backlog) < self.settings.unread_samples:
            time.sleep(interval)
            backlog.append(self.app.unread_display_input())
        if not backlog[-1]:
            self._input_drained_at = now
            return self._in_endless_handler(now)
        if len(set(backlog)) > 1 or len(backlog) < self.settings.unread_samples:
            self._input_drained_at = now
            return None
        why = (f"not reading its input: {backlog[-1]} bytes of X events stayed unread for "
               f"{self.settings.unread_input_for:g}s")
        if not busy:
            return why
        cpu_after = cpu_seconds(pid)
        if cpu_before is None or cpu_after is None:
            return None
        share = (cpu_after - cpu_before) / max(time.monotonic() - now, 1e-3)
        if share < self.settings.hang_cpu:
            return None
        return f"{why}, busy on the CPU ({share:.0%})"

    def _in_endless_handler(self, now: float) -> str | None:
        """Why an app whose X connection is drained handles no input all the same: it spun the CPU since the
        last look and its stack, sampled then and now, stayed in one loop of an event handler
        (``runtime.stacks.handler_loop``). Stacks are sampled only while the app is busy."""
        stacks = self._stacks(self.app) if self.root is not None else None
        cpu = cpu_seconds(self.app.pid)
        if stacks is None or cpu is None or self.root is None:
            return None
        last, self._busy_look = self._busy_look, BusyLook(now, cpu)
        if last is None:
            return None
        share = (cpu - last.cpu) / max(now - last.at, 1e-3)
        if share < self.settings.hang_cpu:
            return None
        self._busy_look.stack = stacks.dump(self.app.pid)
        if last.stack is None or self._busy_look.stack is None:
            return None
        stuck = handler_loop([last.stack, self._busy_look.stack], self.root)
        if stuck is None:
            return None
        where = relative_name(self.root / stuck.frame.file, self.root)  # (an absolute file stays whole)
        return (f"busy on the CPU ({share:.0%}) inside one event handler: its stack stayed in the loop at "
                f"{where}:{stuck.frame.line} for {now - last.at:.1f}s")

    def check_freeze(self, step: int, now: float) -> bool:
        """An animating app that stopped drawing and reading its input while its process spins is frozen, one
        that idles meanwhile once it stayed so ``IDLE_FREEZE`` times as long (a game may sleep a few seconds on
        purpose; a deadlock never wakes), a stopped one at once.

        An animation that stops while the process idles is a static screen (a pause, a game-over
        screen), not a freeze. A web page is asked directly: its main thread must run a script in time.
        """
        if self.page is not None and not self.frozen:
            freeze = self.page.freeze(step, self.settings.page_answer)
            if freeze is not None:
                self.findings.append(freeze)
                return True
        still = now - self._last_change
        if not self.animating or still < self.settings.freeze_after:
            return False
        why = self._not_handling_input(busy=still < IDLE_FREEZE * self.settings.freeze_after)
        if why is None:
            return False
        self._add_freeze(step, f"the app was animating; its window has not changed for "
                               f"{now - self._last_change:.1f}s and it is {why}")
        return True

    @property
    def inputs_without_effect(self) -> int:
        """How many inputs in a row had no visible effect, up to now."""
        return len(self._no_effect_run)

    def stalled(self, now: float) -> bool:
        """Whether an app that moved like a game has stopped for good: still for ``stall_after`` seconds while
        the last ``probe_inputs`` inputs changed nothing (the freeze oracle, asked first, found it reading them)."""
        return (self.animating and self._moved_steadily(now) and not self.frozen
                and now - self._last_change >= self.settings.stall_after
                and len(self._no_effect_run) >= self.settings.probe_inputs
                and self._not_handling_input() is None)  # (one deaf and idle may be asleep: a freeze, or waking)

    def _moved_steadily(self, now: float) -> bool:
        """Whether the app moved by itself like a game does (changes seen without input at ``steady_rate`` a
        second of its launch), not now and then as a page does (a toast that fades, a list that settles)."""
        return self._idle_changes >= self.settings.steady_rate * (now - self._launched)

    def after_step(self, step: Step, on_widget: bool, now: float, *, state: str | None = None,
                   buttons: Sequence[Widget] = ()) -> None:
        """Account for one performed action and its visible effect.

        ``state`` is the hash of the frame the effect was judged against (the pointer already resting on
        the target), which tells app states apart without the hover highlight of whatever was clicked last.
        """
        previous, self._previous = self._previous, step
        if step.error or step.action.kind in ("wait", "finish"):
            return
        kind = step.action.kind
        if step.changed:
            if kind != "move":  # (a pointer moved over a button lights it: no new state)
                self._effects += 1
            self._saw_change(now)
            self._effect_kinds[kind] = self._effect_kinds.get(kind, 0) + 1
            if not _after_popup(previous):
                self._responded(step.action.target)
            self._no_effect_run.clear()
            self._first_no_effect_at = None
            return
        if not self._no_effect_run:
            self._first_no_effect_at = now
        self._no_effect_run.append(step)
        self._check_unresponsive(step, on_widget, state or step.before_hash, buttons)
        if not self.animating:  # an animating app is watched by check_freeze instead
            self._check_stuck(step, now)

    def _check_unresponsive(self, step: Step, on_widget: bool, state: str, buttons: Sequence[Widget]) -> None:
        target = step.action.target
        if target is None or step.action.kind not in ("click", "double_click") or not self._judge_widgets:
            return
        if any(_near(t, target) for t in self._responsive) or self._already_reported(target, buttons):
            return
        key = next((t for t in self._suspects if _near(t, target)), target)
        if key not in self._suspects and not on_widget:
            return
        suspect = self._suspects.setdefault(key, Suspect())
        suspect.tried_at.update((step.before_hash, state))  # (a retry that missed the widget counts as tried)
        suspect.steps.append(step.index)
        if on_widget and state not in suspect.states and suspect.effects_at != self._effects:
            suspect.states.append(state)
            suspect.effects_at = self._effects
        if (len(suspect.states) >= self.settings.unresponsive_states and not self._raised(suspect.steps)
                and not self._sibling_works(target, buttons)):
            self.findings.append(Finding(
                "unresponsive",
                f"{step.action.label()} on a widget had no visible effect in {len(suspect.states)} different "
                "states",
                step=step.index,
            ))
            del self._suspects[key]
            self._reported.append(key)

    def _already_reported(self, target: tuple[int, int], buttons: Sequence[Widget]) -> bool:
        """Whether the control under ``target`` is reported: near a reported point, or on the same widget
        (one dead button clicked at two places is one finding)."""
        boxes = [b.box for b in buttons if b.box.contains(*target)]
        return any(_near(t, target) or any(box.contains(*t) for box in boxes) for t in self._reported)

    def _raised(self, steps: list[int]) -> bool:
        """Whether the app raised an exception right after one of these steps: that explains a control that
        shows nothing, and is already reported."""
        tried = {*steps, *(s + 1 for s in steps)}
        return any(f.kind == "exception" and f.step in tried for f in self.findings)

    def _sibling_works(self, target: tuple[int, int], buttons: Sequence[Widget]) -> bool:
        """Whether another button with the same caption worked: a list's equal buttons are one control (the
        last row's Down has nowhere to move its row)."""
        caption = next((b.text for b in buttons if b.box.contains(*target)), "")
        return bool(caption) and any(b.text == caption and any(b.box.contains(*t) for t in self._responsive)
                                     for b in buttons if not b.box.contains(*target))

    def _responded(self, target: tuple[int, int] | None) -> None:
        """A target with a visible effect works: some states legitimately ignore it (a pending operator)."""
        if target is None:
            return
        self._responsive.append(target)
        for suspect in [t for t in self._suspects if _near(t, target)]:
            del self._suspects[suspect]

    def retry_target(self, frame_hash: str) -> tuple[int, int] | None:
        """A suspect target worth retrying now that the screen is in a different state (not while a popup
        menu is open: the click would only close it)."""
        if _after_popup(self._previous):
            return None
        return next((t for t, suspect in self._suspects.items()
                     if frame_hash not in suspect.tried_at and len(suspect.steps) < MAX_RETRIES), None)

    def _check_stuck(self, step: Step, now: float) -> None:
        """A still app that stopped handling input after inputs had no effect is frozen. When inputs of those
        kinds had effects before, a backlog of unread input that never drains shows it; when none ever
        worked (an app that hangs on its first click), the app must also spin the CPU meanwhile."""
        run = self._no_effect_run
        if len(run) < self.settings.probe_inputs or self._first_no_effect_at is None:
            return
        worked = all(self._effect_kinds.get(s.action.kind, 0) >= 2 for s in run[-self.settings.probe_inputs:])
        why = self._not_handling_input(busy=not worked)
        if why:
            self._add_freeze(step.index, f"{len(run)} inputs in a row had no visible effect and the app is {why}")

    def _add_freeze(self, step: int, message: str) -> None:
        if not any(f.kind == "freeze" for f in self.findings):
            self.findings.append(Finding("freeze", message, step=step, location=self._stuck_at()))

    def _raised_at(self, block: Sequence[str]) -> Location | None:
        """The innermost frame of the app's own code in a traceback."""
        return raised_at(block, self.root, self._sources) if self.root is not None else None

    def _stuck_at(self) -> Location | None:
        """Where the frozen app is stuck: the endless loop of its own code that two samples of its stack share
        (its start-up hook dumps them on a signal; the wait is bounded, and no dump means no location)."""
        stacks = self._stacks(self.app)
        if stacks is None or self.root is None:
            return None
        first = stacks.dump(self.app.pid)
        if not first:
            return None
        time.sleep(SAMPLE_GAP)
        second = stacks.dump(self.app.pid)
        stuck = stuck_at([first, second] if second else [first], self.root)
        if stuck is None:
            return None
        location = located(stuck.frame, self.root, "stack")
        if stuck.loop and stuck.sampled != stuck.frame:
            sampled = located(stuck.sampled, self.root, "stack")
            location.detail = (f"a loop that never ends; its stack was sampled in {sampled.function} at "
                               f"{sampled.file}:{sampled.line}")
        return location


def _after_popup(previous: Step | None) -> bool:
    """Whether the step before was a right click that changed the window: a context menu is open, and a
    click beside it is taken by the menu's grab (it only closes the menu), so the next click proves nothing
    about what lies under it."""
    return previous is not None and previous.action.kind == "right_click" and previous.changed


def _near(a: tuple[int, int], b: tuple[int, int], radius: int = SAME_TARGET) -> bool:
    return abs(a[0] - b[0]) <= radius and abs(a[1] - b[1]) <= radius
