"""The animation: the frames of a run as a looping GIF."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageOps

from ..files import frame_step, frames_in
from .drawing import BACKGROUND, MARKER, get_font

#: How long the last frame stays up, so the end state can be read before the loop restarts.
FINAL_FRAME_MS = 1500


def build_animation(frames_dir: Path, out: Path, *, fps: float = 4, max_side: int = 480) -> Path:
    """Write the frames of a run as a looping GIF (each frame labelled with its step) and return its path."""
    frames = frames_in(Path(frames_dir))
    if not frames:
        raise ValueError(f"no frames (step-NNNN.png) in {frames_dir}")
    with Image.open(frames[0]) as first:
        scale = min(1.0, max_side / max(first.size))
        size = (max(1, round(first.width * scale)), max(1, round(first.height * scale)))
    label_font = get_font(12, bold=True)
    images = []
    for frame in frames:
        with Image.open(frame) as opened:
            rgb = opened.convert("RGB")
        picture = ImageOps.pad(rgb, size, method=Image.Resampling.BILINEAR, color=BACKGROUND)
        step = frame_step(frame)
        label = "start" if step == 0 else f"step {step}"
        draw = ImageDraw.Draw(picture)
        label_width = draw.textlength(label, font=label_font)
        draw.rectangle((0, 0, label_width + 10, 18), fill=(16, 16, 16))
        draw.text((5, 9), label, fill=MARKER, font=label_font, anchor="lm")
        # a per-frame octree palette: half the time of the median cut Pillow would apply on save
        images.append(picture.quantize(256, method=Image.Quantize.FASTOCTREE))
    frame_ms = round(1000 / fps)
    durations = [frame_ms] * (len(images) - 1) + [max(frame_ms, FINAL_FRAME_MS)]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(out, save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out
