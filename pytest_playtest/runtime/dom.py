"""Reading a web app's DOM in one script: its visible text, the facts its rules need, its clickable elements.

Each read is one ``Runtime.evaluate`` over the DevTools pipe (well under a millisecond for a small page);
with ``--app``, one CSS pixel is one screen pixel, so an element's box is its ``getBoundingClientRect()``
in window coordinates.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import DomError
from ..geometry import Box
from ..rules import Fact, Query

if TYPE_CHECKING:
    from .browser import Browser

#: How one element is found: a CSS selector, or (for a bare name that matches nothing) an id.
_FIND = """
const find = (selector) => {
  const found = document.querySelector(selector);
  if (found || !/^[A-Za-z][\\w-]*$/.test(selector)) return found;
  return document.getElementById(selector);
};
const visible = (el) => {
  if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
};
const valueOf = (el) => {
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) return String(el.checked);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
    return el.value;
  }
  return (visible(el) ? el.innerText : el.textContent).trim();
};
"""

_READ = _FIND + """
const fact = (query) => {
  let el;
  try { el = find(query.selector); } catch (error) { return {error: String(error.message || error)}; }
  if (!el) return {exists: false, visible: false, value: null};
  const value = query.attribute === null ? valueOf(el) : el.getAttribute(query.attribute);
  return {exists: true, visible: visible(el), value};
};
const canvas = [...document.querySelectorAll("canvas")].some(visible);
return {text: document.body ? document.body.innerText : "", facts: QUERIES.map(fact), canvas};
"""

#: What counts as clickable: controls, links within the app, ARIA buttons, inline handlers, elements a script
#: listens to for clicks (the DevTools console's getEventListeners), and what shows a hand cursor.
_CLICKABLES = _FIND + """
const controls = "button, a[href], input:not([type=hidden]), select, textarea, summary, label[for], " +
  "[onclick], [role=button], [role=link], [role=checkbox], [role=tab], [role=menuitem], canvas";
const seen = new Set(document.querySelectorAll(controls));
const field = (el) => !!el && ["INPUT", "TEXTAREA"].includes(el.tagName)
  && !["button", "submit", "image", "reset", "checkbox", "radio"].includes(el.type);
const pressed = ["click", "mousedown", "mouseup", "pointerdown", "pointerup"];  // (a mouse sends no touch events)
const listens = (el) => typeof getEventListeners === "function"
  && pressed.some((type) => (getEventListeners(el)[type] || []).length > 0);
const container = (el) => {  // a listener on a wrapper around the page is delegation, not a control
  const box = el.getBoundingClientRect();
  return box.width * box.height > 0.5 * innerWidth * innerHeight;
};
for (const el of document.body ? document.body.querySelectorAll("*") : []) {
  if ((el.onclick || getComputedStyle(el).cursor === "pointer" || listens(el)) && !container(el)) seen.add(el);
}
const out = [];
for (const el of seen) {
  if (!visible(el) || el.disabled) continue;
  if (el instanceof HTMLAnchorElement && el.protocol.startsWith("http") && el.origin !== location.origin) {
    continue;  // a link out of the app is not the app's control (and is not followed)
  }
  if (el.parentElement && seen.has(el.parentElement.closest(controls) || null) && el.tagName !== "CANVAS") {
    continue;  // a label inside its button is the button
  }
  const box = el.getBoundingClientRect();
  const x = Math.max(0, Math.round(box.left)), y = Math.max(0, Math.round(box.top));
  const w = Math.min(innerWidth, Math.round(box.right)) - x, h = Math.min(innerHeight, Math.round(box.bottom)) - y;
  if (w < 2 || h < 2) continue;
  const tag = el.tagName.toLowerCase();
  if (tag === "select") {
    const options = [...el.options].map((option) => option.text.trim());
    out.push({x, y, w, h, kind: "choice", text: el.selectedOptions.length ? el.selectedOptions[0].text : "", options});
    continue;
  }
  // a label stands for its field: a click on it shows no more than the field's focus
  const kind = field(tag === "label" ? el.control : el) ? "field" : (tag === "canvas" ? "shape" : "button");
  // a canvas takes clicks only where a script listens for them: on it, or on the document or window around it
  const handles = tag !== "canvas" || listens(el) || listens(document) || listens(window);
  out.push({x, y, w, h, kind, handles,
            text: (el.innerText || el.value || el.getAttribute("aria-label") || "").trim()});
}
return out;
"""


@dataclass(frozen=True)
class DomState:
    """One read of the page: its visible text, a Fact per query, and whether it shows a canvas."""

    text: str
    facts: dict[Query, Fact] = field(default_factory=dict)
    canvas: bool = False


@dataclass(frozen=True)
class Clickable:
    """An element a user would click, with its box in window coordinates."""

    box: Box
    kind: str  # "button", "field", "choice" (a select) or "shape" (a canvas)
    text: str = ""
    options: tuple[str, ...] = ()  # a select's options, in order
    #: whether the page takes clicks there (a canvas no script listens to for clicks does not)
    handles: bool = True


def _script(body: str, **constants: Any) -> str:
    prelude = "".join(f"const {name} = {json.dumps(value)};\n" for name, value in constants.items())
    return f"(() => {{\n{prelude}{body}}})()"


def read(browser: Browser, queries: Sequence[Query], *, timeout: float) -> DomState:
    """The page's text and the facts ``queries`` ask for; DevToolsTimeout when the page does not answer."""
    wire = [{"selector": q.selector, "attribute": q.attribute} for q in queries]
    result = browser.evaluate(_script(_READ, QUERIES=wire), timeout=timeout)
    facts = {}
    for query, raw in zip(queries, result["facts"], strict=True):
        if "error" in raw:
            raise DomError(f"the selector {query.selector!r} is not valid CSS: {raw['error']}")
        facts[query] = Fact(bool(raw["exists"]), bool(raw["visible"]), raw["value"])
    return DomState(str(result["text"]), facts, bool(result["canvas"]))


_ADDRESS = """
const heading = document.querySelector("h1, h2");
return [document.title, location.pathname, heading ? heading.innerText : ""].join("\\n");
"""


def address(browser: Browser, *, timeout: float) -> str:
    """Where the page is: its title, its address path and its first heading, one per line."""
    return str(browser.evaluate(_script(_ADDRESS), timeout=timeout))


_REFUSED_SUBMIT = """
const hit = document.elementFromPoint(X, Y);
const control = hit && hit.closest("button, input[type=submit], input[type=image]");
if (!control || !control.form || !["submit", "image"].includes(control.type)) return false;
return !control.form.noValidate && !control.formNoValidate && control.form.matches(":invalid");
"""


def refused_submit(browser: Browser, point: tuple[int, int], *, timeout: float) -> bool:
    """Whether the control at ``point`` submits a form whose fields do not validate: a click on it makes the
    browser show its own "Please fill out this field" bubble, which the page's pixels do not hold."""
    return bool(browser.evaluate(_script(_REFUSED_SUBMIT, X=point[0], Y=point[1]), timeout=timeout))


_ANIMATIONS_LEFT = """
let left = 0;
for (const animation of document.getAnimations()) {
  if (animation.playState !== "running" || !animation.effect) continue;
  const timing = animation.effect.getComputedTiming();
  if (!Number.isFinite(timing.endTime)) continue;
  const rate = Math.abs(animation.playbackRate) || 1;
  left = Math.max(left, (timing.endTime - (timing.localTime ?? 0)) / rate);
}
return left / 1000;
"""


def animations_left(browser: Browser, *, timeout: float) -> float:
    """Seconds until the page's running CSS transitions and finite animations (a tile sliding, a score floating
    up) have all ended; 0 when none runs. Animations that repeat for ever are the page's own motion: not
    counted."""
    return max(float(browser.evaluate(_script(_ANIMATIONS_LEFT), timeout=timeout)), 0.0)


def clickables(browser: Browser, *, timeout: float) -> list[Clickable]:
    """The visible, enabled elements a user can click, outermost first, in document order."""
    found = browser.evaluate(_script(_CLICKABLES), timeout=timeout, console=True)
    return [Clickable(Box(item["x"], item["y"], item["w"], item["h"]), item["kind"], item["text"],
                      tuple(item.get("options", ())), bool(item.get("handles", True))) for item in found]
