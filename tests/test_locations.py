"""Every finding points at the code: the place a traceback, a stack dump or the source names, carried by the
verdict into its JSON, the terminal, JUnit and a repair prompt. Pure parts here (a real subprocess for the stack
dump, no display); the real apps and pages in tests/test_engine.py and tests/test_web.py."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_playtest.expect import text
from pytest_playtest.loop.locating import Locator
from pytest_playtest.loop.surface import DesktopSurface
from pytest_playtest.repair.diagnosis import Diagnosis
from pytest_playtest.reporting import verdict_properties
from pytest_playtest.runtime.named import raised_at
from pytest_playtest.runtime.stacks import StackDumps, stuck_at
from pytest_playtest.runtime.tracebacks import located
from pytest_playtest.source import Vocabulary, scan_app
from pytest_playtest.source.jsloops import endless_loops, parameters_around, script_code
from pytest_playtest.source.producers import element_writer, longest_word, producer
from pytest_playtest.source.slips import python_slips, script_slips
from pytest_playtest.verdict import Finding, Location, Verdict
from pytest_playtest.vision import Vision

SEEDING = Path(__file__).resolve().parent.parent / "pytest_playtest" / "runtime" / "seeding"

SPINNER = """\
import time


def spin(limit):
    done = 0
    while done < limit:
        time.sleep(0.001)


def main():
    time.sleep(0.2)
    spin(10)


main()
"""


@pytest.fixture
def spinner(tmp_path: Path) -> tuple[Path, Path]:
    app = tmp_path / "app" / "game.py"
    app.parent.mkdir()
    app.write_text(SPINNER)
    return app, tmp_path / "stacks-1.txt"


def _start(app: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, str(app)], cwd=app.parent,
                               env={**os.environ, "PYTHONPATH": str(SEEDING), **env})
    time.sleep(1.0)
    return process


def test_a_frozen_python_app_names_the_line_it_loops_on(spinner: tuple[Path, Path]) -> None:
    app, dumps_file = spinner
    dumps = StackDumps(dumps_file)
    process = _start(app, dumps.env())
    try:
        dump = dumps.dump(process.pid)
        assert process.poll() is None, "the dump must not end the app"
    finally:
        process.kill()
    assert dump is not None and "game.py" in dump
    stuck = stuck_at([dump], app.parent)
    assert stuck is not None and stuck.loop
    location = located(stuck.frame, app.parent, "stack")
    assert (location.file, location.line, location.function) == ("game.py", 6, "spin")
    assert location.text == "while done < limit:" and stuck.sampled.line in (6, 7)
    assert "> " in location.excerpt and "def spin(limit):" in location.excerpt


CALLER_LOOPS = """\
import random


def place(limit):
    tries = 0
    while tries < limit:
        tries += 1
    return random.randint(0, 9)


def respawn(apple, head):
    while apple == head:
        place(3)
    return apple


def main():
    for _ in range(3):
        respawn(1, 1)


main()
"""


def _dump(app: Path, *frames: tuple[int, str]) -> str:
    """A faulthandler dump of the main thread (innermost first): a library frame over the app's frames."""
    lines = ["Current thread 0x00007f0000000000 (most recent call first):",
             '  File "/usr/lib/python3.11/random.py", line 317 in randrange']
    lines += [f'  File "{app}", line {line} in {function}' for line, function in frames]
    return "\n".join(lines + [f'  File "{app}", line 22 in <module>'])


def test_a_hang_is_named_by_the_endless_loop_both_samples_of_the_stack_share(tmp_path: Path) -> None:
    app = tmp_path / "game.py"
    app.write_text(CALLER_LOOPS)
    in_bounded_loop = _dump(app, (7, "place"), (13, "respawn"), (19, "main"))
    after_it = _dump(app, (8, "place"), (13, "respawn"), (19, "main"))
    stuck = stuck_at([in_bounded_loop, after_it], tmp_path)
    assert stuck is not None and stuck.loop
    assert (stuck.frame.line, stuck.frame.function, stuck.sampled.line) == (12, "respawn", 7)
    # one sample cannot tell the bounded loop it caught from the endless one: the innermost is named
    alone = stuck_at([in_bounded_loop], tmp_path)
    assert alone is not None and (alone.frame.line, alone.frame.function) == (6, "place")
    # a stack in no loop of the app's (a `for` over a range ends) names the innermost frame of its code
    no_loop = stuck_at([_dump(app, (19, "main"))], tmp_path)
    assert no_loop is not None and not no_loop.loop and no_loop.frame.line == 19


def test_an_app_whose_hook_did_not_arm_is_never_signalled(spinner: tuple[Path, Path]) -> None:
    app, dumps_file = spinner
    process = _start(app, {})  # no PLAYTEST_STACKS: the signal would end it
    try:
        assert StackDumps(dumps_file).dump(process.pid) is None
        time.sleep(0.1)
        assert process.poll() is None
    finally:
        process.kill()


def test_a_traceback_points_at_the_apps_innermost_own_frame(tmp_path: Path) -> None:
    app = tmp_path / "game.py"
    app.write_text("import json\n\n\ndef load(text):\n    return json.loads(text)\n\n\nload('{')\n")
    library = "/usr/lib/python3.11/json/decoder.py"
    block = ["Traceback (most recent call last):",
             f'  File "{app}", line 8, in <module>', "    load('{')",
             f'  File "{app}", line 5, in load', "    return json.loads(text)",
             f'  File "{library}", line 353, in raw_decode', "    obj, end = self.scan_once(s, idx)",
             "json.decoder.JSONDecodeError: Expecting property name"]
    location = raised_at(block, tmp_path)
    assert location == Location(file="game.py", line=5, how="traceback", function="load",
                                text="return json.loads(text)", excerpt=location.excerpt if location else "")
    assert raised_at(block[:1] + block[5:], tmp_path) is None  # only a library's frame: no place of the app's


def _traceback(app: Path, line: int, function: str, error: str) -> list[str]:
    return ["Traceback (most recent call last):", f'  File "{app}", line {line}, in {function}', "    ...", error]


@pytest.mark.parametrize(("source", "raised", "error", "located"), [
    # a colour name mistyped in a table fails where the colour is used
    ("turns = {'red': 'yelow', 'yellow': 'red'}\n\n\ndef draw(colour):\n    pen(turns[colour])\n",
     5, "turtle.TurtleGraphicsError: bad color string: yelow", (1, "value")),
    # a key the caller spells differently from the table
    ("sizes = {'lg': 40, 'sm': 10}\n\n\ndef size(name):\n    return sizes[name]\n\n\nsize('large')\n",
     5, "KeyError: 'large'", (8, "value")),
    # an attribute misspelt where it is set (nothing reads the spelling Python suggests)
    ("class Chimp:\n    def __init__(self):\n        self.orignal = 1\n\n    def spin(self):\n"
     "        return self.original\n", 6,
     "AttributeError: 'Chimp' object has no attribute 'original'. Did you mean: 'orignal'?", (3, "value")),
    # ... but misspelt where it is read: the suggested name is in use elsewhere, the raising line is the slip
    ("class Snake:\n    def __init__(self):\n        self.move = 1\n\n    def turn(self):\n"
     "        return self.mov + self.move\n", 6,
     "AttributeError: 'Snake' object has no attribute 'mov'. Did you mean: 'move'?", (6, "traceback")),
    # a value written in two places tells nothing
    ("a = 'left'\nb = 'left'\n\n\ndef f(table):\n    return table['left']\n", 6, "KeyError: 'left'",
     (6, "traceback")),
    # a number looked up where the table's key is the number's text
    ("COLOURS = {2: 'grey',\n           '4': 'tan'}\n\n\ndef f(tile):\n    return COLOURS[tile]\n", 6, "KeyError: 4",
     (2, "value")),
    # a class's name quoted in the message is the object's type, not a value of the app's
    ("class Vector:\n    pass\n\n\ndef f(aim):\n    aim.X = 1\n", 6,
     "AttributeError: 'Vector' object has no attribute 'X'", (6, "traceback")),
])
def test_an_error_points_where_the_value_it_names_is_written(
        tmp_path: Path, source: str, raised: int, error: str, located: tuple[int, str]) -> None:
    app = tmp_path / "game.py"
    app.write_text(source)
    location = raised_at(_traceback(app, raised, "f", error), tmp_path)
    assert location is not None and (location.line, location.how) == located, location
    if location.how == "value":
        assert f"raised at game.py:{raised}" in location.detail


def test_an_error_points_at_the_frame_that_passes_the_value_it_names(tmp_path: Path) -> None:
    app = tmp_path / "game.py"
    app.write_text("paddles = {1: 0, 2: 0}\n\n\ndef move(player, change):\n    paddles[player] += change\n\n\n"
                   "def up():\n    move(0, 20)\n\n\ndef down():\n    move(1, -20)\n\n\nx = [0, 0]\n")
    block = ["Traceback (most recent call last):", f'  File "{app}", line 9, in up', "    move(0, 20)",
             f'  File "{app}", line 5, in move', "    paddles[player] += change", "KeyError: 0"]
    location = raised_at(block, tmp_path)
    assert location is not None and (location.line, location.how) == (9, "value"), location
    assert "raised at game.py:5 in move" in location.detail


def test_an_attribute_missing_on_a_parameter_points_at_the_caller(tmp_path: Path) -> None:
    app = tmp_path / "game.py"
    app.write_text("class Blast:\n    def __init__(self, actor):\n        self.at = actor.rect.center\n\n\n"
                   "hits = {1: [2]}\nfor hit in hits.values():\n    Blast(hit)\n")
    block = ["Traceback (most recent call last):", f'  File "{app}", line 8, in <module>', "    Blast(hit)",
             f'  File "{app}", line 3, in __init__', "    self.at = actor.rect.center",
             "AttributeError: 'list' object has no attribute 'rect'"]
    location = raised_at(block, tmp_path)
    assert location is not None and (location.line, location.how) == (8, "traceback"), location
    assert "passes the list that has no 'rect'" in location.detail


def test_an_operator_method_that_raises_points_at_the_operation(tmp_path: Path) -> None:
    (tmp_path / "vectors.py").write_text("class V:\n    def __add__(self, other):\n"
                                         "        return V(self.x + other.x)\n")
    (tmp_path / "game.py").write_text("from vectors import V\n\nmark = (1, 2)\nspot = V() + mark\n")
    block = ["Traceback (most recent call last):", f'  File "{tmp_path / "game.py"}", line 4, in <module>',
             "    spot = V() + mark", f'  File "{tmp_path / "vectors.py"}", line 3, in __add__',
             "    return V(self.x + other.x)", "AttributeError: 'tuple' object has no attribute 'x'"]
    location = raised_at(block, tmp_path)
    assert location is not None and (location.file, location.line) == ("game.py", 4), location


@pytest.mark.parametrize(("source", "found"), [
    ("def reveal(tile):\n    tile['state'] == 'clicked'\n    return tile\n", [2]),  # an assignment meant
    ("from turtle import listen\n\nlisten\n", [3]),  # named, not called
    ("try:\n    import numpy\n    numpy.ndarray\nexcept ImportError:\n    pass\n", []),  # touched to test it
    ('def f(a, b):\n    """A docstring."""\n    return a == b\n', []),
])
def test_a_statement_that_does_nothing_is_a_slip(source: str, found: list[int]) -> None:
    assert [line for line, _ in python_slips(source)] == found


@pytest.mark.parametrize(("code", "found"), [
    ("button.addEventListener('onclick', check);\n", [1]),  # the attribute's name, not the event's
    ("form.addEventListener('sumbit', save);\n", [1]),  # misspelt
    ("$on(field, 'onchange', function () { add(field.value); });\n", [1]),  # through a helper
    ("form.addEventListener('submit', save);\nbutton.setAttribute('onclick', 'go()');\n", []),
    ("board.addEventListener('moved', redraw);\nboard.dispatchEvent(new Event('moved'));\n", []),  # its own
    ("let done = false;\ndone === true;\n", [2]),
    ("if (a === b) { go(); }\n", []),
    # a property read with two letters swapped, beside the one written: undefined, silently
    ("store.add({title: t, body: b});\nh3.textContent = note.tilte;\n", [2]),
    ("const m = new app.Model();\nwindow.oRequestAnimationFrame;\nlet items = [];\nitem.test(rest);\n", []),
])
def test_a_listener_for_no_event_or_a_misspelt_property_is_a_slip(code: str, found: list[int]) -> None:
    assert [line for line, _ in script_slips(code)] == found


def test_the_one_slip_in_the_code_comes_before_the_handler(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text(GAME.replace("root.mainloop()", "root.focus_set\nroot.mainloop()"))
    vocabulary = scan_app(str(tmp_path / "game.py"), tmp_path)
    location = Locator(tmp_path, vocabulary).handled("key left", "key right")
    assert location is not None and (location.line, location.how) == (16, "slip"), location
    assert "'root.focus_set' is read and dropped" in location.detail and "handles it: game.py:" in location.detail
    (tmp_path / "beside.py").write_text("import sys\n\nsys.argv == []\n")  # in the folder, never imported
    beside = Locator(tmp_path, scan_app(str(tmp_path / "game.py"), tmp_path)).handled("key left", "key right")
    assert beside is not None and (beside.file, beside.line, beside.how) == ("game.py", 16, "slip"), beside
    (tmp_path / "more.py").write_text("import game\n\ngame.x == 1\n")  # two slips: neither is the place
    twice = Locator(tmp_path, Vocabulary(sources=("game.py", "more.py"), handlers=vocabulary.handlers))
    location = twice.handled("key left", "key right")
    assert location is not None and location.how == "handler", location


@pytest.mark.parametrize(("code", "line", "loops"), [
    ("for (let y = n; y > 0; --y) {\n  if (full(y)) {\n    y = y + 1;\n  }\n}\n", 2, [1]),  # it moves its counter back
    ("for (let y = n; y > 0; --y) {\n  shift(y);\n}\n", 2, []),  # a counting loop ends
    ("for (const row of rows) {\n  shift(row);\n}\n", 2, []),
    ("for (;;) {\n  tick();\n}\n", 2, [1]),
    ("while (ref) {\n  do {\n    ref = ref.next;\n  } while (ref);\n}\n", 3, [2, 1]),
    ("while (busy) {\n  const f = function () {\n    return 1;\n  };\n}\n", 3, []),  # not inside the function
])
def test_the_loops_of_a_script_that_may_never_end(code: str, line: int, loops: list[int]) -> None:
    assert endless_loops(code, line) == loops


def test_the_parameters_of_the_function_around_a_place_of_a_script() -> None:
    code = ("View.prototype.render = function (command, options = {}) {\n  commands[command](options);\n};\n"
            "const first = rows => rows[0];\nlet shown = table[key];\n")
    assert parameters_around(code, 2, 3) == {"command", "options"}
    assert parameters_around(code, 4, 23) == {"rows"}
    assert parameters_around(code, 5, 13) == set()  # outside any function


def test_a_pages_inline_script_keeps_the_pages_lines() -> None:
    page = "<html>\n<body>\n<script>\nwhile (true) {\n  step();\n}\n</script>\n</body>\n</html>\n"
    code = script_code(page, html=True)
    assert len(code.splitlines()) == len(page.splitlines()) and "<" not in code
    assert endless_loops(code, 5) == [4]


@pytest.mark.parametrize(("source", "name", "line"), [
    ("score = 0\nlabel = f'Score: {score}'\n", "game.py", 2),
    ("score = 0\nlabel = 'Score: ' + str(score)\n", "game.py", 2),
    ("score = 0\nlabel = 'Score: %d' % score\n", "game.py", 2),
    ("score = 0\nlabel = 'Score: {}'.format(score)\n", "game.py", 2),
    ("var score = 0;\nctx.fillText('Score: ' + score, 8, 20);\n", "game.js", 2),
])
def test_the_code_producing_an_expected_text_is_found(tmp_path: Path, source: str, name: str, line: int) -> None:
    (tmp_path / name).write_text(source)
    found = producer(r"Score: [1-9]", tmp_path)
    assert found is not None and (found.path.name, found.line, found.matches) == (name, line, True)


def test_a_page_holding_the_expected_word_is_a_weaker_producer(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html>\n<body>\n<p>Your <b>score</b> is <span id=s></span></p>\n")
    found = producer(r"score is [1-9]\d*", tmp_path)
    assert found is not None and (found.line, found.matches) == (3, False)
    assert longest_word(r"\bFlags:\s*\d+") == "flags" and longest_word(r"\d+") == ""


def test_an_unmet_expectation_points_at_its_producer(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text("import tkinter\n\nlabel = f'Flags: {0}'\n")
    locator = Locator(tmp_path, Vocabulary(sources=("game.py",)))
    location = locator.produced(text(r"Flags: [1-9]"))
    assert location is not None and (location.file, location.line, location.how) == ("game.py", 3, "producer")
    assert location.detail == "a text this code writes can match it"
    locator.reached = {"game.py": frozenset({1})}  # with coverage: the line writing it never ran
    assert (locator.produced(text(r"Flags: [1-9]")) or location).detail.endswith("; it never ran")
    locator.reached = {"game.py": frozenset({1, 3})}
    assert (locator.produced(text(r"Flags: [1-9]")) or location).detail.endswith("; it ran")


def test_an_app_launched_from_elsewhere_is_searched_first_among_its_folders_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An app started by path from another directory (no cwd): its files are named as the run looks them up, in
    its own folder, so its own text is found before a sibling's that sorts first and could show it too."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "asteroids.py").write_text("score = 0\nlabel = f'Score: {score}  Lives: 3'\n")
    (games / "worm.py").write_text("import pygame\n\nscore = 0\nlabel = f'Score: {score}'\n")
    monkeypatch.chdir(tmp_path)
    surface = DesktopSurface(Vision(), [sys.executable, str(games / "worm.py")], None)
    location = Locator(surface.root(), surface.vocabulary()).produced(text(r"Score: [1-9]"))
    assert location is not None and (location.file, location.line) == ("worm.py", 4), location


def test_an_unmet_rule_points_at_the_script_writing_the_element_it_names(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<h3 id="final-score"></h3>\n<script>\nfunction reset() {\n'
                                         "  document.getElementById('final-score').textContent = '';\n}\n"
                                         "function end(score) {\n"
                                         "  document.getElementById('final-score').textContent =\n"
                                         "      'Score: ' + score;\n}\n</script>\n")
    found = element_writer("#final-score <= 100", tmp_path)
    assert found is not None and (found.path.name, found.line) == ("index.html", 7)  # not the line emptying it
    assert element_writer("#elsewhere exists", tmp_path) is None


def test_a_dead_input_points_where_the_code_handles_it(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text(GAME)
    vocabulary = scan_app(str(tmp_path / "game.py"), tmp_path)
    assert vocabulary.handled_at("key left") == [("game.py", 9)]
    location = Locator(tmp_path, vocabulary).handled("key left")
    assert location is not None and (location.file, location.line, location.how) == ("game.py", 9, "handler")
    assert location.text == 'if event.keysym == "left":'
    assert Vocabulary.from_dict(vocabulary.to_dict()).handlers == vocabulary.handlers
    locator = Locator(tmp_path, vocabulary)
    locator.reached = {"game.py": frozenset({8, 9, 11, 12})}  # with coverage: the branch's body never ran
    branch = locator.handled("key left")
    assert branch is not None and branch.line == 9 and branch.detail.endswith("its branch never ran")


GAME = """\
import tkinter as tk

root = tk.Tk()
x = 0


def move(event):
    global x
    if event.keysym == "left":
        x -= 1
    elif event.keysym == "Right":
        x += 1


root.bind("<Key>", move)
root.mainloop()
"""


TURTLE_GAME = """\
from turtle import onkey, onscreenclick, listen, done

paddles = [0, 0]


def move(player, change):
    paddles[player] += change


def tap(x, y):
    column = int(x // 10)
    paddles[0] = column


onkey(lambda: move(0, 20), "w")
onkey(lambda: move(0, -20), "s")
onkey(lambda: move(1, 20), "i")
onkey(lambda: move(1, -20), "k")
onscreenclick(tap)
listen()
done()
"""


@pytest.fixture
def turtle_game(tmp_path: Path) -> tuple[Path, Vocabulary]:
    (tmp_path / "game.py").write_text(TURTLE_GAME)
    return tmp_path, scan_app(str(tmp_path / "game.py"), tmp_path)


def test_a_dead_click_points_at_the_function_bound_to_it(turtle_game: tuple[Path, Vocabulary]) -> None:
    root, vocabulary = turtle_game
    assert vocabulary.handled_at("left click") == [("game.py", 10), ("game.py", 19)]
    location = Locator(root, vocabulary).handled("left click")
    assert location is not None and (location.line, location.text) == (10, "def tap(x, y):")
    assert "game.py:19" in location.detail


def test_one_dead_key_points_at_its_own_binding_and_all_of_them_at_the_function_they_share(
        turtle_game: tuple[Path, Vocabulary]) -> None:
    root, vocabulary = turtle_game
    locator = Locator(root, vocabulary)
    one = locator.handled("key s")
    assert one is not None and (one.line, one.text) == (16, 'onkey(lambda: move(0, -20), "s")')
    every = locator.handled("key w", "key s", "key i", "key k")
    assert every is not None and (every.line, every.text) == (6, "def move(player, change):")


def test_a_bound_function_that_never_ran_yields_to_the_binding(turtle_game: tuple[Path, Vocabulary]) -> None:
    root, vocabulary = turtle_game
    locator = Locator(root, vocabulary)
    locator.reached = {"game.py": frozenset({1, 3, 6, 10, 15, 16, 17, 18, 19, 20, 21})}  # no body ran
    every = locator.handled("key w", "key s", "key i", "key k")
    assert every is not None and every.line == 15 and "game.py:6 never ran" in every.detail
    locator.reached = {"game.py": frozenset({7, 11, 12})}
    click = locator.handled("left click")
    assert click is not None and click.line == 10 and click.detail.endswith("the function bound to it ran")


def test_a_handler_made_by_a_factory_is_the_function_its_lambda_calls(tmp_path: Path) -> None:
    (tmp_path / "board.py").write_text(
        "import tkinter as tk\n\n\nclass Board:\n"
        "    def __init__(self, root):\n"
        "        for x in range(3):\n"
        "            button = tk.Button(root)\n"
        "            button.bind('<Button-1>', self.wrapper(x))\n\n"
        "    def wrapper(self, x):\n"
        "        return lambda event: self.open(x)\n\n"
        "    def open(self, x):\n"
        "        print(x)\n\n\n"
        "Board(tk.Tk()).mainloop()\n")
    vocabulary = scan_app(str(tmp_path / "board.py"), tmp_path)
    assert vocabulary.handled_at("left click") == [("board.py", 13), ("board.py", 8)]


KEYPAD = """\
import tkinter as tk

root = tk.Tk()
shown = tk.Entry(root)


def press(label):
    shown.insert(tk.END, label)


def clear():
    shown.delete(0, tk.END)


for label in "789456123.0":
    tk.Button(root, text=label, command=lambda t=label: press(t)).pack()
{extra}root.mainloop()
"""


@pytest.mark.parametrize(("extra", "line"), [
    ("", 7),  # every button runs press: a dead one goes wrong there
    ("tk.Button(root, text='C', command=clear).pack()\n", None),  # two commands: no place
])
def test_a_dead_widget_points_at_the_command_every_widget_runs(tmp_path: Path, extra: str, line: int | None) -> None:
    (tmp_path / "keypad.py").write_text(KEYPAD.format(extra=extra))
    location = Locator(tmp_path, scan_app(str(tmp_path / "keypad.py"), tmp_path)).commanded()
    assert (location.line if location else None) == line
    if location is not None:
        assert location.text == "def press(label):"


def test_a_location_travels_with_its_finding_into_every_report(tmp_path: Path) -> None:
    where = Location(file="game.py", line=42, how="stack", function="update", text="while True:",
                     excerpt="> 42 | while True:")
    finding = Finding("freeze", "the app stopped", step=3, location=where)
    verdict = Verdict(status="fail", findings=[finding])
    again = Verdict.from_dict(verdict.to_dict())
    assert again.findings[0].location == where
    assert "at game.py:42 in update: while True:" in verdict.summary()
    assert ("playtest_locations", "freeze game.py:42") in verdict_properties([verdict])
    diagnosis = Diagnosis.from_verdict(verdict, [])
    assert diagnosis.locations and diagnosis.locations[0].startswith("[freeze] game.py:42 in update")
