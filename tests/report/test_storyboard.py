"""The storyboard and the animation, drawn from real PNG frames and real Steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pytest_playtest.actions import Action
from pytest_playtest.report.animation import FINAL_FRAME_MS, build_animation
from pytest_playtest.report.drawing import CHANGE_OUTLINE, FINDING_RED, MARKER, TILE_BACKGROUND
from pytest_playtest.report.storyboard import MIN_TILE_WIDTH, build_storyboard, sample_steps
from pytest_playtest.verdict import Finding, Verdict


def colour_around(image: Image.Image, box: tuple[int, ...]) -> tuple[int, ...]:
    """The colour framing a tile picture: the first pixel left of it that is not the tile's own background."""
    x, y = box[0] - 1, (box[1] + box[3]) // 2
    while x > 0 and image.getpixel((x, y)) == TILE_BACKGROUND:
        x -= 1
    return image.getpixel((x, y))


def test_a_tile_per_step_in_order(runs, tmp_path: Path) -> None:
    runs.frames(5)
    actions = [Action.press("space"), Action.click(50, 40), Action.type_text("hi"), Action.wait(0.5),
               Action.drag(10, 10, 300, 200)]
    out = build_storyboard(runs.steps(actions), runs.frames_dir, [], tmp_path / "storyboard.png")

    image = Image.open(out).convert("RGB")
    assert image.width <= 1920 and image.height <= 1080
    boxes = [runs.box_of(image, runs.colour(i)) for i in range(1, 6)]
    assert all(boxes), "every step has a tile"
    assert runs.box_of(image, runs.colour(0)) is None, "the initial frame is not a step"
    widths = [box[2] - box[0] for box in boxes]
    assert max(widths) - min(widths) <= 2, "tiles are the same size"
    for first, second in zip(boxes, boxes[1:], strict=False):
        assert first[2] <= second[0] or first[3] <= second[1], "tiles do not overlap and follow step order"
    assert [colour_around(image, box) for box in boxes] != [FINDING_RED] * 5


def test_the_step_with_a_finding_has_a_red_frame(runs, tmp_path: Path) -> None:
    runs.frames(4)
    steps = runs.steps([Action.click(20, 20)] * 4, findings={3: ["unresponsive"]})
    # a Finding that names a step marks it too, even when the loop did not note it on the Step
    findings = [Finding("unresponsive", "no effect", step=3), Finding("exception", "boom", step=1)]
    verdict = Verdict("fail", findings=findings, steps=4)
    out = build_storyboard(steps, runs.frames_dir, findings, tmp_path / "storyboard.png", verdict=verdict)

    image = Image.open(out).convert("RGB")
    framing = {i: colour_around(image, runs.box_of(image, runs.colour(i))) for i in range(1, 5)}
    assert framing[1] == FINDING_RED
    assert framing[3] == FINDING_RED
    assert framing[2] != FINDING_RED and framing[4] != FINDING_RED


def test_a_step_that_diverged_from_a_golden_run_shows_both_pictures_side_by_side(runs, tmp_path: Path) -> None:
    runs.frames(3)
    golden = tmp_path / "golden.png"
    Image.new("RGB", (320, 240), (10, 200, 90)).save(golden)
    steps = runs.steps([Action.click(20, 20)] * 3)
    findings = [Finding("diverges", "Total differs", step=2, reference=str(golden))]
    out = build_storyboard(steps, runs.frames_dir, findings, tmp_path / "storyboard.png",
                           verdict=Verdict("fail", findings=findings, steps=3))

    image = Image.open(out).convert("RGB")
    theirs, ours = runs.box_of(image, (10, 200, 90)), runs.box_of(image, runs.colour(2))
    assert theirs is not None and ours is not None
    assert theirs[2] <= ours[0] and abs(theirs[1] - ours[1]) < 4  # the golden run's left of this run's, level


def test_what_changed_after_a_step_is_outlined(runs, tmp_path: Path) -> None:
    runs.frames(2)
    steps = runs.steps([Action.press("space"), Action.press("space")])
    steps[0].changed, steps[0].changed_box = True, (200, 150, 60, 40)
    steps[1].changed, steps[1].changed_box = False, None
    out = build_storyboard(steps, runs.frames_dir, [], tmp_path / "storyboard.png")

    image = Image.open(out).convert("RGB")
    changed_tile, still_tile = runs.box_of(image, runs.colour(1)), runs.box_of(image, runs.colour(2))
    outline = runs.box_of(image, CHANGE_OUTLINE, min_pixels=20)
    assert outline, "the changed region is outlined"
    scale = (changed_tile[2] - changed_tile[0]) / 320
    expected = (changed_tile[0] + 200 * scale, changed_tile[1] + 150 * scale,
                changed_tile[0] + 260 * scale, changed_tile[1] + 190 * scale)
    assert all(abs(got - want) <= 3 for got, want in zip(outline, expected, strict=True)), (outline, expected)
    assert runs.box_of(image.crop(still_tile), CHANGE_OUTLINE, min_pixels=1) is None, "no change, no outline"


def test_many_steps_are_sampled_keeping_first_last_and_findings(runs, tmp_path: Path) -> None:
    runs.frames(150, size=(160, 120))
    steps = runs.steps([Action.press("right")] * 150)
    findings = [Finding("freeze", "stopped drawing", step=77), Finding("timeout", "goal not reached")]
    out = build_storyboard(steps, runs.frames_dir, findings, tmp_path / "storyboard.png")

    image = Image.open(out).convert("RGB")
    assert image.width <= 1920 and image.height <= 1080
    shown = {i: box for i in range(1, 151) if (box := runs.box_of(image, runs.colour(i)))}
    assert {1, 77, 150} <= set(shown)
    assert 10 < len(shown) < 150
    assert all(box[2] - box[0] >= MIN_TILE_WIDTH - 2 for box in shown.values()), "tiles stay readable"
    assert colour_around(image, shown[77]) == FINDING_RED
    positions = [shown[i] for i in sorted(shown)]
    assert positions == sorted(positions, key=lambda box: (box[1], box[0])), "sampled tiles keep step order"


def test_a_smaller_canvas_is_respected(runs, tmp_path: Path) -> None:
    runs.frames(40)
    out = build_storyboard(runs.steps([Action.wait(0.1)] * 40), runs.frames_dir, [], tmp_path / "small.png",
                           max_size=(800, 600))
    image = Image.open(out)
    assert image.width <= 800 and image.height <= 600


@pytest.mark.parametrize("hidpi", [1, 2], ids=["same-size", "frame-twice-the-window"])
def test_a_pointer_tile_is_a_crop_around_the_target(runs, tmp_path: Path, hidpi: int) -> None:
    clicked = [(200, 60, 60), (60, 200, 60), (60, 60, 200), (200, 200, 60)]
    pressed = [(110, 150, 190), (190, 150, 110), (150, 110, 190), (150, 190, 110)]
    runs.quadrant_frame(1, (2048, 1536), clicked)
    runs.quadrant_frame(2, (2048, 1536), pressed)
    window = (2048 // hidpi, 1536 // hidpi)
    steps = runs.steps([Action.click(1900 // hidpi, 1400 // hidpi), Action.press("space")], window=window)
    image = Image.open(build_storyboard(steps, runs.frames_dir, [], tmp_path / "sb.png")).convert("RGB")

    # the click tile shows only the bottom-right quadrant it landed in, with the marker on it
    assert [runs.box_of(image, colour) is not None for colour in clicked] == [False, False, False, True]
    x0, y0, x1, y1 = runs.box_of(image, clicked[3])
    assert runs.box_of(image.crop((x0, y0, x1, y1)), MARKER, min_pixels=20) is not None
    # a key press shows the whole window
    assert all(runs.box_of(image, colour) is not None for colour in pressed)


def test_a_drag_tile_keeps_both_ends(runs, tmp_path: Path) -> None:
    colours = [(200, 60, 60), (60, 200, 60), (60, 60, 200), (200, 200, 60)]
    runs.quadrant_frame(1, (2048, 1536), colours)
    steps = runs.steps([Action.drag(100, 100, 1900, 1400)], window=(2048, 1536))
    image = Image.open(build_storyboard(steps, runs.frames_dir, [], tmp_path / "sb.png")).convert("RGB")
    assert all(runs.box_of(image, colour) is not None for colour in colours)


def test_a_step_without_a_frame_gets_a_placeholder(runs, tmp_path: Path) -> None:
    runs.frames(2)
    steps = runs.steps([Action.press("a"), Action.press("b"), Action.press("c")])
    image = Image.open(build_storyboard(steps, runs.frames_dir, [], tmp_path / "sb.png")).convert("RGB")
    assert runs.box_of(image, runs.colour(1)) and runs.box_of(image, runs.colour(2))


def test_a_run_without_steps_shows_its_initial_frame(runs, tmp_path: Path) -> None:
    runs.frames(0)
    verdict = Verdict("fail", findings=[Finding("crash", "exited with code 1 before the first action")])
    out = build_storyboard([], runs.frames_dir, verdict.findings, tmp_path / "sb.png", verdict=verdict)
    image = Image.open(out).convert("RGB")
    assert runs.box_of(image, runs.colour(0)) is not None
    assert runs.box_of(image, MARKER, min_pixels=1) is None, "no action drawn: none was taken"


# -- sampling -------------------------------------------------------------------------------------------
def test_sampling_keeps_everything_that_fits(runs) -> None:
    steps = runs.steps([Action.wait(0)] * 5)
    assert sample_steps(steps, capacity=5, keep=set()) == steps


def test_sampling_spreads_evenly_and_keeps_the_finding_steps(runs) -> None:
    steps = runs.steps([Action.wait(0)] * 100)
    chosen = [step.index for step in sample_steps(steps, capacity=10, keep={37, 38})]
    assert len(chosen) == 10
    assert chosen == sorted(chosen)
    assert {1, 37, 38, 100} <= set(chosen)
    gaps = [b - a for a, b in zip(chosen, chosen[1:], strict=False)]
    assert max(gaps) < 25, f"no long stretch of the run is left out: {chosen}"


def test_sampling_thins_the_finding_steps_when_they_alone_are_too_many(runs) -> None:
    steps = runs.steps([Action.wait(0)] * 100)
    chosen = [step.index for step in sample_steps(steps, capacity=6, keep=set(range(10, 90)))]
    assert len(chosen) == 6
    assert chosen[0] == 1 and chosen[-1] == 100
    assert all(10 <= index < 90 for index in chosen[1:-1])


# -- the animation ----------------------------------------------------------------------------------------
def test_the_animation_has_a_frame_per_screenshot(runs, tmp_path: Path) -> None:
    runs.frames(6)
    # a step without visible change repeats the previous frame; it still gets its own (labelled) frame
    (runs.frames_dir / "step-0004.png").write_bytes((runs.frames_dir / "step-0003.png").read_bytes())
    out = build_animation(runs.frames_dir, tmp_path / "run.gif", fps=5, max_side=160)

    with Image.open(out) as gif:
        assert gif.n_frames == 7
        assert max(gif.size) == 160 and gif.size == (160, 120)
        durations = []
        for index in range(gif.n_frames):
            gif.seek(index)
            durations.append(gif.info["duration"])
    assert durations[:-1] == [200] * 6
    assert durations[-1] == FINAL_FRAME_MS


def test_the_animation_needs_frames(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no frames"):
        build_animation(tmp_path, tmp_path / "run.gif")
