"""Pocket-calculator logic, independent of Tk.

Keys are strings: the digits "0".."9", the operators "+", "-", "×", "÷", and "=" and "C". Operations run
immediately from left to right, like a basic pocket calculator: ``2 + 3 × 4 =`` shows 20.
"""

from __future__ import annotations

ADD, SUBTRACT, MULTIPLY, DIVIDE = "+", "-", "×", "÷"
OPERATORS = (ADD, SUBTRACT, MULTIPLY, DIVIDE)
DIGITS = tuple("0123456789")
EQUALS, CLEAR = "=", "C"
KEYS = DIGITS + OPERATORS + (EQUALS, CLEAR)
ERROR = "Error"
MAX_DIGITS = 12

Number = int | float


def format_number(value: Number) -> str:
    """The display text for a number.

    Integral values (ints, or floats such as ``4.0``) show without a decimal point when they have at most
    ``MAX_DIGITS`` digits ("4", "-12"); other values use up to 10 significant digits with trailing zeros
    removed ("3.5", "0.3333333333", "1.5e+13"). ``-0.0`` shows as "0".
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and len(str(abs(value))) <= MAX_DIGITS:
        return str(value)
    return f"{value:.10g}"


def parse_number(text: str) -> Number:
    """The number shown by ``text`` (an int when it has no decimal point or exponent)."""
    if any(ch in text for ch in ".eE"):
        return float(text)
    return int(text)


class Calculator:
    """State machine behind the calculator's display. ``press(key)`` returns the new display text."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.display = "0"
        self.accumulator: Number | None = None  # left operand waiting for the pending operator
        self.pending: str | None = None  # operator waiting for its right operand
        self.new_entry = True  # the next digit starts a new number instead of extending the display

    @staticmethod
    def apply(op: str, a: Number, b: Number) -> Number:
        """``a op b`` for op in "+", "-", "×", "÷".

        Division returns an int when ``b`` divides ``a`` exactly (``6 ÷ 3`` is ``2``), else a float
        (``7 ÷ 2`` is ``3.5``); dividing by zero raises ZeroDivisionError. An unknown op raises ValueError.
        """
        if op == ADD:
            return a + b
        if op == SUBTRACT:
            return a - b
        if op == MULTIPLY:
            return a * b
        if op == DIVIDE:
            if b == 0:
                raise ZeroDivisionError("division by zero")
            if isinstance(a, int) and isinstance(b, int) and a % b == 0:
                return a // b
            return a / b
        raise ValueError(f"unknown operator {op!r}")

    def press(self, key: str) -> str:
        """Handle one key and return the display text.

        - digit: starts a new number after an operator, "=" or an error, else is appended (a lone "0" is
          replaced; at most ``MAX_DIGITS`` digits, extra digits are ignored);
        - operator: if an operator is pending and a new number was typed since, computes it first and shows
          the result; then remembers the shown number and the operator. Pressing another operator right after
          one replaces it;
        - "=": computes the pending operation with the shown number as right operand, shows the result and
          clears the pending operator (no pending operator: nothing happens);
        - "C": back to "0" with nothing pending.
        A division by zero shows "Error"; after that only digits and "C" do anything. Any other key raises
        ValueError.
        """
        if key not in KEYS:
            raise ValueError(f"unknown key {key!r}")
        if key == CLEAR:
            self.clear()
        elif key in DIGITS:
            self._digit(key)
        elif self.display == ERROR:
            pass
        elif key in OPERATORS:
            self._operator(key)
        else:
            self._equals()
        return self.display

    def _digit(self, key: str) -> None:
        if self.display == ERROR:
            self.clear()
        if self.new_entry or self.display == "0":
            self.display = key
            self.new_entry = False
        elif len(self.display) < MAX_DIGITS:
            self.display += key

    def _operator(self, op: str) -> None:
        if self.pending is not None and not self.new_entry:
            if not self._compute():
                return
        elif self.pending is None:
            self.accumulator = parse_number(self.display)
        self.pending = op
        self.new_entry = True

    def _equals(self) -> None:
        if self.pending is None:
            return
        if self._compute():
            self.pending = None
            self.accumulator = None

    def _compute(self) -> bool:
        """Apply the pending operator to the accumulator and the shown number; False after an error."""
        try:
            result = self.apply(self.pending, self.accumulator, parse_number(self.display))
        except ZeroDivisionError:
            self.clear()
            self.display = ERROR
            return False
        self.display = format_number(result)
        self.accumulator = parse_number(self.display)
        self.new_entry = True
        return True
