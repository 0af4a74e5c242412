"""What the second pass has found so far over an app's files: keys (hotkeys apart), quit keys, mouse buttons, the
labels of clickable things, and whether the app drags, follows the pointer, keeps typed text or plays sound.

The dicts are ordered sets: the vocabulary lists keys and texts in the order the files first name them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .keynames import is_hotkey

#: [places] kept per input: where its handling is first named (a dispatch and its key-up twin, a rebinding)
MAX_PLACES = 4


@dataclass
class Found:
    keys: dict[str, None] = field(default_factory=dict)
    hotkeys: dict[str, None] = field(default_factory=dict)
    quit_keys: dict[str, None] = field(default_factory=dict)
    #: keys whose handler starts the game anew (``app.restart()``): they act only once a game is over or not begun
    restart_keys: dict[str, None] = field(default_factory=dict)
    #: keys handled under a test of the app's options (``if "--pausable" in sys.argv``), and those handled elsewhere
    optioned: dict[str, None] = field(default_factory=dict)
    unoptioned: set[str] = field(default_factory=set)
    buttons: set[str] = field(default_factory=set)
    texts: dict[str, None] = field(default_factory=dict)
    quit_texts: dict[str, None] = field(default_factory=dict)
    drags: bool = False
    pointer: bool = False
    typing: bool = False
    sound: bool = False
    #: where the code handles each input (``key left``, ``right click``): (file, line) places, first found first
    places: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: a line binding a handler -> where that handler's function is defined
    callbacks: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)

    def key(self, name: str, *, optioned: bool = False) -> None:
        (self.hotkeys if is_hotkey(name) else self.keys)[name] = None
        if optioned:
            self.optioned[name] = None
        else:
            self.unoptioned.add(name)

    def option_keys(self) -> list[str]:
        """Keys the code handles only where an option the app was started with says so."""
        return [key for key in self.optioned if key in self.keys and key not in self.unoptioned]

    def place(self, handled: str, file: str, line: int) -> None:
        """The code handles ``handled`` (an input's name) at this line of this file."""
        known = self.places.setdefault(handled, [])
        if (file, line) not in known and len(known) < MAX_PLACES:
            known.append((file, line))

    def handled_at(self, handled: str) -> list[tuple[str, int]]:
        """Where the code handles an input, first found first, a line binding a handler preceded by the handler's
        own function (its code, not the binding, is where an input that does nothing goes wrong)."""
        expanded = [place for at in self.places.get(handled, ())
                    for place in ((self.callbacks[at], at) if at in self.callbacks else (at,))]
        return list(dict.fromkeys(expanded))
