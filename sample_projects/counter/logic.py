"""Counter logic, independent of any GUI toolkit."""

from __future__ import annotations


class Counter:
    """A counter that never goes below ``minimum``.

    ``increment``, ``decrement`` and ``reset`` each return the new value.
    """

    def __init__(self, start: int = 0, minimum: int = 0) -> None:
        if start < minimum:
            raise ValueError(f"start {start} is below the minimum {minimum}")
        self.start = start
        self.minimum = minimum
        self.value = start

    def increment(self) -> int:
        """Add one to the value and return it."""
        self.value += 1
        return self.value

    def decrement(self) -> int:
        """Subtract one from the value, but never go below ``minimum``; return the value."""
        if self.value > self.minimum:
            self.value -= 1
        return self.value

    def reset(self) -> int:
        """Set the value back to ``start`` and return it."""
        self.value = self.start
        return self.value

    def label(self) -> str:
        """The text the window shows, e.g. ``"Count: 3"``."""
        return f"Count: {self.value}"
