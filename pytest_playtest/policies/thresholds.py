"""The offline tester's knowledge of play: every number that decides what it plays next, with its unit and why.

One table for the policies layer (``docs/exploration.md`` explains the behaviour each number belongs to). A
number that decides a finding lives with the loop's (``loop/thresholds.py``, and the user-tunable ones in
``loop.spec.OracleSettings``); what the screen counts as a change and a moving thing is vision's
(``vision/thresholds.py``). Every entry reads ``#: [unit] why``; ``tests/test_thresholds.py`` holds them so.
"""

from __future__ import annotations

#: [looks] the last looks over which the picture is judged to change by itself (a real-time game)...
SELF_CHANGE_LOOKS = 4
#: [looks] ...and how many of them must have changed between the tester's steps
SELF_CHANGED = 2

# -- screens and widgets ---------------------------------------------------------------------------------------
#: [bits] Hamming distance of two perceptual hashes below which they are one screen (a cursor or a counter moved)
SAME_SCREEN = 6
#: [visits] a screen's widgets are found again after this many visits: labels change
WIDGET_REFRESH = 8
#: [share] ...and after an input changed this share of a still window (a menu popped up)
REFRESH_FRACTION = 0.01
#: [s] in a game that moves by itself, widgets are found again at most this often (an OCR pass each time)
WIDGET_PERIOD = 2.0
#: [share] ...and finding them takes at most this share of the time: the game goes on while the tester looks,
#: and on a busy machine one look can take seconds
WIDGET_SHARE = 0.25
#: [tries] in such a game, tries of a kind of pointer input before each new place is no new input
KIND_BREADTH = 4
#: [share] a window this much one colour shows nothing (a full-screen toggle blanked it)
BLANK_SHARE = 0.99
#: [px] the window's colours are sampled every this many pixels to tell how much of it is one colour
BLANK_SAMPLE = 8
#: [share] a window at most this much one colour surely showed a picture (a dark game with a few thin lines lies
#: between the two and is never taken for blanked)
SHOWS_SHARE = 0.9

# -- modes: pauses and menus a key put the game in -------------------------------------------------------------
#: [attempts] attempts without effect after a key before it is taken for a mode (a pause) and undone
MODE_PROBE = 4
#: [effects] inputs with an effect among the MODE_PROBE before a key, for the game to have worked before it
WORKED_BEFORE = 2
#: [presses] presses of a key while the screen still says paused before it is taken for no pause key
UNPAUSE_TRIES = 2
#: [times] a key must stop a game (or all its inputs) and start it again this often to be taken for a pause
#: (once may be chance: a game whose last sprite left the screen comes back by itself)
TOGGLE_EVIDENCE = 2
#: [looks] after a key was pressed again, looks within which the picture moving again is its doing (the motion
#: watch sees a picture move only once it drew a new frame, which on a busy machine may come a look late)
RESTART_LOOKS = 3
#: [looks] the scenes of the last looks kept, to tell a game that went on from a new one
SCENES_KEPT = 32

# -- what to try next ------------------------------------------------------------------------------------------
#: [share] free choices in a game taking many character keys that type a character the screen shows
TYPE_SHOWN = 0.7
#: [share of WIDGET_PERIOD] once every character read was typed, the screen is read again this much sooner
READ_SOONER = 0.25
#: [repeats] repeats of an effective input (walk to the edge); an animating app changes anyway, so fewer there
DEPTH = 12
ANIMATED_DEPTH = 5
#: [repeats] once an input's edge is known, a streak mostly stops after one of these (else at the full bound)
SHORT_WALKS = (1, 2, 3)
#: [repeats] repeats of an effective click or other pointer input (a digit button appends forever: no edge)
POINTER_DEPTH = 3
#: [times] in a game that moves by itself, times each movement key is pushed on to the field's edge, effect
#: seen or not: off-by-one slips live at the edges
EDGE_PUSHES = 2
#: [share] free choices that replay a short sequence of effective inputs
SEQUENCE_CHANCE = 0.2
#: [inputs] how long such sequences are (the last input of one reached new code)
SEQUENCE_LENGTHS = (2, 3)
#: [share] of the step budget after which a quit key is tried, once
QUIT_AT = 0.85
#: [lines] a picture never met before is worth this many new lines of code
NEW_SCREEN_GAIN = 2.0
#: [lines] goal play: a score that rose is worth this much to the inputs that came just before it
SCORE_GAIN = 3.0
#: [factor] weight of an input not yet tried on the current screen
NOT_TRIED_HERE = 3.0
#: [times] in a run, times each way back is taken at once after a walk to the edge of a still app
TURN_BACKS = 3
#: [factor] weight by Candidate.rank (inputs.py): the app's own controls weigh most
RANK_WEIGHT = (1.0, 1.0, 0.6, 0.3)
#: [s] a wait the tester chooses when nothing else is worth doing (or a card turns)
WAIT_SECONDS = 0.3

# -- suspect keys of a moving game (suspects.py) ---------------------------------------------------------------
#: [tries] a key is a suspect once tried this often with effects far rarer than its siblings'...
SUSPECT_AFTER = 2
#: [share of the siblings' rate] ...its effects coming less often than this share of the other keys' rate...
SUSPECT_RATIO = 0.25
#: [effects] ...not counting this many, which may be no doing of its own (a focus ring drawn at its first press)
STRAY_EFFECTS = 1
#: [tries] a suspect is pressed on purpose until tried this often: the dead-control rule's kind_tries (16)
#: counted while the app moved, with room for the tries its motion leaves unjudged
SUSPECT_TRIES = 28
#: [share] of the free choices in a moving game that press a suspect (the rest play on)...
SUSPECT_SHARE = 0.3
#: [share] ...and in a still app, of those on a screen where the suspect was not tried yet (a new place to try it)
SUSPECT_SHARE_STILL = 0.6

# -- energy of inputs (exploration.py) -------------------------------------------------------------------------
#: [factor] how fast an input's energy decays with each try in a row that found nothing new
FRUITLESS_DECAY = 0.8
#: [tries] fruitless tries beyond this count no more: a quiet input keeps a floor of energy
FRUITLESS_CAP = 10
#: [energy] nothing is dropped for good: the least energy an input can have
MIN_ENERGY = 0.05
#: [factor] weight of an input in a state (exact frame) where it already did nothing
DEAD_HERE = 0.1
#: [share] each other state where an input did nothing lowers its weight by this share...
DEAD_ELSEWHERE = 0.25
#: [states] ...counting at most this many (down to half): a new state is where a state-dependent input (or a dead
#: one, which the run must show) is worth trying
DEAD_STATES_CAP = 4
#: [share] replays of a sequence from the corpus that are mutated first (reordered, one input swapped)
MUTATE_CHANCE = 0.5

# -- the inputs a screen offers (inputs.py) --------------------------------------------------------------------
#: [forms] forms sent after choosing one option of a list (the first lists' first options)
MAX_FORM_CHOICES = 8
#: [s] movement keys are also held: games that poll the keyboard move while a key is down
HOLD_SECONDS = 0.6
#: [share of the window] where to probe with the pointer when vision finds few widgets
PROBE_POINTS = ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))
#: [widgets] fewer widgets than this and the pointer probes the window too
FEW_WIDGETS = 3
#: [cells] a drawn UI is clicked all over, at the centres of a GRID x GRID grid
GRID = 4
#: [options] of a list to choose from, the first this many are tried
MAX_OPTIONS = 8
#: [share of the window] how far a drag reaches from the middle, each way
DRAG_REACH = 0.25
#: [px] a widget boxed a little differently on another screen is the same place
NEAR = 8

# -- tools of a drawing or editing app (tools.py) --------------------------------------------------------------
#: [uses] how often one control's click is followed by the uses of the tool it chose (a click, a drag, a long
#: drag): twice, since a tool may act differently on what the first use drew; more would spend the budget drawing
TOOL_ROUNDS = 2
#: [share of the window] a long drag goes this far from the middle each way, along the diagonal (a toolbar or a
#: status bar at the window's edge is left alone)
DRAG_FAR = 0.3
#: [share of the window] a tool's click lands this far beside the middle, right and up (beside the drags' lines)
TOOL_CLICK = 0.1

# -- the monkey baseline (random.py) ---------------------------------------------------------------------------
#: [share] of its inputs that click somewhere, and that press a key (the rest type a word)
RANDOM_CLICKS = 0.5
RANDOM_KEYS = 0.4

# -- the avatar of a real-time game (player.py) ----------------------------------------------------------------
#: [px] how far the avatar may move between two looks and still be followed
REACH = 48
#: [share] of the way a fast avatar was expected to go in a step that it may miss by, beyond ``REACH`` (its
#: measured speed is a few frames' average: a snake moving a cell a frame is a step's ~100 px from where it was)
TRAVEL_SLACK = 0.5
#: [share of each side] the middle of the window the avatar is kept in, from each edge
MARGIN = 0.3
#: [looks] the avatar not found is looked for farther away for this many looks, a step's travel more each: it
#: may have turned meanwhile (a fast worm turned is a step's ~100 px off where it was headed), and further away
#: another thing is likelier than the avatar
LOST_LOOKS = 3
#: [observations] of an input's effect before it is trusted to steer
TRUSTED = 2
#: [factor] how much a new observation moves a running average (an input's effect on the avatar, a step's length)
LEARNING = 0.3
#: [px per step] below this an input or the game's own motion does not move the avatar along an axis
MIN_MOVE = 3.0
#: [effects] in a row at the avatar before it is trusted to be one (not a typing game's random letters)
CONSISTENT = 3
#: [factor] an avatar goes along one axis when its speed along it is at least this many times the other's (a
#: course, as a snake keeps one; a measured velocity is a few frames' average, so a turn shows as a mix at first)
COURSE_DOMINANCE = 3.0
#: [share] of the course changes seen after an input that must have taken the avatar onto one heading before
#: the input is known to turn it so (a refused turn, a snake pressed back onto itself, changes nothing; a wall
#: bounce now and then is the game's doing)
TURN_MAJORITY = 0.6
#: [looks] a turn given to a course-keeping avatar is awaited this long before the next is decided: its measured
#: velocity shows the new heading a look or two late, and a decision on the old one turns it back
TURN_LOOKS = 2
#: [steps of its travel] a course-keeping avatar is turned aside once the window's edge ahead is this near: a
#: look may come late by a step on a busy machine
EDGE_STEPS = 2.0
#: [steps] the most a turn may be seen to lag the look it was decided on and still be learnt as the lag: the
#: key's way to the game and its next frame take a fraction of a step, and a turn seen later was another's
MAX_TURN_LAG = 1.5

# -- things to reach in a real-time game (seeking.py; what looks like one: vision/thresholds.py) -----------------
#: [share] of the steps where a target is known that steer to it (the rest explore: other inputs need tries too)
SEEK_SHARE = 0.7
#: [px] a target stands still when a candidate of its colour stood this near it at the last look
STILL_TARGET = 4
#: [games] ended right after the avatar reached a colour's things before that colour is a hazard, left alone
HAZARD_EVIDENCE = 2

# -- rules the run expects of a web page (pursuit.py) --------------------------------------------------------------
#: [share] of the choices, while a rule has not held, that replay the input seen to bring it nearest (the rest
#: hunt on: the expectation is one thing to reach, the bugs elsewhere are found by the other choices)
PURSUIT_SHARE = 0.7

# -- a deck of cards (pairs.py) --------------------------------------------------------------------------------
#: [px] the side of a look's thumbnail
THUMB = 8
#: [px] a thing whose box shows less than this on either side has no look
MIN_LOOK = 4
#: [level 0-255] mean difference per channel below which two looks are the same
ALIKE = 12.0
#: [places] places sharing one back that make a deck
DECK = 4
#: [clicks] on a card of the deck that never showed a face before it is no longer taken for unturned
TURN_TRIES = 2
#: [looks] a card just clicked is waited for while it turns, before the next click
TURNING_WAITS = 2
