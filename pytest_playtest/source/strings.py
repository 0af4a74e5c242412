"""The strings an expression of one file can be, as the second pass reads it: literals, the constants the first
pass recorded, and the names the file has bound to strings so far (loop variables included).

Bind sequences, characters compared with a key and the keys of lookup tables are all read through it, so a key
named through ``for letter in ascii_lowercase`` or ``for key, action in KEYS.items()`` counts as one written out.
"""

from __future__ import annotations

import ast

from .tables import STRING_CONSTANTS, Analysis, const_str, ident, strings_of


class StringValues:
    """The strings of one file's expressions, knowing the names bound so far in source order."""

    def __init__(self, analysis: Analysis) -> None:
        self.a = analysis
        #: local names holding strings (loop variables included)
        self.bound: dict[str, list[str]] = {}

    def of(self, node: ast.AST) -> list[str]:
        return strings_of(node, self._lookup, self.a.t.defs)

    def bind(self, name: str, value: ast.expr) -> None:
        """``name = value``: the strings the name holds from here on, when the value is written out (a literal,
        a tuple or list of them, a conditional, an f-string, a sum) and holds any."""
        if isinstance(value, ast.Constant | ast.Tuple | ast.List | ast.IfExp | ast.JoinedStr | ast.BinOp):
            values = self.of(value)
            if values:
                self.bound[name] = values

    def bind_loop(self, target: ast.expr, iterated: ast.expr) -> None:
        """``for target in iterated``: what a loop variable goes over, also unpacked (``for i, label in
        enumerate(row)``, ``for key, action in KEYS.items()``)."""
        if isinstance(target, ast.Name):
            values = self.iterated(iterated)
            if values:
                self.bound[target.id] = values
        elif isinstance(target, ast.Tuple):
            if isinstance(iterated, ast.Call) and ident(iterated.func) == "enumerate" and iterated.args:
                second = target.elts[1] if len(target.elts) == 2 else None
                if isinstance(second, ast.Name):  # for i, label in enumerate(row)
                    items = self.iterated(iterated.args[0])
                    if items:
                        self.bound[second.id] = items
            else:
                for position, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        column = [s for row in self.rows(iterated) if position < len(row)
                                  for s in self.of(row[position])]
                        if column:
                            self.bound[element.id] = column

    def iterated(self, node: ast.expr) -> list[str]:
        """The strings ``for x in node`` / ``x in node`` go over: a string's characters, a collection's items."""
        if isinstance(node, ast.Name) and node.id in self.bound:
            return self.bound[node.id]
        if isinstance(node, ast.Name | ast.Attribute):
            values = self.a.t.defs.get(ident(node), ())
            if values and all(const_str(v) is not None for v in values):
                return [c for v in values for c in const_str(v) or ""][:200]
            if not values and ident(node) in STRING_CONSTANTS:
                return list(STRING_CONSTANTS[ident(node)])
        if isinstance(node, ast.Call) and ident(node.func) == "enumerate" and node.args:
            return []  # (index, item) pairs: see the tuple targets of bind_loop
        text = const_str(node)
        return list(text[:200]) if text is not None else self.of(node)

    def rows(self, node: ast.AST, depth: int = 0) -> list[list[ast.expr]]:
        """Rows of ``for a, b in ...``: tuples of a literal list, or key/value pairs of ``dict.items()``."""
        if depth > 3:
            return []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "items":
            return [[k, v] for d in self._dicts(node.func.value) for k, v in zip(d.keys, d.values, strict=True)
                    if k is not None]
        if isinstance(node, ast.Tuple | ast.List):
            return [list(e.elts) for e in node.elts if isinstance(e, ast.Tuple | ast.List)]
        if isinstance(node, ast.Name | ast.Attribute):
            return [r for d in self.a.t.defs.get(ident(node), ())[:5] for r in self.rows(d, depth + 1)]
        return []

    def _dicts(self, node: ast.AST) -> list[ast.Dict]:
        if isinstance(node, ast.Dict):
            return [node]
        if isinstance(node, ast.Name | ast.Attribute):
            return [d for d in self.a.t.defs.get(ident(node), ())[:5] if isinstance(d, ast.Dict)]
        return []

    def _lookup(self, name: str) -> list[str]:
        return self.bound[name] if name in self.bound else self.a.def_strs(name)
