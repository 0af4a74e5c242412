"""Splicing JavaScript and TypeScript completions: the symbol located with tree-sitter, each form it can take."""

import subprocess
import textwrap

import pytest

from pytest_playtest.benchmark.splice import definition_source, splice_repo, splice_source, syntax_error
from pytest_playtest.errors import SpliceError

JS = textwrap.dedent(
    """\
    // A comment that names movePlayer() must not fool the search.
    import { clamp } from "./util.js";

    export function movePlayer(x, dx) {
      return clamp(x + dx);
    }

    export const collides = (a, b) => a.x === b.x;

    class Game {
      constructor() {
        this.score = 0;
      }

      tick(landed) {
        this.score += landed;
      }

      onKey = (event) => {
        return event.key;
      };
    }

    function after() {
      return "untouched";
    }
    """
)

TS = textwrap.dedent(
    """\
    export interface Counts {
      inside: number;
    }

    export class Tally {
        inside = 0;

        leave(): boolean {
            if (this.inside === 0) return false;
            this.inside -= 1;
            return true;
        }
    }

    const render = (tally: Tally): string => {
        return String(tally.inside);
    };
    """
)


def js(completion: str, symbol: str) -> str:
    return splice_source(JS, symbol, completion, filename="game.js", language="javascript")


def ts(completion: str, symbol: str) -> str:
    return splice_source(TS, symbol, completion, filename="app.ts", language="typescript")


def test_a_top_level_function_is_replaced_by_a_full_definition_and_keeps_its_export() -> None:
    spliced = js("function movePlayer(x, dx) {\n  return x - dx;\n}\n", "movePlayer")
    assert "export function movePlayer(x, dx) {\n  return x - dx;\n}\n" in spliced
    assert "clamp(x + dx)" not in spliced
    assert spliced.startswith("// A comment that names movePlayer()")
    assert 'return "untouched";' in spliced and syntax_error(spliced, language="javascript") is None


def test_a_completion_bringing_its_own_export_replaces_the_export_too() -> None:
    spliced = js("export function movePlayer(x, dx) {\n  return 0;\n}", "movePlayer")
    assert "export function movePlayer(x, dx) {\n  return 0;\n}\n" in spliced
    assert "export export" not in spliced


def test_a_method_of_a_class_is_replaced_and_reindented() -> None:
    spliced = js("tick(landed) {\n  this.score -= landed;\n}\n", "Game.tick")
    assert "  tick(landed) {\n    this.score -= landed;\n  }\n\n  onKey" in spliced
    assert "this.score = 0;" in spliced  # the constructor is untouched


def test_a_body_only_completion_goes_between_the_original_braces() -> None:
    spliced = js("const moved = x + 2 * dx;\nreturn moved;\n", "movePlayer")
    assert "export function movePlayer(x, dx) {\n  const moved = x + 2 * dx;\n  return moved;\n}\n" in spliced
    method = ts("if (this.inside <= 0) return false;\nthis.inside--;\nreturn true;", "Tally.leave")
    # the original header (parameters, return type) and the file's 4-space style are kept
    assert "    leave(): boolean {\n        if (this.inside <= 0) return false;\n        this.inside--;\n" in method


def test_an_arrow_function_bound_to_a_const_is_replaced_whole_or_in_its_body() -> None:
    whole = ts("const render = (tally: Tally): string => `${tally.inside} inside`;", "render")
    assert "const render = (tally: Tally): string => `${tally.inside} inside`;\n" in whole
    assert "return String(tally.inside);" not in whole
    body = js("return a.x === b.x && a.y === b.y;", "collides")
    # an expression body becomes a block
    assert "export const collides = (a, b) => {\n  return a.x === b.x && a.y === b.y;\n};" in body


def test_a_class_field_holding_an_arrow_function_is_a_method() -> None:
    spliced = js("onKey = (event) => event.code;", "Game.onKey")
    assert "  onKey = (event) => event.code;\n}" in spliced


def test_a_missing_symbol_is_a_splice_error_naming_it_and_the_file() -> None:
    with pytest.raises(SpliceError, match=r"symbol 'jump' not found in game\.js"):
        js("return 1;", "jump")
    with pytest.raises(SpliceError, match=r"'Game\.jump' not found \(class 'Game' has no method 'jump'\) in game"):
        js("return 1;", "Game.jump")
    with pytest.raises(SpliceError, match=r"symbol 'Tally' is a class, not a function in app\.ts"):
        ts("return 1;", "Tally")
    with pytest.raises(SpliceError, match="symbol 'Counts.inside' not found"):
        ts("return 1;", "Counts.inside")


def test_a_completion_with_a_syntax_error_is_spliced_all_the_same() -> None:
    spliced = js("function movePlayer(x, dx) {\n  return x +;\n", "movePlayer")
    assert "return x +;" in spliced
    problem = syntax_error(spliced, filename="game.js", language="javascript")
    assert problem is not None and problem.startswith("line ")


def test_the_reference_definition_round_trips() -> None:
    for source, symbol, language in ((JS, "movePlayer", "javascript"), (JS, "Game.tick", "javascript"),
                                     (TS, "render", "typescript"), (TS, "Tally.leave", "typescript")):
        reference = definition_source(source, symbol, filename="f", language=language)
        assert splice_source(source, symbol, reference, filename="f", language=language) == source, symbol
    assert definition_source(JS, "movePlayer", language="javascript").startswith("export function movePlayer")


def test_the_last_of_two_declarations_wins_as_at_runtime() -> None:
    source = "function f(a: string): void;\nfunction f(a: unknown) {\n  return a;\n}\n"
    spliced = splice_source(source, "f", "return null;", filename="o.ts", language="typescript")
    assert spliced == "function f(a: string): void;\nfunction f(a: unknown) {\n  return null;\n}\n"


def test_the_spliced_file_runs_in_node(tmp_path) -> None:
    """The result is real JavaScript: node runs the spliced module."""
    source = "export function double(n) {\n  return n;\n}\nconsole.log(double(21));\n"
    spliced = splice_source(source, "double", "return n * 2;", filename="m.mjs", language="javascript")
    (tmp_path / "m.mjs").write_text(spliced)
    done = subprocess.run(["node", "m.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "42", done.stderr


def test_splice_repo_links_installed_packages_instead_of_copying_them(tmp_path) -> None:
    repo = tmp_path / "repo"
    (repo / "node_modules" / "tool").mkdir(parents=True)
    (repo / "node_modules" / "tool" / "index.js").write_text("// installed\n")
    (repo / "game.js").write_text(JS)
    dest = splice_repo(repo, tmp_path / "copy", "game.js", "movePlayer", "return 0;", language="javascript")
    assert (dest / "node_modules").is_symlink() and (dest / "node_modules").resolve() == (repo / "node_modules")
    assert "return 0;" in (dest / "game.js").read_text() and "return clamp" in (repo / "game.js").read_text()


def test_an_unknown_language_is_a_splice_error() -> None:
    with pytest.raises(SpliceError, match="cannot splice 'lua' code"):
        splice_source("x = 1", "x", "", language="lua")
