"""What the screen counts as a change of the app's window: the numbers the runtime layer decides by, with
unit and why (the machine's own timeouts, which decide nothing about the app, stay with the code that waits).
Every entry reads ``#: [unit] why``; ``tests/test_thresholds.py`` holds them so.
"""

from __future__ import annotations

# -- text cursors (screen.py) --------------------------------------------------------------------------------------
#: [px] a text cursor is a bar at most CARET_WIDTH wide, as tall as a line of text (CARET_HEIGHTS): its blinking
#: is no change of the app's window
CARET_WIDTH = 3
CARET_HEIGHTS = range(8, 49)
#: [places] the places of text cursors a Screen remembers (a cursor moves as text is typed)
MAX_CARETS = 16
