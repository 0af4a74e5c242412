"""The packaged prompt files: present, documented, and using only the placeholders the policy fills."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from pytest_playtest.errors import PolicyError
from pytest_playtest.policies.llm import (
    PROMPT_FILES,
    STEP_PLACEHOLDERS,
    SYSTEM_PLACEHOLDERS,
    fill,
    read_prompt,
)

ALLOWED = {"system_goal.md": SYSTEM_PLACEHOLDERS, "system_coverage.md": SYSTEM_PLACEHOLDERS,
           "user_step.md": STEP_PLACEHOLDERS}


@pytest.mark.parametrize("name", PROMPT_FILES)
def test_each_file_documents_exactly_the_placeholders_it_may_use(name):
    raw = resources.files("pytest_playtest").joinpath("prompts", name).read_text(encoding="utf-8")
    first_line, body = raw.split("\n", 1)

    assert first_line.startswith("<!-- placeholders:") and first_line.endswith("-->")
    documented = set(re.findall(r"\{([a-z_]+)\}", first_line))
    assert documented == ALLOWED[name]
    assert set(re.findall(r"\{([a-z_]+)\}", body)) <= documented


@pytest.mark.parametrize("name", PROMPT_FILES)
def test_the_loader_strips_the_comment(name):
    text = read_prompt(name)
    assert not text.startswith("<!--")
    assert text == text.strip() and text


def test_fill_is_one_pass_and_leaves_other_braces_alone():
    filled = fill('OCR: {ocr_text} JSON: {"x": 1}', {"ocr_text": "{goal}"}, "t.md")
    assert filled == 'OCR: {goal} JSON: {"x": 1}'


def test_fill_names_unknown_placeholders():
    with pytest.raises(PolicyError, match=r"t.md: unknown placeholder\(s\) \{scroe\}; this file may use \{goal\}"):
        fill("{goal} {scroe}", {"goal": "g"}, "t.md")


def test_a_user_folder_overrides_by_file_name(tmp_path):
    (tmp_path / "user_step.md").write_text("<!-- mine -->\n\nMy step {step}\n")
    assert read_prompt("user_step.md", tmp_path) == "My step {step}"
    assert read_prompt("system_goal.md", tmp_path) == read_prompt("system_goal.md")
