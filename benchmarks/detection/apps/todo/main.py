"""To-do: a Tk to-do list. Type a task and press Add (or Enter); tick it when done; Down moves it one row
down; Delete removes it; Clear done removes every ticked task.

Run: python main.py
"""

from __future__ import annotations

import signal
import sys
import tkinter as tk
from functools import partial

from tasks import MAX_TASKS, TaskList, starter_tasks

FONT = ("DejaVu Sans", -20)
BOLD = ("DejaVu Sans", -20, "bold")
DONE_FONT = ("DejaVu Sans", -20, "overstrike")
WIDTH, HEIGHT = 460, 460


class TodoApp:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        self.tasks = TaskList(starter_tasks())
        root.title("To-do")
        root.configure(bg="white")
        root.geometry(f"{WIDTH}x{HEIGHT}")
        root.resizable(False, False)

        top = tk.Frame(root, bg="white")
        top.pack(fill="x", padx=10, pady=10)
        self.entry = tk.Entry(top, font=FONT, width=22, bg="white", fg="black")
        self.entry.pack(side="left", fill="x", expand=True)
        self.entry.bind("<Return>", lambda _e: self.on_add())
        tk.Button(top, text="Add", font=FONT, width=5, command=self.on_add).pack(side="left", padx=(8, 0))

        bottom = tk.Frame(root, bg="white")
        bottom.pack(side="bottom", fill="x", padx=10, pady=10)
        self.summary = tk.Label(bottom, font=BOLD, bg="white", fg="black", anchor="w")
        self.summary.pack(side="left")
        tk.Button(bottom, text="Clear done", font=FONT, command=self.on_clear_done).pack(side="right")
        self.message = tk.Label(root, font=FONT, bg="white", fg="#b00000", anchor="w")
        self.message.pack(side="bottom", fill="x", padx=10)

        self.rows = tk.Frame(root, bg="white")
        self.rows.pack(fill="both", expand=True, padx=10)
        self.refresh()

    def refresh(self, message: str = "") -> None:
        for child in self.rows.winfo_children():
            child.destroy()
        self.done_vars = [tk.BooleanVar(value=task.done) for task in self.tasks.tasks]  # Tk needs the refs
        for index, task in enumerate(self.tasks.tasks):
            row = tk.Frame(self.rows, bg="white")
            row.pack(fill="x", pady=1)
            font = DONE_FONT if task.done else FONT
            tk.Checkbutton(row, text=task.text, variable=self.done_vars[index], font=font, bg="white", fg="black",
                           anchor="w", activebackground="white", highlightthickness=0,
                           command=partial(self.on_toggle, index)).pack(side="left", fill="x", expand=True)
            tk.Button(row, text="Delete", font=FONT, pady=0,
                      command=partial(self.on_delete, index)).pack(side="right")
            tk.Button(row, text="Down", font=FONT, pady=0,
                      command=partial(self.on_down, index)).pack(side="right", padx=4)
        self.summary.configure(text=self.tasks.summary())
        self.message.configure(text=message)

    def on_add(self) -> None:
        if self.tasks.add(self.entry.get()):
            self.entry.delete(0, "end")
            self.refresh()
        elif len(self.tasks.tasks) >= MAX_TASKS:
            self.refresh(f"The list is full ({MAX_TASKS} tasks)")
        else:
            self.refresh("Type a task first")

    def on_toggle(self, index: int) -> None:
        self.tasks.toggle(index)
        self.refresh()

    def on_delete(self, index: int) -> None:
        self.tasks.delete(index)
        self.refresh()

    def on_down(self, index: int) -> None:
        self.tasks.move_down(index)
        self.refresh()

    def on_clear_done(self) -> None:
        message = ""
        removed = self.tasks.clear_done()
        if removed == 0:
            message = "Nothing to clear"
        self.refresh(message)


def main() -> int:
    root = tk.Tk()
    TodoApp(root)

    def on_sigterm(_signum: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_sigterm)

    def wake() -> None:  # lets Python run the signal handler while Tk waits for events
        root.after(200, wake)

    wake()
    try:
        root.mainloop()
    finally:
        try:
            root.destroy()
        except tk.TclError:  # already destroyed by closing the window
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
