import ast
import shutil
import textwrap

import pytest

from pytest_playtest.benchmark.splice import splice_repo, splice_source
from pytest_playtest.errors import SpliceError
from tests.support import REPO

FIXTURE_REPO = REPO / "fixtures" / "benchmark" / "suite" / "repos" / "tiles"

SOURCE = textwrap.dedent(
    '''\
    import functools


    def area(width, height):
        """Placeholder the model must implement."""
        raise NotImplementedError


    @functools.cache
    def fib(n):
        raise NotImplementedError


    class Game:
        speed = 2

        def on_click(self, x, y):
            raise NotImplementedError

        class Rules:
            @staticmethod
            def wins(score):
                raise NotImplementedError

        def after(self):
            return "untouched"


    TAIL = "untouched"
    '''
)


def run(source):
    """Execute a spliced module and return its namespace."""
    namespace = {}
    exec(compile(source, "<spliced>", "exec"), namespace)
    return namespace


def test_full_definition_replaces_a_plain_function():
    spliced = splice_source(SOURCE, "area", "def area(width, height):\n    return width * height\n")
    assert run(spliced)["area"](3, 4) == 12
    assert "Placeholder" not in spliced
    assert spliced.endswith('TAIL = "untouched"\n')


def test_full_definition_of_a_method_is_reindented():
    completion = "def on_click(self, x, y):\n    return (x + self.speed, y)\n"
    spliced = splice_source(SOURCE, "Game.on_click", completion)
    assert "    def on_click(self, x, y):\n        return (x + self.speed, y)\n" in spliced
    game = run(spliced)["Game"]()
    assert game.on_click(1, 5) == (3, 5)
    assert game.after() == "untouched"


def test_indented_full_definition_is_brought_to_the_symbols_level():
    completion = "        def on_click(self, x, y):\n            return x\n"
    spliced = splice_source(SOURCE, "Game.on_click", completion)
    assert run(spliced)["Game"]().on_click(7, 0) == 7


def test_decorators_belong_to_the_replaced_span():
    completion = (
        "@functools.lru_cache(maxsize=None)\n"
        "def fib(n):\n"
        "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
    )
    spliced = splice_source(SOURCE, "fib", completion)
    assert "@functools.cache" not in spliced
    assert spliced.count("@functools.lru_cache") == 1
    assert run(spliced)["fib"](30) == 832040


def test_full_definition_without_decorators_drops_the_original_ones():
    spliced = splice_source(SOURCE, "fib", "def fib(n):\n    return n\n")
    assert "@functools.cache" not in spliced


def test_nested_class_method():
    completion = "@staticmethod\ndef wins(score):\n    return score >= 2048\n"
    spliced = splice_source(SOURCE, "Game.Rules.wins", completion)
    assert "        @staticmethod\n        def wins(score):\n            return score >= 2048\n" in spliced
    assert run(spliced)["Game"].Rules.wins(4096)


def test_async_full_definition():
    spliced = splice_source(SOURCE, "area", "async def area(width, height):\n    return width * height\n")
    assert isinstance(ast.parse(spliced).body[1], ast.AsyncFunctionDef)


def test_body_only_completion_goes_under_the_signature():
    spliced = splice_source(SOURCE, "Game.on_click", "    return x * y\n", "def on_click(self, x, y) -> int:")
    assert "    def on_click(self, x, y) -> int:\n        return x * y\n" in spliced
    assert run(spliced)["Game"]().on_click(3, 4) == 12


def test_body_only_completion_keeps_the_original_decorators():
    body = "if n < 2:\n    return n\nreturn fib(n - 1) + fib(n - 2)\n"
    spliced = splice_source(SOURCE, "fib", body, "def fib(n):")
    assert "@functools.cache\ndef fib(n):\n    if n < 2:\n" in spliced
    assert run(spliced)["fib"](40) == 102334155  # only fast because the cache decorator is still there


@pytest.mark.parametrize(
    "signature",
    ["wins(score)", "def wins(score)", "Rules.wins(score):", "  def wins(score):  # from the task file"],
)
def test_signature_gets_def_and_colon_when_missing(signature):
    spliced = splice_source(SOURCE, "Game.Rules.wins", "return score > 0", signature)
    assert "            @staticmethod\n        def wins(score)" not in spliced
    assert "        @staticmethod\n        def wins(score):" in spliced
    assert run(spliced)["Game"].Rules.wins(1)


def test_body_only_completion_without_signature_reuses_the_original_def_line():
    spliced = splice_source(SOURCE, "area", "return width + height")
    assert "def area(width, height):\n    return width + height\n" in spliced
    assert run(spliced)["area"](1, 2) == 3


def test_body_that_starts_with_a_helper_function_is_still_a_body():
    body = "def double(value):\n    return 2 * value\nreturn double(width) * height\n"
    spliced = splice_source(SOURCE, "area", body, "def area(width, height):")
    assert run(spliced)["area"](3, 4) == 24


def test_body_indentation_follows_the_file():
    source = "class Game:\n\tdef tick(self):\n\t\tpass\n"
    spliced = splice_source(source, "Game.tick", "return 1", "def tick(self):")
    assert spliced == "class Game:\n\tdef tick(self):\n\t\treturn 1\n"


def test_windows_line_endings_outside_the_symbol_are_kept():
    source = "def first():\r\n    return 0\r\n\r\ndef second():\r\n    return 0\r\n"
    spliced = splice_source(source, "second", "return 2", "def second():")
    assert spliced == "def first():\r\n    return 0\r\n\r\ndef second():\n    return 2\n"


def test_unparseable_completion_is_spliced_verbatim():
    completion = "def on_click(self, x, y):\n    return (x +\n"
    spliced = splice_source(SOURCE, "Game.on_click", completion)
    assert "    def on_click(self, x, y):\n        return (x +\n" in spliced
    assert "raise NotImplementedError\n\n    class Rules" not in spliced
    with pytest.raises(SyntaxError):
        ast.parse(spliced)


def test_unparseable_body_goes_under_the_signature():
    spliced = splice_source(SOURCE, "area", "return width *", "def area(width, height):")
    assert "def area(width, height):\n    return width *\n" in spliced
    with pytest.raises(SyntaxError):
        ast.parse(spliced)


@pytest.mark.parametrize("symbol", ["missing", "Game.missing", "Game.Rules.loses", "area.inner"])
def test_missing_symbol_names_the_symbol_and_file(symbol):
    with pytest.raises(SpliceError, match=rf"{symbol!r} not found in game\.py"):
        splice_source(SOURCE, symbol, "return 1", "def f():", filename="game.py")


def test_a_class_is_not_a_function():
    with pytest.raises(SpliceError, match="is a class"):
        splice_source(SOURCE, "Game.Rules", "return 1", "def Rules():")


def test_a_file_that_does_not_parse_is_reported():
    with pytest.raises(SpliceError, match="game.py does not parse"):
        splice_source("def broken(:\n", "broken", "return 1", filename="game.py")


def test_splice_repo_works_on_a_copy(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE_REPO, repo)
    (repo / "tiles" / "__pycache__").mkdir()
    (repo / ".git").mkdir()
    original = (repo / "tiles" / "logic.py").read_text()

    dest = splice_repo(
        repo, tmp_path / "copy", "tiles/logic.py", "Board.move_left", "return False", "move_left(self)"
    )

    assert dest == tmp_path / "copy"
    assert (repo / "tiles" / "logic.py").read_text() == original
    assert not (dest / "tiles" / "__pycache__").exists()
    assert not (dest / ".git").exists()
    assert (dest / "check_logic.py").read_text() == (repo / "check_logic.py").read_text()
    spliced = (dest / "tiles" / "logic.py").read_text()
    assert "    def move_left(self):\n        return False\n" in spliced
    assert "def merge_line" in spliced and "class Palette" in spliced


def test_splice_repo_reports_a_missing_symbol_with_its_file(tmp_path):
    with pytest.raises(SpliceError, match=r"'Board.jump' not found in tiles/logic.py"):
        splice_repo(
            FIXTURE_REPO, tmp_path / "copy", "tiles/logic.py", "Board.jump", "return 1", "def jump(self):"
        )
