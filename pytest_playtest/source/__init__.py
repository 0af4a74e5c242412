"""What an app's source says it handles, read without running it: the input vocabulary.

``scan_app`` reads a Python app (``python.py``, over ``files``, ``tables``, ``scanner`` with its parts and
``keynames``); ``web.scan_web_app`` a web app's scripts and markup (tree-sitter, imported with that module only).
Both return a ``Vocabulary``, in the key names ``Action.press`` takes (``keys.py``). ``announced.announced`` adds
to one what the running app's screen names (a help line's right click).
"""

from .keynames import PYGAME_KEYS, key_name, parse_tk_sequence, split_hotkey
from .python import scan, scan_app
from .vocabulary import MANY_CHARACTER_KEYS, Vocabulary

__all__ = ["MANY_CHARACTER_KEYS", "PYGAME_KEYS", "Vocabulary", "key_name", "parse_tk_sequence", "scan", "scan_app",
           "split_hotkey"]
