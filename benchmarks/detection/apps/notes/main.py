"""Notes: a small Tk text editor with a menu bar, a find bar, a status bar and a right-click menu.

The right-click menu holds the tools that are nowhere else: Sort lines and UPPERCASE.
Run: python main.py
"""

from __future__ import annotations

import signal
import sys
import tkinter as tk

from textops import WELCOME, sort_lines, status_line

FONT = ("DejaVu Sans", -20)
MONO = ("DejaVu Sans Mono", -20)
WIDTH, HEIGHT = 560, 420


class NotesApp:
    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        root.title("Notes")
        root.configure(bg="white")
        root.geometry(f"{WIDTH}x{HEIGHT}")
        root.resizable(False, False)

        menubar = tk.Menu(root, font=FONT)
        file_menu = tk.Menu(menubar, tearoff=False, font=FONT)
        file_menu.add_command(label="New", command=self.on_clear)
        file_menu.add_separator()
        file_menu.add_command(label="Quit", command=root.destroy)
        menubar.add_cascade(label="File", menu=file_menu)
        edit_menu = tk.Menu(menubar, tearoff=False, font=FONT)
        edit_menu.add_command(label="Select all", command=self.select_all)
        edit_menu.add_command(label="Find all", command=self.on_find)
        menubar.add_cascade(label="Edit", menu=edit_menu)
        root.configure(menu=menubar)

        bar = tk.Frame(root, bg="white")
        bar.pack(fill="x", padx=8, pady=6)
        tk.Label(bar, text="Find:", font=FONT, bg="white", fg="black").pack(side="left")
        self.find_var = tk.StringVar()
        find_entry = tk.Entry(bar, textvariable=self.find_var, font=FONT, width=12, bg="white", fg="black")
        find_entry.pack(side="left", padx=6)
        find_entry.bind("<Return>", lambda _e: self.on_find())
        tk.Button(bar, text="Find all", font=FONT, command=self.on_find).pack(side="left", padx=4)
        tk.Button(bar, text="Clear", font=FONT, command=self.on_clear).pack(side="right")

        self.status = tk.Label(root, font=FONT, bg="black", fg="white", anchor="w", padx=8)
        self.status.pack(side="bottom", fill="x")
        self.text = tk.Text(root, font=MONO, wrap="word", undo=True, bg="white", fg="black",
                            insertbackground="black", padx=6, pady=4)
        self.text.pack(fill="both", expand=True, padx=8, pady=(0, 6))
        self.text.tag_configure("found", background="#ffd84a")
        self.text.insert("1.0", WELCOME)
        self.text.edit_modified(False)
        self.text.bind("<<Modified>>", self.on_modified)

        self.context = tk.Menu(root, tearoff=False, font=FONT)
        self.context.add_command(label="Cut", command=lambda: self.text.event_generate("<<Cut>>"))
        self.context.add_command(label="Copy", command=lambda: self.text.event_generate("<<Copy>>"))
        self.context.add_command(label="Paste", command=lambda: self.text.event_generate("<<Paste>>"))
        self.context.add_command(label="Select all", command=self.select_all)
        self.context.add_separator()
        self.context.add_command(label="Sort lines", command=self.on_sort)
        self.context.add_command(label="UPPERCASE", command=self.on_upper)
        self.text.bind("<Button-3>", self.show_context)
        self.message = ""
        self.refresh_status()

    # status bar
    def contents(self) -> str:
        return self.text.get("1.0", "end-1c")

    def refresh_status(self) -> None:
        extra = f"   {self.message}" if self.message else ""
        self.status.configure(text=status_line(self.contents()) + extra)

    def on_modified(self, _event: object = None) -> None:
        if self.text.edit_modified():
            self.text.edit_modified(False)
            self.message = ""
            self.refresh_status()

    # commands
    def on_find(self) -> None:
        word = self.find_var.get()
        self.text.tag_remove("found", "1.0", "end")
        if not word:
            self.message = "Type a word to find"
            self.refresh_status()
            return
        count = 0
        start = "1.0"
        while True:
            pos = self.text.search(word, start, stopindex="end", nocase=True)
            if not pos:
                break
            end = f"{pos}+{len(word)}c"
            self.text.tag_add("found", pos, end)
            count += 1
            start = end
        self.message = f"{count} found"
        self.refresh_status()

    def on_clear(self) -> None:
        self.text.delete("1.0", tk.END)
        self.refresh_status()

    def select_all(self) -> None:
        self.text.tag_add("sel", "1.0", "end-1c")
        self.text.focus_set()

    def replace_all(self, new_text: str) -> None:
        self.text.delete("1.0", "end")
        self.text.insert("1.0", new_text)

    def on_sort(self) -> None:
        self.replace_all(sort_lines(self.contents()))

    def on_upper(self) -> None:
        if self.text.tag_ranges("sel"):
            first, last = self.text.index("sel.first"), self.text.index("sel.last")
            selected = self.text.get(first, last)
            self.text.delete(first, last)
            self.text.insert(first, selected.upper())
        else:
            self.replace_all(self.contents().upper())

    def show_context(self, event: tk.Event) -> None:
        self.context.tk_popup(event.x_root, event.y_root)


def main() -> int:
    root = tk.Tk()
    NotesApp(root)

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
        except tk.TclError:  # already destroyed by closing the window or File > Quit
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
