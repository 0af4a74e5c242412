"""Helpers shared by check_apps.py and reproduce.py: manifests, mutants, Xvfb, launching, X input, probes.

Stdlib only, except `Xlib` (python-xlib), `mss` and `rapidocr`, which the project's venv has and which are
imported only where needed. External tools: Xvfb and xdotool.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
APPS = HERE / "apps"
VENV_PYTHON = Path("/work/main/.venv/bin/python")
KINDS = ("crash", "exception", "freeze", "unresponsive", "expectation")
EXPECT_KEYS = ("text", "no_text", "final_text", "alive")
DISPLAYS = range(70, 80)


# -- manifests and mutants ------------------------------------------------------------------------------
def app_names() -> list[str]:
    return sorted(p.name for p in APPS.iterdir() if (p / "bugs.json").is_file())


def load_manifest(app: str) -> dict:
    return json.loads((APPS / app / "bugs.json").read_text(encoding="utf-8"))


def find_bug(manifest: dict, name: str) -> dict:
    for bug in manifest["bugs"]:
        if bug["name"] == name:
            return bug
    raise KeyError(f"no bug {name!r}; known: {[b['name'] for b in manifest['bugs']]}")


def mutate(source: str, bug: dict) -> str:
    """The source with the bug's line_before replaced by line_after (exactly one occurrence, whole line)."""
    lines = source.split("\n")
    hits = [i for i, line in enumerate(lines) if line == bug["line_before"]]
    if len(hits) != 1:
        raise ValueError(f"{bug['name']}: line_before occurs {len(hits)} times as a whole line in {bug['file']}")
    lines[hits[0]] = bug["line_after"]
    return "\n".join(lines)


def copy_app(app: str, bug: str | None = None) -> Path:
    """A temporary copy of the app folder, with `bug` applied; the caller removes it."""
    target = Path(tempfile.mkdtemp(prefix=f"detect-{app}-"))
    shutil.copytree(APPS / app, target, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "bugs.json"))
    if bug is not None:
        spec = find_bug(load_manifest(app), bug)
        path = target / spec["file"]
        path.write_text(mutate(path.read_text(encoding="utf-8"), spec), encoding="utf-8")
    return target


# -- Xvfb ---------------------------------------------------------------------------------------------------
class Xvfb:
    """A private X server on the first free display of :70-:79. -noreset: without it the server regenerates
    whenever its last client leaves (between two app runs), and a connection made just then is reset."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.display = ""

    def __enter__(self) -> Xvfb:
        for number in DISPLAYS:
            if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
                continue
            argv = ["Xvfb", f":{number}", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"]
            self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if Path(f"/tmp/.X11-unix/X{number}").exists():
                    self.display = f":{number}"
                    time.sleep(0.2)
                    return self
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
            self.stop()
        raise RuntimeError("no free X display in :70-:79")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __exit__(self, *_exc: object) -> None:
        self.stop()


# -- windows --------------------------------------------------------------------------------------------------
@dataclass
class Window:
    wid: int
    x: int
    y: int
    width: int
    height: int
    name: str


def top_windows(display: str) -> list[Window]:
    """Mapped top-level windows of the display, at least 50x50 (python-xlib)."""
    from Xlib import X, error
    from Xlib import display as xdisplay

    conn = xdisplay.Display(display)
    try:
        found = []
        for child in conn.screen().root.query_tree().children:
            try:
                attrs = child.get_attributes()
                if attrs.map_state != X.IsViewable:
                    continue
                geo = child.get_geometry()
                if geo.width < 50 or geo.height < 50:
                    continue
                name = child.get_wm_name() or ""
                found.append(Window(child.id, geo.x, geo.y, geo.width, geo.height, str(name)))
            except error.XError:
                continue
        return found
    finally:
        conn.close()


def reset_focus(display: str) -> None:
    """Keyboard focus back to PointerRoot, as on a fresh server: when a focused window of an earlier app is
    destroyed, the focus may revert to None, and no key would reach the next app."""
    from Xlib import X
    from Xlib import display as xdisplay

    conn = xdisplay.Display(display)
    try:
        conn.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
        conn.sync()
    finally:
        conn.close()


# -- a running app --------------------------------------------------------------------------------------------
@dataclass
class Running:
    app: str
    bug: str | None
    display: str
    folder: Path
    proc: subprocess.Popen
    out_path: Path
    err_path: Path
    window: Window | None = None
    notes: list[str] = field(default_factory=list)

    # process
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr(self) -> str:
        return self.err_path.read_text(encoding="utf-8", errors="replace")

    def tracebacks(self) -> int:
        return self.stderr().count("Traceback (most recent call last)")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def busy(self, seconds: float = 1.0) -> float:
        """Share of one core the app used over `seconds` (a busy loop is near 1.0, an idle Tk app near 0)."""
        start = self.cpu_seconds()
        time.sleep(seconds)
        return (self.cpu_seconds() - start) / seconds

    def runnable(self, seconds: float = 1.5, samples: int = 30) -> float:
        """Share of samples in which the process was running or runnable (state R). A busy loop is R nearly
        always, also when other work on the machine leaves it little CPU; an idle or frame-limited app sleeps."""
        hits = 0
        for _ in range(samples):
            state = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            hits += state == "R"
            time.sleep(seconds / samples)
        return hits / samples

    def stop(self) -> int | None:
        """SIGTERM, wait up to 5 s; SIGKILL if needed. Returns the exit code (None if it had to be killed)."""
        code = self.proc.poll()
        if code is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                code = None
        shutil.rmtree(self.folder, ignore_errors=True)
        return code

    # input (real X input through XTEST)
    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)

    def point(self, x: int, y: int) -> None:
        assert self.window is not None
        self.xdotool("mousemove", str(self.window.x + x), str(self.window.y + y))

    def click(self, x: int, y: int, button: int = 1) -> None:
        self.point(x, y)
        time.sleep(0.08)
        self.xdotool("click", str(button))

    def key(self, *names: str, delay_ms: int = 150) -> None:
        self.xdotool("key", "--delay", str(delay_ms), *names)

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "60", text)

    # pixels
    def grab(self) -> bytes:
        import mss

        assert self.window is not None
        w = self.window
        with mss.mss(display=self.display) as shot:
            image = shot.grab({"left": w.x, "top": w.y, "width": w.width, "height": w.height})
            return bytes(image.rgb)

    def frame_hash(self) -> str:
        return hashlib.sha1(self.grab()).hexdigest()[:12]

    def save_png(self, path: Path) -> None:
        import mss
        import mss.tools

        assert self.window is not None
        w = self.window
        with mss.mss(display=self.display) as shot:
            image = shot.grab({"left": w.x, "top": w.y, "width": w.width, "height": w.height})
            mss.tools.to_png(image.rgb, image.size, output=str(path))

    def ocr(self) -> str:
        """The window's text as rapidocr reads it, boxes joined with spaces, top to bottom."""
        png = Path(tempfile.mkstemp(suffix=".png")[1])
        try:
            self.save_png(png)
            result = _ocr_engine()(str(png))
            boxes = list(zip(result.boxes, result.txts, strict=True)) if result.txts else []
            boxes.sort(key=lambda item: (round(min(p[1] for p in item[0]) / 12), min(p[0] for p in item[0])))
            return " ".join(text for _box, text in boxes)
        finally:
            png.unlink(missing_ok=True)


_OCR = None


def _ocr_engine():
    global _OCR
    if _OCR is None:
        import logging

        from rapidocr import RapidOCR

        logging.getLogger("RapidOCR").setLevel(logging.WARNING)
        _OCR = RapidOCR()
    return _OCR


def launch(app: str, display: str, bug: str | None = None, seed: int = 0, wait_window: float = 8.0) -> Running:
    """Start a copy of the app (with `bug` applied) on `display` and wait for its window."""
    folder = copy_app(app, bug)
    manifest = load_manifest(app)
    out_path, err_path = folder / ".stdout", folder / ".stderr"
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY",)}
    env.update(DISPLAY=display, PLAYTEST_SEED=str(seed), PYTHONUNBUFFERED="1")
    reset_focus(display)
    before = {w.wid for w in top_windows(display)}
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen([str(VENV_PYTHON), manifest.get("entry", "main.py")], cwd=folder, env=env,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    run = Running(app, bug, display, folder, proc, out_path, err_path)
    deadline = time.monotonic() + wait_window
    while time.monotonic() < deadline and run.alive():
        new = [w for w in top_windows(display) if w.wid not in before]
        if new:
            run.window = max(new, key=lambda w: w.width * w.height)
            time.sleep(0.5)  # first paint
            # Tk may resize its toplevel once after mapping; read the geometry again
            again = [w for w in top_windows(display) if w.wid == run.window.wid]
            if again:
                run.window = again[0]
            break
        time.sleep(0.1)
    return run


def python_ok() -> None:
    if not VENV_PYTHON.exists():
        sys.exit(f"{VENV_PYTHON} is missing: create the project's venv first")


def first_line_match(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE) is not None
