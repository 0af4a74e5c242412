"""Calculator: a Tk pocket calculator with a big display, digit buttons and + - × ÷ = C.

The operator waiting for its second number is shown at the left of the display.

The keyboard works too: digits, + - * / (x also multiplies), = or Enter, Escape or c clears.
Run: python main.py [--bug NAME]
"""

from __future__ import annotations

import argparse
import faulthandler
import functools
import signal
import sys
import tkinter as tk

import logic
from logic import ADD, CLEAR, DIVIDE, EQUALS, MULTIPLY, SUBTRACT, Calculator

# Seeded bug variants, selected with --bug. The default (no --bug) is the correct app.
BUGS = {
    "wrong-operator": "'+' subtracts: 12 + 7 = shows 5",
    "dead-button": "the '=' button is not wired: clicking it does nothing (the = and Enter keys still work)",
    "callback-exception": "'÷' (button or / key) raises ValueError inside the Tk callback: Tk prints "
    "'Exception in Tkinter callback' and a traceback on stderr, the display does not change, the app keeps "
    "running",
}

DISPLAY_FONT = ("Helvetica", 36, "bold")
BUTTON_FONT = ("Helvetica", 22, "bold")
PENDING_FONT = ("Helvetica", 20, "bold")
LAYOUT = (
    ("7", "8", "9", DIVIDE),
    ("4", "5", "6", MULTIPLY),
    ("1", "2", "3", SUBTRACT),
    (CLEAR, "0", EQUALS, ADD),
)
KEYSYMS = {"Return": EQUALS, "KP_Enter": EQUALS, "Escape": CLEAR, "Delete": CLEAR}
CHARS = {"+": ADD, "-": SUBTRACT, "*": MULTIPLY, "x": MULTIPLY, "/": DIVIDE, "=": EQUALS, "c": CLEAR,
         "C": CLEAR, ADD: ADD, SUBTRACT: SUBTRACT, MULTIPLY: MULTIPLY, DIVIDE: DIVIDE}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Tk calculator sample app")
    parser.add_argument("--bug", choices=sorted(BUGS), help="run a seeded bug variant")
    return parser.parse_args(argv)


def apply_bug(name: str | None) -> None:
    if name == "wrong-operator":
        correct_apply = logic.Calculator.apply

        def apply(op: str, a: logic.Number, b: logic.Number) -> logic.Number:
            # Seeded bug: the "+" case was copied from "-".
            return correct_apply(SUBTRACT if op == ADD else op, a, b)

        logic.Calculator.apply = staticmethod(apply)


class CalculatorApp:
    def __init__(self, root: tk.Tk, bug: str | None = None) -> None:
        self.root = root
        self.calc = Calculator()
        # Button label -> key sent to the calculator.
        self.keys: dict[str, str | None] = {label: label for row in LAYOUT for label in row}
        if bug == "callback-exception":
            self.keys[DIVIDE] = None  # seeded bug: the divide entry of the table was lost

        root.title("Calculator")
        root.configure(bg="#202020", padx=10, pady=10)
        self.display = tk.Label(root, text=self.calc.display, font=DISPLAY_FONT, bg="white", fg="black",
                                anchor="e", width=11, padx=10, pady=6)
        self.display.grid(row=0, column=0, columnspan=4, sticky="ew", pady=(0, 10))
        # the operator waiting for its second number, shown at the display's left edge
        self.pending = tk.Label(root, text="", font=PENDING_FONT, bg="white", fg="#606060")
        self.pending.grid(row=0, column=0, sticky="w", padx=8, pady=(0, 10))
        for r, row in enumerate(LAYOUT, start=1):
            for c, label in enumerate(row):
                command = functools.partial(self.on_click, label)
                if bug == "dead-button" and label == EQUALS:
                    command = None  # seeded bug: the "=" button was never connected
                button = tk.Button(root, text=label, font=BUTTON_FONT, width=3, height=1, command=command,
                                   bg="#e0e0e0" if label.isdigit() else "#f0b050", activebackground="#ffffff")
                button.grid(row=r, column=c, padx=3, pady=3, sticky="nsew")
        root.bind("<Key>", self.on_key)

    def on_button(self, label: str) -> None:
        self.display.configure(text=self.calc.press(self.keys[label]))

    def on_click(self, label: str) -> None:
        self.on_button(label)
        self.show_pending()

    def show_pending(self) -> None:
        self.pending.configure(text=self.calc.pending or "")

    def on_key(self, event: tk.Event) -> None:
        label = KEYSYMS.get(event.keysym)
        if label is None and event.char:
            label = event.char if event.char in logic.DIGITS else CHARS.get(event.char)
        if label is not None:
            self.on_click(label)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    apply_bug(args.bug)
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where the app is stuck
    root = tk.Tk()
    CalculatorApp(root, bug=args.bug)

    signal.signal(signal.SIGTERM, lambda _signum, _frame: root.quit())

    def wake() -> None:  # lets Python run signal handlers while Tk waits for events
        root.after(200, wake)

    wake()
    root.mainloop()
    try:
        root.destroy()
    except tk.TclError:  # already destroyed by closing the window
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
