"""What kind of app is under test — a desktop window or a web page in Chromium — decided once, at the first
launch, from ``app=``; and every part of the loop that differs between the two.

The loop asks its ``Surface`` how a launch starts, what reads the app's text for the expectations, where the
controls of a frame are (cached per frame on both: the widget detector on the desktop, the DOM on the web),
whether a click landed on one, what the app reports about itself (a page's errors), what a policy sees of it
(``Observation.page``) and what its source handles.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from ..errors import AppError
from ..geometry import Box
from ..rules import refused_on_desktop
from ..runtime.app import App
from ..runtime.browser import Browser, WebTarget, web_target
from ..runtime.coverage import CoverageSetup
from ..runtime.display import Display
from ..runtime.sandbox import Sandbox
from ..source import Vocabulary, scan_app
from ..source.web import scan_web_app
from ..vision import Vision, Widget
from ..vision.thresholds import BEVEL
from .expectations import ExpectationTracker
from .thresholds import DISABLED_CONTRAST, DISABLED_PERCENTILES, DOM_READ_TIMEOUT
from .web import DomReader, PageWatch, WebPage
from .workers import TextReader


class Surface(ABC):
    """The loop's view of one kind of app; one per run, following the run's launches."""

    #: whether a launch can be measured under coverage (Python apps only)
    measures_coverage = True
    #: whether the loop answers the dialogs the app opens (a web page's are the browser's, answered over DevTools)
    own_dialogs = True
    #: whether what looks like a button is known to be one (a page's DOM says so; pixels only suggest it)
    knows_its_buttons = False

    def __init__(self, vision: Vision) -> None:
        self.vision = vision

    @abstractmethod
    def new_launch(self, display: Display, *, env: Mapping[str, str], coverage: CoverageSetup | None,
                   sandbox: Callable[[], Sandbox | None], seed: int, replay: bool = False) -> App:
        """A new launch of the app, not started yet (``coverage`` and ``sandbox`` as Python apps take them), its
        randomness seeded with ``seed``; in a ``replay``, a web page gets its files in the order it asked for
        them."""

    @abstractmethod
    def root(self) -> Path:
        """The app's folder: where its own code lives (a frame in it is the app's; its texts are produced there)."""

    def follow(self, app: App) -> None:  # noqa: B027 (a desktop surface holds nothing of a launch)
        """Look at this launch from now on (the run launched the app again)."""

    def watch(self, app: App, notes: list[str]) -> PageWatch | None:
        """What the app reports about itself beyond its output (a page's errors), for the oracles."""
        return None

    def page(self) -> WebPage | None:
        """The page as policies see it (``Observation.page``); None on the desktop."""
        return None

    @abstractmethod
    def reader(self, tracker: ExpectationTracker) -> TextReader | DomReader | None:
        """What reads the app's text for the expectations (None: nothing needs reading)."""

    @abstractmethod
    def final_text(self, app: App, tracker: ExpectationTracker) -> str:
        """The app's text at the end of the run, for the expectations on the last frame."""

    @abstractmethod
    def widgets(self, frame: np.ndarray, key: str) -> list[Widget]:
        """The controls of the frame of this hash (found once per frame)."""

    @abstractmethod
    def known_widgets(self, key: str) -> list[Widget]:
        """The controls of this frame where finding them costs no OCR pass (else none)."""

    @abstractmethod
    def on_button(self, target: tuple[int, int], frame: np.ndarray, key: str) -> bool:
        """Whether a click at ``target`` landed on an enabled-looking button (a control that should react); on a
        web page, on an enabled button the DOM lists, unless it submits a form the browser refused for its
        fields (its "Please fill out this field" bubble is no part of the page's pixels). A field is not
        judged: what a click shows there is focus, often no more than its blinking cursor."""

    @abstractmethod
    def vocabulary(self) -> Vocabulary | None:
        """The inputs the app's source handles (None: its source cannot be read)."""

    def handles_click(self, target: tuple[int, int], key: str) -> bool:
        """Whether the app takes a click there, as far as it can tell (a desktop app: wherever its code handles
        clicks)."""
        return True


class DesktopSurface(Surface):
    """A desktop app: its window's pixels, OCR and the widget detector; its Python source."""

    def __init__(self, vision: Vision, app: str | Sequence[str], cwd: Path | None,
                 rules: Sequence[str] = ()) -> None:
        super().__init__(vision)
        self.app, self.cwd, self.rules = app, cwd, rules

    def root(self) -> Path:
        """The working directory the app runs in, else the folder of the script its command line names."""
        if self.cwd is not None:
            return Path(self.cwd).resolve()
        argv = [self.app] if isinstance(self.app, str) else list(self.app)
        script = next((Path(part) for part in argv if part.endswith(".py")), None)
        return script.resolve().parent if script is not None else Path.cwd()

    def new_launch(self, display: Display, *, env: Mapping[str, str], coverage: CoverageSetup | None,
                   sandbox: Callable[[], Sandbox | None], seed: int, replay: bool = False) -> App:
        if self.rules:
            raise AppError(refused_on_desktop(self.rules[0], self.app))
        return App(self.app, display, cwd=self.cwd, env=env, coverage=coverage, sandbox=sandbox(), seed=seed)

    def reader(self, tracker: ExpectationTracker) -> TextReader | None:
        return TextReader(self.vision, tracker.observe_text) if tracker.needs_text else None

    def final_text(self, app: App, tracker: ExpectationTracker) -> str:
        if not tracker.needs_text or not (app.has_window and app.alive):
            return ""  # an app that exited shows nothing
        from ..runtime.screen import Screen

        screen = Screen(app.display, app)
        try:
            return self.vision.text(screen.screenshot(), key=screen.last_hash)
        except AppError:
            return ""
        finally:
            screen.close()

    def widgets(self, frame: np.ndarray, key: str) -> list[Widget]:
        return self.vision.widgets(frame, key)

    def known_widgets(self, key: str) -> list[Widget]:
        return self.vision.cached_widgets(key) or []

    def on_button(self, target: tuple[int, int], frame: np.ndarray, key: str) -> bool:
        return any(w.kind == "button" and w.surely_hit_by(*target) and w.marked_at_centre(frame)
                   and not greyed_out(frame, w.box) for w in self.widgets(frame, key))

    def vocabulary(self) -> Vocabulary | None:
        return scan_app(self.app, self.cwd, names_under=self.root())


class WebSurface(Surface):
    """A web page in Chromium: its DOM (text, clickable elements, rules' facts) and its scripts and markup."""

    measures_coverage = False
    own_dialogs = False
    knows_its_buttons = True

    def __init__(self, vision: Vision, target: WebTarget) -> None:
        super().__init__(vision)
        self.target = target
        self.browser: Browser | None = None  # the current launch
        self._reader: DomReader | None = None
        self._widgets: tuple[str, list[Widget]] | None = None  # the last frame's key and its clickables

    def root(self) -> Path:
        """The folder the page's files are served from (a page on a server: the current directory)."""
        return self.target.root or Path.cwd()

    def new_launch(self, display: Display, *, env: Mapping[str, str], coverage: CoverageSetup | None,
                   sandbox: Callable[[], Sandbox | None], seed: int, replay: bool = False) -> App:
        self.browser = Browser(self.target, display, env=env, size=display.size, seed=seed, in_order=replay)
        return self.browser

    def follow(self, app: App) -> None:
        self._widgets = None
        if self._reader is not None:
            self._reader.browser = self._current()

    def watch(self, app: App, notes: list[str]) -> PageWatch:
        return PageWatch(self._current(), notes)

    def page(self) -> WebPage:
        return WebPage(self._current(), timeout=DOM_READ_TIMEOUT)

    def reader(self, tracker: ExpectationTracker) -> DomReader:
        self._reader = DomReader(self._current(), tracker, self.vision, timeout=DOM_READ_TIMEOUT)
        return self._reader

    def final_text(self, app: App, tracker: ExpectationTracker) -> str:
        return self._reader.final_text() if self._reader is not None else ""

    def widgets(self, frame: np.ndarray | None, key: str) -> list[Widget]:
        if self._widgets is None or self._widgets[0] != key:
            self._widgets = (key, self.page().widgets())
        return list(self._widgets[1])

    def known_widgets(self, key: str) -> list[Widget]:
        return self.widgets(None, key)  # a DOM read, no OCR

    def on_button(self, target: tuple[int, int], frame: np.ndarray, key: str) -> bool:
        return (any(w.kind == "button" and w.box.contains(*target) for w in self.widgets(frame, key))
                and not self.page().refused_submit(target))

    def handles_click(self, target: tuple[int, int], key: str) -> bool:
        """A page takes a click on an element that handles it: a control, an element a script listens to, a canvas
        a script listens to for clicks; not a bare part of the page nor a canvas drawn on for the keys."""
        return any(w.handles and w.box.contains(*target) for w in self.known_widgets(key))

    def vocabulary(self) -> Vocabulary | None:
        if self.target.root is None:
            return None  # a URL's source is not ours to read
        return scan_web_app(self.target.root)

    def _current(self) -> Browser:
        if self.browser is None:
            raise AppError("the web page has not been opened")
        return self.browser


def surface_of(app: str | Sequence[str], cwd: Path | None, vision: Vision, *, rules: Sequence[str] = ()
               ) -> Surface:
    """The surface ``app`` names: a web page (an .html file, a folder with index.html, a loopback URL) or a
    desktop app; AppError for a web app that cannot be opened. ``rules`` (DOM rules) refuse a desktop app."""
    target = web_target(app, cwd)
    if target is not None:
        return WebSurface(vision, target)
    return DesktopSurface(vision, app, cwd, rules)


def greyed_out(frame: np.ndarray, box: Box) -> bool:
    """A widget drawn in low contrast is disabled, as toolkits draw it (grey text on a grey face): it does
    nothing on purpose, so it is never judged unresponsive."""
    inner = box.expand(-BEVEL)  # without the bevel, whose highlight and shadow have full contrast either way
    crop = frame[inner.y : inner.bottom, inner.x : inner.right]
    if not crop.size:
        return False
    low, face, high = np.percentile(crop.mean(axis=2), DISABLED_PERCENTILES)
    return bool(max(face - low, high - face) < DISABLED_CONTRAST)
