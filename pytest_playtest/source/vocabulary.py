"""The inputs an app's code handles (``Vocabulary``), as the source scanners report them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..keys import SPELLING_OF, SPELLINGS

# -- the result ---------------------------------------------------------------------------------------------

#: an app taking this many letter or digit keys is played by typing
MANY_CHARACTER_KEYS = 10


@dataclass(frozen=True)
class Vocabulary:
    """What the app's code handles. ``quit_keys`` are also in ``keys`` (or ``hotkeys``): they are handled."""

    keys: tuple[str, ...] = ()
    quit_keys: tuple[str, ...] = ()
    hotkeys: tuple[str, ...] = ()
    #: keys whose handler starts the game anew (a restart, a new game): they act only where a game is over or not
    #: begun, so doing nothing elsewhere says nothing about them
    restart_keys: tuple[str, ...] = ()
    #: keys the code handles only when the app is started with an option (``if "--pausable" in sys.argv``, an
    #: environment variable): on a run without it they may do nothing by design
    option_keys: tuple[str, ...] = ()
    buttons: tuple[str, ...] = ()
    drags: bool = False
    pointer: bool = False
    texts: tuple[str, ...] = ()
    quit_texts: tuple[str, ...] = ()
    typing: bool = False
    #: the code plays sound: some of its inputs may only be heard
    sound: bool = False
    sources: tuple[str, ...] = ()
    #: letter keys a player presses (without Shift) that the code binds only in upper case (a Tk keysym or a
    #: turtle key ``"S"`` is Shift+S): they are in ``keys``, tried the way a player presses them
    unshifted: tuple[str, ...] = ()
    #: an arrow the code does not handle but a player presses: the one arrow missing where the code handles the
    #: other three and another spelling of the four directions whole (Left where Up, Right, Down and all of WASD
    #: are handled); in ``keys``
    implied: tuple[str, ...] = ()
    #: where the code handles each input: (input, file, line), the input named as the dead-control check names
    #: it (``key left``, ``right click``), the file relative to the folder read, first place first
    handlers: tuple[tuple[str, str, int], ...] = ()

    def handled_inputs(self) -> list[str]:
        """The inputs the scan found handled somewhere (``key left``, ``left click``)."""
        return list(dict.fromkeys(handled for handled, _, _ in self.handlers))

    def handled_at(self, name: str) -> list[tuple[str, int]]:
        """The places (file, line) where the code handles an input (``key left``; an unshifted letter is handled
        where its upper case is)."""
        wanted = self.handled_as(name)
        return list(dict.fromkeys((file, line) for handled, file, line in self.handlers if handled in wanted))

    def handled_as(self, name: str) -> set[str]:
        """The names under which the code handles an input: its own; an unshifted letter's upper case; an
        implied arrow's spelling's other keys (it is handled nowhere itself)."""
        key = name.removeprefix("key ")
        if key in self.implied:
            return {f"key {other}" for other in SPELLINGS[SPELLING_OF[key]].values()}
        return {name, f"key {key.upper()}"} if key in self.unshifted else {name}

    @property
    def is_empty(self) -> bool:
        """Nothing found: the tester falls back to its generic inputs."""
        return not (self.keys or self.hotkeys or self.buttons or self.texts or self.drags or self.typing)

    @property
    def safe_keys(self) -> tuple[str, ...]:
        """The keys that do not end the app."""
        return tuple(k for k in self.keys if k not in self.quit_keys)

    @property
    def types_characters(self) -> bool:
        """The app takes many letter or digit keys (a typing game, a word puzzle): it is played by typing what
        it shows, and each of those keys matters only while its character is shown. In a game moved by its four
        arrows (an implied one counting), letters that spell the four directions whole (WASD, hjkl) move it too
        and are not counted."""
        handled = set(self.keys)
        steering = {key for spelling in SPELLINGS.values() if set(spelling.values()) <= handled
                    for key in spelling.values()} if handled >= set(SPELLINGS["arrows"].values()) else set()
        typed = [key for key in self.safe_keys
                 if len(key) == 1 and key.isalnum() and key not in self.unshifted and key not in steering]
        return len(typed) >= MANY_CHARACTER_KEYS

    @property
    def safe_hotkeys(self) -> tuple[str, ...]:
        return tuple(k for k in self.hotkeys if k not in self.quit_keys)

    def to_dict(self) -> dict[str, Any]:
        return {
            "keys": list(self.keys), "quit_keys": list(self.quit_keys), "hotkeys": list(self.hotkeys),
            "restart_keys": list(self.restart_keys), "option_keys": list(self.option_keys),
            "buttons": list(self.buttons), "drags": self.drags, "pointer": self.pointer,
            "texts": list(self.texts), "quit_texts": list(self.quit_texts), "typing": self.typing,
            "sound": self.sound, "sources": list(self.sources), "unshifted": list(self.unshifted),
            "implied": list(self.implied), "handlers": [list(place) for place in self.handlers],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Vocabulary:
        def strings(name: str) -> tuple[str, ...]:
            return tuple(str(v) for v in data.get(name, ()))

        return cls(
            keys=strings("keys"), quit_keys=strings("quit_keys"), hotkeys=strings("hotkeys"),
            restart_keys=strings("restart_keys"), option_keys=strings("option_keys"),
            buttons=strings("buttons"), drags=bool(data.get("drags")), pointer=bool(data.get("pointer")),
            texts=strings("texts"), quit_texts=strings("quit_texts"), typing=bool(data.get("typing")),
            sound=bool(data.get("sound")), sources=strings("sources"), unshifted=strings("unshifted"),
            implied=strings("implied"),
            handlers=tuple((str(name), str(file), int(line)) for name, file, line in data.get("handlers", ())),
        )

    @classmethod
    def of_keys(cls, keys: Sequence[str], **found: Any) -> Vocabulary:
        """The vocabulary of an app handling these ``keys`` (and what else was ``found``). A person presses a
        letter key without Shift: a letter the code binds only in upper case is pressed so too, next to its
        upper case (a game's "S" that only Shift+S reaches is a dead key to its players). A person also presses
        the arrow a game's other arrows and its WASD imply (``implied``)."""
        played: list[str] = []
        unshifted = []
        for key in keys:
            played.append(key)
            lower = key.lower()
            if len(key) == 1 and key.isascii() and key.isupper() and lower not in keys:
                played.append(lower)
                unshifted.append(lower)
        implied = _implied(played)
        return cls(keys=(*played, *implied), unshifted=tuple(unshifted), implied=implied, **found)

    def describe(self, limit: int = 40) -> str:
        """One paragraph for an LLM prompt."""
        if self.is_empty:
            return ("Inputs the code handles: none found in its source (it may read input in ways a reader "
                    "of the code cannot see).")

        def listed(items: Sequence[str], quote: bool = False) -> str:
            shown = [f'"{i}"' if quote else i for i in items[:limit]]
            more = f" and {len(items) - limit} more" if len(items) > limit else ""
            return ", ".join(shown) + more

        parts: list[str] = []
        if self.safe_keys:
            parts.append("keys " + listed(self.safe_keys))
        if self.safe_hotkeys:
            parts.append("shortcuts " + listed(self.safe_hotkeys))
        if self.quit_keys:
            parts.append("quit keys " + listed(self.quit_keys) + " (they end the app)")
        mouse = [f"{b} click" for b in self.buttons if b != "wheel"]
        mouse += ["the wheel"] if "wheel" in self.buttons else []
        mouse += ["drags with a button held"] if self.drags else []
        mouse += ["pointer movement"] if self.pointer else []
        if mouse:
            parts.append("mouse: " + ", ".join(mouse))
        if self.texts:
            quits = [t for t in self.texts if t in self.quit_texts]
            note = f" ({listed(quits, True)} end the app)" if quits else ""
            parts.append("buttons and menu entries " + listed(self.texts, True) + note)
        if self.typing:
            parts.append("typed text (text fields or typed characters)")
        return "Inputs the code handles: " + "; ".join(parts) + "."


def _implied(keys: Sequence[str]) -> tuple[str, ...]:
    """The arrow a player expects from the keys handled: the one arrow the code lacks, when it handles the other
    three and a whole other spelling of the four directions (a keymap of Up, Right, Down and all of WASD, its
    Left arrow's code mistyped: a player presses Left and sees nothing). Only an arrow is inferred: letters
    spell directions in more ways than one (IJKL's J is left, hjkl's is down)."""
    handled = set(keys)
    arrows = SPELLINGS["arrows"].values()
    missing = [key for key in arrows if key not in handled]
    whole = any(handled >= set(spelling.values()) for name, spelling in SPELLINGS.items() if name != "arrows")
    return tuple(missing) if len(missing) == 1 and whole else ()
