"""Key-ish expressions of one file and the keys compared with them, as the second pass reads them.

A key-ish expression holds the key an event is about: ``event.keysym`` (a Tk keysym), ``.char`` / ``.unicode``
(a character), ``event.key`` (a pygame key code), ``pygame.key.name(...)`` (its name), or a name bound to one of
these. The keys a comparison, an ``if`` test or a ``match`` case names are read in the kind of that expression;
pygame ``K_*`` names and the app's own key constants are followed through the first pass's tables.
"""

from __future__ import annotations

import ast

from .files import Module
from .keynames import KMOD, PYGAME_CODES, char_key, key_name
from .strings import StringValues
from .tables import KEY_VARS, STR_METHODS, Analysis, const_int, const_str, eventish, ident


def key_in_kind(value: str, kind: str) -> str | None:
    """The key a string names, compared with a key-ish expression of this kind."""
    return char_key(value) if kind == "char" and len(value) == 1 else key_name(value)


def ints_of(node: ast.AST) -> list[int]:
    """The integers a constant or a literal collection of them holds."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for e in node.elts for n in ints_of(e)]
    number = const_int(node)
    return [number] if number is not None else []


class KeyExpressions:
    """What one file's key-ish expressions hold, and the keys its comparisons, tests and patterns name."""

    def __init__(self, module: Module, analysis: Analysis, values: StringValues) -> None:
        self.m = module
        self.a = analysis
        self.values = values
        #: pygame's names count written bare (``K_SPACE``): the file imports pygame, or imports with ``*``
        self.bare = module.uses_pygame or module.star
        #: local names holding event.keysym / char / key, with the kind they hold
        self.aliases: dict[str, str] = {}

    def kind(self, node: ast.AST) -> str | None:
        """What a key-ish expression holds: "keysym", "char", "code" (a pygame key), "name", "any"."""
        if isinstance(node, ast.Attribute):
            if node.attr == "keysym":
                return "keysym"
            if node.attr in ("char", "unicode"):
                return "char"
            if node.attr == "key" and eventish(node.value):
                return "code"
            return None
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in STR_METHODS:
                return self.kind(func.value)
            if isinstance(func, ast.Attribute) and func.attr == "name" and ident(func.value) == "key":
                return "name"
            if isinstance(func, ast.Name) and func.id == "chr":
                return "char"
            return None
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id) or ("any" if node.id in KEY_VARS else None)
        return None

    def named(self, node: ast.AST) -> tuple[str, ...]:
        """The keys a pygame name or one of the app's key constants (or tables of them) stands for."""
        return self.a.keys_of(node, bare=self.bare)

    def compared(self, node: ast.Compare) -> tuple[list[str], list[ast.expr] | None]:
        """Keys a comparison with a key-ish expression names (strings, codes), and its other operands
        (None: no key-ish operand)."""
        operands = [node.left, *node.comparators]
        kinds = [self.kind(o) for o in operands]
        kind = next((k for k in kinds if k), None)
        if kind is None:
            return [], None
        membership = any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        keys: list[str] = []
        others = [o for o, k in zip(operands, kinds, strict=True) if not k]
        for other in others:
            for value in self.values.iterated(other) if membership else self.values.of(other):
                key = key_in_kind(value, kind)
                if key:
                    keys.append(key)
            if kind == "code":
                for number in ints_of(other):
                    code = PYGAME_CODES.get(number) or (char_key(chr(number)) if 32 < number < 127 else None)
                    if code:
                        keys.append(code)
        return keys, others

    def of_test(self, node: ast.AST, direct: bool = True) -> tuple[list[str], set[str]]:
        """Keys an ``if`` test is about, and the modifiers (KMOD_*) it requires."""
        keys: list[str] = []
        mods: set[str] = set()
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            name = ident(node)
            if name.startswith("KMOD_"):
                mods.update(m for tag, m in KMOD if tag in name)
                return keys, mods
            found = self.a.keys_of(node, bare=self.bare or name in self.m.imported)
            if found and (direct or len(found) == 1):
                return list(found), mods
        if isinstance(node, ast.Compare):
            keys.extend(self.compared(node)[0])
            for operand in [node.left, *node.comparators]:
                sub_keys, sub_mods = self.of_test(operand, direct=True)
                keys.extend(sub_keys)
                mods |= sub_mods
            return keys, mods
        for child in ast.iter_child_nodes(node):
            sub_keys, sub_mods = self.of_test(child, direct=False)
            keys.extend(sub_keys)
            mods |= sub_mods
        return keys, mods

    def of_pattern(self, pattern: ast.pattern, kind: str | None) -> list[str]:
        """Keys a ``case`` pattern names, matched against a subject of this kind (None: not key-ish)."""
        if isinstance(pattern, ast.MatchOr):
            return [k for p in pattern.patterns for k in self.of_pattern(p, kind)]
        if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
            return self.of_pattern(pattern.pattern, kind)
        if isinstance(pattern, ast.MatchValue):
            text = const_str(pattern.value)
            if text is not None and kind is not None:
                key = key_in_kind(text, kind)
                return [key] if key else []
            return list(self.named(pattern.value))
        return []
