"""Speed of the harness on this machine: plugin import cost, loop rate, per-test overhead, OCR per changed frame.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/perf/run.py``). Prints the machine and the
medians, and writes them to ``benchmarks/perf/results-<host>.json``. Goals: a plain pytest run with the
plugin installed at most 1.05x as long as with ``-p no:playtest``; ≥ 60 heuristic steps/s on a pygame game,
≤ 50 ms per-test overhead beyond the app's own start, ≤ 150 ms OCR per changed frame, ≤ 30 ms to judge an
input on a moving app (a starfield's hundreds of one-pixel changes included); a web app's launch to
its first frame ≤ 1.5 s and one DOM read ≤ 5 ms; a replayed page's files let through in order ≤ 10 ms each more
than all at once; a playeval-mini run with ``-n 2`` at least 1.8x as fast as
serially.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from pytest_playtest.actions import Action
from pytest_playtest.golden import GoldenRun
from pytest_playtest.loop.playthrough import run_session
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.pipeline import Runtime
from pytest_playtest.runtime.app import App
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.executor import Executor
from pytest_playtest.runtime.screen import Screen
from pytest_playtest.settings import Settings
from pytest_playtest.vision import Vision, changed_regions
from pytest_playtest.vision.motion import MotionWatch

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_projects"
MINI = ROOT / "benchmarks" / "playeval-mini"
DEFAULTS = SimpleNamespace(policy="heuristic", max_steps=300, timeout=60.0, options={})


def machine() -> dict[str, object]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}", "host": platform.node()}


def import_cost(pairs: int) -> dict[str, object]:
    """A one-test pytest run without --playtest, with the plugin and with ``-p no:playtest``, in pairs whose
    order alternates so drift and caches fall on both sides: the median ratio is what the plugin costs."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "test_plain.py").write_text("def test_plain():\n    assert True\n")
        base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_plain.py"]
        variants = {"plugin": base, "no_plugin": [*base, "-p", "no:playtest"]}
        seconds: dict[str, list[float]] = {"plugin": [], "no_plugin": []}
        for index in range(pairs + 1):
            order = ("plugin", "no_plugin") if index % 2 else ("no_plugin", "plugin")
            for name in order:
                started = time.perf_counter()
                subprocess.run(variants[name], cwd=folder, check=True, capture_output=True)
                if index:  # the first pair warms the file system caches
                    seconds[name].append(time.perf_counter() - started)
    ratios = [a / b for a, b in zip(seconds["plugin"], seconds["no_plugin"], strict=True)]
    return {"pairs": pairs, "plugin_ms_median": 1000 * statistics.median(seconds["plugin"]),
            "no_plugin_ms_median": 1000 * statistics.median(seconds["no_plugin"]),
            "ratio_median": statistics.median(ratios), "goal_ratio": 1.05}


def loop_rate(display: Display, vision: Vision, runs: int, steps: int, strategy: str) -> dict[str, object]:
    """Heuristic runs on the snake game (30 fps), startup excluded: steps per second of the loop, and
    effective inputs per second (steps whose input changed the window or, with coverage, ran new code).

    A goal run plays at its own pace; an exploring (coverage) run waits for the app's next frames after each
    input so every effect is credited to its input, and runs the app under coverage."""
    rates, effective, step_ms = [], [], []
    for seed in range(runs):
        spec = RunSpec.from_kwargs({"app": [sys.executable, "main.py"], "cwd": str(SAMPLES / "snake"),
                                    "strategy": strategy, "max_steps": steps, "seed": seed,
                                    "coverage": strategy == "coverage"},
                                   defaults=DEFAULTS, where="bench")
        result = run_session(spec, display=display, vision=vision, artifacts=None, screenshots="off")
        timed = result.steps
        span = timed[-1].started + timed[-1].duration - timed[0].started
        rates.append(len(timed) / span)
        effective.append(sum(1 for s in timed if s.changed or s.new_lines) / span)
        step_ms.extend(step.duration * 1000 for step in timed)
    return {"app": "sample_projects/snake (pygame, 30 fps)", "strategy": strategy, "runs": runs,
            "steps_per_run": steps, "steps_per_second_median": statistics.median(rates),
            "effective_inputs_per_second_median": statistics.median(effective),
            "step_ms_median": statistics.median(step_ms), "goal_steps_per_second": 60}


TEST_FILE = """
import sys
import numpy as np
import pytest

@pytest.mark.parametrize("i", range({count}))
@pytest.mark.playtest(app=[sys.executable, {app!r}])
def test_launch(playtest, i):
    playtest.launch()
"""


class Durations:
    """Collects each test's setup + call + teardown time."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration


def app_start(display: Display, app: str, count: int) -> list[float]:
    """The app's own start: process start to first paint, then teardown, with nothing of pytest around."""
    seconds = []
    for _ in range(count):
        started = time.perf_counter()
        launched = App([sys.executable, app], display).start()
        launched.wait_for_window(timeout=15)
        screen = Screen(display, launched)
        screen.wait_until_painted(timeout=5)
        screen.close()
        launched.terminate()
        seconds.append(time.perf_counter() - started)
    return seconds


def test_overhead(display: Display, count: int) -> dict[str, object]:
    """A pytest test that launches a Tk app and ends, against the bare launch of the same app."""
    app = str(SAMPLES / "counter" / "main.py")
    bare = app_start(display, app, count)
    with tempfile.TemporaryDirectory() as folder:
        test_file = Path(folder) / "test_overhead.py"
        test_file.write_text(TEST_FILE.format(count=count + 1, app=app))
        durations = Durations()
        code = pytest.main([str(test_file), "--playtest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                            "--playtest-output", str(Path(folder) / "out"), "--playtest-screenshots", "off",
                            "--playtest-display", display.name], plugins=[durations])
        if code != 0:
            raise SystemExit(f"the overhead tests failed (pytest exit code {code})")
    # the first test also starts what later tests reuse (vision, the pytest session)
    with_pytest = sorted(durations.seconds.items())[1:]
    per_test = [seconds for _, seconds in with_pytest]
    return {"app": "sample_projects/counter (Tk)", "tests": count,
            "app_start_ms_median": statistics.median(bare) * 1000,
            "test_ms_median": statistics.median(per_test) * 1000,
            "overhead_ms_median": (statistics.median(per_test) - statistics.median(bare)) * 1000,
            "goal_overhead_ms": 50}


def ocr_cost(display: Display, count: int) -> dict[str, object]:
    """OCR of frames that changed after a key press in 2048: as the session reads them (changed regions,
    line images already recognised on the previous frame are not recognised again) vs from scratch."""
    frames = record_2048(display, count + 1)
    Vision().text(frames[0])  # load the models before timing
    incremental, scratch = [], []
    for index, (before, after) in enumerate(itertools.pairwise(frames)):
        session = Vision()
        session.read(before, key=f"b{index}")
        started = time.perf_counter()
        session.read_changed(after, f"a{index}", f"b{index}", changed_regions(before, after))
        incremental.append(time.perf_counter() - started)
        started = time.perf_counter()
        Vision().read(after)
        scratch.append(time.perf_counter() - started)
    return {"app": "sample_projects/game2048 (pygame), frames after arrow keys", "changed_frames": len(scratch),
            "changed_frame_ms_median": statistics.median(incremental) * 1000,
            "full_frame_ms_median": statistics.median(scratch) * 1000, "goal_ms": 150}


def record_2048(display: Display, count: int) -> list[np.ndarray]:
    app = App([sys.executable, "main.py"], display, cwd=SAMPLES / "game2048").start()
    try:
        app.wait_for_window(timeout=15)
        time.sleep(0.5)  # pygame may replace its first window while it sets the video mode
        app.wait_for_window(timeout=15)
        screen = Screen(display, app)
        frames = [screen.wait_until_painted(timeout=5)]
        executor = Executor(display, app)
        keys = ["left", "up", "right", "down"]
        while len(frames) < count:
            executor.perform(Action.press(keys[len(frames) % len(keys)]))
            if screen.wait_for_change(frames[-1], timeout=0.5):
                time.sleep(0.05)  # the whole move drawn
                frames.append(screen.screenshot())
        screen.close()
        return frames
    finally:
        app.terminate()


def motion_cost(display: Display, frames: int) -> dict[str, object]:
    """Judging one input on an app that moves by itself (MotionWatch.surprise: its ticks before and after
    the input predicted from the ones before), on frames of pygame's starfield example: hundreds of
    one-pixel stars, each a change of its own."""
    app = App([sys.executable, "-m", "pygame.examples.stars"], display).start()
    try:
        app.wait_for_window(timeout=15)
        time.sleep(0.5)  # pygame may replace its first window while it sets the video mode
        app.wait_for_window(timeout=15)
        screen = Screen(display, app)
        shots = []
        while len(shots) < frames:
            shots.append(screen.screenshot())
            time.sleep(0.02)
        screen.close()
    finally:
        app.terminate()
    watch, costs = MotionWatch(), []
    for index, frame in enumerate(shots):
        watch.add(frame, float(index))
        if index >= 8:  # an input given three ticks ago: three ticks before it, three after
            started = time.perf_counter()
            watch.surprise(index - 2.5)
            costs.append(time.perf_counter() - started)
    return {"app": "pygame.examples.stars (640x480)", "inputs": len(costs),
            "surprise_ms_median": statistics.median(costs) * 1000, "goal_ms": 30}


def web_app(display: Display, launches: int, reads: int) -> dict[str, object]:
    """A web app in Chromium: launch to the first frame of the loaded page, and one DOM read (text and a
    rule's facts in one script), medians."""
    from pytest_playtest.rules import parse
    from pytest_playtest.runtime import dom
    from pytest_playtest.runtime.browser import Browser, web_target

    target = web_target(str(SAMPLES / "web_tally" / "index.html"), None)
    assert target is not None
    queries = parse("#total > 0 AND #inside visible").queries
    first_frame, read = [], []
    for _ in range(launches):
        started = time.perf_counter()
        browser = Browser(target, display).start()
        try:
            assert browser.wait_for_window(timeout=20), browser.text_output()
            screen = Screen(display, browser)
            screen.wait_until_painted(timeout=10)
            first_frame.append(time.perf_counter() - started)
            screen.close()
            for _ in range(reads):
                began = time.perf_counter()
                dom.read(browser, queries, timeout=5)
                read.append(time.perf_counter() - began)
        finally:
            browser.terminate()
    return {"launches": launches, "first_frame_ms_median": 1000 * statistics.median(first_frame),
            "dom_read_ms_median": 1000 * statistics.median(read), "reads": len(read)}


#: A page that fetches its files all at once, as a shop fetches its products' pictures, and says when the last
#: one came (``window.took``, milliseconds).
ARRIVALS = """<!doctype html><body><script>
  const began = performance.now();
  Promise.all(Array.from({length: %d}, (_, i) => fetch(`f${i}.bin`).then((r) => r.blob())))
    .then(() => { window.took = performance.now() - began; });
</script></body>"""


def web_arrivals(display: Display, launches: int, files: int = 24) -> dict[str, object]:
    """What a replayed page's files in order cost (runtime/arrivals.py): the time from a page's first fetch of
    ``files`` files of 16 KB to its last arrival, let through one at a time (as in a replay) and all at once,
    medians."""
    from pytest_playtest.runtime.browser import Browser, web_target

    took: dict[str, list[float]] = {"in_order": [], "parallel": []}
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "index.html").write_text(ARRIVALS % files)
        for index in range(files):
            (Path(folder) / f"f{index}.bin").write_bytes(os.urandom(16 * 1024))
        target = web_target(str(Path(folder) / "index.html"), None)
        assert target is not None
        for _, mode in itertools.product(range(launches), ("in_order", "parallel")):
            browser = Browser(target, display, seed=0, in_order=mode == "in_order").start()
            try:
                assert browser.wait_for_window(timeout=20), browser.text_output()
                deadline = time.monotonic() + 20
                while (value := browser.evaluate("window.took")) is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert value is not None, "the page's files did not all arrive within 20 s"
                took[mode].append(float(value))
            finally:
                browser.terminate()
    in_order, parallel = statistics.median(took["in_order"]), statistics.median(took["parallel"])
    return {"files": files, "launches": launches, "in_order_ms_median": in_order, "parallel_ms_median": parallel,
            "per_file_ms": (in_order - parallel) / files}


def golden_cost(runs: int) -> dict[str, object]:
    """What golden runs cost on two still Tk apps (a calculator; dice drawn from a seeded ``random``): the
    recording (the playtest, then two replays for the noise) and a check (one replay, compared) against the
    playtest alone; and the divergences of the checks, which must be none."""
    rows = []
    apps = {"calculator": SAMPLES / "calculator" / "main.py", "dice": ROOT / "fixtures" / "apps" / "tk_dice.py"}
    for name, app in apps.items():
        explore, record, check, diverged = [], [], [], 0
        for seed in range(runs):
            with tempfile.TemporaryDirectory() as folder:
                settings = Settings(size=(1024, 768), display=None, output=Path(folder) / "out", policy="heuristic",
                                    max_steps=40, timeout=60.0, screenshots="on", record=False)
                runtime = Runtime(settings)
                try:
                    spec = RunSpec.from_kwargs({"app": str(app), "seed": seed}, defaults=settings, where="bench")
                    golden = GoldenRun.of_test(runtime, "record", Path(folder) / "test_app.py",
                                               test=f"test_app.py::{name}")
                    started = time.monotonic()
                    recorded, _ = golden.play(spec, artifacts=Path(folder) / "record", default_cwd=app.parent)
                    record.append(time.monotonic() - started)
                    explore.append(recorded.verdict.duration)
                    started = time.monotonic()
                    checked, _ = dataclasses.replace(golden, mode="check").play(
                        spec, artifacts=Path(folder) / "check", default_cwd=app.parent)
                    check.append(time.monotonic() - started)
                    diverged += "diverges" in checked.verdict.kinds()
                finally:
                    runtime.close()
        rows.append({"app": name, "runs": runs, "steps": 40, "playtest_s_median": statistics.median(explore),
                     "record_s_median": statistics.median(record), "check_s_median": statistics.median(check),
                     "diverged_checks": diverged})
    return {"apps": rows}


def differential_cost(pairs: int) -> dict[str, object]:
    """What judging samples against their tasks' references costs a benchmark run: the playeval-mini mutants
    run with ``-n 2``, ``--playtest-benchmark-differential off`` and ``on``, in pairs whose order alternates; each
    ``on`` run records its references anew (a new store). The extra seconds per sample are the medians' difference
    over the 36 samples; the run's divergences are listed (none is a correct sample's)."""
    command = [sys.executable, "-m", "pytest", str(MINI / "tasks.jsonl"), "--playtest", "-q", "-p",
               "no:cacheprovider", "--playtest-benchmark-samples", str(MINI / "samples" / "mutants.jsonl"), "-n", "2"]
    seconds: dict[str, list[float]] = {"off": [], "on": []}
    diverged: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(pairs):
            for mode in ("off", "on") if index % 2 == 0 else ("on", "off"):
                results = Path(folder, f"{mode}.json")
                started = time.perf_counter()
                subprocess.run([*command, "--playtest-benchmark-differential", mode, "--playtest-results", str(results),
                                "--playtest-output", str(Path(folder, "out"))], cwd=ROOT, capture_output=True)
                seconds[mode].append(time.perf_counter() - started)
                if mode == "on":
                    tasks = json.loads(results.read_text())["tasks"]
                    diverged.append({task: counts["diverged"] for task, counts in tasks.items() if counts["diverged"]})
    off, on = statistics.median(seconds["off"]), statistics.median(seconds["on"])
    return {"suite": "benchmarks/playeval-mini, samples/mutants.jsonl (36 samples, 12 tasks), -n 2",
            "pairs": pairs, "off_s": seconds["off"], "on_s": seconds["on"], "off_s_median": off,
            "on_s_median": on, "ratio_median": on / off, "extra_s_per_sample": (on - off) / 36,
            "diverged_per_run": diverged}


def xdist_speedup(pairs: int, cold: int) -> dict[str, object]:
    """Wall time of the whole playeval-mini mutants run (process start to exit), serially and with ``-n 2``,
    in pairs whose order alternates; the speed-up is the ratio of the medians. Every run writes the same
    results file, so each ``-n 2`` run of a pair finds the store of the run before it and starts the longest
    samples first, as a suite run again does. ``cold`` ``-n 2`` runs before the pairs have no earlier store
    (samples in collection order). All runs must give the same results."""
    command = [sys.executable, "-m", "pytest", str(MINI / "tasks.jsonl"), "--playtest", "-q", "-p",
               "no:cacheprovider", "--playtest-benchmark-samples", str(MINI / "samples" / "mutants.jsonl"),
               "--playtest-benchmark-differential", "off"]  # its cost is measured by itself: differential_cost
    seconds: dict[str, list[float]] = {"serial": [], "n2": [], "n2_cold": []}
    metrics: dict[str, object] = {}
    runs = [("n2_cold", f"cold-{index}") for index in range(cold)]
    runs += [(mode, "run") for index in range(pairs)
             for mode in (("serial", "n2") if index % 2 == 0 else ("n2", "serial"))]
    with tempfile.TemporaryDirectory() as folder:
        for mode, name in runs:
            results = Path(folder, f"{name}.json")
            extra = ["-n", "2"] if mode != "serial" else []
            started = time.perf_counter()
            subprocess.run([*command, *extra, "--playtest-results", str(results),
                            "--playtest-output", str(Path(folder, "out"))], cwd=ROOT, capture_output=True)
            seconds[mode].append(time.perf_counter() - started)
            run = json.loads(results.read_text())
            if metrics.setdefault("metrics", run["metrics"]) != run["metrics"]:
                raise SystemExit(f"playeval-mini: {mode} gave other metrics than the first run")
    serial, parallel = statistics.median(seconds["serial"]), statistics.median(seconds["n2"])
    return {"suite": "benchmarks/playeval-mini, samples/mutants.jsonl (36 samples)", "pairs": pairs,
            "serial_s": seconds["serial"], "n2_s": seconds["n2"], "serial_s_median": serial,
            "n2_s_median": parallel, "speedup_median": serial / parallel,
            "speedup_pairs": [a / b for a, b in zip(seconds["serial"], seconds["n2"], strict=True)],
            "n2_cold_s": seconds["n2_cold"], "goal_speedup": 1.8}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=15, help="paired pytest runs for the import cost")
    parser.add_argument("--runs", type=int, default=5, help="heuristic runs for the loop rate")
    parser.add_argument("--steps", type=int, default=200, help="steps per heuristic run")
    parser.add_argument("--tests", type=int, default=20, help="tests for the per-test overhead")
    parser.add_argument("--frames", type=int, default=20, help="changed frames for the OCR cost")
    parser.add_argument("--motion-frames", type=int, default=60, help="frames of a starfield for the motion cost")
    parser.add_argument("--web-launches", type=int, default=7, help="launches of a web app in Chromium")
    parser.add_argument("--xdist-pairs", type=int, default=3, help="serial / -n 2 pairs of playeval-mini runs")
    parser.add_argument("--xdist-cold", type=int, default=1,
                        help="-n 2 runs of playeval-mini without an earlier store, before the pairs")
    parser.add_argument("--golden-runs", type=int, default=3, help="golden runs recorded and checked per app")
    parser.add_argument("--differential-pairs", type=int, default=2,
                        help="playeval-mini -n 2 runs with --playtest-benchmark-differential off / on")
    parser.add_argument("--only", choices=("golden", "differential", "arrivals"), default=None,
                        help="measure only this part")
    parser.add_argument("--out", type=Path, default=None, help="results file (default results-<host>.json here)")
    args = parser.parse_args()

    if args.only == "arrivals":
        display = Display((1024, 768))
        display.start()
        try:
            print(json.dumps({"machine": machine(), "arrivals": web_arrivals(display, args.web_launches)}, indent=2))
        finally:
            display.stop()
        return
    if args.only == "golden":
        results = {"machine": machine(), "golden": golden_cost(args.golden_runs)}
        print(json.dumps(results, indent=2))
        return
    if args.only == "differential":
        results = {"machine": machine(), "differential": differential_cost(args.differential_pairs)}
        print(json.dumps(results, indent=2))
        return
    imports = import_cost(args.pairs)
    display = Display((1024, 768))
    display.start()
    try:
        vision = Vision()
        results = {
            "machine": machine(),
            "import": imports,
            "loop": loop_rate(display, vision, args.runs, args.steps, "goal"),
            "exploration": loop_rate(display, vision, args.runs, args.steps, "coverage"),
            "overhead": test_overhead(display, args.tests),
            "ocr": ocr_cost(display, args.frames),
            "motion": motion_cost(display, args.motion_frames),
            "web": web_app(display, args.web_launches, reads=50),
            "arrivals": web_arrivals(display, args.web_launches),
        }
    finally:
        display.stop()
    if args.xdist_pairs > 0:  # its own pytest runs, each with its own displays
        results["xdist"] = xdist_speedup(args.xdist_pairs, args.xdist_cold)
    results["golden"] = golden_cost(args.golden_runs)
    if args.differential_pairs > 0:
        results["differential"] = differential_cost(args.differential_pairs)
    out = args.out or Path(__file__).with_name(f"results-{platform.node() or 'local'}.json")
    out.write_text(json.dumps(results, indent=2) + "\n")
    report(results, out)


def report(results: dict, out: Path) -> None:
    m, loop, over, ocr = results["machine"], results["loop"], results["overhead"], results["ocr"]
    imports = results["import"]
    print(f"\nmachine: {m['cpu']}, {m['cores']} cores, {m['system']}, Python {m['python']}")
    print(f"import    {imports['ratio_median']:7.3f} x        (plain pytest run {imports['plugin_ms_median']:.0f} ms "
          f"with the plugin, {imports['no_plugin_ms_median']:.0f} ms without, median of {imports['pairs']} pairs)"
          "   goal <= 1.05")
    print(f"loop      {loop['steps_per_second_median']:7.1f} steps/s  (goal runs, median of {loop['runs']}; "
          f"step {loop['step_ms_median']:.1f} ms; {loop['effective_inputs_per_second_median']:.1f} effective "
          "inputs/s)   goal >= 60 steps/s")
    explore = results["exploration"]
    print(f"explore   {explore['steps_per_second_median']:7.1f} steps/s  (coverage runs under coverage.py, "
          f"waiting for the next frames; {explore['effective_inputs_per_second_median']:.1f} effective inputs/s)")
    print(f"overhead  {over['overhead_ms_median']:7.1f} ms/test  (test {over['test_ms_median']:.0f} ms - "
          f"app start {over['app_start_ms_median']:.0f} ms, medians)   goal <= 50 ms")
    print(f"ocr       {ocr['changed_frame_ms_median']:7.1f} ms/frame (changed frame as the loop reads it; "
          f"from scratch {ocr['full_frame_ms_median']:.0f} ms, medians)  goal <= 150 ms")
    motion = results["motion"]
    print(f"motion    {motion['surprise_ms_median']:7.1f} ms/input (an input's effect on a moving app judged: "
          f"{motion['app']}, median of {motion['inputs']})   goal <= 30 ms")
    web = results["web"]
    print(f"web       {web['first_frame_ms_median']:7.0f} ms       (a web app in Chromium, launch to the loaded "
          f"page's first frame, median of {web['launches']})   goal <= 1500 ms")
    print(f"dom read  {web['dom_read_ms_median']:7.2f} ms       (text and a rule's facts in one script, median of "
          f"{web['reads']})   goal <= 5 ms")
    arrivals = results["arrivals"]
    print(f"arrivals  {arrivals['per_file_ms']:7.1f} ms/file  (a replayed page's {arrivals['files']} files one at a "
          f"time in {arrivals['in_order_ms_median']:.0f} ms against {arrivals['parallel_ms_median']:.0f} ms all at "
          f"once, medians of {arrivals['launches']})   goal <= 10 ms")
    for row in results["golden"]["apps"]:
        print(f"golden    {row['record_s_median'] / row['playtest_s_median']:7.2f} x        (recording a golden run "
              f"of {row['app']}: {row['record_s_median']:.1f} s against the playtest's {row['playtest_s_median']:.1f} "
              f"s; a check {row['check_s_median']:.1f} s; {row['diverged_checks']} of {row['runs']} checks diverged, "
              "medians)")
    differential = results.get("differential")
    if differential:
        print(f"reference {differential['ratio_median']:7.2f} x        (playeval-mini mutants, -n 2, judged against "
              f"each task's reference: {differential['on_s_median']:.1f} s against {differential['off_s_median']:.1f} "
              f"s, {differential['extra_s_per_sample']:+.1f} s per sample; divergences per run "
              f"{differential['diverged_per_run']})")
    xdist = results.get("xdist")
    if xdist:
        pairs = ", ".join(f"{ratio:.2f}" for ratio in xdist["speedup_pairs"])
        print(f"-n 2      {xdist['speedup_median']:7.2f} x        (playeval-mini mutants, whole run: serial "
              f"{xdist['serial_s_median']:.1f} s, -n 2 {xdist['n2_s_median']:.1f} s, medians of {xdist['pairs']} "
              f"pairs; pairs {pairs})   goal >= 1.8")
        if xdist["n2_cold_s"]:
            cold = ", ".join(f"{value:.1f} s" for value in xdist["n2_cold_s"])
            print(f"          -n 2 without an earlier run's store (samples in collection order): {cold}")
    print(f"written: {out}")


if __name__ == "__main__":
    main()
