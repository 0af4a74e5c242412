"""The DOM rule grammar (``expect.rule``): parsing and judging, one test per form of the grammar.

The facts the rules are judged on here are what a DOM read returns; tests/test_web.py judges the same
forms on a real page in Chromium.
"""

from __future__ import annotations

import pytest

from pytest_playtest import expect
from pytest_playtest.errors import ExpectationError, RuleError
from pytest_playtest.rules import Fact, Query, as_number, parse


def judge(source: str, **facts: Fact) -> bool:
    """Judge a rule on facts named by selector (the attribute query of a selector gets the same fact)."""
    rule = parse(source)
    return rule.holds({q: facts.get(q.selector, Fact(False)) for q in rule.queries})


def shown(value: str, visible: bool = True) -> Fact:
    return Fact(True, visible, value)


@pytest.mark.parametrize(("source", "value", "holds"), [
    ("#score > 0", "Score: 12", True), ("#score > 12", "12", False), ("#score >= 12", "12", True),
    ("#score < 0", "-3", True), ("#score <= -3.5", "-3", False), ("#score == 12", "12.0", True),
    ("#score != 12", "12", False), ("#score > 0", "none yet", False), ("#score >= 1000", "1,250", True),
])
def test_numeric_comparisons(source: str, value: str, holds: bool) -> None:
    assert judge(source, **{"#score": shown(value)}) is holds


@pytest.mark.parametrize(("source", "value", "holds"), [
    ("#status == 'Won'", "Won", True), ("#status == 'Won'", "won", False), ('#status == "Won"', "Won", True),
    ("#status != 'Lost'", "Won", True), ("#status != 'Won'", "Won", False),
    ("#log contains 'Social Ad'", "a Social Ad here", True), ("#log contains 'social ad'", "Social Ad", False),
    ("#log icontains 'social ad'", "SOCIAL AD", True), ("#time startswith '05:'", "05:00", True),
    ("#time endswith ':00'", "05:00", True), ("#time endswith ':30'", "05:00", False),
    ("#q == 'it\\'s'", "it's", True),
])
def test_text_comparisons(source: str, value: str, holds: bool) -> None:
    selector = source.split()[0]
    assert judge(source, **{selector: shown(value)}) is holds


def test_visible_and_not_visible() -> None:
    assert judge("#menu visible", **{"#menu": shown("", visible=True)})
    assert not judge("#menu visible", **{"#menu": shown("", visible=False)})
    assert judge("#menu not visible", **{"#menu": shown("", visible=False)})
    assert judge("#menu not visible")  # an element that does not exist is not visible
    assert not judge("#menu visible")


def test_exists_for_ids_classes_and_attribute_selectors() -> None:
    assert judge("#board exists", **{"#board": shown("")})
    assert not judge("#board exists")
    assert judge(".tile exists", **{".tile": shown("")})
    assert judge("[data-cell^='a'] exists", **{"[data-cell^='a']": shown("")})
    assert judge("#board not exists")
    assert judge("#slides .slide:first-child.expanded.exists",
                 **{"#slides .slide:first-child.expanded": shown("")})  # AUI-Gym's suffix form


def test_attribute_comparisons_read_the_attribute() -> None:
    rule = parse("#slides .slide button[aria-expanded] == 'true'")
    (query,) = rule.queries
    assert query == Query("#slides .slide button[aria-expanded]", "aria-expanded")
    assert rule.holds({query: Fact(True, True, "true")})
    assert not rule.holds({query: Fact(True, True, "false")})
    assert not rule.holds({query: Fact(True, True, None)})  # no such attribute
    assert parse("[data-x='a'] exists").queries == [Query("[data-x='a']")]  # a filter, not a read


def test_and_binds_tighter_than_or() -> None:
    source = "#a == 'x' AND #b contains 'y' OR #c exists"
    assert judge(source, **{"#a": shown("x"), "#b": shown("yes")})
    assert not judge(source, **{"#a": shown("x"), "#b": shown("no")})
    assert judge(source, **{"#c": shown("")})
    assert len(parse(source).groups) == 2
    assert judge("#audioStatus == 'Paused' AND #syncBadge != 'Sync: Off'",
                 **{"#audioStatus": shown("Paused"), "#syncBadge": shown("Sync: On")})


def test_keywords_inside_quotes_and_selectors_do_not_split() -> None:
    rule = parse("#log contains 'rock AND roll' OR #x[data-mode='a OR b'] exists")
    assert [len(group) for group in rule.groups] == [1, 1]
    assert rule.groups[0][0].value == "rock AND roll"
    assert parse("#list > li > 3").queries == [Query("#list > li")]  # the child combinator stays


@pytest.mark.parametrize("source", ["", "#score", "#score >", "#score > abc", "#a == 'x' AND", "OR #a exists",
                                    "#a [x == 'b'", "== 3"])
def test_bad_rules_are_clear_errors(source: str) -> None:
    with pytest.raises(RuleError, match="rule"):
        parse(source)


def test_expect_rule_in_python_and_json_form() -> None:
    assert expect.rule("#score > 0") == expect.from_json({"rule": "#score > 0"})
    assert expect.rule("#score > 0").to_json() == {"rule": "#score > 0"}
    assert repr(expect.rule("#score > 0")) == "expect.rule('#score > 0')"
    with pytest.raises(ExpectationError, match="cannot read the clause"):
        expect.from_json({"rule": "#score is big"})


def test_explain_says_what_the_page_showed() -> None:
    rule = parse("#score > 5 AND #menu visible")
    facts = {Query("#score"): Fact(True, True, "2"), Query("#menu"): Fact(False)}
    assert rule.explain(facts) == "#score is '2'; #menu does not exist"


def test_numbers_in_text() -> None:
    assert as_number(" 42 ") == 42 and as_number("Score: 7 of 9") == 7 and as_number("none") is None


@pytest.mark.parametrize(("source", "values", "shortfall"), [
    ("#count > 0", {"#count": "-2"}, 3.0), ("#count > 0", {"#count": "0"}, 1.0), ("#count > 0", {"#count": "4"}, 0.0),
    ("#left <= 100", {"#left": "130"}, 31.0), ("#n == 5", {"#n": "Score: 2"}, 4.0),
    # an AND-group's numbers add up; the nearest OR-group counts; what no number measures is left out
    ("#a >= 3 AND #b < 1 AND #c contains 'x'", {"#a": "1", "#b": "2", "#c": ""}, 5.0),
    ("#a > 9 OR #b > 0", {"#a": "0", "#b": "0"}, 1.0),
    ("#a > 0 OR #b exists", {"#a": "-1"}, 2.0),
    ("#score > 0", {"#score": "none yet"}, None), ("#status == 'Won'", {"#status": "Lost"}, None),
])
def test_a_rules_shortfall_is_how_far_its_numbers_are_from_holding(
        source: str, values: dict[str, str], shortfall: float | None) -> None:
    rule = parse(source)
    facts = {q: shown(values[q.selector]) if q.selector in values else Fact(False) for q in rule.queries}
    assert rule.shortfall(facts) == shortfall
