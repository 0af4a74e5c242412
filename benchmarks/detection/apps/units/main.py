"""Units: a Tk unit converter for length, mass and temperature.

Pick a category, type a value, pick the units; the result is shown as "10 km = 6.2137 mi".
Run: python main.py
"""

from __future__ import annotations

import signal
import sys
import tkinter as tk

from conversions import DEFAULTS, UNITS, convert, format_number

FONT = ("DejaVu Sans", -20)
BIG = ("DejaVu Sans", -30, "bold")
WIDTH, HEIGHT = 520, 420


class UnitsApp:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title("Units")
        root.configure(bg="white")
        root.geometry(f"{WIDTH}x{HEIGHT}")
        root.resizable(False, False)

        self.category = tk.StringVar(value="Length")
        self.value = tk.StringVar()
        self.src = tk.StringVar()
        self.dst = tk.StringVar()

        tabs = tk.Frame(root, bg="white")
        tabs.pack(pady=(12, 8))
        for name in UNITS:
            tk.Radiobutton(tabs, text=name, value=name, variable=self.category, indicatoron=False, font=FONT,
                           width=11, command=self.on_category).pack(side="left", padx=3)

        entry_row = tk.Frame(root, bg="white")
        entry_row.pack(pady=4)
        tk.Label(entry_row, text="Value:", font=FONT, bg="white", fg="black").pack(side="left")
        entry = tk.Entry(entry_row, textvariable=self.value, font=FONT, width=10, bg="white", fg="black")
        entry.pack(side="left", padx=8)
        entry.bind("<Return>", lambda _e: self.on_convert())
        tk.Button(entry_row, text="Convert", font=FONT, command=self.on_convert).pack(side="left")

        self.columns = tk.Frame(root, bg="white")
        self.columns.pack(pady=8)

        self.result = tk.Label(root, font=BIG, bg="white", fg="black")
        self.result.pack(pady=(6, 2))
        self.note = tk.Label(root, font=FONT, bg="white", fg="#b00000")
        self.note.pack()
        self.on_category()

    def build_unit_columns(self) -> None:
        for child in self.columns.winfo_children():
            child.destroy()
        for column, (title, var) in enumerate((("From", self.src), ("To", self.dst))):
            frame = tk.Frame(self.columns, bg="white")
            frame.grid(row=0, column=column, padx=30, sticky="n")
            tk.Label(frame, text=title, font=FONT, bg="white", fg="black").pack(anchor="w")
            for unit in UNITS[self.category.get()]:
                tk.Radiobutton(frame, text=unit, value=unit, variable=var, font=FONT, bg="white", fg="black",
                               activebackground="white", highlightthickness=0,
                               command=self.on_convert).pack(anchor="w")

    def on_category(self) -> None:
        value, src, dst = DEFAULTS[self.category.get()]
        self.value.set(value)
        self.src.set(src)
        self.dst.set(dst)
        self.build_unit_columns()
        self.on_convert()

    def on_convert(self) -> None:
        category, src, dst = self.category.get(), self.src.get(), self.dst.get()
        try:
            value = float(self.value.get().strip().replace(",", "."))
        except ValueError:
            self.result.configure(text="")
            self.note.configure(text="Enter a number")
            return
        note = ""
        if src == dst:
            note = "Same unit on both sides"
        result = convert(category, value, src, dst)
        self.result.configure(text=f"{format_number(value)} {src} = {format_number(result)} {dst}")
        self.note.configure(text=note)


def main() -> int:
    root = tk.Tk()
    UnitsApp(root)

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
