"""What the app's own screen says it handles: a help line such as "Left click: open   Right click: flag".

A person reads the screen before playing. An input the screen names is tried even when the code reading did not
find it (the code may name it in a way the scanner cannot follow, or a slip unbound it), and when it never
works, the screen itself makes that a bug. Only the right click is read so: a screen that names keys ("arrow
keys to move") often names more than work in every game (a side-scroller's Up), while a right click the screen
offers must do something.
"""

from __future__ import annotations

import dataclasses
import re

from .vocabulary import Vocabulary

RIGHT_CLICK = re.compile(r"\bright[\s-]*(?:mouse[\s-]*)?(?:click|button)", re.I)


def announced(vocabulary: Vocabulary, text: str) -> Vocabulary:
    """``vocabulary`` with the inputs ``text`` names added; the same object when it names nothing new."""
    if "right" in vocabulary.buttons or not RIGHT_CLICK.search(text):
        return vocabulary
    return dataclasses.replace(vocabulary, buttons=(*vocabulary.buttons, "right"))
