"""A Tk inventory window at 1024x768 for the LLM-request benchmark: a menu bar, a list, a form, a status bar."""

import tkinter as tk

root = tk.Tk()
root.title("Inventory")
root.geometry("1024x768+0+0")
menu = tk.Menu(root)
for name in ("File", "Edit", "View", "Help"):
    menu.add_cascade(label=name, menu=tk.Menu(menu, tearoff=False))
root.config(menu=menu)

items = ["Bolts M6 x 20 (box of 100)", "Washers 6 mm", "Hex nuts M6", "Wood screws 4 x 40", "Wall plugs 6 mm"]
stock = {name: 10 * (index + 1) for index, name in enumerate(items)}
left = tk.Frame(root, padx=16, pady=16)
left.pack(side="left", fill="y")
tk.Label(left, text="Items", font=("Helvetica", 16, "bold")).pack(anchor="w")
listbox = tk.Listbox(left, font=("Helvetica", 13), width=32, height=18)
listbox.pack(fill="y", expand=True)
form = tk.Frame(root, padx=16, pady=16)
form.pack(side="left", fill="both", expand=True)
tk.Label(form, text="Selected item", font=("Helvetica", 16, "bold")).grid(row=0, column=0, columnspan=2, sticky="w")
selected = tk.StringVar(value="(none)")
count = tk.StringVar(value="-")
tk.Label(form, textvariable=selected, font=("Helvetica", 13)).grid(row=1, column=0, columnspan=2, sticky="w")
tk.Label(form, text="In stock:", font=("Helvetica", 13)).grid(row=2, column=0, sticky="w", pady=8)
tk.Label(form, textvariable=count, font=("Helvetica", 13)).grid(row=2, column=1, sticky="w")
tk.Label(form, text="Quantity", font=("Helvetica", 13)).grid(row=3, column=0, sticky="w")
quantity = tk.Entry(form, font=("Helvetica", 13), width=8)
quantity.grid(row=3, column=1, sticky="w")
status = tk.StringVar(value="Ready")


def refresh() -> None:
    listbox.delete(0, "end")
    for name in items:
        listbox.insert("end", f"{name} ({stock[name]})")


def current() -> str | None:
    chosen = listbox.curselection()
    return items[chosen[0]] if chosen else None


def show(_event: object = None) -> None:
    name = current()
    if name:
        selected.set(name)
        count.set(str(stock[name]))


def change(sign: int) -> None:
    name = current() or (selected.get() if selected.get() in stock else None)
    if name is None:
        status.set("Select an item first")
        return
    try:
        amount = int(quantity.get() or "1")
    except ValueError:
        status.set(f"Not a number: {quantity.get()!r}")
        return
    stock[name] = max(0, stock[name] + sign * amount)
    count.set(str(stock[name]))
    status.set(f"{'Added' if sign > 0 else 'Removed'} {amount} of {name}")
    refresh()


buttons = tk.Frame(form, pady=12)
buttons.grid(row=4, column=0, columnspan=2, sticky="w")
tk.Button(buttons, text="Add", font=("Helvetica", 13), command=lambda: change(1)).pack(side="left", padx=4)
tk.Button(buttons, text="Remove", font=("Helvetica", 13), command=lambda: change(-1)).pack(side="left", padx=4)
tk.Label(root, textvariable=status, anchor="w", relief="sunken", font=("Helvetica", 12)).place(
    relx=0, rely=1, anchor="sw", relwidth=1)
listbox.bind("<<ListboxSelect>>", show)
refresh()
root.mainloop()
