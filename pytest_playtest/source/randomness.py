"""Randomness a run cannot seed: where an app draws from the operating system or seeds from the clock.

The harness seeds ``random``, ``numpy.random`` and a page's ``Math.random`` before the app's code runs, so two
replays of the same inputs meet the same game. Code that draws elsewhere undoes that: ``random.SystemRandom``,
``os.urandom``, ``secrets``, ``uuid.uuid4``, a fresh ``random.Random()`` or ``numpy.random.default_rng()``
(seeded from the OS), ``random.seed()`` called again without a seed or with the clock, a page's
``crypto.getRandomValues``. A golden run of such an app differs from its replays by chance; the run says where.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from .tables import ident

#: calls that draw from the operating system whatever the seed, by their name (and the module they need to
#: be called on, where the name alone says too little)
FROM_THE_OS = {"SystemRandom": ("random.SystemRandom", ""), "urandom": ("os.urandom", ""),
               "uuid4": ("uuid.uuid4", ""), "token_bytes": ("secrets", ""), "token_hex": ("secrets", ""),
               "token_urlsafe": ("secrets", ""), "randbelow": ("secrets", "secrets"),
               "randbits": ("secrets", "secrets"), "choice": ("secrets", "secrets")}
#: constructors and seeders called on a random module that take the OS's entropy when given no seed
SEEDED_FROM_THE_OS = {"Random": "random.Random()", "default_rng": "numpy.random.default_rng()",
                      "RandomState": "numpy.random.RandomState()", "seed": "random.seed()"}
#: calls that read the clock (a seed made of them differs from run to run)
CLOCKS = frozenset({"time", "time_ns", "perf_counter", "monotonic", "now", "utcnow", "getpid"})
#: [places] named in a run's note at most
UNSEEDED_LISTED = 5
_PAGE = re.compile(r"\bcrypto\.(?:getRandomValues|randomUUID)\b")


def unseeded(root: Path, sources: Sequence[str]) -> list[tuple[str, int, str]]:
    """Where the app's source files (relative to ``root``) draw randomness the run cannot seed: (file, line,
    what), first file first."""
    found: list[tuple[str, int, str]] = []
    for name in sources:
        path = root / name
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if path.suffix == ".py":
            found += [(name, line, what) for line, what in sorted(_python(text))]
        else:
            found += [(name, text[:match.start()].count("\n") + 1, match.group())
                      for match in _PAGE.finditer(text)]
    return found


def _python(text: str) -> Iterator[tuple[int, str]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name, on = ident(node.func), _module(node)
        if name in FROM_THE_OS and FROM_THE_OS[name][1] in ("", on):
            yield node.lineno, FROM_THE_OS[name][0]
        elif name in SEEDED_FROM_THE_OS and on == "random":
            if not node.args and not node.keywords:
                yield node.lineno, f"{SEEDED_FROM_THE_OS[name]} without a seed"
            elif any(_reads_clock(arg) for arg in (*node.args, *(k.value for k in node.keywords))):
                yield node.lineno, f"{SEEDED_FROM_THE_OS[name]} seeded with the clock"


def _module(call: ast.Call) -> str:
    """What a call is made on (``random`` for ``random.seed()`` and ``np.random.seed()``; "" for a bare name)."""
    return ident(call.func.value) if isinstance(call.func, ast.Attribute) else ""


def _reads_clock(node: ast.AST) -> bool:
    return any(isinstance(inner, ast.Call) and ident(inner.func) in CLOCKS for inner in ast.walk(node))
