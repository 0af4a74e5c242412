"""The machine: the virtual display, the app's process, X input, screenshots, /proc facts, coverage."""
