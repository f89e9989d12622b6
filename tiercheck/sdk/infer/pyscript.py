"""A Python script a workflow step runs, read for the commands it starts (`python ci/conform.py
--baseline FILE`).

Read with `ast` as such scripts are written, never run: `subprocess.run/call/check_call/
check_output/Popen([...] or "...", shell=…, cwd=…, env=…)`, `asyncio.create_subprocess_exec/
_shell` and `os.system`, in the order the file writes them; `Popen` and the `asyncio` ones leave
their command running (the server). Their words are worked out from literals, f-strings, `+`
and `" ".join(...)`, the script's own names (the last assignment before the call, with the
`+=`, `.append` and `.extend` after it), `os.environ.get("NAME", default)` (the workflow's
`env`; `PORT` is `{port}`, which tiercheck exports), `sys.argv[1:]` (the step's arguments),
its own options (`argparse`'s `add_argument("--baseline", default=…)` read back as
`args.baseline`, click's `option` as the parameter), and paths built from `__file__`
(`Path(__file__).parent / "x"`, `os.path.join(os.path.dirname(__file__), "x")`).
"""

from __future__ import annotations

import ast
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tiercheck.sdk.infer.calls import MAX_DEPTH, ROOT, ScriptCommand, given, root_join, unknown
from tiercheck.sdk.infer.shell import split_commands

__all__ = ["python_commands"]

_RUN = {"run", "call", "check_call", "check_output", "Popen"}
_ASYNC = {"create_subprocess_exec", "create_subprocess_shell"}
_PATHS = {"Path", "PurePath", "PosixPath", "PurePosixPath"}

Value = str | list[str] | None


@dataclass
class _Script:
    path: str
    args: Sequence[str]
    env: Mapping[str, str]
    start: str
    assigns: dict[str, list[ast.Assign | ast.AnnAssign]] = field(default_factory=dict)
    changes: dict[str, list[ast.Call | ast.AugAssign]] = field(default_factory=dict)
    #: An option's destination name → (its flag, its default).
    options: dict[str, tuple[str, ast.expr | None]] = field(default_factory=dict)
    imported: dict[str, str] = field(default_factory=dict)
    depth: int = 0


def _flag_dest(call: ast.Call) -> tuple[str, str] | None:
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    long = [f for f in flags if f.startswith("--")]
    if not long:
        return None
    dest = next(
        (
            k.value.value
            for k in call.keywords
            if k.arg == "dest" and isinstance(k.value, ast.Constant)
        ),
        None,
    )
    plain = [f for f in flags if not f.startswith("-")]  # click's explicit parameter name
    name = dest if isinstance(dest, str) else (plain[0] if plain else None)
    return long[0], name or long[0][2:].replace("-", "_")


def _collect(script: _Script, tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    script.assigns.setdefault(target.id, []).append(node)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            script.changes.setdefault(node.target.id, []).append(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if node.func.attr in {"append", "extend"} and isinstance(owner, ast.Name):
                script.changes.setdefault(owner.id, []).append(node)
            elif node.func.attr in {"add_argument", "option"}:
                found = _flag_dest(node)
                if found is not None:
                    default = next((k.value for k in node.keywords if k.arg == "default"), None)
                    script.options[found[1]] = (found[0], default)
        elif isinstance(node, ast.ImportFrom) and node.module in {"subprocess", "asyncio", "os"}:
            for alias in node.names:
                script.imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                script.imported[alias.asname or alias.name] = alias.name
    for assigns in script.assigns.values():
        assigns.sort(key=lambda n: (n.lineno, n.col_offset))
    for changes in script.changes.values():
        changes.sort(key=lambda n: (n.lineno, n.col_offset))


def _dotted(node: ast.expr, script: _Script) -> str | None:
    """`a.b.c` of a name and attributes, the first name as its import says (`sp` → subprocess)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(script.imported.get(node.id, node.id))
    return ".".join(reversed(parts))


def _text(value: Value) -> str | None:
    if isinstance(value, list):
        return " ".join(value)
    return value


def _env(script: _Script, name: str, default: Value) -> Value:
    if name == "PORT":
        return "{port}"
    if name in script.env:
        return script.env[name]
    return default if default is not None else unknown(name)


def _name(script: _Script, name: str, line: int) -> Value:
    if name == "__file__":
        return ROOT + script.path
    if name in script.options and name not in script.assigns:
        return _option(script, name, line)
    assigns = script.assigns.get(name)
    if not assigns:
        return None
    before = [a for a in assigns if a.lineno < line] or assigns[:1]
    last = before[-1]
    value = _eval(script, last.value, last.lineno) if last.value is not None else None
    for change in script.changes.get(name, []):
        if not last.lineno <= change.lineno < line or not isinstance(value, list):
            continue
        if isinstance(change, ast.AugAssign):
            extra = _eval(script, change.value, change.lineno)
            value = value + extra if isinstance(extra, list) else value
        elif isinstance(change.func, ast.Attribute) and change.args:
            item = _eval(script, change.args[0], change.lineno)
            if change.func.attr == "append":
                value = [*value, _text(item) or unknown(name)]
            elif isinstance(item, list):
                value = value + item
    return value


def _option(script: _Script, dest: str, line: int) -> Value:
    flag, default = script.options[dest]
    value = given(script.args, flag)
    if value is not None:
        return value
    return _eval(script, default, line) if default is not None else unknown(dest)


def _call(script: _Script, node: ast.Call, line: int) -> Value:
    name = _dotted(node.func, script) or ""
    args = [_eval(script, a, line) for a in node.args]
    first = args[0] if args else None
    if name in {"os.environ.get", "os.getenv"} and isinstance(first, str):
        return _env(script, first, args[1] if len(args) > 1 else None)
    if name.rsplit(".", 1)[-1] in {*_PATHS, "str", "fspath", "abspath", "realpath"}:
        return _text(first) if len(args) == 1 else None
    if name == "os.path.join" and all(isinstance(a, str) for a in args) and args:
        return root_join(*(a for a in args if isinstance(a, str)))
    if name == "os.path.dirname" and isinstance(first, str):
        return root_join(first, "..")
    if name in {"shlex.split"} and isinstance(first, str):
        return _split(first)
    if isinstance(node.func, ast.Attribute):
        owner = _eval(script, node.func.value, line)
        method = node.func.attr
        if method in {"resolve", "absolute"} and isinstance(owner, str):
            return owner
        if method == "join" and isinstance(owner, str) and isinstance(first, list):
            return owner.join(first)
        if method == "split" and isinstance(owner, str) and not args:
            return owner.split()
        if method == "slice" and isinstance(owner, list):
            return owner
    return None


def _split(text: str) -> list[str] | None:
    try:
        return shlex.split(text)
    except ValueError:
        return None


def _items(script: _Script, nodes: list[ast.expr], line: int) -> list[str]:
    out: list[str] = []
    for item in nodes:
        if isinstance(item, ast.Starred):
            value = _eval(script, item.value, line)
            out.extend(value if isinstance(value, list) else [unknown("args")])
        else:
            text = _text(_eval(script, item, line))
            out.append(text if text is not None else unknown(ast.unparse(item)[:40]))
    return out


def _eval(script: _Script, node: ast.expr, line: int) -> Value:
    """The value `node` has at `line`: a text, a list of texts, or None (not worked out)."""
    if script.depth > MAX_DEPTH:
        return None
    script.depth += 1
    try:
        return _eval_node(script, node, line)
    finally:
        script.depth -= 1


def _eval_node(script: _Script, node: ast.expr, line: int) -> Value:  # noqa: PLR0911, PLR0912
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str | int) else None
    if isinstance(node, ast.List | ast.Tuple):
        return _items(script, node.elts, line)
    if isinstance(node, ast.JoinedStr):
        parts = [
            _text(_eval(script, v.value if isinstance(v, ast.FormattedValue) else v, line))
            for v in node.values
        ]
        return "".join(p if p is not None else unknown("value") for p in parts)
    if isinstance(node, ast.Name):
        return _name(script, node.id, line)
    dotted = _dotted(node, script) if isinstance(node, ast.Attribute) else None
    if dotted == "sys.executable":
        return "python3"
    if isinstance(node, ast.Attribute):
        if node.attr in script.options:
            return _option(script, node.attr, line)
        owner = _eval(script, node.value, line)
        if node.attr == "parent" and isinstance(owner, str):
            return root_join(owner, "..")
        return None
    if isinstance(node, ast.Subscript):
        return _subscript(script, node, line)
    if isinstance(node, ast.BinOp):
        left, right = _eval(script, node.left, line), _eval(script, node.right, line)
        if isinstance(node.op, ast.Div) and isinstance(left, str) and isinstance(right, str):
            return root_join(left, right)
        if isinstance(node.op, ast.Add) and type(left) is type(right) and left is not None:
            return left + right  # type: ignore[operator]
        return None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for value in node.values:
            found = _eval(script, value, line)
            if found and "${" not in (_text(found) or ""):
                return found
        return _eval(script, node.values[-1], line)
    if isinstance(node, ast.IfExp):
        return _eval(script, node.body, line)
    if isinstance(node, ast.Call):
        return _call(script, node, line)
    return None


def _subscript(script: _Script, node: ast.Subscript, line: int) -> Value:
    if _dotted(node.value, script) == "os.environ":
        key = _eval(script, node.slice, line)
        return _env(script, key, None) if isinstance(key, str) else None
    if _dotted(node.value, script) == "sys.argv":
        if isinstance(node.slice, ast.Slice):
            return list(script.args)
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if isinstance(index, int) and 0 < index <= len(script.args):
            return script.args[index - 1]
        return unknown("argv")
    owner = _eval(script, node.value, line)
    at = node.slice.value if isinstance(node.slice, ast.Constant) else None
    if isinstance(owner, list) and isinstance(at, int) and -len(owner) <= at < len(owner):
        return owner[at]
    return None


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def _env_of(script: _Script, node: ast.Call, line: int) -> tuple[str, ...]:
    given_env = _keyword(node, "env")
    if not isinstance(given_env, ast.Dict):
        return ()
    out = []
    for key, value in zip(given_env.keys, given_env.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            text = _text(_eval(script, value, line))
            out.append(f"{key.value}={text if text is not None else unknown(key.value)}")
    return tuple(out)


def _command(script: _Script, node: ast.Call) -> list[ScriptCommand]:
    """The commands `node` starts, if it starts any."""
    name = _dotted(node.func, script) or ""
    owner, _, attr = name.rpartition(".")
    if not (
        (owner == "subprocess" and attr in _RUN)
        or (owner == "asyncio" and attr in _ASYNC)
        or name == "os.system"
    ):
        return []
    line = node.lineno
    cwd_node = _keyword(node, "cwd")
    cwd_value = _text(_eval(script, cwd_node, line)) if cwd_node is not None else None
    cwd = root_join(script.start, cwd_value) if cwd_value is not None else None
    env = _env_of(script, node, line)
    background = attr in {"Popen", *_ASYNC}
    if attr == "create_subprocess_exec":
        argv = _items(script, list(node.args), line)
        return [ScriptCommand(tuple(argv), background, env, cwd)]
    target = node.args[0] if node.args else _keyword(node, "args")
    value = _eval(script, target, line) if target is not None else None
    shell = _keyword(node, "shell")
    if isinstance(value, str) and (
        attr in {"system", "create_subprocess_shell"}
        or (isinstance(shell, ast.Constant) and shell.value is True)
    ):
        parts = split_commands(value)
        return [ScriptCommand(p.argv, background or p.background, env + p.env, cwd) for p in parts]
    words = _split(value) if isinstance(value, str) else value
    return [ScriptCommand(tuple(words), background, env, cwd)] if words else []


def python_commands(
    path: str, text: str, args: Sequence[str], env: Mapping[str, str], start: str
) -> list[ScriptCommand]:
    """The commands the Python script at root-relative `path` starts when run with `args` under
    `env`, started in folder `start` (behind `ROOT`); none when it is no Python."""
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    script = _Script(path, args, env, start)
    _collect(script, tree)
    calls = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.Call)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    commands: list[ScriptCommand] = []
    for call in calls:
        try:
            commands.extend(_command(script, call))
        except RecursionError:
            continue
    return commands
