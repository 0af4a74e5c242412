"""Dialogs a desktop app opens over its window (a message box, a "Play again?" question): seen, answered as a
person answers them (the default button), and named in the verdict's notes.

While a modal dialog is up the app's own window ignores its inputs on purpose: left unanswered, every input
would look dead. A web page's dialogs are the browser's (``runtime/browser.py`` answers them through DevTools).
"""

from __future__ import annotations

from collections import Counter

from ..runtime.app import App


class Dialogs:
    """Answers the dialogs of a run's launches and counts them by title."""

    def __init__(self) -> None:
        self.answered: Counter[str] = Counter()
        self.first: dict[str, int] = {}  # title → the step before which it was first answered

    def answer(self, app: App, step: int) -> bool:
        """Answer the dialog the app shows now, if any; whether there was one."""
        dialog = app.dialog()
        if dialog is None:
            return False
        app.answer(dialog)
        self.answered[dialog.title] += 1
        self.first.setdefault(dialog.title, step)
        return True

    def notes(self) -> list[str]:
        return [f"the app opened a dialog{f' titled {title!r}' if title else ''} {count} time(s), first after step "
                f"{self.first[title]}: answered with its default button (Enter)"
                for title, count in self.answered.items()]
