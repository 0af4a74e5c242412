"""Show each seeded bug for real: play a short scripted scenario on the correct app and on the mutant, under
a private Xvfb with real X input (xdotool), and check that the two differ the way the bug's kind says.

    /work/main/.venv/bin/python benchmarks/detection/reproduce.py [APP[/BUG] ...] [--keep-shots DIR]

One app at a time, never two processes at once. Checks per kind:
  crash         the mutant exits non-zero with a traceback; the correct app is alive without one
  exception     the mutant is alive and printed a traceback; the correct app is alive without one
  freeze        the mutant is alive, stuck in a busy loop (running or runnable in >= 80% of 30 samples of
                /proc/PID/stat over 1.5 s: robust when other work leaves it little CPU) and its window does
                not change on the probe input; the correct app sleeps (< 50%) and does change; SIGTERM still
                ends the mutant with exit 0
  unresponsive  the probe input (the scenario's last action) changes the correct app's window, not the mutant's
  expectation   the manifest expectation the bug breaks holds on the OCR'd texts of the correct app
                and fails on the mutant's
Screen coordinates are window-relative and were measured with this machine's fonts (DejaVu).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

# steps: "key:A,B" "click:x,y" "rclick:x,y" "type:text" "wait:s" "ocr" "watch:seconds:interval"
# probe: the input whose effect is compared (unresponsive, freeze)
SCENARIOS: dict[str, dict[str, dict]] = {
    "slider": {
        "edge-index-error": {"steps": ["key:Left,Left,Left,Left"]},
        "moves-assigned": {"steps": ["key:Left,Left", "ocr"]},
        "right-key-wrong-constant": {"steps": [], "probe": "key:Right"},
    },
    "dodger": {
        "right-lane-overflow": {"steps": ["key:space", "wait:0.5", "key:Right,Right,Right"]},
        "blink-while-loop": {"steps": ["key:space", "wait:6"], "probe": "key:Left"},
        "fourth-hit-ends": {"steps": ["key:space", "watch:24:1.0"]},
    },
    "maze": {
        "bottom-edge-index-error": {"steps": ["key:s"]},
        "key-pickup-while": {"steps": ["key:w,d,d"], "probe": "key:a"},
        "restart-not-called": {"steps": ["key:w,d"], "probe": "key:r"},
    },
    "mines": {
        "right-column-index-error": {"steps": ["click:200,260"]},
        "flag-on-middle-button": {"steps": ["click:200,260"], "probe": "rclick:244,352"},
        "mines-left-plus": {"steps": ["click:200,260", "rclick:244,352", "ocr"]},
    },
    "signup": {
        "isdigit-not-called": {"steps": ["click:167,276"]},
        "clear-called-at-build": {"steps": ["click:270,67", "type:hello"], "probe": "click:313,276"},
        "bio-counter-plus": {"steps": ["click:270,175", "type:hello", "ocr"]},
    },
    "notes": {
        "find-loop-restarts-at-match": {"steps": ["click:150,63", "type:milk", "click:293,63"], "probe": "key:x"},
        "sort-key-called": {"steps": ["rclick:200,200", "wait:0.5", "click:250,355"]},
        "clear-arguments-swapped": {"steps": [], "probe": "click:511,63"},
    },
    "units": {
        "same-unit-while": {"steps": ["click:320,174"], "probe": "click:104,27"},
        "parse-catches-typeerror": {"steps": ["click:238,73", "key:End,BackSpace,BackSpace", "type:hello",
                                              "click:369,73"]},
        "fahrenheit-minus-32": {"steps": ["click:414,27", "ocr"]},
    },
    "todo": {
        "clear-done-while": {"steps": ["click:381,431", "wait:0.5", "click:381,431"], "probe": "click:402,74"},
        "down-past-last-row": {"steps": ["click:307,138"]},
        "empty-check-is-none": {"steps": ["click:402,29"]},
    },
}


class Outcome:
    def __init__(self) -> None:
        self.alive = True
        self.code: int | None = None
        self.tracebacks = 0
        self.busy = 0.0
        self.runnable = 0.0
        self.probe_changed: bool | None = None
        self.texts: list[str] = []
        self.sigterm_code: int | None = None
        self.last_error = ""

    def describe(self) -> str:
        parts = ["alive" if self.alive else f"exited {self.code}", f"tracebacks={self.tracebacks}",
                 f"cpu={self.busy:.2f}", f"runnable={self.runnable:.2f}"]
        if self.probe_changed is not None:
            parts.append("probe changed the window" if self.probe_changed else "probe changed nothing")
        if self.texts:
            parts.append(f"ocr={self.texts[-1][:90]!r}")
        if self.last_error:
            parts.append(f"error={self.last_error!r}")
        return ", ".join(parts)


def do_step(run: harness.Running, step: str, outcome: Outcome) -> None:
    op, _, arg = step.partition(":")
    if op == "key":
        run.key(*arg.split(","))
    elif op in ("click", "rclick"):
        x, y = (int(v) for v in arg.split(","))
        run.click(x, y, 1 if op == "click" else 3)
    elif op == "type":
        run.type(arg)
    elif op == "wait":
        time.sleep(float(arg))
    elif op == "ocr":
        time.sleep(0.3)
        outcome.texts.append(run.ocr())
    elif op == "watch":
        seconds, interval = (float(v) for v in arg.split(":"))
        end = time.monotonic() + seconds
        while time.monotonic() < end and run.alive():
            outcome.texts.append(run.ocr())
            time.sleep(interval)
    else:
        raise ValueError(f"unknown step {step!r}")
    time.sleep(0.4)


def probe(run: harness.Running, step: str, outcome: Outcome) -> bool:
    """Whether `step` changes the window: the pointer first rests on a click target (so a hover highlight is
    not the effect), the idle frames of 1 s (a blinking text cursor has two) are compared with 1 s after."""
    op, _, arg = step.partition(":")
    if op in ("click", "rclick"):
        run.point(*(int(v) for v in arg.split(",")))
        time.sleep(0.3)
    idle = set()
    for _ in range(8):
        idle.add(run.frame_hash())
        time.sleep(0.12)
    do_step(run, step, outcome)
    after = set()
    for _ in range(8):
        after.add(run.frame_hash())
        time.sleep(0.12)
    return bool(after - idle)


def play(app: str, bug: str | None, scenario: dict, display: str, shots: Path | None) -> Outcome:
    outcome = Outcome()
    run = harness.launch(app, display, bug)
    try:
        if run.window is None:
            outcome.alive = run.alive()
            outcome.last_error = "no window"
            return outcome
        for step in scenario["steps"]:
            if not run.alive():
                break
            do_step(run, step, outcome)
        time.sleep(0.5)
        if run.alive() and "probe" in scenario:
            outcome.probe_changed = probe(run, scenario["probe"], outcome)
        if run.alive():
            outcome.busy = run.busy(1.0)
            outcome.runnable = run.runnable()
        if shots is not None and run.alive():
            shots.mkdir(parents=True, exist_ok=True)
            run.save_png(shots / f"{app}--{bug or 'correct'}.png")
        outcome.alive = run.alive()
        outcome.code = run.proc.poll()
        outcome.tracebacks = run.tracebacks()
        lines = [line for line in run.stderr().splitlines() if line.strip()]
        outcome.last_error = lines[-1].strip() if outcome.tracebacks and lines else ""
    finally:
        outcome.sigterm_code = run.stop()
    return outcome


def expectation_for(manifest: dict) -> list[tuple[str, str]]:
    return [next(iter(e.items())) for e in manifest["playtest"]["expect"] if "alive" not in e]


def holds(expectations: list[tuple[str, str]], texts: list[str]) -> bool:
    for key, pattern in expectations:
        seen = [re.search(pattern, text) is not None for text in texts]
        if key == "text" and not any(seen):
            return False
        if key == "no_text" and any(seen):
            return False
        if key == "final_text" and not (seen and seen[-1]):
            return False
    return True


def judge(kind: str, good: Outcome, bad: Outcome, manifest: dict) -> list[str]:
    problems = []
    if not good.alive or good.tracebacks:
        problems.append(f"the correct app misbehaved: {good.describe()}")
    if good.sigterm_code != 0:
        problems.append(f"the correct app gave exit code {good.sigterm_code} on SIGTERM")
    if kind == "crash":
        if bad.alive or not bad.code or not bad.tracebacks:
            problems.append("the mutant did not crash with a traceback")
    elif kind == "exception":
        if not bad.alive or not bad.tracebacks:
            problems.append("the mutant did not stay alive with a traceback")
    elif kind == "freeze":
        if not bad.alive or bad.runnable < 0.8 or bad.probe_changed:
            problems.append("the mutant is not frozen (alive, busy, unchanging)")
        if good.runnable >= 0.5 or not good.probe_changed:
            problems.append("the correct app looks frozen too")
        if bad.sigterm_code != 0:
            problems.append(f"the frozen mutant gave exit code {bad.sigterm_code} on SIGTERM")
    elif kind == "unresponsive":
        if not good.probe_changed:
            problems.append("the probe changed nothing on the correct app")
        if bad.probe_changed or not bad.alive or bad.tracebacks:
            problems.append("the probe had an effect on the mutant (or it died / raised)")
    elif kind == "expectation":
        expectations = expectation_for(manifest)
        if not holds(expectations, good.texts):
            problems.append(f"the expectations {expectations} fail on the correct app")
        if holds(expectations, bad.texts):
            problems.append(f"the expectations {expectations} hold on the mutant")
        if not bad.alive or bad.tracebacks:
            problems.append("the mutant died or raised (an expectation bug must be silent)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="APP or APP/BUG (default: every bug)")
    parser.add_argument("--keep-shots", type=Path, help="save the last frame of every run there")
    args = parser.parse_args(argv)
    harness.python_ok()
    targets = []
    for app in harness.app_names():
        for bug in harness.load_manifest(app)["bugs"]:
            name = f"{app}/{bug['name']}"
            if not args.targets or app in args.targets or name in args.targets:
                targets.append((app, bug))
    failures = 0
    with harness.Xvfb() as xvfb:
        for app, bug in targets:
            manifest = harness.load_manifest(app)
            scenario = SCENARIOS.get(app, {}).get(bug["name"])
            if scenario is None:
                print(f"FAIL {app}/{bug['name']}: no scenario")
                failures += 1
                continue
            good = play(app, None, scenario, xvfb.display, args.keep_shots)
            bad = play(app, bug["name"], scenario, xvfb.display, args.keep_shots)
            problems = judge(bug["kind"], good, bad, manifest)
            print(f"{'FAIL' if problems else 'ok  '} {app}/{bug['name']} ({bug['kind']})")
            print(f"     correct: {good.describe()}")
            print(f"     mutant:  {bad.describe()}" + (f", SIGTERM -> {bad.sigterm_code}" if bad.alive else ""))
            for problem in problems:
                print(f"     - {problem}")
            failures += bool(problems)
            sys.stdout.flush()
    print(f"\n{len(targets) - failures}/{len(targets)} bugs reproduced as described")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
