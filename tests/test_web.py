"""Web apps in real Chromium on the real display: launch, input, the browser's reports, teardown."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_playtest import expect
from pytest_playtest.actions import Action
from pytest_playtest.errors import AppError
from pytest_playtest.loop.oracles import Oracles
from pytest_playtest.loop.spec import OracleSettings, RunSpec
from pytest_playtest.loop.web import PageWatch
from pytest_playtest.runtime.browser import Browser, WebTarget, web_target
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.executor import Executor
from pytest_playtest.runtime.procfs import group_pids
from pytest_playtest.runtime.screen import Screen
from tests.support import REPO, Play

WEB = REPO / "fixtures" / "web"
WEBAPPS = REPO / "fixtures" / "webapps"
DEFAULTS = SimpleNamespace(policy="heuristic", max_steps=15, timeout=40.0, options={})
PROFILE_FLAG = b"--user-data-dir=/tmp/playtest-chromium-"


@pytest.fixture(scope="module")
def play_defaults() -> SimpleNamespace:
    """A page's test plays 15 steps unless it says otherwise."""
    return DEFAULTS


def browsers_running(display: Display) -> list[int]:
    """Processes of any browser under test on this display (each has its own profile folder; another xdist
    worker's browsers are on its own display)."""
    found = []
    wanted = f"DISPLAY={display.name}".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ours = wanted in (entry / "environ").read_bytes().split(b"\0")
                if ours and PROFILE_FLAG in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def browser(display: Display):  # noqa: ANN201
    started: list[Browser] = []

    def start(page: str, *, seed: int | None = None, in_order: bool = False) -> Browser:
        target = web_target(str(WEB / page), None)
        assert target is not None
        app = Browser(target, display, seed=seed, in_order=in_order).start()
        started.append(app)
        assert app.wait_for_window(timeout=20), app.text_output()
        return app

    yield start
    for app in started:
        app.terminate()


# -- what app= names -------------------------------------------------------------------------------------
def test_web_targets_by_form(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<p>hi</p>")
    (tmp_path / "game.html").write_text("<p>hi</p>")
    assert web_target(str(tmp_path / "game.html"), None) == WebTarget("game.html", root=tmp_path.resolve())
    assert web_target("site", tmp_path) == WebTarget("index.html", root=(tmp_path / "site").resolve())
    assert web_target("http://127.0.0.1:8000/app/", None) == WebTarget("http://127.0.0.1:8000/app/")
    assert web_target("http://localhost:3000", None) is not None
    assert web_target(str(tmp_path / "main.py"), None) is None
    assert web_target(["python", "x.py"], None) is None
    assert web_target(str(tmp_path), None) is None  # a folder without index.html is no web app
    with pytest.raises(AppError, match="must be on this machine"):
        web_target("https://example.com/", None)
    with pytest.raises(AppError, match="web app file not found"):
        web_target(str(tmp_path / "nope.html"), None)


# -- launch, input, teardown ----------------------------------------------------------------------------
def test_a_page_is_clicked_and_changes_and_nothing_is_left(display: Display, browser) -> None:  # noqa: ANN001
    app = browser("counter.html")
    screen, executor = Screen(display, app), Executor(display, app)
    try:
        before = screen.wait_until_painted(timeout=10)
        assert app.evaluate("document.getElementById('count').textContent") == "Count: 0"
        executor.perform(Action.click(120, 70))  # the Add button, with a real XTest click
        after = screen.wait_for_change(before, timeout=5)
        assert after, "the click changed no pixel"
        assert app.evaluate("document.getElementById('count').textContent") == "Count: 1"
        executor.perform(Action.press("up"))  # a real key: the page handles ArrowUp
        deadline = time.monotonic() + 5
        while app.evaluate("document.getElementById('count').textContent") != "Count: 11":
            assert time.monotonic() < deadline, "the key never reached the page"
            time.sleep(0.02)
    finally:
        screen.close()
    pgid, profile = app.pid, app.profile
    assert len(group_pids(pgid)) > 1  # the browser and its renderers share the app's process group
    app.terminate()
    assert group_pids(pgid) == []
    assert not profile.exists()
    assert browsers_running(display) == []


def test_a_page_draws_the_same_random_numbers_on_every_launch_of_a_seed(browser) -> None:  # noqa: ANN001
    def drawn(seed: int) -> str:
        page = browser("../webapps/dice/index.html", seed=seed)
        return str(page.evaluate("document.body.innerText"))

    first = drawn(7)
    assert "drew 0." in first and "Total:" in first  # the page's own scripts ran, after the seeding
    assert drawn(7) == first
    assert drawn(8) != first


ARRIVALS = """<!doctype html><body><ol id="arrived"></ol><script>
  for (const name of ["big.txt", "a.txt", "b.txt", "c.txt"]) {
    fetch(name).then((response) => response.text()).then(() => {
      document.getElementById("arrived").insertAdjacentHTML("beforeend", `<li>${name}</li>`);
    });
  }
</script></body>"""


def test_a_replayed_page_gets_its_files_in_the_order_it_asked_for_them(browser, tmp_path: Path) -> None:  # noqa: ANN001
    (tmp_path / "index.html").write_text(ARRIVALS)
    (tmp_path / "big.txt").write_text("x" * 8_000_000)  # in parallel it comes back last
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text(name)

    def arrived(seed: int | None) -> list[str]:
        page = browser(str(tmp_path / "index.html"), seed=seed, in_order=True)
        deadline = time.monotonic() + 10
        while len(names := page.evaluate("[...document.querySelectorAll('li')].map(li => li.textContent)")) < 4:
            assert time.monotonic() < deadline, f"only {names} arrived"
            time.sleep(0.05)
        return list(names)

    assert arrived(0) == arrived(None) == ["big.txt", "a.txt", "b.txt", "c.txt"]


def test_a_correct_page_passes_ten_runs_of_ten(display: Display, play: Play) -> None:
    for run in range(10):
        verdict = play(app=str(WEB / "counter.html"), max_steps=6).verdict
        assert verdict.status == "pass", f"run {run + 1}: {verdict.summary()}"
        assert browsers_running(display) == []


# -- what the browser reports ----------------------------------------------------------------------------
def test_an_uncaught_error_is_an_exception_with_its_message_and_place(play: Play) -> None:
    verdict = play(app=str(WEB / "raises.html")).verdict
    finding = verdict.first("exception")
    assert finding is not None, verdict.summary()
    assert "TypeError: Cannot read properties of null (reading 'write')" in finding.message
    assert "/toy.js:14:" in finding.message
    assert "/toy.js:14:10)" in finding.details  # the stack
    assert finding.location is not None and (finding.location.file, finding.location.line) == ("toy.js", 14)
    assert finding.location.text == "save.write(count); // TypeError on a click"
    assert verdict.first("crash") is None and verdict.first("freeze") is None


def test_an_unhandled_rejection_is_an_exception(play: Play) -> None:
    verdict = play(app=str(WEB / "rejects.html")).verdict
    assert verdict.kinds() == ["exception"], verdict.summary()
    assert "Uncaught (in promise) Error: the score was not saved at /toy.js:17:" in verdict.first("exception").message


def test_a_missing_file_of_the_app_is_an_exception(play: Play) -> None:
    verdict = play(app=str(WEB / "missing.html"), max_steps=4).verdict
    assert verdict.kinds() == ["exception"], verdict.summary()
    finding = verdict.first("exception")
    assert "404" in finding.message and "/helpers.js" in finding.message and finding.step == 0


def test_console_errors_are_notes(play: Play) -> None:
    verdict = play(app=str(WEB / "console.html"), max_steps=6).verdict
    assert verdict.status == "pass", verdict.summary()
    assert any("console error" in note and "count went up to 1" in note and "/toy.js:23:" in note
               for note in verdict.notes), verdict.notes


def test_a_busy_main_thread_is_a_freeze(display: Display, play: Play) -> None:
    verdict = play(app=str(WEB / "busy.html")).verdict
    assert verdict.kinds() == ["freeze"], verdict.summary()
    freeze = verdict.first("freeze")
    assert "main thread did not run a script" in freeze.message
    # where: the debugger paused the loop that never yields
    assert freeze.location is not None, verdict.summary()
    assert (freeze.location.file, freeze.location.line, freeze.location.how) == ("toy.js", 20, "script")
    assert freeze.location.text == "for (;;) {} // the main thread never returns"
    assert browsers_running(display) == []


def test_a_lookup_by_a_parameter_that_finds_nothing_points_at_the_caller(play: Play) -> None:
    verdict = play(app=str(WEB / "todo.html")).verdict
    raised = verdict.first("exception")
    assert raised is not None and raised.location is not None, verdict.summary()
    assert "views[view] is not a function" in raised.message
    assert (raised.location.file, raised.location.line) == ("todo.html", 16), raised.location
    assert "passes the view that views has no entry for; raised at todo.html:13" in raised.location.detail


def test_a_page_stuck_in_a_loop_names_the_loop_not_a_function_it_calls(play: Play) -> None:
    verdict = play(app=str(WEB / "rows.html")).verdict
    freeze = verdict.first("freeze")
    assert freeze is not None and freeze.location is not None, verdict.summary()
    assert (freeze.location.file, freeze.location.how) == ("rows.html", "script")
    assert freeze.location.text == "while (row >= 0) {", freeze.location
    assert "a loop that never ends" in freeze.location.detail


def test_a_crashed_renderer_is_a_crash(browser) -> None:  # noqa: ANN001
    app = browser("counter.html")
    oracles = Oracles(app, [], OracleSettings(), watch=lambda _, notes: PageWatch(app, notes))
    assert not oracles.check_exit(0)
    renderers = [pid for pid in group_pids(app.pid)
                 if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert renderers, "the page has no renderer process"
    for pid in renderers:  # the renderer dies as an out-of-memory kill would end it
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not app.crashed:
        assert time.monotonic() < deadline, [e.method for e in app.devtools.events]
        time.sleep(0.05)
    assert oracles.check_exit(1)
    assert [f.kind for f in oracles.findings] == ["crash"]
    assert app.alive  # the browser process outlives its renderer


# -- the DOM as evidence ----------------------------------------------------------------------------------
RULES_ON_THE_PAGE = [
    ("#score > 0", True), ("#score >= 13", False), ("#lives == 3", True), ("#lives < 3", False),
    ("#status == 'Won'", True), ("#status != 'Won'", False), ("#io-json contains 'Social Ad'", True),
    ("#status icontains 'WON'", True), ("#name startswith 'Ada'", True), ("#name endswith 'Byron'", False),
    ("#status visible", True), ("#hidden visible", False), ("#hidden not visible", True),
    ("#faded not visible", True), ("#nothing not visible", True), ("#score exists", True),
    (".tile exists", True), ("[data-cell^='a'] exists", True), ("[data-cell^='b'] exists", False),
    ("#nothing not exists", True), ("#toggle[aria-expanded] == 'true'", True), ("#agree == 'true'", True),
    ("#slides .slide:first-child.expanded.exists", True), ("gridContainer contains 'Meditate 5min'", True),
    ("#status == 'Won' AND #lives > 5", False), ("#status == 'Won' AND #lives > 5 OR .tile exists", True),
]


def test_every_rule_form_on_a_real_page(browser) -> None:  # noqa: ANN001
    from pytest_playtest.rules import parse
    from pytest_playtest.runtime import dom

    app = browser("rules.html")
    for source, expected in RULES_ON_THE_PAGE:
        rule = parse(source)
        state = dom.read(app, rule.queries, timeout=5)
        assert rule.holds(state.facts) is expected, f"{source}: {rule.explain(state.facts)}"
    assert "Score: 12" in dom.read(app, [], timeout=5).text


def test_an_invalid_selector_is_a_clear_error(browser) -> None:  # noqa: ANN001
    from pytest_playtest.rules import parse
    from pytest_playtest.runtime import dom

    app = browser("rules.html")
    with pytest.raises(dom.DomError, match=r"the selector '#1up' is not valid CSS"):
        dom.read(app, parse("#1up exists").queries, timeout=5)


def test_clickable_elements_come_with_their_boxes(browser) -> None:  # noqa: ANN001
    from pytest_playtest.runtime import dom

    app = browser("counter.html")
    found = {item.text: item for item in dom.clickables(app, timeout=5)}
    assert set(found) == {"Add", "Minus", "Reset"}
    add = found["Add"]
    assert (add.box.x, add.box.y, add.box.w, add.box.h, add.kind) == (40, 40, 160, 60, "button")


def test_a_submit_the_browser_refuses_for_an_empty_required_field_is_known(browser) -> None:  # noqa: ANN001
    """Its "Please fill out this field" bubble is no part of the page's pixels: such a click is no evidence of
    a dead button."""
    from pytest_playtest.runtime import dom

    app = browser("required.html")
    found = {item.text: item for item in dom.clickables(app, timeout=5)}
    assert found["Your name"].kind == "field"  # its label: a click there shows the field's focus, no more
    join, clear = found["Join"].box.center, found["Clear"].box.center
    assert dom.refused_submit(app, join, timeout=5)
    assert not dom.refused_submit(app, clear, timeout=5)  # no submit button
    app.evaluate("document.getElementById('name').value = 'Ada'")
    assert not dom.refused_submit(app, join, timeout=5)


def test_rules_and_dom_text_judge_a_run(play: Play) -> None:
    from pytest_playtest import expect

    passing = play(app=str(WEB / "counter.html"), strategy="goal", max_steps=20,
                   expect=[expect.rule("#count contains 'Count: 1'"), expect.text(r"Count: \d")]).verdict
    assert passing.status == "pass", passing.summary()
    failing = play(app=str(WEB / "counter.html"), max_steps=4,
                   expect=[expect.rule("#count > 100 AND #status == 'Won'")]).verdict
    assert failing.kinds() == ["expectation"], failing.summary()
    message = failing.first("expectation").message
    assert "never held" in message and "#count is 'Count:" in message and "#status is 'Ready'" in message


def test_a_filter_form_is_sent_once_per_category_with_its_field_empty(play: Play) -> None:
    from pytest_playtest import expect

    verdict = play(app=str(WEB / "filter.html"), strategy="goal", max_steps=60,
                   expect=[expect.rule("#shelf li.tool exists AND #shelf li.fruit not exists")]).verdict
    assert verdict.status == "pass", verdict.summary()


def test_an_unmet_rule_points_at_a_listener_for_an_event_no_element_fires(play: Play, tmp_path: Path) -> None:
    from pytest_playtest import expect

    page = tmp_path / "filter.html"
    page.write_text((WEB / "filter.html").read_text().replace('addEventListener("submit"', 'addEventListener("sumbit"'))
    (tmp_path / "toy.css").write_text((WEB / "toy.css").read_text())
    verdict = play(app=str(page), strategy="goal", max_steps=30,
                   expect=[expect.rule("#shelf li.tool exists AND #shelf li.fruit not exists")]).verdict
    unmet = verdict.first("expectation")
    assert unmet is not None and unmet.location is not None, verdict.summary()
    assert (unmet.location.file, unmet.location.how) == ("filter.html", "slip"), unmet.location
    assert unmet.location.text.startswith('document.getElementById("filter").addEventListener("sumbit"')
    assert "'submit' meant?" in unmet.location.detail


def test_a_rule_on_a_desktop_app_is_a_spec_error() -> None:
    from pytest_playtest import expect
    from pytest_playtest.errors import SpecError

    with pytest.raises(SpecError, match="reads a web page's DOM, but app='game.py' is a desktop app"):
        RunSpec.from_kwargs({"app": "game.py", "expect": [expect.rule("#score > 0")]}, defaults=DEFAULTS,
                            where="test")


@pytest.mark.parametrize(("left", "kinds"), [("ArrowLeft", []), ("Left", ["unresponsive"])])
def test_one_dead_arrow_of_a_keyboard_board_is_found_and_its_clicks_are_never_judged(
        left: str, kinds: list[str], play: Play, tmp_path: Path) -> None:
    """The page's Left compares with the legacy name 'Left' (a slip): Right, Up, Down and the alias A still slide
    the token. Its canvas takes no clicks (no script listens for them) while a checkbox beside it does: the
    clicks the tester tries on the board are no evidence of a dead control."""
    app = tmp_path / "slide"
    shutil.copytree(WEBAPPS / "slide", app)
    script = app / "slide.js"
    script.write_text(script.read_text().replace('event.key === "ArrowLeft"', f'event.key === "{left}"'))
    verdict = play(app=str(app / "index.html"), max_steps=120, timeout=70).verdict
    assert verdict.kinds() == kinds, verdict.summary()
    assert not any("clicks had no effect" in f.message for f in verdict.findings)
    if kinds:
        dead = verdict.first("unresponsive")
        assert dead is not None and dead.message.startswith("key left never had an effect"), verdict.summary()
        assert dead.location is not None and dead.location.file == "slide.js"


@pytest.mark.parametrize(("left", "kinds"), [("ArrowLeft", []), ("Left", ["unresponsive"])])
def test_one_dead_arrow_of_a_board_whose_pieces_glide_is_judged_on_a_still_page(
        left: str, kinds: list[str], play: Play, tmp_path: Path) -> None:
    """The token glides over 150 ms, pops when it lands and a "+1" floats up for 600 ms after each move: what a
    key started is still running when the next look comes. Waited out, the page stays a still one, and Left
    (the legacy name 'Left', a slip) is judged against its live siblings; taken for the page's own motion, every
    key would be judged against chance and none found dead."""
    app = tmp_path / "glide"
    shutil.copytree(WEBAPPS / "glide", app)
    script = app / "glide.js"
    script.write_text(script.read_text().replace('event.key === "ArrowLeft"', f'event.key === "{left}"'))
    verdict = play(app=str(app / "index.html"), max_steps=150, timeout=100).verdict  # (waits: fewer steps)
    assert verdict.kinds() == kinds, verdict.summary()
    if kinds:
        dead = verdict.first("unresponsive")
        assert dead is not None and dead.message.startswith("key left"), verdict.summary()
        assert dead.location is not None and dead.location.file == "glide.js"


@pytest.mark.parametrize(("ring", "kinds"), [("RINGS[hits % RINGS.length]", set()),
                                             ("RINGS[hits]", {"exception", "expectation"})])
def test_a_canvas_target_that_jumps_after_every_hit_is_clicked_where_it_is_now(
        ring: str, kinds: set[str], play: Play, tmp_path: Path) -> None:
    """The round target takes the next ring colour at every hit; the slip indexes the three colours without
    wrapping, so the third hit throws (before its count is shown). Only a click on the drawn target where it
    stands now is a hit."""
    app = tmp_path / "target"
    shutil.copytree(WEBAPPS / "target", app)
    script = app / "target.js"
    script.write_text(script.read_text().replace("RINGS[hits % RINGS.length]", ring))
    verdict = play(app=str(app / "index.html"), max_steps=60, timeout=60, expect=[expect.text(r"Hits: [3-9]")]).verdict
    assert set(verdict.kinds()) == kinds, verdict.summary()
    if kinds:
        assert "toLowerCase" in verdict.first("exception").message, verdict.summary()
