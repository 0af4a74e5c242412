"""What the tester's eyes count as a change, a moving thing, a widget or a board: every number vision decides by,
with its unit and why.

One table for the vision layer; what the loop and the tester decide with what vision reports is in
``loop/thresholds.py`` and ``policies/thresholds.py``. Sizes "after scaling" are in the pixels the motion watch
looks at (every second pixel of a window wider than FULL_WIDTH). Every entry reads ``#: [unit] why``;
``tests/test_thresholds.py`` holds them so.
"""

from __future__ import annotations

# -- motion (motion.py) ------------------------------------------------------------------------------------------
#: [level 0-255] a pixel changed when a channel moved by more than this (antialiasing and dithering stay below)
CHANGE_LEVEL = 40
#: [px, scaled] blobs closer than this are one moving thing
JOIN = 3
#: [px] a blob of fewer pixels is noise (a star of a starfield, a blinking dot)
MIN_BLOB = 4
#: [px, scaled] how far a blob may move in one tick and still be the same thing
MAX_STEP = 48
#: [px, scaled] a thing moved a way in a tick when it went at least this far along it, and no farther across (a
#: ship a key slides goes a few pixels a frame; a meteor falling aslant goes across)
WAY_SHIFT = 2
#: [px] a moved thing's box is widened by this beyond how far it moved when it is moved on
SLACK = 2
#: [px] windows wider than this are looked at every second pixel
FULL_WIDTH = 640
#: [ticks] kept; an input is judged on the ticks before it (TICKS_BEFORE at least: the one just before is
#: predicted from the two before that) and the AFTER after it
KEPT = 24
TICKS_BEFORE = 4
AFTER = 3
#: [px, scaled] the least surprise that is an effect: about an 8x8 sprite appearing or moving
MIN_SURPRISE = 40
#: [px, scaled] ... and after a tick the app's own motion wholly explained: a small thing gone (a typed 20-point
#: letter) is an effect against a scene that holds no other surprise
QUIET_SURPRISE = 20
#: [factor] an input's surprise must also exceed this many times the surprise of the ticks just before it
OVER_BEFORE = 2.0
#: [things; px², scaled] how many of a tick's moved things (the largest) are looked for where they came from, and
#: of what area: a sprite, a ball, a paddle; a starfield's specks keep their first guess
MATCHED_BLOBS = 12
MATCHED_AREA = (6 * 6, 64 * 64)
#: [level 0-255] a thing's picture is found where it came from when drawn there within this mean difference per
#: channel (and another place draws it as well when within this much more)
MATCH_LEVEL = 12
#: [px; share] a surprise is one the app made by itself before when its box is within SAME_PLACE pixels (window
#: coordinates) of that one's on every side and its size within SAME_SIZE of that one's
SAME_PLACE = 4
SAME_SIZE = 0.25
#: [frame periods] a tick seen more than this many of the app's frame periods (its median interval between
#: ticks) after the one before follows frames nobody saw: its motion cannot be predicted
UNSEEN = 5.0
#: [factor] intervals between ticks that differ by more than this may span different numbers of the app's frames
UNEVEN = 1.4
#: [share of the window] a moving blob covering more than this is scenery (a scrolling backdrop), no thing
MAX_MOVER = 0.2
#: [frame periods; ticks] a picture seen unchanged for STOPPED of its frame periods after its last tick has
#: stopped moving (a pause); its pace is known from PACED ticks at least
STOPPED = 4.0
PACED = 6
#: [px, scaled] a tick moved things (sprites, not a backdrop's specks) when the places it changed (near pixels
#: joined) of more than SPECK_PIXELS changed pixels each hold SPRITE_PIXELS together. A falling star of a starfield
#: changes 4-12 (its old and new place); a sprite a pixel on changes an edge of it, 14 or more in a large window
#: (measured on a space shooter's formation). The things of a game can stop while such a backdrop moves on.
SPECK_PIXELS, SPRITE_PIXELS = 12, 24
#: [share of its changed pixels] a moved thing's place that now shows the background this much was vacated
VACATED = 0.8
#: [ticks] things move by themselves when a watch without input saw this many ticks move them (a shooter's
#: formation moves at almost every look; a page's list changes after an input, and on a busy machine later)
ALONE_MOVES = 2

# -- pixels (pixels.py) ------------------------------------------------------------------------------------------
#: [level 0-255] text on a cell: pixels whose colour differs this much (largest channel) from the cell's fill
INK_DISTANCE = 60
#: [share of the cell] a cell with less ink than this is empty in text mode
MIN_INK_FRACTION = 0.01
#: [share of the box] an outline filling at least this much of its bounding box is a rectangle (a button, a cell)
RECTANGLE_FILL = 0.85
#: [px; parts of its height] a text line cut to its ink keeps a third of its height as margin, at least LINE_PAD
#: pixels (the recogniser wants some)
LINE_PAD = 4
LINE_PAD_PARTS = 3
#: [level 0-255] the Canny edge levels (low, high), per colour channel: an orange tile on a beige board differs
#: by 55 in red but only 14 in grey
EDGE_LEVELS = (30, 90)
#: [px] a closed outline smaller than this on either side is a glyph's or a speck's, no rectangle
MIN_OUTLINE = 8
#: [share of the smaller] two boxes overlapping this much are one inside the other (a border and its face)
NESTED_SHARE = 0.95
#: [intersection over union] boxes this alike are one (an outline's inner and outer contour)
SAME_BOX_IOU = 0.8
#: [px] context kept around a changed region so the detector sees whole glyphs and some background
CHANGE_MARGIN = 12

# -- changes and scenes (diff.py) --------------------------------------------------------------------------------
#: [regions] beyond this many separate changes, changed_regions gives their common box
MAX_REGIONS_LISTED = 16
#: [cells; level 0-255; share] a scene's thumbnail: grey cells of a 16x12 grid; two are one scene when at most
#: SCENE_SHARE of their cells differ by more than SCENE_LEVEL (a starfield's specks, a sprite moved a few pixels, a
#: score stay below)
SCENE_CELLS = (16, 12)
SCENE_LEVEL = 16
SCENE_SHARE = 0.05

# -- widgets (widgets.py) ----------------------------------------------------------------------------------------
#: [px] the smallest control (width, height) and the tallest
MIN_WIDGET_W, MIN_WIDGET_H = 16, 12
MAX_WIDGET_H = 160
#: [share of the frame] a widget bigger than this is a panel, board or window, not a control
MAX_WIDGET_FRACTION = 0.2
#: [share of the frame] sprites and icons are small; a big irregular outline is scenery (the ground, a cloud)
MAX_SHAPE_FRACTION = 0.05
#: [share of the box] an outline filling less of its bounding box is a line or a jagged fragment, not an object
SHAPE_MIN_FILL = 0.5
#: [ratio; level 0-255] a "field" is a wide, near-white box (entry, spin box, text area) whose text, if any, hugs
#: its left edge
FIELD_MIN_ASPECT = 2.5
FIELD_MIN_BRIGHTNESS = 235
#: [share of the face] a rectangle whose face is inked beyond this holds a picture, not a symbol
MAX_MARK_FRACTION = 0.4
#: [px] how far a box found on the screen may reach beyond the control it frames
FOUND_BOX_SLACK = 3
#: [px] a widget's bevel, left out when its middle is looked at for a caption
BEVEL = 4
#: [parts of the width; px] the middle looked at for a caption: a sixth of the width each side, at least CENTRE_MIN
CENTRE_PARTS = 6
CENTRE_MIN = 8
#: [px; share] a glyph of big text has an outline too: one GLYPH_INSIDE within a bigger text box (grown by
#: GLYPH_REACH) is that text's
GLYPH_REACH = 4
GLYPH_INSIDE = 0.9
#: [intersection over union] rectangles this alike are one widget (a face and its border)
SAME_RECT_IOU = 0.7
#: [share of the text box] a text box this much inside a rectangle labels it
LABEL_INSIDE = 0.6
#: [share of the shape] a shape overlapping a found widget this much is part of it
SHAPE_TAKEN = 0.5

# -- boards (boards.py) ------------------------------------------------------------------------------------------
#: [level 0-255] in colour mode, pixels this close to the board's background count as background: anti-aliased
#: edges, and empty slots drawn a shade off the gaps
BACKGROUND_DISTANCE = 30
#: [share of the cell] ...and a cell with less than this of non-background pixels is empty
MIN_CONTENT_FRACTION = 0.1
#: [px] a cell with fewer inked pixels than this holds no symbol
MIN_INK_PIXELS = 4
#: [share of the window] a board covers at least this much of it
BOARD_MIN_SHARE = 0.04
#: [ratio] a board's aspect may differ from its rows and columns' by these factors
BOARD_ASPECT = (0.75, 1.33)
#: [intersection over union] board outlines this alike are one board
SAME_BOARD_IOU = 0.95
#: [share of a cell] a thing on the board is cell-sized between these shares of a cell's side
CELL_SIZE = (0.4, 1.05)
#: [cells; share] a board holds cell-sized things in at least this many cells and this share of them
OCCUPIED_CELLS = 2
OCCUPIED_SHARE = 0.25
#: [px] cells are grouped by size in steps of this many pixels
CELL_SIZE_STEP = 6
#: [share] a board found from its cells (no outline of its own) shows at least this share of them
LATTICE_SHARE = 0.75
#: [share of a cell] cell centres this close are one row or column of the lattice
LATTICE_SLACK = 0.25
#: [share of a cell's side] the outer part of a cell left out when its face is read (grid lines, borders)
CELL_INSET = 0.08

# -- templates (templates.py) ------------------------------------------------------------------------------------
#: [matches] at most this many places an image is found at
MAX_HITS = 100
#: [intersection over union] matches overlapping less than this are distinct places
DISTINCT_IOU = 0.5
#: [score] grayscale usually scores a match higher than colour does, but not always: candidates get this slack
GRAY_SLACK = 0.1
#: [candidates] colour-checked grayscale candidates: bounds the work on a busy frame with a low threshold
MAX_CANDIDATES = 300

# -- reading (ocr.py) --------------------------------------------------------------------------------------------
#: [share of the frame] beyond this, re-reading regions costs about as much as reading everything...
MAX_CHANGED_FRACTION = 0.4
#: [regions] ...and so does reading scattered regions: each detection pass has a fixed cost of about a third of a
#: whole-frame pass (measured on 2048 frames), and recognition of unchanged lines is cached anyway
MAX_CHANGED_REGIONS = 2

# -- targets (targets.py) ----------------------------------------------------------------------------------------
#: [px] a frame is looked at every this many pixels for targets (an apple of a cell is still a few looks wide)
TARGET_STRIDE = 2
#: [bits] colours are binned by dropping this many low bits of each channel (shades of one colour share a bin)
TARGET_BIN_SHIFT = 5
#: [looked-at pixels] a target's colour covers at least this much (less is a speck), and each of its blobs too
TARGET_MIN_PIXELS = 6
#: [share of the window] ...and at most this much (more is a field, a wall, the avatar's long body)
TARGET_MAX_SHARE = 0.01
#: [levels 0-255] a colour whose channels differ less than this is a grey (text, outlines, shadows)
TARGET_MIN_CHROMA = 64
#: [blobs] a colour drawn in more places than this is a pattern, not the one thing to reach
TARGET_MAX_BLOBS = 3
#: [px] a target is no bigger than a sprite on either side
TARGET_MAX_SIDE = 64
#: [share of its box] a target's blob fills at least this much of its box (a thing, not a line)
TARGET_MIN_FILL = 0.4
