"""Sign up: a Tk form (name, email, age, bio) with validation, a live bio counter and a member count.

Run: python main.py
"""

from __future__ import annotations

import signal
import sys
import tkinter as tk

from logic import bio_left, validate

FONT = ("DejaVu Sans", -20)
BOLD = ("DejaVu Sans", -24, "bold")
WIDTH, HEIGHT = 480, 460


class SignupApp:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        self.members = 0
        root.title("Sign up")
        root.configure(bg="white")
        root.geometry(f"{WIDTH}x{HEIGHT}")
        root.resizable(False, False)

        tk.Label(root, text="Create your account", font=BOLD, bg="white", fg="black").pack(pady=(10, 6))
        form = tk.Frame(root, bg="white")
        form.pack(padx=16, fill="x")
        self.name = tk.StringVar()
        self.email = tk.StringVar()
        self.age = tk.StringVar()
        self.bio = tk.StringVar()
        for row, (label, var) in enumerate((("Name", self.name), ("Email", self.email), ("Age", self.age),
                                            ("Bio", self.bio))):
            tk.Label(form, text=label, font=FONT, bg="white", fg="black", anchor="w", width=6).grid(
                row=row, column=0, sticky="w", pady=3)
            tk.Entry(form, textvariable=var, font=FONT, width=26, bg="white", fg="black").grid(
                row=row, column=1, sticky="we", pady=3)
        self.counter = tk.Label(form, font=FONT, bg="white", fg="black", anchor="e")
        self.counter.grid(row=4, column=1, sticky="e")
        self.bio.trace_add("write", lambda *_: self.update_counter())

        self.news = tk.BooleanVar(value=True)
        tk.Checkbutton(root, text="Send me news", variable=self.news, font=FONT, bg="white", fg="black",
                       activebackground="white", highlightthickness=0).pack(anchor="w", padx=16)

        self.member_label = tk.Label(root, text="Members: 0", font=FONT, bg="white", fg="black")
        self.status = tk.Label(root, text="", font=FONT, bg="white", fg="black", justify="left",
                               wraplength=WIDTH - 40)
        buttons = tk.Frame(root, bg="white")
        buttons.pack(pady=8)
        tk.Button(buttons, text="Submit", font=FONT, width=8, command=self.on_submit).pack(side="left", padx=6)
        tk.Button(buttons, text="Clear", font=FONT, width=8, command=self.on_clear).pack(side="left", padx=6)
        self.member_label.pack()
        self.status.pack(pady=(6, 0))
        self.update_counter()

    def update_counter(self) -> None:
        self.counter.configure(text=f"{bio_left(self.bio.get())} characters left")

    def on_submit(self) -> None:
        errors = validate(self.name.get(), self.email.get(), self.age.get(), self.bio.get())
        if errors:
            self.status.configure(text="\n".join(errors), fg="#b00000")
            return
        self.members += 1
        name = self.name.get().strip()
        self.clear_fields()
        self.member_label.configure(text=f"Members: {self.members}")
        self.status.configure(text=f"Welcome, {name}! You are member #{self.members}", fg="#006000")

    def on_clear(self) -> None:
        self.clear_fields()
        self.status.configure(text="")

    def clear_fields(self) -> None:
        for var in (self.name, self.email, self.age, self.bio):
            var.set("")
        self.news.set(True)


def main() -> int:
    root = tk.Tk()
    SignupApp(root)

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
