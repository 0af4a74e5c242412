"""How the words of a scenario meet the words on a window: labels named in prose, their synonyms, named numbers.

Data only. A quoted label is looked for as written (``"Save"``); a label named in prose (``the logout button``,
``the Login Page``) is matched by whole words, so "back" is found in "Back to Home" but not in "Feedback", and
through a small table of the synonyms apps use for the same control ("Log out", "Sign out").
"""

from __future__ import annotations

import re

#: Words apps use for the same thing: a label in prose matches any of its group (compared without spaces).
SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"login", "signin", "logon"}),
    frozenset({"logout", "signout", "logoff"}),
    frozenset({"register", "registration", "signup", "createaccount"}),
    frozenset({"username", "user", "loginname", "userid"}),
    frozenset({"restart", "playagain", "newgame", "tryagain", "replay"}),
    frozenset({"start", "play", "startgame", "begin", "newgame"}),
    frozenset({"home", "homepage", "main"}),
    frozenset({"back", "goback", "return"}),
    frozenset({"email", "emailaddress", "mail"}),
)
#: Words that name what a label is, not the label: "the Login Page", "the "Save" button".
KIND_WORDS = frozenset({"page", "section", "screen", "view", "tab", "form", "menu", "window", "dialog", "panel",
                        "button", "link", "icon", "option"})


def squash(text: str) -> str:
    """Text compared without case and whitespace: OCR drops and adds spaces ("Count:1", "Sa ve")."""
    return "".join(text.lower().split())


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def variants(label: str) -> set[str]:
    """The squashed forms a label in prose may take on a window: itself, without a kind word, its synonyms."""
    words = tokens(label)
    while len(words) > 1 and words[-1] in KIND_WORDS:
        words = words[:-1]
    joined = "".join(words)
    found = {joined}
    for group in SYNONYMS:
        if joined in group:
            found |= group
    return {v for v in found if v}


def match_rank(label: str, text: str) -> int | None:
    """How well ``text`` (a line or a control's caption) shows a label named in prose: 0 when it is the label
    (or a synonym), 1 when it holds it as whole words ("Back to Home" for "back"), None when it does not."""
    wanted = variants(label)
    words = tokens(text)
    if "".join(words) in wanted:
        return 0
    for start in range(len(words)):
        joined = ""
        for word in words[start:]:
            joined += word
            if joined in wanted or (joined.endswith("s") and joined[:-1] in wanted):
                return 1
            if len(joined) > max(len(v) for v in wanted):
                break
    return None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def named_number(text: str, name: str) -> float | None:
    """The number a window shows for ``name`` ("Score: 12", "Lives 3", "score=4"): the first number after the
    name's words on a line that holds them, else None."""
    wanted = tokens(name)
    if not wanted:
        return None
    pattern = re.compile(r"\b" + r"\W*".join(map(re.escape, wanted)) + r"s?\b(?P<rest>.*)", re.I)
    for line in text.splitlines():
        found = pattern.search(line)
        if found:
            number = _NUMBER.search(found.group("rest"))
            if number is not None:
                return float(number.group())
    return None
