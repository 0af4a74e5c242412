"""Randomness a run cannot seed, found in an app's source (pure: no display)."""

from __future__ import annotations

from pathlib import Path

from pytest_playtest.source.randomness import unseeded

GAME = """\
import os
import random
import secrets
import time
import uuid

import numpy as np


class Random:
    pass


board = Random()
random.seed(42)
first = random.choice([1, 2, 3])
rng = random.Random()
numbers = np.random.default_rng()
random.seed(time.time())
key = os.urandom(8)
pick = secrets.choice("abc")
name = uuid.uuid4()
roll = random.SystemRandom().randint(1, 6)
"""


def test_randomness_no_seed_reaches_is_found_where_it_is_drawn(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text(GAME)
    (tmp_path / "page.js").write_text("const a = Math.random();\n"
                                      "const b = crypto.getRandomValues(new Uint8Array(4));\n")
    found = unseeded(tmp_path, ["game.py", "page.js", "missing.py"])
    assert found == [
        ("game.py", 17, "random.Random() without a seed"),
        ("game.py", 18, "numpy.random.default_rng() without a seed"),
        ("game.py", 19, "random.seed() seeded with the clock"),
        ("game.py", 20, "os.urandom"),
        ("game.py", 21, "secrets"),
        ("game.py", 22, "uuid.uuid4"),
        ("game.py", 23, "random.SystemRandom"),
        ("page.js", 2, "crypto.getRandomValues"),
    ]


def test_an_app_seeded_by_the_harness_has_nothing_to_report(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text("import random\n\nrandom.seed(7)\nroll = random.randint(1, 6)\n")
    assert unseeded(tmp_path, ["game.py"]) == []
