"""The checks each scenario of the harness bundle can emit, read from its JavaScript.

The harness ships one minified ES module (`dist/index.js`) and exports nothing: which checks a
scenario can emit is written nowhere but in that code. This module reads it without running it:

1. **Tokens.** A small JavaScript tokenizer: names, numbers, strings, template literals (their
   `${…}` parts are code again), regular expressions (told from a division by the token before),
   punctuators; comments and the `#!` line are skipped.
2. **Definitions.** Every top-level `function NAME(…){…}`, `class NAME{…}`, `NAME=class{…}`,
   `NAME=function(…){…}` and `NAME=(…)=>{…}`: its parameters, the names it declares inside
   (parameters of inner functions, `let`/`const`/`var`, `catch`), the functions it calls (a
   name in call position, after `new` or `extends`, that it does not declare itself), and
   its check literals.
3. **Checks.** A check literal is an object literal with a literal `id` beside a `name`,
   `description` or `status` key (`{id:'tools-list',name:…,status:…}`); its statuses are the
   status words written in its `status` value. A *factory* is a definition whose check literal
   takes its `id` from a parameter (`function j(e,t){return{id:e,name:t,…}}`), or that hands a
   parameter on to a factory in that place; a call of a factory with a literal there makes a
   check, whose statuses are those written in the call's arguments and in the factory's own
   literal.
4. **Scenarios.** A class whose constructor sets `this.name=`, or a definition holding an
   object literal with `name`, `source` and `description` keys, is the scenario of that name
   (a literal, a choice of literals, or a template standing for the listed names of its
   form). What it can emit is its own checks and those of every definition it reaches
   through calls (and `extends`), stopping at other scenarios.

It is a reading, not an execution: a check whose id is computed (a template with `${…}`, a
value looked up in a table) is not seen, and a status set away from the check's literal is not
read. Two readings of two releases made the same way are compared, so what it cannot see is
the same on both sides. Pure: text in, data out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

__all__ = ["STATUSES", "Token", "scan_checks", "tokenize"]

#: The statuses a harness check can have.
STATUSES: Final = ("SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO")

_NAME = re.compile(r"#?[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*")
_NUMBER = re.compile(
    r"0[xX][\da-fA-F_]+n?|0[oO][0-7_]+n?|0[bB][01_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?n?"
)
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)+", re.DOTALL)
_PUNCTUATORS: Final = (
    ">>>=",
    "...",
    "===",
    "!==",
    "**=",
    "<<=",
    ">>=",
    ">>>",
    "&&=",
    "||=",
    "??=",
    "=>",
    "==",
    "!=",
    "<=",
    ">=",
    "&&",
    "||",
    "??",
    "?.",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "**",
    "<<",
    ">>",
)
#: After these words a `/` starts a regular expression, not a division.
_BEFORE_REGEX_WORDS: Final = frozenset(
    {
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    }
)
_KEYWORDS: Final = frozenset(
    {
        *_BEFORE_REGEX_WORDS,
        "if",
        "for",
        "while",
        "switch",
        "catch",
        "function",
        "class",
        "super",
        "this",
        "import",
        "export",
        "let",
        "const",
        "var",
        "async",
        "static",
        "get",
        "set",
        "try",
        "finally",
        "break",
        "continue",
        "default",
        "extends",
        "true",
        "false",
        "null",
        "undefined",
    }
)


@dataclass(frozen=True)
class Token:
    """One token: its kind, its text (a string's or a template part's value), and its offset.

    kind: name, num, str (a quoted string), tpl (a template without `${…}`), tpl_head,
    tpl_mid, tpl_tail (the parts of one with them), regex, punct.
    """

    kind: str
    text: str
    at: int


def _string_end(src: str, start: int) -> int:
    quote = src[start]
    i = start + 1
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c in (quote, "\n"):
            return i + 1
        i += 1
    return len(src)


def _template_part(src: str, start: int) -> tuple[str, int, bool]:
    """From just after "`" or "}": the part's text, where it ends, and whether `${` ended it."""
    i = start
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            return src[start:i], i + 1, False
        if c == "$" and src.startswith("${", i):
            return src[start:i], i + 2, True
        i += 1
    return src[start:], len(src), False


def _regex_end(src: str, start: int) -> int:
    i = start + 1
    in_class = False
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            return i
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "/":
            i += 1
            while i < len(src) and (src[i].isalnum() or src[i] in "_$"):
                i += 1
            return i
        i += 1
    return len(src)


def _regex_may_start(previous: Token | None) -> bool:
    if previous is None:
        return True
    if previous.kind == "name":
        return previous.text in _BEFORE_REGEX_WORDS
    if previous.kind == "punct":
        return previous.text not in (")", "]", "}")
    return previous.kind in ("tpl_head", "tpl_mid")


def _punctuator(src: str, i: int) -> str:
    for p in _PUNCTUATORS:
        if src.startswith(p, i):
            if p == "?." and i + 2 < len(src) and src[i + 2].isdigit():
                continue  # `a?.5:b` is a conditional
            return p
    return src[i]


def tokenize(src: str) -> list[Token]:
    """The tokens of a JavaScript source, comments and the `#!` line left out."""
    tokens: list[Token] = []
    braces: list[str] = []  # "{" for a brace, "`" for a template's `${`
    i = src.index("\n") + 1 if src.startswith("#!") and "\n" in src else 0
    n = len(src)
    previous: Token | None = None
    while i < n:
        space = _SPACE.match(src, i)
        if space:
            i = space.end()
            if i >= n:
                break
        c = src[i]
        token: Token
        if c in "\"'":
            end = _string_end(src, i)
            token = Token("str", src[i + 1 : end - 1], i)
        elif c == "`" or (c == "}" and braces and braces[-1] == "`"):
            if c == "}":
                braces.pop()
            text, end, opens = _template_part(src, i + 1)
            if c == "`":
                kind = "tpl_head" if opens else "tpl"
            else:
                kind = "tpl_mid" if opens else "tpl_tail"
            if opens:
                braces.append("`")
            token = Token(kind, text, i)
        elif c == "/" and _regex_may_start(previous):
            end = _regex_end(src, i)
            token = Token("regex", src[i:end], i)
        elif (match := _NAME.match(src, i)) is not None:
            end = match.end()
            token = Token("name", match.group(), i)
        elif c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            number = _NUMBER.match(src, i)
            end = number.end() if number else i + 1
            token = Token("num", src[i:end], i)
        else:
            text = _punctuator(src, i)
            end = i + len(text)
            if text == "{":
                braces.append("{")
            elif text == "}" and braces:
                braces.pop()
            token = Token("punct", text, i)
        tokens.append(token)
        previous = token
        i = end
    return tokens


def _literal(token: Token) -> str | None:
    """The text of a string literal or a template without `${…}`; None for anything else."""
    return token.text if token.kind in ("str", "tpl") else None


_OPEN: Final = {"(": ")", "[": "]", "{": "}"}


def _pairs(tokens: Sequence[Token]) -> dict[int, int]:
    """Each opening bracket's index → its closing bracket's index (and back)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in _OPEN:
            stack.append(i)
        elif token.text in (")", "]", "}") and stack:
            j = stack.pop()
            pairs[j] = i
            pairs[i] = j
    return pairs


@dataclass
class _Definition:
    """A top-level function or class: where it is, what it declares, calls and emits."""

    name: str
    start: int
    end: int
    params: tuple[str, ...] = ()
    #: The scenario names its constructor sets (`this.name=`), and the patterns of a name
    #: written as a template.
    names: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    extends: str | None = None
    declared: set[str] = field(default_factory=set)
    #: (callee, index of the call's `(` token) for every call of a name it does not declare.
    calls: list[tuple[str, int]] = field(default_factory=list)
    #: check id → statuses, for its check literals with a literal id.
    checks: dict[str, set[str]] = field(default_factory=dict)
    #: parameter index → the statuses its check literal writes, when it is a factory.
    factory: dict[int, set[str]] = field(default_factory=dict)

    @property
    def is_scenario(self) -> bool:
        """Whether its constructor names a scenario."""
        return bool(self.names or self.patterns)


class _Reader:
    """One pass over the tokens of a bundle: definitions, then factories, then scenarios."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.t = tokens
        self.pairs = _pairs(tokens)
        self.definitions: dict[str, _Definition] = {}

    # --- shapes ---------------------------------------------------------------------------

    def is_punct(self, i: int, text: str) -> bool:
        return 0 <= i < len(self.t) and self.t[i].kind == "punct" and self.t[i].text == text

    def is_name(self, i: int, text: str | None = None) -> bool:
        return (
            0 <= i < len(self.t)
            and self.t[i].kind == "name"
            and (text is None or self.t[i].text == text)
        )

    def names_in(self, start: int, end: int) -> tuple[str, ...]:
        """The plain parameter names between two brackets (defaults and patterns skipped)."""
        names: list[str] = []
        i = start + 1
        expect = True
        while i < end:
            token = self.t[i]
            if token.kind == "punct" and token.text in _OPEN:
                i = self.pairs.get(i, i) + 1
                expect = False
                continue
            if token.kind == "punct" and token.text == ",":
                expect = True
            elif expect and token.kind == "name":
                names.append(token.text)
                expect = False
            elif token.kind == "punct" and token.text == "...":
                pass
            else:
                expect = False
            i += 1
        return tuple(names)

    def _class_at(self, i: int) -> tuple[int, str | None] | None:
        """For `class` at i (with an optional name): the body's `{` index and `extends` name."""
        j = i + 1
        if self.is_name(j) and not self.is_name(j, "extends"):
            j += 1
        extends = None
        if self.is_name(j, "extends"):
            extends = self.t[j + 1].text if self.is_name(j + 1) else None
            j += 2
            while j < len(self.t) and not self.is_punct(j, "{"):
                j += 1
        return (j, extends) if self.is_punct(j, "{") else None

    def _function_at(self, i: int) -> tuple[int, int] | None:
        """For `function` at i: the parameters' `(` index and the body's `{` index."""
        j = i + 1
        if self.is_punct(j, "*"):
            j += 1
        if self.is_name(j):
            j += 1
        if not self.is_punct(j, "("):
            return None
        close = self.pairs.get(j)
        if close is None or not self.is_punct(close + 1, "{"):
            return None
        return j, close + 1

    def _arrow_at(self, i: int) -> tuple[tuple[str, ...], int] | None:
        """For an arrow function starting at i (`(…)=>{` or `x=>{`, `async` first or not):
        its parameters and its body's `{` index."""
        if self.is_name(i, "async"):
            i += 1
        if self.is_punct(i, "("):
            close = self.pairs.get(i)
            if close is None or not self.is_punct(close + 1, "=>"):
                return None
            params, arrow = self.names_in(i, close), close + 1
        elif self.is_name(i) and self.is_punct(i + 1, "=>"):
            params, arrow = (self.t[i].text,), i + 1
        else:
            return None
        return (params, arrow + 1) if self.is_punct(arrow + 1, "{") else None

    # --- definitions ----------------------------------------------------------------------

    def read_definitions(self) -> None:
        depth = 0
        i = 0
        while i < len(self.t):
            found = self._definition_at(i) if depth == 0 else None
            if found is not None:
                definition = found
                self.definitions.setdefault(definition.name, definition)
                self._read_body(definition)
                i = definition.end + 1
                continue
            token = self.t[i]
            if token.kind == "punct" and token.text in _OPEN:
                depth += 1
            elif token.kind == "punct" and token.text in (")", "]", "}"):
                depth = max(0, depth - 1)
            i += 1

    def _definition_at(self, i: int) -> _Definition | None:
        token = self.t[i]
        if token.kind != "name":
            return None
        if token.text == "function" and self.is_name(i + 1):
            shape = self._function_at(i)
            if shape is None:
                return None
            paren, body = shape
            params = self.names_in(paren, self.pairs[paren])
            return _Definition(self.t[i + 1].text, body, self.pairs[body], params)
        if token.text == "class" and self.is_name(i + 1) and not self.is_name(i + 1, "extends"):
            shape_c = self._class_at(i)
            if shape_c is None:
                return None
            body, extends = shape_c
            return _Definition(self.t[i + 1].text, body, self.pairs[body], extends=extends)
        if not self.is_punct(i + 1, "=") or self.is_punct(i - 1, "."):
            return None
        j = i + 2
        if self.is_name(j, "class"):
            shape_c = self._class_at(j)
            if shape_c is None:
                return None
            body, extends = shape_c
            return _Definition(token.text, body, self.pairs[body], extends=extends)
        if self.is_name(j, "function") or (
            self.is_name(j, "async") and self.is_name(j + 1, "function")
        ):
            shape = self._function_at(j if self.is_name(j, "function") else j + 1)
            if shape is None:
                return None
            paren, body = shape
            return _Definition(
                token.text, body, self.pairs[body], self.names_in(paren, self.pairs[paren])
            )
        arrow = self._arrow_at(j)
        if arrow is None:
            return None
        params, body = arrow
        return _Definition(token.text, body, self.pairs[body], params)

    def _read_body(self, definition: _Definition) -> None:
        declared = definition.declared
        declared.update(definition.params)
        for i in range(definition.start, definition.end + 1):
            token = self.t[i]
            if token.kind == "punct" and token.text == "=>":
                declared.update(self._arrow_params(i))
            elif token.kind == "name":
                self._read_name(definition, i)

    def _arrow_params(self, arrow: int) -> tuple[str, ...]:
        before = arrow - 1
        if self.is_punct(before, ")") and before in self.pairs:
            return self.names_in(self.pairs[before], before)
        return (self.t[before].text,) if self.is_name(before) else ()

    def _read_name(self, definition: _Definition, i: int) -> None:
        text = self.t[i].text
        if text in ("let", "const", "var"):
            if self.is_name(i + 1):
                definition.declared.add(self.t[i + 1].text)
            return
        if text in ("function", "catch") and self.is_name(i + 1):
            definition.declared.add(self.t[i + 1].text)
        if text in ("function", "catch"):
            paren = i + 1 if self.is_punct(i + 1, "(") else i + 2
            if self.is_punct(paren, "(") and paren in self.pairs:
                definition.declared.update(self.names_in(paren, self.pairs[paren]))
            return
        if text == "this" and self._sets_name(i):
            self._read_scenario_name(definition, i + 4)
            return
        if text == "id" and self.is_punct(i + 1, ":") and self._in_object(i):
            self._read_check(definition, i)
            return
        if text == "name" and self.is_punct(i + 1, ":") and self._in_object(i):
            # A scenario made as an object literal (`return{name:…,source:…,description:…}`).
            bounds = self._object_of(i)
            if bounds is not None and {"source", "description"} <= self._keys(*bounds).keys():
                self._read_scenario_name(definition, i + 2)
            return
        if text in _KEYWORDS or self.is_punct(i - 1, "."):
            return
        called = self.is_punct(i + 1, "(")
        if called and self.is_punct(self.pairs.get(i + 1, i) + 1, "{"):
            # `run(e){…}`: a method of a class or an object literal, not a call.
            definition.declared.update(self.names_in(i + 1, self.pairs[i + 1]))
            return
        if called or self.is_name(i - 1, "new") or self.is_name(i - 1, "extends"):
            definition.calls.append((text, i + 1 if called else -1))
        elif self.is_punct(i + 1, ",") or self.is_punct(i + 1, ")"):
            # A function handed on as a value (`e.map(Kn)`): it may be called.
            definition.calls.append((text, -1))

    def _read_scenario_name(self, definition: _Definition, start: int) -> None:
        """`this.name=` a literal, a choice of literals (`e?'a':'b'`) or a template whose `${…}`
        parts stand for anything (the template `auth/${e.name}`)."""
        if definition.names or definition.patterns:
            return
        end = start
        while end < len(self.t) and not (
            self.t[end].kind == "punct" and self.t[end].text in (",", ";", ")", "]", "}")
        ):
            if self.t[end].kind == "punct" and self.t[end].text in _OPEN:
                end = self.pairs.get(end, end)
            end += 1
        if self.t[start].kind == "tpl_head":
            parts: list[str] = []
            depth = 0
            for token in self.t[start:end]:
                if token.kind == "tpl_head":
                    depth += 1
                    if depth == 1:
                        parts.append(token.text)
                elif token.kind in ("tpl_mid", "tpl_tail") and depth == 1:
                    parts.append(token.text)
                if token.kind == "tpl_tail":
                    depth -= 1
            definition.patterns.append(".+".join(re.escape(p) for p in parts))
            return
        definition.names.extend(t.text for t in self.t[start:end] if t.kind in ("str", "tpl"))

    def _sets_name(self, i: int) -> bool:
        return (
            self.is_punct(i + 1, ".")
            and self.is_name(i + 2, "name")
            and self.is_punct(i + 3, "=")
            and i + 4 < len(self.t)
        )

    def _in_object(self, i: int) -> bool:
        return self.is_punct(i - 1, "{") or self.is_punct(i - 1, ",")

    def _object_of(self, i: int) -> tuple[int, int] | None:
        """The `{` and `}` of the object literal whose key is at i."""
        j = i - 1
        depth = 0
        while j >= 0:
            token = self.t[j]
            if token.kind == "punct" and token.text in (")", "]", "}"):
                j = self.pairs.get(j, j)
            elif token.kind == "punct" and token.text in ("(", "["):
                return None
            elif token.kind == "punct" and token.text == "{":
                close = self.pairs.get(j)
                return (j, close) if close is not None else None
            j -= 1
            depth += 1
        return None

    def _keys(self, start: int, end: int) -> dict[str, tuple[int, int]]:
        """The object literal's keys at its own depth → the token range of each value."""
        keys: dict[str, tuple[int, int]] = {}
        i = start + 1
        while i < end:
            token = self.t[i]
            if token.kind in ("name", "str") and self.is_punct(i + 1, ":"):
                j = i + 2
                while j < end and not self.is_punct(j, ","):
                    if self.t[j].kind == "punct" and self.t[j].text in _OPEN:
                        j = self.pairs.get(j, j)
                    j += 1
                keys.setdefault(token.text, (i + 2, j))
                i = j + 1
                continue
            if token.kind == "punct" and token.text in _OPEN:
                i = self.pairs.get(i, i)
            i += 1
        return keys

    def statuses(self, start: int, end: int) -> set[str]:
        """The status words written between two token indexes."""
        return {
            t.text for t in self.t[start:end] if t.kind in ("str", "tpl") and t.text in STATUSES
        }

    def _read_check(self, definition: _Definition, i: int) -> None:
        bounds = self._object_of(i)
        if bounds is None:
            return
        keys = self._keys(*bounds)
        if not {"name", "description", "status"} & keys.keys():
            return
        status = keys.get("status")
        written = self.statuses(*status) if status else set()
        value = self.t[i + 2]
        literal = _literal(value)
        if literal is not None and (i + 3 > bounds[1] or self._ends_value(i + 3)):
            definition.checks.setdefault(literal, set()).update(written)
        elif value.kind == "name" and value.text in definition.params and self._ends_value(i + 3):
            index = definition.params.index(value.text)
            definition.factory.setdefault(index, set()).update(written)

    def _ends_value(self, i: int) -> bool:
        return self.is_punct(i, ",") or self.is_punct(i, "}")

    # --- calls ----------------------------------------------------------------------------

    def arguments(self, paren: int) -> list[tuple[int, int]]:
        """The token ranges of a call's arguments."""
        close = self.pairs.get(paren)
        if close is None:
            return []
        ranges: list[tuple[int, int]] = []
        start = paren + 1
        i = start
        while i < close:
            token = self.t[i]
            if token.kind == "punct" and token.text in _OPEN:
                i = self.pairs.get(i, i) + 1
                continue
            if token.kind == "punct" and token.text == ",":
                ranges.append((start, i))
                start = i + 1
            i += 1
        if start < close:
            ranges.append((start, close))
        return ranges

    def resolve_factories(self) -> None:
        """Definitions that hand a parameter on to a factory where it takes the id are
        factories too (to a fixed point)."""
        changed = True
        while changed:
            changed = False
            for definition in self.definitions.values():
                for paren, written, (start, end) in self.factory_arguments(definition):
                    if end - start != 1 or self.t[start].kind != "name":
                        continue
                    name = self.t[start].text
                    if name not in definition.params:
                        continue
                    mine = definition.params.index(name)
                    had = definition.factory.get(mine)
                    before = None if had is None else len(had)
                    statuses = written | self.statuses(paren, self.pairs.get(paren, paren))
                    definition.factory.setdefault(mine, set()).update(statuses)
                    changed = changed or before != len(definition.factory[mine])

    def factory_arguments(
        self, definition: _Definition
    ) -> Iterator[tuple[int, set[str], tuple[int, int]]]:
        """Each argument `definition` hands to a factory where the factory takes a check id:
        (the call's parenthesis, the statuses the factory writes beside it, the argument's
        tokens), calls to names the definition declares itself left out."""
        for callee, paren in definition.calls:
            target = self.definitions.get(callee)
            if target is None or not target.factory or paren < 0:
                continue
            if callee in definition.declared:
                continue
            args = self.arguments(paren)
            for index, written in target.factory.items():
                if index < len(args):
                    yield paren, written, args[index]

    def made(self, definition: _Definition) -> dict[str, set[str]]:
        """The checks a definition makes itself: its literals and its factory calls."""
        checks = {k: set(v) for k, v in definition.checks.items()}
        for paren, written, (start, end) in self.factory_arguments(definition):
            literal = _literal(self.t[start]) if end - start == 1 else None
            if literal is None:
                continue
            statuses = written | self.statuses(paren, self.pairs.get(paren, paren))
            checks.setdefault(literal, set()).update(statuses)
        return checks

    def reached(self, root: _Definition) -> list[_Definition]:
        """`root` and every definition it reaches through calls and `extends`, other
        scenarios left out."""
        seen = {root.name}
        order = [root]
        queue = [root]
        while queue:
            definition = queue.pop()
            names = [c for c, _ in definition.calls if c not in definition.declared]
            if definition.extends:
                names.append(definition.extends)
            for name in names:
                target = self.definitions.get(name)
                if target is None or name in seen or target.is_scenario:
                    continue
                seen.add(name)
                order.append(target)
                queue.append(target)
        return order


def scan_checks(src: str, scenarios: Iterable[str]) -> dict[str, dict[str, tuple[str, ...]]]:
    """Of `scenarios` (the names the harness lists), each one whose class is found → check id
    → the statuses read beside it (in `STATUSES` order). A class that names its scenario with
    a literal is that scenario's; one that names it with a template is every listed scenario of
    that form that no class names with a literal and no more specific template (a longer
    written part) fits."""
    reader = _Reader(tokenize(src))
    reader.read_definitions()
    reader.resolve_factories()
    made = {name: reader.made(d) for name, d in reader.definitions.items()}
    wanted = list(dict.fromkeys(scenarios))
    classes = [d for d in reader.definitions.values() if d.is_scenario]
    by_name: dict[str, list[_Definition]] = {}
    for definition in classes:
        for name in definition.names:
            by_name.setdefault(name, []).append(definition)
    for name in wanted:
        if name in by_name:
            continue  # a literal name wins over any template of its form
        # Of the templates of its form, the most specific (the longest written part) own it.
        forms = [
            (len(pattern.replace("\\", "").replace(".+", "")), definition)
            for definition in classes
            for pattern in definition.patterns
            if re.fullmatch(pattern, name)
        ]
        if forms:
            best = max(length for length, _ in forms)
            by_name[name] = [d for length, d in forms if length == best]
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for name in wanted:
        if name not in by_name:
            continue
        checks: dict[str, set[str]] = {}
        for definition in by_name[name]:
            for reached in reader.reached(definition):
                for check, statuses in made[reached.name].items():
                    checks.setdefault(check, set()).update(statuses)
        found[name] = {c: _ordered(s) for c, s in sorted(checks.items())}
    return found


def _ordered(statuses: Iterable[str]) -> tuple[str, ...]:
    chosen = set(statuses)
    return tuple(s for s in STATUSES if s in chosen)
