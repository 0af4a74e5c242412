"""Vision on synthetic frames drawn here and on two real screenshots in fixtures/vision/.

Tests that run OCR share one rapidocr engine per process (about a second to load, then 20-200 ms a
read); the rest are pure OpenCV and take milliseconds.
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pytest_playtest.loop.workers import TextReader
from pytest_playtest.vision import Box, Grid, TextBox, Vision, changed_regions, hamming, ocr, perceptual_hash, pixels
from tests.support import REPO

FIXTURES = REPO / "fixtures" / "vision"


def _font_path() -> Path:
    spec = importlib.util.find_spec("pygame")
    candidates = [Path(spec.origin).parent / "freesansbold.ttf"] if spec and spec.origin else []
    candidates.append(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
    for candidate in candidates:
        if candidate.exists():
            return candidate
    pytest.skip("no TrueType font on this machine to draw test frames with")


def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_font_path()), size)


def hud_frame(score: int = 12) -> np.ndarray:
    """A game screen: score and lives on top, a big GAME OVER in the middle."""
    image = Image.new("RGB", (640, 480), (24, 28, 40))
    draw = ImageDraw.Draw(image)
    draw.text((16, 12), f"Score: {score}", font=font(24), fill=(255, 255, 255))
    draw.text((480, 12), "Lives: 3", font=font(24), fill=(255, 255, 255))
    draw.text((170, 200), "GAME OVER", font=font(48), fill=(240, 80, 80))
    return np.asarray(image).copy()


BUTTONS = {"Start": (40, 380), "Options": (240, 380), "Quit": (440, 380)}


def menu_frame() -> np.ndarray:
    """A menu: a heading, a labelled entry field, three filled buttons with centred labels."""
    image = Image.new("RGB", (640, 480), (236, 236, 236))
    draw = ImageDraw.Draw(image)
    draw.text((20, 20), "Settings", font=font(22), fill=(20, 20, 20))
    draw.text((40, 120), "Name", font=font(20), fill=(20, 20, 20))
    draw.rectangle((120, 110, 420, 145), fill=(255, 255, 255), outline=(120, 120, 120), width=1)
    for label, (x, y) in BUTTONS.items():
        draw.rectangle((x, y, x + 150, y + 50), fill=(60, 110, 200), outline=(30, 60, 120), width=2)
        width = draw.textlength(label, font=font(22))
        draw.text((x + 75 - width / 2, y + 13), label, font=font(22), fill=(255, 255, 255))
    return np.asarray(image).copy()


TILE_COLOURS = {
    0: (205, 193, 180), 2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99),
    32: (246, 124, 95), 64: (246, 94, 59), 128: (237, 207, 114), 256: (237, 204, 97), 512: (237, 200, 80),
    2048: (237, 194, 46),
}  # fmt: skip
BOARD = [[2, 0, 0, 2], [4, 8, 0, 0], [16, 0, 32, 64], [128, 256, 512, 2048]]
BOARD_BOX = Box(140, 120, 410, 410)


def board_frame(values: list[list[int]] = BOARD) -> np.ndarray:
    """A 2048 game: numbered tiles on slots, 10 px gaps, the board on a light page."""
    image = Image.new("RGB", (640, 560), (250, 248, 239))
    draw = ImageDraw.Draw(image)
    cell, gap = 90, 10
    draw.rounded_rectangle(
        (BOARD_BOX.x, BOARD_BOX.y, BOARD_BOX.right, BOARD_BOX.bottom), radius=6, fill=(187, 173, 160)
    )
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            x, y = BOARD_BOX.x + gap + c * (cell + gap), BOARD_BOX.y + gap + r * (cell + gap)
            draw.rounded_rectangle((x, y, x + cell, y + cell), radius=4, fill=TILE_COLOURS[value])
            if value:
                size = 40 if value < 100 else 32 if value < 1000 else 26
                width = draw.textlength(str(value), font=font(size))
                colour = (119, 110, 101) if value <= 4 else (249, 246, 242)
                origin = (x + cell / 2 - width / 2, y + cell / 2 - size * 0.55)
                draw.text(origin, str(value), font=font(size), fill=colour)
    return np.asarray(image).copy()


GEM_COLOURS = {"r": (220, 40, 40), "g": (40, 180, 60), "b": (40, 90, 220), "y": (235, 210, 40)}
GEMS = ["rgby", "ggrb", "b.yr", "yrgb"]


def gems_frame() -> np.ndarray:
    """A match-3 board: round gems on a dark bordered panel, "." an empty cell."""
    image = Image.new("RGB", (480, 400), (30, 30, 30))
    draw = ImageDraw.Draw(image)
    x0, y0, cell = 80, 40, 80
    panel = (x0, y0, x0 + 4 * cell, y0 + 4 * cell)
    draw.rectangle(panel, fill=(60, 50, 80), outline=(200, 200, 200), width=2)
    for r, row in enumerate(GEMS):
        for c, gem in enumerate(row):
            if gem in GEM_COLOURS:
                x, y = x0 + c * cell, y0 + r * cell
                draw.ellipse((x + 14, y + 14, x + cell - 14, y + cell - 14), fill=GEM_COLOURS[gem])
    return np.asarray(image).copy()


def fixture(name: str) -> np.ndarray:
    return np.asarray(Image.open(FIXTURES / name).convert("RGB"))


@pytest.fixture
def ocr_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (height, width) of every image handed to the OCR detector, in call order."""
    calls: list[tuple[int, int]] = []
    real = ocr._detect

    def counting(rgb: np.ndarray) -> list:
        calls.append(rgb.shape[:2])
        return real(rgb)

    monkeypatch.setattr(ocr, "_detect", counting)
    return calls


# --- geometry ---------------------------------------------------------------------------------------------


def test_box_geometry() -> None:
    box = Box(10, 20, 30, 40)
    assert box.center == (25, 40)
    assert box.area == 1200
    assert box.contains(10, 20) and box.contains(39, 59)
    assert not box.contains(40, 20) and not box.contains(9, 30)
    assert box.expand(5) == Box(5, 15, 40, 50)
    assert box.expand(-20) == Box(30, 40, 0, 0)
    assert Box(-5, -5, 20, 20).clip(10, 8) == Box(0, 0, 10, 8)
    assert box.iou(box) == 1.0
    assert box.iou(Box(100, 100, 5, 5)) == 0.0
    assert Box(0, 0, 10, 10).iou(Box(5, 0, 10, 10)) == pytest.approx(50 / 150)
    assert Box.from_points([[1.2, 2.0], [9.5, 2.0], [9.5, 7.1], [1.2, 7.1]]) == Box(1, 2, 9, 6)


def test_grid_as_text_lists_non_empty_cells_one_based() -> None:
    grid = Grid(2, 3, [["2", "", "4"], ["", "", "8"]], Box(0, 0, 300, 200))
    assert grid.as_text() == "r1c1=2, r1c3=4, r2c3=8"
    assert grid.cell_box(1, 2) == Box(200, 100, 100, 100)


def test_reading_order_groups_lines_despite_uneven_heights() -> None:
    boxes = [
        TextBox("world", Box(120, 12, 50, 20), 1.0),
        TextBox("below", Box(10, 60, 50, 20), 1.0),
        TextBox("Hello", Box(10, 8, 80, 30), 1.0),
    ]
    assert [t.text for t in pixels.reading_order(boxes, lambda t: t.box)] == ["Hello", "world", "below"]


# --- perceptual hash --------------------------------------------------------------------------------------


def test_perceptual_hash_tolerates_small_changes_and_tells_screens_apart() -> None:
    menu = menu_frame()
    nudged = menu.copy()
    nudged[300, 300] = (0, 0, 0)
    assert 0 <= perceptual_hash(menu) < 2**64
    assert hamming(perceptual_hash(menu), perceptual_hash(nudged)) <= 2
    assert hamming(perceptual_hash(menu), perceptual_hash(hud_frame())) >= 16
    assert hamming(perceptual_hash(menu), perceptual_hash(board_frame())) >= 16
    assert hamming(0b1011, 0b0110) == 3


# --- template matching ------------------------------------------------------------------------------------


def test_find_locates_a_template_and_not_an_absent_one(tmp_path: Path) -> None:
    frame = fixture("aliens.png")
    ufo = frame[144:215, 338:418].copy()
    assert Vision().find(frame, ufo)[0] == Box(338, 144, 80, 71)

    path = tmp_path / "ufo.png"
    Image.fromarray(ufo).save(path)
    assert Vision().find(frame, path)[0] == Box(338, 144, 80, 71)

    button = fixture("tk_form.png")[160:192, 90:170]
    assert Vision().find(frame, button) == []
    assert Vision().find(frame, np.zeros((600, 800, 3), np.uint8)) == []


def test_find_returns_each_occurrence_once_best_first() -> None:
    frame = menu_frame()
    frame[200:210, 500:520] = (200, 0, 0)  # an almost-copy of the first marker, scoring lower
    frame[202:208, 505:515] = (0, 0, 0)
    frame[300:310, 100:120] = (200, 0, 0)
    frame[302:308, 105:115] = (10, 0, 0)
    template = frame[298:312, 98:122].copy()
    hits = Vision().find(frame, template, threshold=0.8)
    assert [hit.center for hit in hits] == [(110, 305), (510, 205)]


def test_find_a_flat_template_matches_its_colour_only() -> None:
    frame = menu_frame()
    frame[300:310, 100:110] = (255, 0, 0)
    frame[300:310, 200:210] = (0, 0, 255)
    assert Vision().find(frame, np.full((10, 10, 3), (255, 0, 0), np.uint8)) == [Box(100, 300, 10, 10)]


# --- OCR ----------------------------------------------------------------------------------------------------


def test_read_and_text_recover_the_strings() -> None:
    boxes = Vision().read(hud_frame())
    assert [t.text for t in boxes] == ["Score: 12", "Lives: 3", "GAME OVER"]
    assert all(t.score >= 0.6 for t in boxes)
    assert boxes[2].box.contains(320, 225)
    assert Vision().text(hud_frame()) == "Score: 12 Lives: 3\nGAME OVER"


def test_read_on_real_screenshots() -> None:
    assert "Score: 0" in Vision().text(fixture("aliens.png"))
    lines = Vision().text(fixture("tk_form.png")).split("\n")
    assert lines == ["Name Ada", "Email", "Subscribe", "Submit Cancel"]


def test_the_background_reader_says_after_which_step_its_frame_was_taken() -> None:
    """A policy judges the text against the inputs made before its frame (the reader lags on a busy machine)."""
    steps: list[int] = []
    reader = TextReader(Vision(), lambda text, step, pieces: steps.append(step))
    reader.offer(hud_frame(12), "frame-a", 3)
    reader.close()
    assert reader.text.startswith("Score: 12") and reader.read_at == 3 and steps == [3]


def test_read_is_cached_by_key(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    frame = hud_frame()
    first = eyes.read(frame, key="frame-1")
    assert eyes.read(frame, key="frame-1") == first
    assert eyes.text(frame, key="frame-1") == "Score: 12 Lives: 3\nGAME OVER"
    assert len(ocr_calls) == 1
    eyes.read(frame)  # no key, no cache
    assert len(ocr_calls) == 2


def test_unchanged_lines_are_not_recognised_again(monkeypatch: pytest.MonkeyPatch) -> None:
    recognised: list[int] = []
    real = ocr._recognise

    def counting(crops: list[np.ndarray]) -> list:
        recognised.append(len(crops))
        return real(crops)

    monkeypatch.setattr(ocr, "_recognise", counting)
    eyes = Vision()
    frame = hud_frame()
    first = eyes.read(frame, key="frame-1")
    assert eyes.read(frame.copy(), key="frame-2") == first  # another key: detected again, not recognised
    assert recognised == [3, 0]


def test_read_region_returns_frame_coordinates() -> None:
    boxes = Vision().read_region(hud_frame(), Box(400, 0, 240, 60))
    assert [t.text for t in boxes] == ["Lives: 3"]
    assert boxes[0].box.x >= 400 and boxes[0].box.contains(530, 25)


def test_read_changed_reads_only_the_changed_region(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    eyes.read(hud_frame(12), key="before")
    # The app drew "123" over "12": only the digits' pixels differ.
    boxes = eyes.read_changed(hud_frame(123), "after", "before", Box(100, 14, 50, 26))
    assert [t.text for t in boxes] == ["Score: 123", "Lives: 3", "GAME OVER"]
    height, width = ocr_calls[-1]
    assert len(ocr_calls) == 2 and height * width < 0.05 * 640 * 480
    assert eyes.read(hud_frame(123), key="after") == boxes
    assert len(ocr_calls) == 2


def test_read_changed_reads_several_changed_regions_separately(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    eyes.read(hud_frame(12), key="before")
    after = hud_frame(34)
    after[400:440, 300:340] = (200, 200, 0)  # a sprite appeared far from the score
    changes = [Box(100, 14, 50, 26), Box(300, 400, 40, 40)]
    boxes = eyes.read_changed(after, "after", "before", changes)
    assert [t.text for t in boxes] == ["Score: 34", "Lives: 3", "GAME OVER"]
    assert len(ocr_calls) == 3 and all(h * w < 0.05 * 640 * 480 for h, w in ocr_calls[1:])


def test_read_changed_merges_changes_on_one_line(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    eyes.read(hud_frame(12), key="before")
    boxes = eyes.read_changed(hud_frame(98), "after", "before", [Box(100, 14, 14, 26), Box(114, 14, 14, 26)])
    assert [t.text for t in boxes] == ["Score: 98", "Lives: 3", "GAME OVER"]
    assert len(ocr_calls) == 2


def test_read_changed_without_change_reuses_the_previous_text(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    before = eyes.read(hud_frame(), key="before")
    assert eyes.read_changed(hud_frame(), "same", "before", Box(0, 0, 0, 0)) == before
    assert eyes.read_changed(hud_frame(), "same again", "same", []) == before
    assert len(ocr_calls) == 1


def test_read_changed_falls_back_to_a_full_read(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    assert [t.text for t in eyes.read_changed(hud_frame(7), "k", "never-seen", Box(100, 14, 50, 26))] == [
        "Score: 7", "Lives: 3", "GAME OVER"
    ]  # fmt: skip
    eyes.read_changed(menu_frame(), "menu", "k", None)
    eyes.read_changed(hud_frame(8), "big", "k", Box(0, 0, 600, 400))
    eyes.read_changed(hud_frame(9), "scattered", "big", [Box(x, 300, 4, 4) for x in range(20, 600, 80)])
    assert ocr_calls == [(480, 640)] * 4


def test_read_is_safe_from_two_threads() -> None:
    frame = hud_frame()[0:60]
    results: list[list[TextBox]] = []
    threads = [threading.Thread(target=lambda: results.append(Vision().read(frame))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [[t.text for t in r] for r in results] == [["Score: 12", "Lives: 3"]] * 3


def test_a_key_being_read_by_one_thread_is_not_read_again_by_another(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    started = threading.Event()
    real = ocr._detect

    def slow(rgb: np.ndarray) -> list:
        calls.append(1)
        started.set()
        return real(rgb)

    monkeypatch.setattr(ocr, "_detect", slow)
    eyes = Vision()
    frame = hud_frame()
    background = threading.Thread(target=eyes.read, args=(frame, "frame-1"))
    background.start()
    started.wait(5)
    assert [t.text for t in eyes.read(frame, key="frame-1")] == ["Score: 12", "Lives: 3", "GAME OVER"]
    background.join()
    assert calls == [1]


def test_the_engine_is_created_once_per_process() -> None:
    assert ocr._get_engine() is ocr._get_engine()


def test_frames_must_be_rgb_uint8() -> None:
    with pytest.raises(ValueError, match="RGB uint8"):
        Vision().read(np.zeros((10, 10), np.uint8))


# --- widgets ----------------------------------------------------------------------------------------------


def test_widgets_finds_labelled_buttons_fields_and_text() -> None:
    found = Vision().widgets(menu_frame())
    buttons = [w for w in found if w.kind == "button"]
    assert [w.text for w in buttons] == list(BUTTONS)
    for widget, (x, y) in zip(buttons, BUTTONS.values(), strict=True):
        assert Box(x, y, 151, 51).contains(*widget.center)
        assert widget.box.iou(Box(x, y, 151, 51)) > 0.9
    fields = [w for w in found if w.kind == "field"]
    assert len(fields) == 1 and fields[0].box.contains(270, 127)
    assert {w.text for w in found if w.kind == "text"} == {"Settings", "Name"}


def test_widgets_on_a_real_tk_form() -> None:
    found = Vision().widgets(fixture("tk_form.png"))
    assert [(w.kind, w.text) for w in found if w.kind in ("button", "field")] == [
        ("field", "Ada"), ("field", ""), ("button", "Submit"), ("button", "Cancel")
    ]  # fmt: skip
    submit = next(w for w in found if w.text == "Submit")
    assert Box(91, 161, 78, 30).contains(*submit.box.center)


def test_widgets_finds_tiles_that_differ_from_the_board_mostly_in_hue() -> None:
    tiles = [w for w in Vision().widgets(board_frame()) if w.kind == "button"]
    assert sorted(int(w.text) for w in tiles) == sorted(v for row in BOARD for v in row if v)


def test_widgets_finds_sprites_as_shapes() -> None:
    found = Vision().widgets(fixture("aliens.png"))
    shapes = [w.box for w in found if w.kind == "shape"]
    for ufo in (Box(338, 144, 80, 71), Box(417, 72, 80, 71)):
        assert any(shape.iou(ufo) > 0.8 for shape in shapes)
    assert any(w.kind == "text" and w.text == "Score: 0" for w in found)


def test_widgets_are_cached_by_key(ocr_calls: list[tuple[int, int]]) -> None:
    eyes = Vision()
    assert eyes.widgets(menu_frame(), key="menu") == eyes.widgets(menu_frame(), key="menu")
    eyes.read(menu_frame(), key="menu")
    assert len(ocr_calls) == 1


# --- boards -----------------------------------------------------------------------------------------------


def test_read_grid_reads_a_2048_board_into_numbers() -> None:
    grid = Vision().read_grid(board_frame(), 4, 4)
    assert grid.box.iou(BOARD_BOX) > 0.95
    assert grid.cells == [[str(v) if v else "" for v in row] for row in BOARD]
    assert grid.as_text().startswith("r1c1=2, r1c4=2, r2c1=4, r2c2=8, r3c1=16")


def test_read_grid_recognises_repeated_cells_once(monkeypatch: pytest.MonkeyPatch) -> None:
    eyes = Vision()
    eyes.read_grid(board_frame(), 4, 4)
    crops: list[int] = []
    real = ocr._recognise

    def counting(images: list[np.ndarray]) -> list[tuple[str, float]]:
        crops.append(len(images))
        return real(images)

    monkeypatch.setattr(ocr, "_recognise", counting)
    moved = [[0, 0, 0, 4], [4, 8, 0, 0], [16, 0, 32, 64], [128, 256, 512, 2048]]
    assert eyes.read_grid(board_frame(moved), 4, 4).cells[0] == ["", "", "", "4"]
    assert sum(crops) == 0  # every tile image was seen on the first board already


def test_read_grid_colour_mode_labels_cells() -> None:
    grid = Vision().read_grid(board_frame(), 4, 4, BOARD_BOX, cell_text=False)
    assert grid.cells[0] == ["#eee4da", "", "", "#eee4da"]
    assert grid.cells[3][3] == "#edc22e"
    labels = {v: grid.cells[r][c] for r, row in enumerate(BOARD) for c, v in enumerate(row) if v}
    assert len(set(labels.values())) == len(labels)


def test_read_grid_colour_mode_turns_a_match3_board_into_a_matrix() -> None:
    grid = Vision().read_grid(gems_frame(), 4, 4, cell_text=False)
    assert grid.box.iou(Box(80, 40, 321, 321)) > 0.95
    names = {"#{:02x}{:02x}{:02x}".format(*rgb): name for name, rgb in GEM_COLOURS.items()}
    assert ["".join(names.get(cell, ".") for cell in row) for row in grid.cells] == GEMS


def test_read_grid_uses_the_whole_frame_without_a_board() -> None:
    frame = np.full((200, 200, 3), 40, np.uint8)
    frame[120:150, 10:80] = (250, 0, 0)
    grid = Vision().read_grid(frame, 2, 2, cell_text=False)
    assert grid.box == Box(0, 0, 200, 200)
    assert grid.cells == [["", ""], ["#fa0000", ""]]


def test_changed_regions_are_the_separate_places_that_changed() -> None:
    before = np.zeros((200, 300, 3), np.uint8)
    after = before.copy()
    after[10:20, 10:40] = 255  # a score
    after[150:170, 250:260] = 128  # a sprite, far away
    after[150:152, 263:265] = 128  # its shadow, closer than the gap
    assert sorted(changed_regions(before, after), key=lambda b: b.y) == [Box(10, 10, 30, 10), Box(250, 150, 15, 20)]
    assert changed_regions(before, before.copy()) == []
    assert changed_regions(before, np.zeros((100, 100, 3), np.uint8)) == [Box(0, 0, 100, 100)]


def test_a_board_that_fills_the_window_is_found_from_its_cells() -> None:
    frame = np.full((330, 300, 3), (187, 173, 160), np.uint8)  # the board's background, edge to edge
    frame[:30] = (60, 60, 60)  # a title bar above it
    for row in range(3):
        for col in range(3):
            x, y = 10 + col * 100, 40 + row * 100
            frame[y : y + 80, x : x + 80] = (205, 193, 180)
    frame[240:320, 110:190] = (238, 228, 218)
    grid = Vision().read_grid(frame, 3, 3, cell_text=False)
    assert abs(grid.box.x - 0) <= 2 and abs(grid.box.y - 30) <= 2 and abs(grid.box.w - 300) <= 2
    assert grid.cell_box(2, 1).contains(150, 280)


def test_warm_up_loads_the_detector_and_the_recogniser() -> None:
    ocr.warm_up()
    engine = ocr._get_engine()
    assert engine.text_det is not None and engine.text_rec is not None
