"""Reading the model's reply: the code it proposes, and whether that code can be used.

The HumanEval convention: the reply's first fenced code block, or the whole reply when it has no fence.
The code must splice over the symbol and the file must then parse; anything else is ``Unusable``, and the
round that got it is recorded as failed with that reason.
"""

from __future__ import annotations

import re

from ..benchmark.splice import splice_source, syntax_error
from ..errors import SpliceError

# An opening fence (``` or ~~~, with an optional info string), the code, and the same fence closing it.
_FENCED = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<code>.*?)^[ \t]*(?P=fence)[ \t]*$", re.S | re.M)
_OPENING = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*\n", re.M)


class Unusable(ValueError):
    """A reply, or the code in it, that cannot be tried; the message says why."""


def extract_code(reply: str) -> str:
    """The first fenced code block of ``reply``; the whole reply if it has no fence at all.

    A reply cut off inside its first block (the model ran out of tokens) gives what follows the fence.
    """
    match = _FENCED.search(reply)
    if match:
        code = match["code"]
    else:
        opening = _OPENING.search(reply)
        code = reply[opening.end():] if opening else reply
    if not code.strip():
        raise Unusable("the reply holds no code")
    return code


def validate(source: str, symbol: str, completion: str, signature: str | None, filename: str,
             language: str = "python") -> str:
    """``source`` with ``completion`` spliced over ``symbol``, if that parses; else ``Unusable`` saying why.

    Python is parsed with ``ast``, JavaScript and TypeScript with tree-sitter (the splicer's own parsers).
    """
    try:
        spliced = splice_source(source, symbol, completion, signature, filename=filename, language=language)
    except SpliceError as exc:
        raise Unusable(f"the code cannot be put in place: {exc}") from None
    problem = syntax_error(spliced, filename=filename, language=language)
    if problem is not None:
        raise Unusable(f"the code does not parse: {filename}, {problem}")
    return spliced
