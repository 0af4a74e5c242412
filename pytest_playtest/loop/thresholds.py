"""The loop's knowledge: every number that paces a run or decides a finding and is not the user's to tune, with
its unit and why.

The user-tunable ones are ``spec.OracleSettings`` and ``spec.Pacing`` (the ``oracles=`` argument, documented in
``docs/verdicts.md``); what the tester plays next is ``policies/thresholds.py``'s; what the screen counts as a
change and a moving thing is ``vision/thresholds.py``'s. Every entry reads ``#: [unit] why``;
``tests/test_thresholds.py`` holds them so.
"""

from __future__ import annotations

# -- launches ----------------------------------------------------------------------------------------------------
#: [s] the first window of a launch may take this long (an interpreter, a toolkit and a game's assets loading)
STARTUP_TIMEOUT = 20.0
#: [s] a running app may take this long to show the window that replaces its old one (pygame's set_mode, a
#: fullscreen toggle), under load too
WINDOW_REPLACED = 6.0
#: [s] a window that vanished: the app is given this long to exit before it is taken for still running
EXIT_WAIT = 2.0
#: [s] at most this long for a launch's first paint (a window mapped before it is drawn)
FIRST_PAINT = 5.0
#: [s] that must be left in a run for a relaunch to be worth it (start, first paint, a few steps)
RELAUNCH_TIME_LEFT = 5.0
#: [launches] a run launches its app at most this many times (it is launched again after each normal exit)
MAX_LAUNCHES = 20

# -- pacing --------------------------------------------------------------------------------------------------------
#: [s] the shortest and longest step of a real-time game when the beat follows the budget: a player decides
#: several times a second, and a game's objects move meaningfully within a few of its frames
MIN_BEAT, MAX_BEAT = 0.12, 0.5

# -- looking -----------------------------------------------------------------------------------------------------
#: [s] between looks at a real-time game while a step's beat runs, and at an app watched without input
PLAY_POLL = 0.02
#: [s] between looks while the loop waits for a change it expects soon (a hover, an input's effect)
QUICK_POLL = 0.003
#: [steps] every this many steps a still-looking app is watched without input for GLANCE seconds (whether it
#: moves slowly)
WATCH_EVERY = 5
#: [s] how long such a glance lasts
GLANCE = 0.25
#: [steps] an app that moves by itself is watched without input for a beat after one step in this many (drawn at
#: random from the run's seed): how often its own motion looks like an effect is the chance level its inputs are
#: judged against, and a few dozen beats measure it; at fixed steps the watch would keep in step with a game that
#: does the same thing at the same time after each launch
WATCH_EVERY_MOVING = 3
#: [s] a differential run looks again at a window that differs from its golden run's, once it has stood still
#: for LOOK_AGAIN_STILL seconds (at most LOOK_AGAIN): pictures and fonts of a page arrive late
LOOK_AGAIN = 1.0
LOOK_AGAIN_STILL = 0.2
#: [s] the longest a page's running transitions and finite animations (a tile sliding, a score floating up) are
#: waited out after an input on a page not known to move by itself: while they run, the page would look as if it
#: moved by itself and its inputs were judged against that motion; longer ones are its own
ANIMATION_WAIT = 1.5
#: [s] after a page's animation ended, until the browser has painted its last frame (two frames at 60 Hz)
ANIMATION_PAINT = 0.035
#: [px] how far from the resting pointer a control's hover or focus drawing may reach (a change there alone is
#: the last input's aftermath, not the app moving by itself)
POINTER_REACH = 64

# -- freezes (oracles.py) ------------------------------------------------------------------------------------------
#: [factor] of ``freeze_after`` an animating app that stopped drawing and reading its input while it idles on the CPU
#: must stay so before it is frozen (a deadlock, a sleep that never ends); one that spins the CPU meanwhile (an
#: endless loop) is frozen after ``freeze_after``. A game may sleep on purpose a few seconds (a menu's
#: ``pygame.time.wait(3000)`` before the game starts was called a freeze)
IDLE_FREEZE = 3.0

# -- suspect controls (oracles.py, retries.py, controls.py) -------------------------------------------------------
#: [tries] of a suspect click target after which the loop stops retrying it by itself
MAX_RETRIES = 8
#: [px] two click targets this close are one target
SAME_TARGET = 6
#: [px] clicks are told apart by place at this grid: a few pixels apart is the same place
PLACE_GRID = 10
#: [count] continuity correction of the dead-control statistics: half an event, for rates counted in whole tries
CONTINUITY = 0.5
#: [keys] a whole kind of keys is judged only when the app handles at least this many (one key is judged alone)
KIND_KEYS = 2
#: [share of its tries] a movement key of a still app that never worked on its way back is dead when it worked at
#: most this often elsewhere (a stray change, a focus ring drawn at its first press, is no working key)
RARE_EFFECTS = 0.15
#: [effects] on an app that moves by itself, a pointer input changed the window right where it landed at least this
#: often (and beyond what the app's own motion does to such spots) before that counts as its own doing...
LOCAL_EFFECTS = 2
#: the ways a key is judged by what it sets going (controls.py): a game's two sides mirror each other, while up and
#: down seldom do (Up jumps or rotates a piece, Down drops it)
SIDEWAYS = ("left", "right")
#: [px] ...a change's box holding the point or standing this close to it (a tile's changed pixels may stop short
#: of the point clicked, its middle)
LOCAL_REACH = 8
#: [effects] other inputs' effects a run must show before one input that never worked is judged alone (else the
#: whole kind of input is judged)
OTHERS_WORKED = 3

# -- reading -----------------------------------------------------------------------------------------------------
#: [share] of the time the background OCR reader may spend reading: a game that changes every frame would
#: otherwise keep a core busy with OCR, and the app and the loop would play slower for it
READ_SHARE = 0.5
#: [s] a web page has to answer a DOM read (a page that does not is judged by the freeze oracle)
DOM_READ_TIMEOUT = 0.5
#: [grey levels] between a widget's face and its text below which it looks disabled (Tk draws a disabled
#: button's text #a3a3a3 on #d9d9d9: 54; an enabled one black on it: 217)
DISABLED_CONTRAST = 100
#: [percentiles] the grey levels a widget's ink, face and highlight are read at (a thin "−" inks 1 % of its button)
DISABLED_PERCENTILES = (0.2, 50, 99.8)
#: [steps] a line the other run first reached this many steps after a divergence still counts as reached before it
#: when the two runs' code is compared: a step's lines may arrive on the coverage stream after the step has closed
REACHED_LATE = 2
