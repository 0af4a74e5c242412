"""What the LLM tester sends per step: prompt tokens by part, the cacheable prefix, the cost of a step.

Plays a Tk app, a pygame game and a web page, each a 1024x768 window (``apps/``), with ``policy="llm"``
against the loopback Chat Completions server of the plugin's tests (the real ``openai`` client), whose
scripted model clicks and presses keys for ``--steps`` steps and then finishes. Every request the server
received is measured with ``policies.request_size``: text at 4 characters a token, the tool schemas as
compact JSON, the screenshot by OpenAI's high-detail tile formula; the cached tokens are the head a request
shares with the one before it (what a server that caches prompt prefixes reuses), and the cost of a step
follows from ``--price``. Goal: at most 1,500 prompt tokens a step, and the same prefix at every step.

Run with ``make bench-llm`` (or ``.venv/bin/python benchmarks/llm/run.py``); writes
``benchmarks/llm/results-<host>.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
APPS = Path(__file__).resolve().parent / "apps"
sys.path.insert(0, str(ROOT))  # the tests' loopback endpoint: tests/support/openai_server.py

from pytest_playtest import expect  # noqa: E402
from pytest_playtest.loop.playthrough import run_session  # noqa: E402
from pytest_playtest.loop.spec import RunSpec  # noqa: E402
from pytest_playtest.policies.request_size import data_url_size, measure, shared_prefix  # noqa: E402
from pytest_playtest.runtime.display import Display  # noqa: E402
from pytest_playtest.usage import TokenPrice  # noqa: E402
from pytest_playtest.vision import Vision  # noqa: E402
from tests.support.openai_server import OpenAIServer, tool  # noqa: E402

SIZE = (1024, 768)
BUDGET = 1500
#: Each app's run: its playtest arguments, and the scripted model's inputs in turn (points as fractions of
#: the screenshot, so they land alike whatever size it is sent at).
PLAYS: dict[str, dict[str, Any]] = {
    "tk": {
        "what": "apps/tk_inventory.py (Tk: menu bar, list, form, status bar)",
        "spec": {"app": [sys.executable, str(APPS / "tk_inventory.py")], "strategy": "coverage",
                 "goal": "Add and remove stock; the count in stock must follow.",
                 "expect": [expect.alive(), expect.no_text("Traceback")]},
        "inputs": [("click", 0.15, 0.12), ("click", 0.62, 0.22), ("type_text", "3"), ("click", 0.45, 0.27),
                   ("click", 0.15, 0.17), ("click", 0.51, 0.27)],
    },
    "pygame": {
        "what": "apps/pygame_arena.py (pygame: a HUD, coins, arrow keys)",
        "spec": {"app": [sys.executable, str(APPS / "pygame_arena.py")], "strategy": "goal",
                 "goal": "Collect coins: each one must add 10 to the score.",
                 "expect": [expect.alive()]},
        "inputs": [("press", "right"), ("press", "down"), ("press", "left"), ("press", "up"), ("press", "right")],
    },
    "web": {
        "what": "apps/web/index.html (Chromium: two lists, a form, buttons; tab and enter)",
        "spec": {"app": str(APPS / "web" / "index.html"), "size": "1024x768", "strategy": "coverage",
                 "goal": "Mark books as read and back; the summary must count them.",
                 "expect": [expect.alive()]},
        "inputs": [("press", "tab"), ("press", "enter"), ("press", "tab"), ("press", "tab"), ("press", "enter")],
    },
}


def scripted_model(inputs: list[tuple[Any, ...]], steps: int) -> Callable[[dict[str, Any]], Any]:
    """A model that sends the inputs in turn, at the points of the screenshot it is sent, then finishes."""
    asked = 0

    def answer(request: dict[str, Any]) -> Any:
        nonlocal asked
        asked += 1
        if asked >= steps:
            return tool("finish", {"verdict": "pass", "reason": "every input had its effect"},
                        content="The stock, score or list followed every input.")
        kind, *values = inputs[(asked - 1) % len(inputs)]
        note = "Checking that this input has its visible effect."
        if kind == "click":
            width, height = next(data_url_size(part["image_url"]["url"])
                                 for message in request["messages"] if isinstance(message["content"], list)
                                 for part in message["content"] if part["type"] == "image_url")
            return tool("click", {"x": int(values[0] * width), "y": int(values[1] * height)}, content=note)
        if kind == "press":
            return tool("press", {"key": values[0]}, content=note)
        return tool("type_text", {"text": values[0]}, content=note)

    return answer


def play(name: str, display: Display, vision: Vision, steps: int, price: TokenPrice | None) -> dict[str, Any]:
    """One app's run; every request measured by part."""
    plan = PLAYS[name]
    with OpenAIServer(default=scripted_model(plan["inputs"], steps), estimate_usage=True) as server:
        spec = RunSpec.from_kwargs({**plan["spec"], "policy": "llm", "max_steps": steps + 1, "timeout": 180,
                                    "options": {"model": "bench-model", "base_url": server.url}},
                                   defaults=RunSpec(), where="bench")
        result = run_session(spec, display=display, vision=vision, artifacts=None, screenshots="off")
        bodies, usages = server.bodies(), server.usages
    per_step = []
    for index, (body, (_, completion, _)) in enumerate(zip(bodies, usages, strict=True)):
        size = measure(body).to_dict()
        size["cached"] = shared_prefix(body, bodies[index - 1]) if index else 0
        size["completion"] = completion
        if price is not None:
            size["cost_usd"] = price.cost(size["total"], size["cached"], completion)
        per_step.append(size)
    prefixes = {json.dumps([body.get("tools"), _system(body)]) for body in bodies}
    run: dict[str, Any] = {
        "app": plan["what"], "window": f"{SIZE[0]}x{SIZE[1]}", "verdict": result.verdict.status,
        "requests": len(bodies), "per_step": per_step,
        "median": {part: statistics.median(step[part] for step in per_step) for part in per_step[0]},
        "max_total": max(step["total"] for step in per_step),
        "prefix_identical": len(prefixes) == 1, "budget": BUDGET,
        # what the model read at the last step before it finished
        "example": {"system": _system(bodies[-2])[0]["content"] if _system(bodies[-2]) else "",
                    "user": _user_text(bodies[-2])},
    }
    return run


def _user_text(body: dict[str, Any]) -> str:
    return "\n".join(part["text"] for message in body["messages"] if message["role"] == "user"
                     for part in message["content"] if part["type"] == "text")


def _system(body: dict[str, Any]) -> list[Any]:
    return [message for message in body["messages"] if message["role"] == "system"]


def machine() -> dict[str, object]:
    import os

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "host": platform.node()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="requests per app (the last one finishes)")
    parser.add_argument("--apps", default=",".join(PLAYS), help="which apps, comma-separated")
    parser.add_argument("--price", type=TokenPrice.parse, default=None,
                        help="dollars per million tokens, e.g. input=2.5,cached=1.25,output=10")
    parser.add_argument("--out", type=Path, default=None, help="results file (default results-<host>.json here)")
    args = parser.parse_args()
    display = Display(SIZE)
    display.start()
    try:
        vision = Vision()
        runs = {name: play(name, display, vision, args.steps, args.price) for name in args.apps.split(",")}
    finally:
        display.stop()
    results = {"machine": machine(), "price": args.price.describe() if args.price else None, "apps": runs}
    out = args.out or Path(__file__).with_name(f"results-{platform.node() or 'local'}.json")
    out.write_text(json.dumps(results, indent=2) + "\n")
    report(results, out)


def report(results: dict[str, Any], out: Path) -> None:
    print(f"\nmachine: {results['machine']['cpu']}, {results['machine']['cores']} cores")
    print(f"{'app':8} {'text':>6} {'tools':>6} {'image':>6} {'tiles':>5} {'total':>6} {'max':>6} {'prefix':>6} "
          f"{'cached':>6}  same prefix  verdict")
    for name, run in results["apps"].items():
        median = run["median"]
        print(f"{name:8} {median['text']:6.0f} {median['tools']:6.0f} {median['image']:6.0f} {median['tiles']:5.0f} "
              f"{median['total']:6.0f} {run['max_total']:6.0f} {median['prefix']:6.0f} {median['cached']:6.0f}  "
              f"{'yes' if run['prefix_identical'] else 'NO':11}  {run['verdict']}"
              + (f"  ${median['cost_usd']:.5f}/step" if "cost_usd" in median else ""))
    print(f"(medians per step, estimated prompt tokens; goal: at most {BUDGET} a step)\nresults: {out}")


if __name__ == "__main__":
    main()
