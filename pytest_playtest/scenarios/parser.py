"""Reading scenario files: an optional front matter block, then FSD-Bench's Step/Expectation Markdown.

The body is FSD-Bench's test case format as published (``codeagent-rl/RTADev``, ``FSD-bench/testcase/``)::

    ### Black Box Unit Test Cases

    #### Functionalities 1. Saving a note
    - **Step**: Type "milk" into "Title".
    - **Step**: Click the "Save" button.
      **Expectation**: The list shows "milk".

It is read the way its authors write it: a Functionality heading is ``Functionality N.`` or ``Functionalities
N:`` at any level, in bold or not (``### **Functionalities 1. Input**``), or only numbered (``#### 1. User
Login``), or the word and number on a line of their own (``**Functionalities 7. Search**``,
``Functionalities 1. ### Import``). A Step or Expectation marker is bold (``**Step**:``, ``**Step:**``) or plain
(``Step:``), behind any list bullet (``-``, ``•``, ``1.``, with the tabs and zero-width spaces word processors
leave). A case is the steps before an Expectation (FSD-Bench counts its cases by their Expectations); an
Expectation may follow its step on the same line, on the next line, or as a list item of its own; a line that
is none of these continues the item above it, up to a blank line (a fenced code block continues it whole).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from .. import rules
from ..errors import ScenarioError
from ..settings import CASE_MODES
from .grammar import parse_expectation
from .model import Case, Functionality, ScenarioFile, StepText

#: The front matter keys: the playtest arguments a scenario may set, ``policy`` (its tester), ``login`` (the
#: credentials of its login steps) and ``cases`` (whether they depend on each other).
FRONT_MATTER_KEYS = ("app", "strategy", "size", "env", "timeout", "policy", "sandbox", "login", "cases")
LOGIN_KEYS = ("username", "password", "email")
#: What the front matter's ``cases`` takes (``--playtest-scenario-cases`` too).
CASES = CASE_MODES
FENCE = "---"

_HEADING = re.compile(r"^\s*#{1,6}(?:\s|\*|$)")
_WORD = r"Functionalit(?:y|ies)"
#: A heading's text, bold or not, that starts a Functionality: the word and a number, or only a number.
_FUNCTIONALITY_HEADING = re.compile(rf"^(?:{_WORD}\s*)+\d+\b.*|^\d+\s*[.:)]\s*\S.*", re.I)
#: A line that is no heading but names a Functionality: "**Functionalities 7. Search**", "Functionalities 1. ### X".
_FUNCTIONALITY_LINE = re.compile(rf"^\s*(?:\*\*|__)?\s*((?:{_WORD}\s*)+\d+\s*[.:)]?)\s*(?:#{{1,6}}\s*)?(.*?)\s*$",
                                 re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
#: What may stand before a marker: spaces, tabs and zero-width spaces, then one list bullet or number.
_BULLET = r"^[\s\u200b\u200c\u200d\ufeff]*(?:(?:[-*+\u2022\u2023\u25e6\u25cf\u00b7]|\d{1,3}[.)])[\s\u200b]*)?"
#: A marker: bold with the colon in or after it ("**Step**:", "**Step:**"), or plain with its colon ("Step:").
_MARKER = r"(?:\*\*\s*{word}\s*:?\s*\*\*\s*:?|{word}\s*:)"
_STEP_WORD = "steps?"
_EXPECTATION_WORD = r"expect(?:ation|ations|ed(?:\s+result)?)"
_STEP = re.compile(_BULLET + _MARKER.format(word=_STEP_WORD) + r"\s*(.*)$", re.I)
_EXPECTATION = re.compile(rf"\*\*\s*{_EXPECTATION_WORD}\s*:?\s*\*\*\s*:?", re.I)
_EXPECTATION_LINE = re.compile(_BULLET + _MARKER.format(word=_EXPECTATION_WORD) + r"\s*(.*)$", re.I)
#: A line that is bold and nothing else ("**Test Case 2.1**"): a label between cases, never a continuation.
_LABEL = re.compile(r"^[\s\u200b\u2022\t-]*\*\*[^*]+\*\*\s*:?\s*$")


def parse_file(path: Path, *, default_app: Any = None) -> ScenarioFile:
    """Read a scenario file. ``default_app`` is the app the ini/CLI mapping gives it (used without ``app:``).

    Never raises for a malformed file: every fault is in ``problems`` or on its Functionality.
    """
    scenario = ScenarioFile(path=path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        scenario.problems.append(ScenarioError(path, 1, f"cannot read the file: {exc}"))
        return scenario
    body_start = _front_matter(scenario, lines)
    if "app" not in scenario.arguments:
        if default_app is not None:
            scenario.arguments["app"] = default_app
        elif not scenario.problems:
            scenario.problems.append(ScenarioError(path, 1, "no app to test: give it in a front matter block "
                                                            "(---, app: main.py, ---) or map the file to its app "
                                                            "with --playtest-scenario-apps"))
    _Body(scenario).read(lines, body_start)
    if not scenario.functionalities and not scenario.problems and not scenario.strays:
        scenario.problems.append(ScenarioError(path, 1, 'no "#### Functionalities N. <title>" section'))
    return scenario


def _front_matter(scenario: ScenarioFile, lines: list[str]) -> int:
    """Read the ``---`` block at the top into the scenario's arguments; the index of the body's first line."""
    path = scenario.path
    if not lines or lines[0].strip() != FENCE:
        return 0
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == FENCE), None)
    if end is None:
        scenario.problems.append(ScenarioError(path, 1, "the front matter block is not closed with ---"))
        return len(lines)
    try:
        data = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 2 + (mark.line if mark is not None else 0)
        scenario.problems.append(ScenarioError(path, line, f"front matter is not valid YAML: "
                                                           f"{getattr(exc, 'problem', None) or exc}"))
        return end + 1
    if not isinstance(data, dict):
        scenario.problems.append(ScenarioError(path, 2, f"front matter must be key: value lines, got {data!r}"))
        return end + 1
    for key, value in data.items():
        line = 1 + next((i for i in range(1, end) if lines[i].lstrip().startswith(f"{key}:")), 1)
        if key not in FRONT_MATTER_KEYS:
            scenario.problems.append(ScenarioError(path, line, f"unknown front matter key {key!r}; known: "
                                                               f"{', '.join(FRONT_MATTER_KEYS)}"))
        elif key == "policy":
            if not isinstance(value, str) or not value.strip():
                scenario.problems.append(ScenarioError(path, line, f"policy must be a policy name, got {value!r}"))
            else:
                scenario.tester = value.strip()
        elif key == "login":
            problem = login_problem(value)
            if problem:
                scenario.problems.append(ScenarioError(path, line, f"login: {problem}"))
            else:
                scenario.login = {k: str(v) for k, v in value.items()}
        elif key == "cases":
            if value not in CASES:
                scenario.problems.append(ScenarioError(path, line, f"cases must be one of {', '.join(CASES)}, "
                                                                   f"got {value!r}"))
            else:
                scenario.independent = value == "independent"
        else:
            scenario.arguments[key] = value
    return end + 1


def functionality_name(line: str) -> str | None:
    """The Functionality a line starts, as its item is named (bold and heading marks dropped), else None."""
    heading = _HEADING.match(line)
    if heading:
        title = _unbold(line[heading.end():])
        return " ".join(title.split()) if _FUNCTIONALITY_HEADING.match(title) else None
    named = _FUNCTIONALITY_LINE.match(line)
    if named is None or not named.group(2).strip("*_ "):
        return None
    return " ".join(f"{named.group(1)} {_unbold(named.group(2))}".split())


def _unbold(text: str) -> str:
    return text.strip().strip("*_").strip()


def login_problem(value: Any) -> str | None:
    """What is wrong with credentials for the login steps ({username, password[, email]}), or None."""
    if not isinstance(value, dict):
        return f"must be a mapping of {', '.join(LOGIN_KEYS)}, got {value!r}"
    unknown = [key for key in value if key not in LOGIN_KEYS]
    if unknown:
        return f"unknown key {unknown[0]!r}; known: {', '.join(LOGIN_KEYS)}"
    missing = [key for key in LOGIN_KEYS[:2] if not isinstance(value.get(key), str | int) or not str(value[key])]
    return f"{missing[0]} is missing" if missing else None


class _Body:
    """The Markdown body, line by line: headings open Functionalities, Steps gather until an Expectation."""

    def __init__(self, scenario: ScenarioFile) -> None:
        self.scenario = scenario
        self.heading: tuple[str, int] | None = None
        self.cases: list[Case] = []
        self.steps: list[StepText] = []
        self.problem: ScenarioError | None = None
        #: the item a continuation line extends: "step", "expectation" or None
        self.open: str | None = None
        self.names: set[str] = set()
        self.stray = False
        self.fenced = False
        self.fence_indent = 0

    def read(self, lines: list[str], start: int) -> None:
        for index in range(start, len(lines)):
            self.line(lines[index], index + 1)
        self.close_functionality()

    def line(self, text: str, number: int) -> None:
        fence = _FENCE.match(text)
        if fence or self.fenced:
            if fence and not self.fenced:
                self.fence_indent = len(text) - len(text.lstrip())
            self.fenced = self.fenced != bool(fence)
            self.continue_item(text[min(self.fence_indent, len(text) - len(text.lstrip())):], code=True)
            return
        name = functionality_name(text)
        if name is not None or _HEADING.match(text):
            self.close_functionality()
            if name is not None:
                self.heading, self.stray = (name, number), False
            return
        step = _STEP.match(text)
        expectation = _EXPECTATION_LINE.match(text)
        if step:
            self.add_step(step.group(1), number)
        elif expectation:
            self.add_expectation(expectation.group(1), number)
        elif not text.strip() or _LABEL.match(text):
            self.open = None
        else:
            self.continue_item(text)

    def continue_item(self, text: str, *, code: bool = False) -> None:
        """The line extends the open item: joined with a space, or kept as a line of its own in a code block."""
        if not text.strip() and not code:
            return
        if self.open == "step" and self.steps:
            last = self.steps[-1]
            joined = f"{last.text}\n{text.rstrip()}" if code else f"{last.text} {text.strip()}"
            self.steps[-1] = StepText(joined, last.line)
        elif self.open == "expectation" and self.cases:
            last_case = self.cases[-1]
            self.cases[-1] = replace(last_case, expectation=f"{last_case.expectation} {text.strip()}")

    def add_step(self, rest: str, number: int) -> None:
        if self.heading is None:
            self.stray_item(number, 'a Step outside any "#### Functionalities N. <title>" section')
            return
        inline = _EXPECTATION.search(rest)
        text = rest[:inline.start()] if inline else rest
        if not text.strip():
            self.case_problem(number, "a Step without text")
        self.steps.append(StepText(text.strip(), number))
        self.open = "step"
        if inline:
            self.add_expectation(rest[inline.end():], number)

    def add_expectation(self, text: str, number: int) -> None:
        if self.heading is None:
            self.stray_item(number, 'an Expectation outside any "#### Functionalities N. <title>" section')
            return
        if not text.strip():
            self.case_problem(number, "an Expectation without text")
        first_line = self.steps[0].line if self.steps else number
        self.cases.append(Case(len(self.cases) + 1, tuple(self.steps), text.strip(), first_line, number))
        self.steps = []
        self.open = "expectation"

    def close_functionality(self) -> None:
        if self.heading is not None:
            name, line = self.heading
            if self.steps:
                self.case_problem(self.steps[0].line, f"{len(self.steps)} Step(s) without an Expectation after them")
            self.check_rules()
            if not self.cases and self.problem is None:
                self.case_problem(line, "no test case (a **Step** and its **Expectation**) under this heading")
            if name in self.names:
                name = f"{name} (line {line})"
            self.names.add(name)
            self.scenario.functionalities.append(Functionality(name, line, tuple(self.cases), self.problem))
        self.heading, self.cases, self.steps, self.problem, self.open = None, [], [], None, None

    def check_rules(self) -> None:
        """A rule in backticks that does not parse is a fault of its case, found before anything runs."""
        for case in self.cases:
            for source in parse_expectation(case.expectation).rules:
                try:
                    rules.parse(source)
                except rules.RuleError as exc:
                    self.case_problem(case.expectation_line, f"Expectation of case {case.number}: {exc}")

    def case_problem(self, number: int, message: str) -> None:
        if self.problem is None:  # the first fault is the one to fix
            self.problem = ScenarioError(self.scenario.path, number, message)

    def stray_item(self, number: int, message: str) -> None:
        """A Step or Expectation outside any Functionality: the first of a stretch of them is the fault."""
        if not self.stray:
            self.scenario.strays.append(ScenarioError(self.scenario.path, number, message))
        self.stray = True
