"""A JavaScript or TypeScript script a workflow step runs, read for the commands it starts
(`node scripts/conformance.mjs --baseline FILE`, `npx tsx scripts/conformance.ts`).

Read from its tokens as such scripts are written, never run: `spawn/spawnSync/execFile/
execFileSync/execa(CMD, [ARGS], {cwd, env})` and `exec/execSync/execaCommand("…")`, in the
order the file writes them; `spawn`, `exec`, `execFile` and `execa` not awaited leave their
command running (the server). Their words are worked out from string and template literals,
`+`, arrays (with `...` spreads and the `.push(…)`s after them), `.join(" ")`, the script's own
`const`/`let`/`var` names, `process.env.NAME ?? default` (the workflow's `env`; `PORT` is
`{port}`), `process.argv.slice(2)` (the step's arguments), its own options (`parseArgs`'s
`options: {baseline: {type: "string", default: …}}` read back as `values.baseline`), and paths
built from `__dirname` or `import.meta.dirname` (`path.join(…)`, `resolve(…)`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tiercheck.sdk.infer.calls import MAX_DEPTH, ROOT, ScriptCommand, given, root_join, unknown
from tiercheck.sdk.infer.shell import split_commands

__all__ = ["js_commands"]

_MAX_TOKENS = 200_000
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)+", re.DOTALL)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PUNCT = ("...", "?.", "??", "||", "&&", "===", "!==", "==", "!=", "=>")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
_ARGV_CALLS = {"spawn", "spawnSync", "execFile", "execFileSync", "execa", "execaSync"}
_TEXT_CALLS = {"exec", "execSync", "execaCommand", "execaCommandSync"}
_WAITS = {"spawnSync", "execFileSync", "execaSync", "execSync", "execaCommandSync"}


@dataclass(frozen=True)
class _Tok:
    kind: str  # "name", "str", "num", "punct" or "tpl"
    text: str
    #: A template literal's parts: its texts and, between them, the tokens of each `${…}`.
    parts: tuple[str | tuple[_Tok, ...], ...] = ()


@dataclass(frozen=True)
class _Ref:
    """A name the script does not define (`process.env`, `path.join`, `values`)."""

    dotted: str


@dataclass(frozen=True)
class _Method:
    """A method of a text or a list (`args.join`), to be called."""

    owner: str | list[Any]
    name: str


def _string(text: str, i: int) -> tuple[str, int]:
    quote, out, i = text[i], [], i + 1
    while i < len(text) and text[i] != quote:
        if text[i] == "\\" and i + 1 < len(text):
            out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out), i + 1


def _template(text: str, i: int) -> tuple[_Tok, int]:
    parts: list[str | tuple[_Tok, ...]] = []
    chunk: list[str] = []
    i += 1
    while i < len(text) and text[i] != "`":
        if text[i] == "\\" and i + 1 < len(text):
            chunk.append(_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
        elif text.startswith("${", i):
            parts.append("".join(chunk))
            chunk = []
            inner, i = _tokenize(text, i + 2, nested=True)
            parts.append(tuple(inner))
        else:
            chunk.append(text[i])
            i += 1
    parts.append("".join(chunk))
    return _Tok("tpl", "`", tuple(parts)), i + 1


def _tokenize(text: str, i: int = 0, *, nested: bool = False) -> tuple[list[_Tok], int]:
    """The tokens of `text` from `i` (to the `}` closing a template's `${` when `nested`)."""
    tokens: list[_Tok] = []
    depth = 0
    while i < len(text) and len(tokens) < _MAX_TOKENS:
        space = _SPACE.match(text, i)
        if space:
            i = space.end()
            continue
        char = text[i]
        if char in "'\"":
            value, i = _string(text, i)
            tokens.append(_Tok("str", value))
        elif char == "`":
            tok, i = _template(text, i)
            tokens.append(tok)
        elif (name := _NAME.match(text, i)) is not None:
            tokens.append(_Tok("name", name.group()))
            i = name.end()
        elif (number := _NUMBER.match(text, i)) is not None:
            tokens.append(_Tok("num", number.group()))
            i = number.end()
        else:
            punct = next((p for p in _PUNCT if text.startswith(p, i)), char)
            if nested and punct == "}" and depth == 0:
                return tokens, i + 1
            depth += {"{": 1, "}": -1}.get(punct, 0)
            tokens.append(_Tok("punct", punct))
            i += len(punct)
    return tokens, len(text)


@dataclass
class _Script:
    path: str
    tokens: list[_Tok]
    args: Sequence[str]
    env: Mapping[str, str]
    start: str
    #: A name → the token index of each value it is given (`const NAME = …`).
    assigns: dict[str, list[int]] = field(default_factory=dict)
    #: An option's name → its default value.
    options: dict[str, Any] = field(default_factory=dict)
    depth: int = 0


def _is(tokens: Sequence[_Tok], i: int, text: str) -> bool:
    return i < len(tokens) and tokens[i].text == text and tokens[i].kind in {"punct", "name"}


class _Parser:
    """A reading of one expression of a token list: its value, and where it ends."""

    def __init__(self, script: _Script, tokens: Sequence[_Tok], at: int | None = None) -> None:
        self.s = script
        self.t = tokens
        #: Where a template's `${…}` tokens stand in the script (None: these are the script's).
        self.at = at

    def expr(self, i: int) -> tuple[Any, int]:
        if self.s.depth > MAX_DEPTH:
            return None, len(self.t)
        self.s.depth += 1
        try:
            value, i = self.either(i)
            if _is(self.t, i, "?"):  # a choice: the first branch stands for it
                value, i = self.expr(i + 1)
                if _is(self.t, i, ":"):
                    _, i = self.expr(i + 1)
            return value, i
        finally:
            self.s.depth -= 1

    def either(self, i: int) -> tuple[Any, int]:
        value, i = self.sum(i)
        while _is(self.t, i, "??") or _is(self.t, i, "||"):
            other, i = self.sum(i + 1)
            if value is None or (isinstance(value, str) and "${" in value):
                value = other
        return value, i

    def sum(self, i: int) -> tuple[Any, int]:
        value, i = self.postfix(i)
        while _is(self.t, i, "+"):
            other, i = self.postfix(i + 1)
            ok = isinstance(value, str | int) and isinstance(other, str | int)
            value = f"{value}{other}" if ok else None
        return value, i

    def postfix(self, i: int) -> tuple[Any, int]:
        if _is(self.t, i, "await"):
            return self.postfix(i + 1)
        value, i = self.primary(i)
        while i < len(self.t):
            if (_is(self.t, i, ".") or _is(self.t, i, "?.")) and i + 1 < len(self.t):
                value = self.member(value, self.t[i + 1].text)
                i += 2
            elif _is(self.t, i, "("):
                args, i = self.list_of(i + 1, ")")
                value = self.call(value, args)
            elif _is(self.t, i, "["):
                key, i = self.expr(i + 1)
                i = i + 1 if _is(self.t, i, "]") else len(self.t)
                ok = isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)
                value = value[key] if ok else None
            elif _is(self.t, i, "!") or (_is(self.t, i, "as") and i + 1 < len(self.t)):
                i += 1 if self.t[i].text == "!" else 2  # TypeScript's `x!`, `x as T`
            else:
                break
        return value, i

    def primary(self, i: int) -> tuple[Any, int]:
        if i >= len(self.t):
            return None, i
        tok = self.t[i]
        if tok.kind == "str":
            return tok.text, i + 1
        if tok.kind == "num":
            return int(float(tok.text)) if tok.text.isdigit() else tok.text, i + 1
        if tok.kind == "tpl":
            return self.template(tok, i), i + 1
        if tok.kind == "name":
            if tok.text == "new":
                return self.postfix(i + 1)
            return self.name(tok.text, i), i + 1
        if tok.text == "[":
            return self.list_of(i + 1, "]")
        if tok.text == "(":
            value, i = self.expr(i + 1)
            return value, (i + 1 if _is(self.t, i, ")") else len(self.t))
        if tok.text == "{":
            return self.obj(i + 1)
        return None, i + 1

    def template(self, tok: _Tok, i: int) -> str:
        at = i if self.at is None else self.at
        out = []
        for part in tok.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                value, _ = _Parser(self.s, part, at).expr(0)
                out.append(_text(value) or unknown("value"))
        return "".join(out)

    def list_of(self, i: int, close: str) -> tuple[list[Any], int]:
        items: list[Any] = []
        while i < len(self.t) and not _is(self.t, i, close):
            if _is(self.t, i, "..."):
                value, i = self.expr(i + 1)
                items.extend(value if isinstance(value, list) else [unknown("args")])
            else:
                value, i = self.expr(i)
                items.append(value)
            if _is(self.t, i, ","):
                i += 1
            elif not _is(self.t, i, close):
                return items, _skip(self.t, i, close)
        return items, i + 1

    def obj(self, i: int) -> tuple[dict[str, Any], int]:
        found: dict[str, Any] = {}
        while i < len(self.t) and not _is(self.t, i, "}"):
            if _is(self.t, i, "..."):
                _, i = self.expr(i + 1)
            elif self.t[i].kind in {"name", "str"} and _is(self.t, i + 1, ":"):
                found[self.t[i].text], i = self.expr(i + 2)
            elif self.t[i].kind == "name":
                found[self.t[i].text] = self.name(self.t[i].text, i)
                i += 1
            if _is(self.t, i, ","):
                i += 1
            elif not _is(self.t, i, "}"):
                return found, _skip(self.t, i, "}")
        return found, i + 1

    def name(self, name: str, at: int) -> Any:
        if name in {"__dirname", "__filename"}:
            return ROOT + (self.s.path if name == "__filename" else _parent(self.s.path))
        at = at if self.at is None else self.at
        spots = [s for s in self.s.assigns.get(name, []) if s < at] or self.s.assigns.get(name, [])
        if not spots:
            return _Ref(name)
        main = _Parser(self.s, self.s.tokens)
        value, end = main.expr(spots[-1])
        if value is None:  # `const path = require("path")`: a module, read by its name
            return _Ref(name)
        if isinstance(value, list):
            value = value + _pushes(main, name, end, at)
        return value

    def member(self, owner: Any, prop: str) -> Any:
        if isinstance(owner, _Ref):
            dotted = f"{owner.dotted}.{prop}"
            if owner.dotted == "process.env":
                return "{port}" if prop == "PORT" else self.s.env.get(prop)
            if dotted in {"import.meta.dirname", "import.meta.filename"}:
                return ROOT + (self.s.path if prop == "filename" else _parent(self.s.path))
            if prop in self.s.options and owner.dotted != "process":
                value = given(self.s.args, "--" + prop)
                return value if value is not None else self.s.options[prop]
            return _Ref(dotted)
        if isinstance(owner, dict):
            return owner.get(prop)
        return _Method(owner, prop) if isinstance(owner, str | list) else None

    def call(self, fn: Any, args: list[Any]) -> Any:
        if isinstance(fn, _Method):
            return _method(fn, args)
        if not isinstance(fn, _Ref):
            return None
        method = fn.dotted.rsplit(".", 1)[-1]
        owner = fn.dotted.rsplit(".", 1)[0]
        if fn.dotted == "process.argv.slice":
            return list(self.s.args)
        if method in {"join", "resolve"} and "." not in owner and owner in {"path", method}:
            texts = [a for a in args if isinstance(a, str)]
            return root_join(*texts) if texts and len(texts) == len(args) else None
        if method in {"dirname"} and args and isinstance(args[0], str):
            return root_join(args[0], "..")
        if method == "String" and args:
            return _text(args[0])
        return None


def _method(fn: _Method, args: list[Any]) -> Any:
    """`text.split(" ")`, `list.join(" ")`, `list.concat(…)`; a list's `.filter`/`.slice`
    stand for the list."""
    owner, first = fn.owner, (args[0] if args else None)
    if isinstance(owner, str):
        return owner.split() if fn.name == "split" else None
    if fn.name == "join":
        return (first if isinstance(first, str) else ",").join(_text(v) or "" for v in owner)
    if fn.name == "concat":
        return owner + [v for a in args for v in (a if isinstance(a, list) else [a])]
    return owner if fn.name in {"filter", "slice", "flat"} else None


def _skip(tokens: Sequence[_Tok], i: int, close: str) -> int:
    """The index after the `close` that ends the bracket `i` is inside (or the end)."""
    opening = {"]": "[", ")": "(", "}": "{"}[close]
    depth = 0
    while i < len(tokens):
        if _is(tokens, i, opening):
            depth += 1
        elif _is(tokens, i, close):
            if depth == 0:
                return i + 1
            depth -= 1
        i += 1
    return i


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        return " ".join(_text(v) or unknown("value") for v in value)
    if isinstance(value, str | int):
        return str(value)
    return None


def _pushes(parser: _Parser, name: str, after: int, before: int) -> list[Any]:
    """What `name.push(…)` adds between token `after` and `before`."""
    added: list[Any] = []
    tokens = parser.s.tokens
    for i in range(after, min(before, len(tokens) - 3)):
        push = _is(tokens, i + 1, ".") and tokens[i + 2].text == "push"
        if tokens[i].text == name and push and _is(tokens, i + 3, "("):
            items, _ = parser.list_of(i + 4, ")")
            added.extend(items)
    return added


def _collect(script: _Script) -> None:
    tokens = script.tokens
    for i, tok in enumerate(tokens[:-2]):
        if tok.text in {"const", "let", "var"} and tokens[i + 1].kind == "name":
            if _is(tokens, i + 2, "="):
                script.assigns.setdefault(tokens[i + 1].text, []).append(i + 3)
            elif _is(tokens, i + 2, ":"):  # TypeScript: `const NAME: T = …`
                at = next(
                    (j for j in range(i + 3, min(i + 12, len(tokens))) if _is(tokens, j, "=")), None
                )
                if at is not None:
                    script.assigns.setdefault(tokens[i + 1].text, []).append(at + 1)
    parser = _Parser(script, tokens)
    for i, tok in enumerate(tokens[:-1]):
        if tok.text == "parseArgs" and _is(tokens, i + 1, "("):
            args, _ = parser.list_of(i + 2, ")")
            config = args[0] if args and isinstance(args[0], dict) else {}
            declared = config.get("options")
            for name, spec in declared.items() if isinstance(declared, dict) else ():
                default = spec.get("default") if isinstance(spec, dict) else None
                script.options[name] = _text(default) if default is not None else unknown(name)


def _options(value: Any) -> tuple[str | None, tuple[str, ...]]:
    if not isinstance(value, dict):
        return None, ()
    cwd = _text(value.get("cwd"))
    env = value.get("env")
    pairs = env.items() if isinstance(env, dict) else ()
    return cwd, tuple(f"{k}={_text(v) or unknown(k)}" for k, v in pairs)


def _command(script: _Script, i: int) -> list[ScriptCommand]:
    tokens = script.tokens
    name = tokens[i].text
    if i > 0 and tokens[i - 1].text in {"function", "def"}:
        return []
    background = name not in _WAITS and not (i > 0 and tokens[i - 1].text == "await")
    args, _ = _Parser(script, tokens).list_of(i + 2, ")")
    if not args:
        return []
    if name in _TEXT_CALLS:
        cwd, env = _options(args[1] if len(args) > 1 else None)
        where = root_join(script.start, cwd) if cwd else None
        text = _text(args[0])
        parts = split_commands(text) if text else []
        return [
            ScriptCommand(p.argv, background or p.background, env + p.env, where) for p in parts
        ]
    rest = args[1] if len(args) > 1 and isinstance(args[1], list) else []
    options = args[2] if len(args) > 2 else (args[1] if len(args) > 1 and not rest else None)
    cwd, env = _options(options)
    where = root_join(script.start, cwd) if cwd else None
    head = args[0] if isinstance(args[0], list) else [args[0]]
    argv = tuple(_text(w) or unknown("value") for w in [*head, *rest])
    return [ScriptCommand(argv, background, env, where)]


def js_commands(
    path: str, text: str, args: Sequence[str], env: Mapping[str, str], start: str
) -> list[ScriptCommand]:
    """The commands the JavaScript/TypeScript script at root-relative `path` starts when run
    with `args` under `env`, started in folder `start` (behind `ROOT`)."""
    tokens, _ = _tokenize(text)
    script = _Script(path, tokens, args, env, start)
    try:
        _collect(script)
    except RecursionError:
        return []
    commands: list[ScriptCommand] = []
    for i, tok in enumerate(tokens[:-1]):
        if tok.kind == "name" and tok.text in _ARGV_CALLS | _TEXT_CALLS and _is(tokens, i + 1, "("):
            try:
                commands.extend(_command(script, i))
            except RecursionError:
                continue
    return commands
