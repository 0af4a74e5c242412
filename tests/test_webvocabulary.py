"""The inputs a web app's JavaScript/TypeScript handles, read from its files."""

from __future__ import annotations

from pathlib import Path

from pytest_playtest.source.web import scan_web_app
from tests.support import REPO


def test_keys_compared_with_key_and_code(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<canvas id="c"></canvas><script src="game.js"></script>')
    (tmp_path / "game.js").write_text("""
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowLeft') left();
  if ("ArrowRight" == e.key) right();
  switch (e.code) { case "KeyW": up(); break; case 'Space': jump(); break; }
  if (e.key === 'p') pause();
  if (e.keyCode === 27) quit();
});
canvas.addEventListener("mousedown", start);
canvas.addEventListener("mousemove", aim);
""")
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("left", "right", "w", "space", "p", "escape")
    assert vocabulary.buttons == ("left",) and vocabulary.drags and not vocabulary.typing
    assert vocabulary.sources == ("game.js", "index.html")


def test_an_upper_case_key_is_also_pressed_without_shift(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<script>onkeydown = (e) => { if (e.key === 'R') restart(); };</script>")
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("R", "r") and vocabulary.unshifted == ("r",)


def test_the_arrow_a_keymap_lacks_is_pressed_when_its_other_arrows_and_wasd_are_handled(tmp_path: Path) -> None:
    """Left's key code is mistyped (73, the I key): a player of a game moved by Up, Right, Down and by all of WASD
    presses Left too. Letters are not inferred (IJKL's J is left, hjkl's is down), nor an arrow without a whole
    other spelling beside (a runner may go right and jump, and never go left)."""
    (tmp_path / "index.html").write_text("""<script>
    var map = {38: 0, 39: 1, 40: 2, 73: 3, 87: 0, 68: 1, 83: 2, 65: 3, 75: 0, 76: 1, 74: 2, 72: 3, 82: 4};
    document.addEventListener('keydown', function (event) { move(map[event.which]); });
    </script>""")
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.implied == ("left",) and vocabulary.keys[-1] == "left"
    assert not vocabulary.types_characters  # (I, R, WASD and hjkl make ten letters: a game moved by them)
    assert vocabulary.handled_at("key left") == vocabulary.handled_at("key up")
    runner = tmp_path / "runner"
    runner.mkdir()
    (runner / "index.html").write_text("""<script>
    onkeydown = (e) => { if (e.key === 'ArrowRight') run(); if (e.key === 'ArrowUp') jump();
                         if (e.key === 'ArrowDown') duck(); if (e.key === 'a') attack(); };</script>""")
    assert scan_web_app(runner).implied == ()


def test_typescript_key_tables_and_clicks(tmp_path: Path) -> None:
    (tmp_path / "app.ts").write_text("""
const moves: Record<string, number> = { ArrowUp: -1, ArrowDown: 1 };
window.onkeydown = (event: KeyboardEvent) => { move(moves[event.key]); };
button.onclick = () => add();
el.addEventListener("contextmenu", menu);
""")
    (tmp_path / "index.html").write_text('<input id="name"><script src="app.js"></script>')
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("up", "down")
    assert vocabulary.buttons == ("left", "right") and vocabulary.typing


def test_a_page_without_key_listeners_has_no_keys(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<button onclick=\"go('ArrowLeft')\">Go</button>")
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == () and vocabulary.buttons == ("left",)


def test_the_web_toy() -> None:
    vocabulary = scan_web_app(REPO / "fixtures" / "web")
    assert vocabulary.keys == ("up",) and vocabulary.buttons == ("left",)
    # filter.html has Filter, required.html Join and Clear, rows.html Clear full rows, rules.html a More button,
    # todo.html Add (again) and Done
    assert vocabulary.texts == ("Add", "Minus", "Reset", "Filter", "Join", "Clear", "Clear full rows", "More",
                                "Done")


def test_key_codes_through_constants_objects_and_switches(tmp_path: Path) -> None:
    """The idioms of hand-written games: key-code constants, an object of them switched over, a lookup table
    indexed by the event, a table of pressed keys, and a file that compares keys far from its listener."""
    (tmp_path / "index.html").write_text("""<canvas></canvas><script src="game.js"></script><script src="keys.js">
</script><script>window.addEventListener("keydown", (e) => game.keyDown(e.keyCode));</script>""")
    (tmp_path / "keys.js").write_text("""
var KEY_FIRE = 32;
const KEY = {LEFT: 37, UP: 38, RIGHT: 39, DOWN: 40};
var unrelated = 88;
""")
    (tmp_path / "game.js").write_text("""
Game.prototype.keyDown = function(keyCode) {
  switch (keyCode) { case KEY.LEFT: this.turn(-1); break; case KEY.RIGHT: this.turn(1); break; }
  if (keyCode == KEY_FIRE) this.fire();
  if (keyCode === 80) this.pause();
  this.pressed[KEY.UP] = true;
  var dir = {38: 0, 39: 1, 40: 2, 37: 3}[event.which];
};
KEY_CODES = {13: 'enter', 77: 'm'};
$(window).keyup(function (e) { KEY_STATUS[KEY_CODES[e.keyCode]] = false; });
""")
    (tmp_path / "jquery.min.js").write_text("if(a.keyCode===9)b();")  # a library's own key handling
    vocabulary = scan_web_app(tmp_path)
    assert set(vocabulary.keys) == {"left", "right", "up", "down", "space", "p", "enter", "m"}


def test_key_comparisons_without_a_key_listener_are_no_keys(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<script src="a.js"></script>')
    (tmp_path / "a.js").write_text("const KEY = {LEFT: 37}; if (e.keyCode == KEY.LEFT) go();")
    assert scan_web_app(tmp_path).keys == ()


def test_a_page_that_plays_sound_is_known(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<canvas></canvas><script src='game.js'></script>")
    (tmp_path / "game.js").write_text("const pop = new Audio('pop.ogg');\n"
                                      "addEventListener('click', () => pop.play());\n")
    assert scan_web_app(tmp_path).sound
    (tmp_path / "game.js").write_text("addEventListener('click', () => console.log('hit'));\n")
    assert not scan_web_app(tmp_path).sound


def test_a_vendored_library_does_not_speak_for_the_app(tmp_path: Path) -> None:
    """A canvas game played with keys, beside a minified library full of click, move and form-control code:
    the library handles events for whoever uses it, so the game takes no clicks and follows no pointer."""
    (tmp_path / "index.html").write_text('<canvas></canvas><script src="lib.min.js"></script>'
                                         '<script src="game.js"></script>')
    (tmp_path / "game.js").write_text("$(window).keydown(function (e) { if (e.keyCode == 32) fire(); });")
    (tmp_path / "lib.min.js").write_text('a.onclick=b;c.addEventListener("mousemove",d);e.innerHTML="<select>";')
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("space",)
    assert vocabulary.buttons == () and not vocabulary.pointer


def test_a_bundled_app_is_read_from_its_minified_scripts(tmp_path: Path) -> None:
    """When every script of a page is minified, they are the app itself."""
    (tmp_path / "index.html").write_text('<canvas></canvas><script src="app.min.js"></script>')
    (tmp_path / "app.min.js").write_text('c.addEventListener("mousedown",f);c.addEventListener("mousemove",g);')
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.buttons == ("left",) and vocabulary.pointer


def test_touch_listeners_are_no_mouse_input(tmp_path: Path) -> None:
    """A keyboard game with a touch fallback: a mouse sends no touch events in desktop Chromium, so its
    touch listeners give it no clicks, drags or pointer to follow."""
    (tmp_path / "index.html").write_text('<canvas></canvas><script src="game.js"></script>')
    (tmp_path / "game.js").write_text("""
window.addEventListener("keydown", (e) => { if (e.keyCode == 37) left(); });
window.addEventListener("touchstart", (e) => fire(e));
window.addEventListener("touchmove", (e) => steer(e));
""")
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("left",)
    assert vocabulary.buttons == () and not vocabulary.pointer and not vocabulary.drags


def test_key_codes_named_in_a_table_nested_in_a_module_object(tmp_path: Path) -> None:
    (tmp_path / "game.js").write_text("""
        Game = {
          KEY: { ZERO: 48, ONE: 49, ESC: 27, Q: 81 },
          start: function() { document.addEventListener('keydown', function(ev) { game.onkeydown(ev.keyCode); }); }
        };
        var game = {
          onkeydown: function(keyCode) {
            switch (keyCode) {
              case Game.KEY.ZERO: this.demo(); break;
              case Game.KEY.ONE: this.single(); break;
              case Game.KEY.Q: this.up(); break;
            }
          }
        };
    """)
    vocabulary = scan_web_app(tmp_path)
    assert vocabulary.keys == ("0", "1", "q")
    assert vocabulary.handled_at("key 1") == [("game.js", 10)]
