"""Counter: a Tk window with "Count: N" and Increment / Decrement / Reset buttons.

Run: python main.py [--bug NAME]
"""

from __future__ import annotations

import argparse
import faulthandler
import signal
import sys
import tkinter as tk

from logic import Counter

# Seeded bug variants, selected with --bug. The default (no --bug) is the correct app.
BUGS = {
    "dead-reset": "the Reset button is not wired to anything: clicking it has no effect",
}

LABEL_FONT = ("Helvetica", 32, "bold")
BUTTON_FONT = ("Helvetica", 18)


class CounterApp:
    def __init__(self, root: tk.Tk, bug: str | None = None) -> None:
        self.root = root
        self.counter = Counter()
        root.title("Counter")
        root.configure(bg="white", padx=20, pady=20)

        self.label = tk.Label(root, text=self.counter.label(), font=LABEL_FONT, bg="white", fg="black",
                              width=10)
        self.label.pack(pady=(0, 16))

        buttons = tk.Frame(root, bg="white")
        buttons.pack()
        reset_command = None if bug == "dead-reset" else self.on_reset
        for text, command in (("Increment", self.on_increment), ("Decrement", self.on_decrement),
                              ("Reset", reset_command)):
            tk.Button(buttons, text=text, font=BUTTON_FONT, width=9, command=command).pack(side="left", padx=4)

        # Keyboard shortcuts: +/Up increment, -/Down decrement, r/Escape reset.
        for sequence in ("<plus>", "<KP_Add>", "<Up>"):
            root.bind(sequence, lambda _e: self.on_increment())
        for sequence in ("<minus>", "<KP_Subtract>", "<Down>"):
            root.bind(sequence, lambda _e: self.on_decrement())
        if bug != "dead-reset":
            for sequence in ("<r>", "<Escape>"):
                root.bind(sequence, lambda _e: self.on_reset())

    def refresh(self) -> None:
        self.label.configure(text=self.counter.label())

    def on_increment(self) -> None:
        self.counter.increment()
        self.refresh()

    def on_decrement(self) -> None:
        self.counter.decrement()
        self.refresh()

    def on_reset(self) -> None:
        self.counter.reset()
        self.refresh()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Tk counter sample app")
    parser.add_argument("--bug", choices=sorted(BUGS), help="run a seeded bug variant")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where the app is stuck
    root = tk.Tk()
    CounterApp(root, bug=args.bug)

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
