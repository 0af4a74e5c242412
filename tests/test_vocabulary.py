"""The input vocabulary read from an app's source: fixtures with known pitfalls, then real apps on the machine."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
import turtledemo
from pathlib import Path
from typing import Any, cast

import pytest

from pytest_playtest.runtime.xinput import XInput
from pytest_playtest.source import (
    PYGAME_KEYS,
    Vocabulary,
    key_name,
    parse_tk_sequence,
    scan,
    scan_app,
    split_hotkey,
)
from pytest_playtest.source.announced import announced
from tests.support import REPO

CASES = REPO / "fixtures" / "vocabulary"


def _pygame_examples() -> Path | None:
    spec = importlib.util.find_spec("pygame")  # located on disk, not imported
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "examples"
    return folder if (folder / "aliens.py").is_file() else None


EXAMPLES = _pygame_examples()
needs_examples = pytest.mark.skipif(EXAMPLES is None, reason="pygame.examples is not installed")


def example(name: str) -> Vocabulary:
    assert EXAMPLES is not None
    return scan_app([sys.executable, str(EXAMPLES / f"{name}.py")], None)


def source(tmp_path: Path, code: str, name: str = "app.py") -> Vocabulary:
    """The vocabulary of one small app written into tmp_path."""
    (tmp_path / name).write_text(textwrap.dedent(code))
    return scan_app(name, tmp_path)


def assert_pressable(vocabulary: Vocabulary) -> None:
    """Every reported key is a name Action.press / Action.hotkey accept (resolved as xinput resolves it)."""
    for key in (*vocabulary.keys, *vocabulary.quit_keys):
        for part in split_hotkey(key):
            XInput._keysym(cast(Any, None), part)
    for hotkey in vocabulary.hotkeys:
        assert len(split_hotkey(hotkey)) >= 2, hotkey
        for part in split_hotkey(hotkey):
            XInput._keysym(cast(Any, None), part)


# -- fixtures: each a pitfall real apps contain ---------------------------------------------------------------


def test_pygame_constants_bound_in_another_module() -> None:
    found = scan_app("main.py", CASES / "pygame_split")
    # main.py first (QUIT_KEYS, controls.PAUSE, KEYMAP["restart"], get_pressed()[MOVE_LEFT]...), then
    # controls.py's remaining constant (F1, bound but never read: still a key of the app's own files)
    assert found.keys == ("q", "escape", "p", "r", "f1", "a", "d", "space")
    assert found.quit_keys == ("q", "escape")  # `event.key in QUIT_KEYS: running = False`
    assert found.hotkeys == ("ctrl+s",)  # K_s only with KMOD_CTRL: not a plain key
    assert found.buttons == ("right",)  # MOUSEBUTTONDOWN and event.button == 3
    assert not found.drags and not found.typing and not found.texts
    assert found.sources == ("main.py", "controls.py", "hud.py")  # imports followed; tools/ and tests/ not
    assert found.safe_keys == ("p", "r", "f1", "a", "d", "space")
    assert_pressable(found)


def test_whole_tree_reads_unimported_files_but_never_tests() -> None:
    found = scan_app("main.py", CASES / "pygame_split", whole_tree=True)
    assert "x" in found.keys  # tools/level_editor.py
    assert "z" not in found.keys  # tests/test_game.py
    assert found.sources == ("main.py", "controls.py", "hud.py", "tools/level_editor.py")


def test_tk_app_binds_buttons_menus_and_right_click() -> None:
    found = scan_app(["python3", "app.py"], CASES / "tk_app")
    assert found.keys == ("left", "a", "pageup", "escape", "up", "down", "enter", "+", "-", "q")
    assert found.hotkeys == ("ctrl+s",)
    assert found.quit_keys == ("escape", "q")  # bind_all(lambda: self.destroy()); keysym "q" → quit_app()
    assert found.buttons == ("left", "right")
    assert found.drags  # <B1-Motion>
    assert found.texts == ("Start", "Quit", "Sound", "Open", "Exit", "File", "Clear")
    assert found.quit_texts == ("Quit", "Exit")  # command=self.destroy, command=self.quit_app
    assert found.typing  # ttk.Entry
    assert_pressable(found)


def test_pygame_locals_star_import_and_title_screen() -> None:
    found = scan_app("python game.py", CASES / "star_locals")
    assert found.keys == ("enter", "escape", "+", "1", "f1", "r", "up", "down", "space")
    assert found.quit_keys == ("escape",)  # terminate(): pygame.quit(); sys.exit()
    # Enter only leaves the title screen (`waiting = False` in a loop that is not the main one)
    assert "enter" not in found.quit_keys
    assert found.drags and found.buttons == ("left",)  # MOUSEMOTION with event.buttons[0]
    assert found.pointer
    assert not found.typing  # event.unicode is only compared with constants
    assert_pressable(found)


def test_dict_of_keys_dispatch_table_and_match() -> None:
    found = scan_app(str(CASES / "dict_keys" / "snake.py"), None)
    assert found.keys == ("left", "right", "up", "down", "r", "x", "m", "backspace")
    assert found.quit_keys == ("x",)  # ACTIONS = {K_x: quit_game}; quit_game sets done = True; while not done
    assert found.typing  # TEXTINPUT
    assert found.buttons == ("wheel",)
    assert_pressable(found)


def test_package_run_with_dash_m_and_relative_imports() -> None:
    found = scan_app(["python", "-m", "blocks"], CASES / "pkg_app")
    assert found.sources == ("blocks/__main__.py", "blocks/__init__.py", "blocks/game.py", "blocks/settings.py")
    assert found.keys == ("up", "space", "c", "escape")  # settings.QUIT is a key; pygame.QUIT is not
    assert found.quit_keys == ("escape",)
    assert "z" not in found.keys  # unused.py is never imported


def test_broken_and_unreadable_files_are_skipped(tmp_path: Path) -> None:
    entry_broken = scan_app("main.pyw", CASES / "broken")
    assert entry_broken.is_empty and entry_broken.sources == ()
    helper = str(CASES / "broken" / "helper.py")
    assert scan([CASES / "broken"]).sources == (helper,)
    (tmp_path / "nul.py").write_bytes(b"import pygame\x00K = pygame.K_a\n")
    (tmp_path / "latin.py").write_bytes(b"X = '\xe9\xff'\n")
    (tmp_path / "folder.py").mkdir()
    found = scan([CASES / "broken" / "main.pyw", Path(helper), tmp_path / "nul.py", tmp_path / "latin.py",
                  tmp_path / "folder.py", tmp_path / "missing.py"])
    assert found.keys == ("left",) and found.sources == (helper,)
    assert scan_app("missing.py", tmp_path).is_empty
    assert scan_app(["echo", "hello"], tmp_path).is_empty


def test_caps_bound_the_cost(tmp_path: Path) -> None:
    for n in range(10):
        (tmp_path / f"m{n}.py").write_text(f"import pygame\nKEY = pygame.K_{n}\n")
    (tmp_path / "main.py").write_text("import importlib\nimportlib.import_module('m0')\n")  # dynamic: whole tree
    assert len(scan_app("main.py", tmp_path).sources) == 11
    assert len(scan_app("main.py", tmp_path, max_files=3).sources) == 3
    assert len(scan([tmp_path], max_bytes=100).sources) < 11


def test_dash_m_reads_modules_next_to_the_package(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "__main__.py").write_text("import config\nimport os\n")
    (tmp_path / "config.py").write_text("import pygame\nJUMP = pygame.K_j\n")
    (tmp_path / "unrelated.py").write_text("import pygame\nX = pygame.K_x\n")
    found = scan_app("python -m game", tmp_path)
    assert found.keys == ("j",)
    assert found.sources == ("game/__main__.py", "config.py")  # os and pygame are not the app's


def test_script_with_a_python_shebang(tmp_path: Path) -> None:
    (tmp_path / "run").write_text("#!/usr/bin/env python3\nimport pygame\nJUMP = pygame.K_SPACE\n")
    assert scan_app("./run", tmp_path).keys == ("space",)


# -- quit keys: what ends the app and what does not --------------------------------------------------------------


@pytest.mark.parametrize(("code", "quits"), [
    ("""
     import pygame
     running = True
     while running:
         for event in pygame.event.get():
             if event.type == pygame.KEYDOWN:
                 if event.key in (pygame.K_q, pygame.K_ESCAPE):
                     running = False
                 elif event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
                     print("undo")
                 elif event.key == pygame.K_w and pygame.key.get_mods() & pygame.KMOD_CTRL:
                     running = False
     """, ("q", "escape", "ctrl+w")),
    ("""
     import sys, pygame
     while True:
         for event in pygame.event.get():
             if event.type == pygame.KEYDOWN and event.key == pygame.K_q:
                 sys.exit()
             if event.type == pygame.KEYDOWN and event.key == pygame.K_w:
                 print("w")
     """, ("q",)),
    ("""
     import pygame
     def main():
         while True:
             for event in pygame.event.get():
                 if event.type == pygame.KEYUP and event.key == pygame.K_ESCAPE:
                     return
                 if event.type == pygame.KEYUP and event.key == pygame.K_r:
                     main()  # restart: runs a loop again, not a way out
     main()
     """, ("escape",)),
    ("""
     import pygame
     keys = pygame.key.get_pressed()
     if keys[pygame.K_F10]:
         raise SystemExit
     if keys[pygame.K_F9]:
         pygame.event.post(pygame.event.Event(pygame.QUIT))
     if keys[pygame.K_F8]:
         pygame.event.post(pygame.event.Event(pygame.USEREVENT))
     """, ("f10", "f9")),
    ("""
     import pygame
     class Game:
         def run(self):
             self.playing = True
             while self.playing:
                 self.events()
         def events(self):
             for event in pygame.event.get():
                 if event.type == pygame.KEYDOWN:
                     if event.key == pygame.K_BACKSPACE:
                         self.playing = False
                     elif event.key == pygame.K_TAB:
                         self.menu_open = False
     Game().run()
     """, ("backspace",)),
    ("""
     import tkinter as tk
     root = tk.Tk()
     root.bind("<Control-q>", lambda event: root.quit())
     root.bind("<F2>", lambda event: root.title("x"))
     root.bind("<x>", quit)
     """, ("ctrl+q", "x")),
    ("""
     import tkinter as tk
     def scaling():
         temporary = tk.Tk()
         value = temporary.winfo_fpixels("1i")
         temporary.destroy()
         return value
     root = tk.Tk()
     root.bind("<F3>", lambda event: scaling())
     """, ()),
    ("""
     import pygame
     done = False
     while not done:
         for e in pygame.event.get():
             match e.key:
                 case pygame.K_END | pygame.K_HOME:
                     done = True
                 case pygame.K_INSERT:
                     pass
     """, ("end", "home")),
    ("""
     import pygame
     def title_screen():
         while True:
             event = pygame.event.poll()
             if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
                 break
             elif event.type == pygame.KEYDOWN and event.key == pygame.K_q:
                 pygame.quit()
     title_screen()
     running = True
     while running:
         for event in pygame.event.get():
             if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
                 shoot()
     """, ("q",)),
])
def test_quit_keys(tmp_path: Path, code: str, quits: tuple[str, ...]) -> None:
    found = source(tmp_path, code)
    assert found.quit_keys == quits
    assert set(quits) <= set(found.keys) | set(found.hotkeys)
    assert len(found.keys) + len(found.hotkeys) > len(quits)  # the others are keys, not quit keys


def test_keys_whose_handler_starts_the_game_anew_are_restart_keys(tmp_path: Path) -> None:
    """Space and Enter start a new game once this one is over (their branch calls restart()); the arrows move, and
    a key that merely starts moving (start_moving()) is no restart key."""
    found = source(tmp_path, """
        import pygame
        RESTART_KEYS = (pygame.K_SPACE, pygame.K_RETURN)
        while True:
            for event in pygame.event.get():
                if event.type == pygame.KEYDOWN:
                    if event.key == pygame.K_LEFT:
                        game.start_moving(-1)
                    elif event.key == pygame.K_RIGHT:
                        game.start_moving(1)
                    elif event.key in RESTART_KEYS and game.finished():
                        game.restart()
                    match event.key:
                        case pygame.K_n:
                            new_game()
        """)
    assert found.restart_keys == ("space", "enter", "n")
    assert {"left", "right"} <= set(found.keys)
    assert Vocabulary.from_dict(found.to_dict()).restart_keys == found.restart_keys


def test_keys_handled_only_under_an_option_the_app_was_started_with_are_option_keys(tmp_path: Path) -> None:
    """P pauses only when the app is started with --pausable, F1 only with DEBUG set, C only with args.cheats;
    Space is bound under an option and again outside it, Right where no option is given and Down unless one is,
    so they are keys of a plain run."""
    found = source(tmp_path, """
        import os, sys, argparse
        import tkinter as tk
        args = argparse.ArgumentParser().parse_args()
        root = tk.Tk()
        root.bind("<Left>", go)
        root.bind("<space>", jump)
        if "--pausable" in sys.argv:
            root.bind("<KeyPress-p>", pause)
            root.bind("<space>", jump)
        if os.environ.get("DEBUG"):
            root.bind("<F1>", dump)
        if args.cheats:
            root.bind("<c>", cheat)
        elif len(root.winfo_children()) > 2:
            root.bind("<Right>", go)
        if "--no-arrows" not in sys.argv:
            root.bind("<Down>", go)
        else:
            root.bind("<m>", mute)
        """)
    assert found.option_keys == ("p", "f1", "c", "m")
    assert {"left", "space", "right", "down"} <= set(found.keys) - set(found.option_keys)
    assert Vocabulary.from_dict(found.to_dict()).option_keys == found.option_keys


# -- smaller pitfalls ---------------------------------------------------------------------------------------------


def test_keysym_char_unicode_and_aliases(tmp_path: Path) -> None:
    found = source(tmp_path, """
        import tkinter as tk
        def on_key(event):
            key = event.keysym.lower()
            if key in ("left", "prior"):
                pass
            if event.char in "+-":
                pass
            if event.char == " " or event.char == "\\r":
                pass
            if event.keysym == "plus":
                pass
        tk.Tk().bind("<Key>", on_key)
        """)
    assert found.keys == ("left", "pageup", "+", "-", "space", "enter")
    assert not found.typing


def test_pygame_mouse(tmp_path: Path) -> None:
    found = source(tmp_path, """
        import pygame
        left, middle, right = pygame.mouse.get_pressed()
        if right:
            pass
        if pygame.mouse.get_pressed()[1]:
            pass
        name = ""
        for event in pygame.event.get():
            if event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):
                pass
            if event.type == pygame.KEYDOWN:
                name += event.unicode  # typed text is kept
        """)
    assert found.buttons == ("right", "middle", "wheel")
    assert found.typing and not found.drags


def test_sample_calculator_keyboard_and_buttons() -> None:
    """The repo's sample: keys looked up in tables (KEYSYMS.get(event.keysym), event.char in DIGITS)."""
    found = scan_app("main.py", CASES.parent.parent / "sample_projects" / "calculator")
    # its docstring: "digits, + - * / (x also multiplies), = or Enter, Escape or c clears"
    assert set(found.keys) >= {*"0123456789", "+", "-", "*", "/", "x", "=", "enter", "escape", "c"}
    assert {"7", "=", "C", "÷"} <= set(found.texts)  # Button(text=label) in loops over LAYOUT
    assert not found.typing  # event.char picks a button, it is not kept as text
    assert not found.quit_keys


def test_bind_sequences_from_loops_and_formatting(tmp_path: Path) -> None:
    found = source(tmp_path, """
        import tkinter as tk
        BINDINGS = {"<Home>": print, "<End>": print}
        root = tk.Tk()
        for key in "wasd":
            root.bind(f"<KeyPress-{key}>", print)
        for sequence, handler in BINDINGS.items():
            root.bind(sequence, handler)
        modifier = "Control"
        root.bind("<%s-z>" % modifier, print)
        root.bind("<Command-q>", print)  # macOS only
        root.bind("<<Paste>>", print)
        """)
    assert found.keys == ("w", "a", "s", "d", "home", "end")
    assert found.hotkeys == ("ctrl+z",)


def test_tk_sequences() -> None:
    def parsed(sequence: str) -> list[tuple[str, str]]:
        return [(e.kind, e.value) for e in parse_tk_sequence(sequence)]

    assert parsed("<Left>") == [("key", "left")]
    assert parsed("<KeyPress-a>") == [("key", "a")]
    assert parsed("<KeyPress-A>") == parsed("<Shift-A>") == parsed("<Shift-a>") == [("key", "A")]
    assert parsed("<KeyRelease-space>") == [("key", "space")]
    assert parsed("<Key-1>") == [("key", "1")]
    assert parsed("<Control-s>") == [("hotkey", "ctrl+s")]
    assert parsed("<Control-S>") == [("hotkey", "ctrl+shift+s")]
    assert parsed("<Control-Key-plus>") == [("hotkey", "ctrl++")]
    assert parsed("<Shift-Up>") == [("hotkey", "shift+up")]
    assert parsed("<Alt-F4>") == [("hotkey", "alt+f4")]
    assert parsed("<Button-3>") == parsed("<ButtonPress-3>") == parsed("<3>") == [("button", "right")]
    assert parsed("<Double-Button-1>") == parsed("<1>") == [("button", "left")]
    assert parsed("<B1-Motion>") == [("drag", "left")]
    assert parsed("<MouseWheel>") == parsed("<Button-4>") == [("wheel", "wheel")]
    assert parsed("<Motion>") == parsed("<Enter>") == [("pointer", "")]
    assert parsed("<Configure>") == parsed("<<Copy>>") == parsed("<Key>") == []
    assert parsed("<Control-x><Control-s>") == [("hotkey", "ctrl+x"), ("hotkey", "ctrl+s")]


def test_key_names() -> None:
    pygame_names = {"K_LEFT": "left", "K_RETURN": "enter", "K_KP_ENTER": "enter", "K_ESCAPE": "escape",
                    "K_a": "a", "K_1": "1", "K_PLUS": "+", "K_F1": "f1", "K_PAGEUP": "pageup", "K_KP_PLUS": "KP_Add"}
    assert {name: PYGAME_KEYS[name] for name in pygame_names} == pygame_names
    tk_names = {"Return": "enter", "Escape": "escape", "space": "space", "Prior": "pageup", "Next": "pagedown",
                "plus": "+", "minus": "-", "BackSpace": "backspace", "F12": "f12", "KP_Add": "KP_Add", "a": "a",
                "A": "A", "\x1b": "escape", "\x13": "ctrl+s", "return": "enter"}
    assert {name: key_name(name) for name in tk_names} == tk_names
    assert key_name("width") is None and key_name("\x00") is None
    for key in set(PYGAME_KEYS.values()):
        XInput._keysym(cast(Any, None), key)
    assert split_hotkey("ctrl+s") == ("ctrl", "s")
    assert split_hotkey("ctrl+shift++") == ("ctrl", "shift", "+")
    assert split_hotkey("+") == ("+",)


def test_result_is_serialisable_and_described() -> None:
    found = scan_app(["python3", "app.py"], CASES / "tk_app")
    data = json.loads(json.dumps(found.to_dict()))
    assert Vocabulary.from_dict(data) == found
    text = found.describe()
    assert text.startswith("Inputs the code handles: keys left, a, pageup, up, down, enter, +, -;")
    assert "quit keys escape, q (they end the app)" in text
    assert "mouse: left click, right click, drags with a button held" in text
    assert '"Start", "Quit"' in text and "typed text" in text
    assert Vocabulary().is_empty and "none found" in Vocabulary().describe()


def test_output_is_deterministic() -> None:
    first = scan_app("main.py", CASES / "pygame_split", whole_tree=True)
    again = scan_app("main.py", CASES / "pygame_split", whole_tree=True)
    assert first == again


# -- real apps that ship with the machine ------------------------------------------------------------------------


@needs_examples
def test_go_over_there_restart_key() -> None:
    found = example("go_over_there")
    assert found.keys == ("escape", "r")
    assert found.quit_keys == ("escape",)  # running = False in the module-level loop; r only resets
    assert found.buttons == ("left",)  # MOUSEBUTTONUP, no button check
    assert len(found.sources) == 1


@needs_examples
def test_aliens() -> None:
    found = example("aliens")
    assert found.keys == ("escape", "f", "right", "left", "space")  # keystate[pg.K_RIGHT] etc.
    assert found.quit_keys == ("escape",)  # `return` out of main()'s loop; f toggles fullscreen
    assert found.buttons == () and not found.typing


@needs_examples
def test_chimp_and_stars() -> None:
    chimp = example("chimp")
    assert chimp.keys == chimp.quit_keys == ("escape",)  # going = False
    assert chimp.buttons == ("left",) and chimp.pointer and not chimp.drags
    stars = example("stars")
    assert stars.keys == stars.quit_keys == ("escape",)  # done = 1; while not done
    assert stars.buttons == ("left",)  # e.button == 1


@needs_examples
def test_all_pygame_examples() -> None:
    assert EXAMPLES is not None
    found = scan([EXAMPLES])
    assert len(found.sources) >= 35
    assert {"escape", "r", "f", "space", "left", "up", "backspace"} <= set(found.keys)
    assert "escape" in found.quit_keys and "r" not in found.quit_keys
    assert found.typing and found.drags and set(found.buttons) >= {"left", "right", "wheel"}
    assert_pressable(found)


def test_turtledemo() -> None:
    found = scan_app(["python", "-m", "turtledemo"], Path(sys.prefix))
    assert {"START", "STOP", "CLEAR"} <= set(found.texts)
    assert {"ctrl+-", "ctrl++"} <= set(found.hotkeys)  # '<%s-minus>' % shortcut, shortcut = 'Control'
    assert "STOP" not in found.quit_texts  # turtle.TurtleScreen._RUNNING = False is not the app's loop
    assert found.sources[0].endswith("turtledemo/__main__.py")


def test_idlelib() -> None:
    found = scan_app(["python", "-m", "idlelib"], Path(sys.prefix))  # dynamic imports: the whole package
    assert 30 <= len(found.sources) <= 200
    assert not any("idle_test" in s for s in found.sources)
    assert {"OK", "Cancel"} <= set(found.texts)
    assert {"escape", "enter", "tab"} <= set(found.keys)
    assert found.typing and found.buttons[0] == "left"
    assert_pressable(found)


@pytest.mark.parametrize(("app", "keys", "quits", "buttons"), [
    ("maze", {"w", "a", "s", "d", "r"}, ("escape",), ()),  # controls.py: QUIT = pygame.K_ESCAPE
    ("slider", {"up", "down", "left", "right", "n"}, ("q",), ()),
    ("mines", {"space"}, (), ("left", "right")),  # on_click(event.button, ...): button == 1 / == 3
])
def test_detection_benchmark_apps(app: str, keys: set[str], quits: tuple[str, ...], buttons: tuple[str, ...]) -> None:
    folder = CASES.parent.parent / "benchmarks" / "detection" / "apps" / app
    if not (folder / "main.py").is_file():
        pytest.skip(f"{folder} is not there")
    found = scan_app("main.py", folder)
    assert keys <= set(found.keys)
    assert found.quit_keys == quits
    assert found.buttons == buttons


def test_turtle_keys_clicks_and_drags(tmp_path: Path) -> None:
    found = source(tmp_path, """
        from string import ascii_lowercase
        from turtle import *

        def go(dx):
            pass

        def tap(x, y):
            pass

        listen()
        onkey(lambda: go(1), 'Right')
        onkeypress(lambda: go(-1), key='Left')
        onkeyrelease(lambda: go(0), 'space')
        onkey(bye, 'Escape')
        onkey(None, 'Up')
        for letter in ascii_lowercase:
            onkey(lambda letter=letter: go(letter), letter)
        onscreenclick(tap)
        onscreenclick(tap, 3)
        ondrag(goto)
        done()
        """)
    assert found.keys[:4] == ("right", "left", "space", "escape")
    assert found.keys[4:] == tuple("abcdefghijklmnopqrstuvwxyz") and "up" not in found.keys
    assert found.quit_keys == ("escape",)
    assert found.buttons == ("left", "right") and found.drags and not found.typing


def test_a_letter_bound_only_in_upper_case_is_also_pressed_as_a_player_does(tmp_path: Path) -> None:
    found = source(tmp_path, """
        from turtle import *

        onkey(lambda: move(20), 'w')
        onkey(lambda: move(-20), 'S')
        onkey(reset, 'R')
        onkey(reset, 'r')
        listen()
        done()
        """)
    assert found.keys == ("w", "S", "s", "R", "r") and found.unshifted == ("s",)
    assert Vocabulary.from_dict(json.loads(json.dumps(found.to_dict()))) == found
    assert not Vocabulary.of_keys(tuple("ABCDEFGHI")).types_characters  # nine letters, not eighteen


def test_turtle_any_key_is_typing(tmp_path: Path) -> None:
    found = source(tmp_path, """
        import turtle
        screen = turtle.Screen()
        screen.onkeypress(lambda: None)
        screen.onscreenclick(None)
        turtle.mainloop()
        """)
    assert found.typing and found.keys == () and found.buttons == ()


def test_turtledemo_games() -> None:
    """turtle programs written by someone else (the standard library's demos): their keys and clicks."""
    demos = Path(turtledemo.__file__).parent
    paint = scan_app(str(demos / "paint.py"), demos)
    assert paint.buttons == ("left", "right", "middle") and paint.keys == ()
    hanoi = scan_app(str(demos / "minimal_hanoi.py"), demos)
    assert hanoi.keys == ("space",) and hanoi.buttons == ()
    nim = scan_app(str(demos / "nim.py"), demos)
    assert set(nim.keys) == {"space", "escape"} and nim.buttons == ("left",)


@pytest.mark.parametrize("code,sound", [
    ("import pygame as pg\npg.mixer.Sound('hit.wav').play()\n", True),
    ("from pygame import mixer\nmixer.music.play()\n", True),
    ("import winsound\nwinsound.Beep(440, 100)\n", True),
    ("import pygame\npygame.display.set_mode((10, 10))\n", False),
])
def test_code_that_plays_sound_is_known(tmp_path: Path, code: str, sound: bool) -> None:
    assert source(tmp_path, code).sound is sound


def test_a_right_click_the_screen_names_joins_what_the_app_handles() -> None:
    """A help line on screen ("Right click: flag") adds the right click the code reading missed; keys it names
    do not (a side-scroller's "arrow keys" include an Up that does nothing)."""
    handled = Vocabulary(keys=("space",), buttons=("left", "middle"), sources=("main.py",))
    learned = announced(handled, "Mines left: 10\nLeft click: open   Right click: flag")
    assert learned.buttons == ("left", "middle", "right") and learned.keys == handled.keys
    assert announced(learned, "Right-click to flag") is learned
    assert announced(handled, "Use the arrow keys to move") is handled
    assert announced(handled, "right mouse button: menu").buttons[-1] == "right"
