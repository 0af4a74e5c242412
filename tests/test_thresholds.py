"""The tester's knowledge is named in one table per layer, each number with its unit and why, and the numbers a
user may tune are documented from the same source (tests/support/knowledge.py reads them)."""

from __future__ import annotations

import re
import warnings

import pytest

from pytest_playtest.errors import PytestPlaytestDeprecationWarning
from pytest_playtest.loop.spec import OracleSettings, RunSpec
from tests.support import REPO
from tests.support.knowledge import (
    LAYERS,
    NOT_DECIDING,
    PACKAGE,
    TABLES,
    TUNABLE,
    doc_table,
    module_numbers,
    tunable_fields,
)

UNIT = re.compile(r"^\[[^\]]+\] \S")


@pytest.mark.parametrize("table", TABLES)
def test_every_number_of_a_table_says_its_unit_and_why(table: str) -> None:
    entries = module_numbers(PACKAGE / table)
    assert entries, f"{table} names no number"
    unexplained = [f"{e.name} (line {e.line})" for e in entries if not UNIT.match(e.comment)]
    assert not unexplained, f"{table}: write '#: [unit] why' above " + ", ".join(unexplained)


def test_no_module_of_the_tester_keeps_a_deciding_number_outside_its_layers_table() -> None:
    stray = [f"{path.relative_to(PACKAGE)}: {entry.name}"
             for layer in LAYERS for path in sorted((PACKAGE / layer).rglob("*.py"))
             if path.name != "thresholds.py" and str(path.relative_to(PACKAGE)) not in NOT_DECIDING
             for entry in module_numbers(path)]
    assert not stray, "name these in the layer's thresholds.py: " + "; ".join(stray)


def test_a_number_is_named_in_one_table_only() -> None:
    seen: dict[str, str] = {}
    twice = []
    for table in TABLES:
        for entry in module_numbers(PACKAGE / table):
            if entry.name in seen:
                twice.append(f"{entry.name} in {seen[entry.name]} and {table}")
            seen[entry.name] = table
    assert not twice, "; ".join(twice)


def test_every_tunable_threshold_is_explained_and_documented_as_the_source_says() -> None:
    fields = tunable_fields()
    assert set(fields) == set(TUNABLE)
    assert all(entry.comment for entries in fields.values() for entry in entries)
    doc = (REPO / "docs" / "verdicts.md").read_text()
    expected = doc_table()
    assert expected in doc, ("docs/verdicts.md's table of tunable thresholds is not the source's; replace it "
                             f"with (python -m tests.support.knowledge):\n{expected}")


def test_the_dead_control_evidence_is_tunable_with_oracles() -> None:
    spec = RunSpec.from_kwargs({"app": "x.py", "oracles": {"dead_tries": 12, "dead_separation": 2.5}},
                               defaults=OracleSettingsDefaults(), where="test")
    assert spec.oracles.dead_tries == 12 and spec.oracles.dead_separation == 2.5


def test_a_retired_threshold_is_accepted_with_a_deprecation_warning() -> None:
    with pytest.warns(PytestPlaytestDeprecationWarning, match="busy_cpu"):
        settings = OracleSettings(busy_cpu=0.6)
    assert settings.freeze_after == OracleSettings().freeze_after
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        OracleSettings()  # the default warns about nothing


class OracleSettingsDefaults:
    """The session defaults a spec starts from (the few RunSpec.from_kwargs asks for)."""

    policy, max_steps, timeout, options = "heuristic", 10, 10.0, {}
