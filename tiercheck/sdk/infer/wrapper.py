"""A repository script a workflow step runs (`./ci/run-server.sh --spec-version …`, `python
ci/conform.py --baseline FILE`, `node scripts/conformance.mjs`): which script a command runs,
and the commands that script runs in turn, read by its language (its suffix, else its `#!`
line): shell here, Python in `pyscript`, JavaScript and TypeScript in `jsscript`.

A shell script is read as conformance scripts are written: `NAME="value"` and
`NAME="${NAME:-default}"` assignments (the workflow's `env` first), its own options parsed in a
`case` (`--baseline) BASELINE="$2"`), `$1`… and `"$@"` (the step's arguments), a `cd
"$SCRIPT_DIR/.."` (or `$(dirname "$0")/..`) to the folder it works in, and a command ending in
`&` left running (the server). `$PORT` becomes `{port}` (tiercheck exports PORT to the server it
starts). Pure: the script's path and text in, commands out.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping, Sequence

from tiercheck.sdk.infer.calls import ROOT, ScriptCommand, finish, given, root_join, unknown
from tiercheck.sdk.infer.jsscript import js_commands
from tiercheck.sdk.infer.pyscript import python_commands
from tiercheck.sdk.infer.shell import ShellCommand, split_commands

__all__ = ["script_commands", "script_of"]

_ASSIGN = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_VARIABLE = re.compile(
    r"\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9])(?:(:?[-=?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*|[0-9])"
)
_CASE_ARM = re.compile(
    r"(--[A-Za-z][\w-]*)(?:\|[^)\n]*)?\)\s*([A-Za-z_]\w*)=[\"']?\$(?:2\b|\{2\})", re.MULTILINE
)
#: `$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`: the script's own folder.
_HERE = re.compile(
    r"\$\((?:cd\s+)?\$?\(?\s*dirname\s+[^)]*(?:\$0|\$\{0\}|BASH_SOURCE)[^)]*\)\)?(?:\s*&&\s*pwd\s*\))?"
)
_SUFFIXES = {
    ".sh": "shell",
    ".bash": "shell",
    ".py": "python",
    ".js": "js",
    ".mjs": "js",
    ".cjs": "js",
    ".ts": "js",
    ".mts": "js",
    ".cts": "js",
}
_SHELLS = {"bash", "sh", "zsh", "dash"}
_RUNNERS = {"node", "tsx", "ts-node", "bun", "deno", "python", "python3", "py", *_SHELLS}
_WRAPPERS = {"npx", "pnpm", "yarn", "uv", "poetry", "pipenv", "hatch", "pdm", "exec", "run"}


def _runner(word: str) -> bool:
    base = posixpath.basename(word)
    return base in _RUNNERS or re.fullmatch(r"python3(\.\d+)?", base) is not None


def script_of(argv: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """(the script `argv` runs, as written; the arguments it is given) when it runs a file of
    the repository: `./ci/x.sh …`, `bash ci/x.sh …`, `python3 -u ci/x.py …`, `uv run ci/x.py`,
    `npx tsx scripts/x.ts …`, `node --import tsx x.ts`, `python -m ci.conform`."""
    words = list(argv)
    if not words:
        return None
    first = words[0]
    if posixpath.splitext(first)[1] in _SUFFIXES or (
        first.startswith(("./", "../")) and not _runner(first)
    ):
        return first, tuple(words[1:])
    i, seen_runner = 0, False
    while i < len(words) and (words[i] in _WRAPPERS or _runner(words[i])):
        seen_runner = seen_runner or _runner(words[i])
        i += 1
        while i < len(words) and words[i].startswith("-"):
            if words[i] == "-m" and seen_runner and i + 1 < len(words):
                module = words[i + 1].replace(".", "/") + ".py"
                return module, tuple(words[i + 2 :])
            if words[i] in {"-c", "-e", "--eval"}:
                return None
            i += 2 if words[i] in {"--import", "--require", "-r", "--loader"} else 1
    if seen_runner and i < len(words) and posixpath.splitext(words[i])[1] in _SUFFIXES:
        return words[i], tuple(words[i + 1 :])
    return None


def _language(path: str, text: str) -> str:
    kind = _SUFFIXES.get(posixpath.splitext(path)[1])
    if kind is not None:
        return kind
    head = text.split("\n", 1)[0] if text.startswith("#!") else ""
    if "python" in head:
        return "python"
    if any(name in head for name in ("node", "tsx", "bun", "deno")):
        return "js"
    return "shell"


def _expand(word: str, found: Mapping[str, str], args: Sequence[str]) -> str:
    """`word` with `$PORT` as `{port}`, `$1`… as the script's arguments, and the variables
    `found` (the workflow's env and the script's own) put in; `${NAME:-default}` its default
    when NAME is not found, and an unknown name kept as an unexpanded `${NAME}`."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(4)
        if name == "PORT":
            return "{port}"
        if name.isdigit():
            index = int(name)
            value = args[index - 1] if 0 < index <= len(args) else None
        else:
            value = found.get(name)
        operator, default = match.group(2), match.group(3)
        if value is None and operator in {"-", ":-", "=", ":="}:
            return _expand(default, found, args)
        return value if value is not None else unknown(name)

    return _VARIABLE.sub(one, word)


def _variables(path: str, text: str, env: Mapping[str, str], args: Sequence[str]) -> dict[str, str]:
    options = {var: flag for flag, var in _CASE_ARM.findall(text)}
    found: dict[str, str] = dict(env)
    for line in text.splitlines():
        match = _ASSIGN.match(line)
        if match is None:
            continue
        name, raw = match.groups()
        here = raw.strip("\"'")
        if here.startswith("$(") and "dirname" in here and ("BASH_SOURCE" in here or "$0" in here):
            found[name] = ROOT + posixpath.dirname(path)  # SCRIPT_DIR="$(cd "$(dirname …)" && pwd)"
            continue
        try:
            words = shlex.split(raw, comments=True)
        except ValueError:
            continue
        words = [_HERE.sub(ROOT + posixpath.dirname(path), w) for w in words]
        if len(words) == 1 and not (name in options and words[0] in {"$2", "${2}"}):
            found[name] = _expand(words[0], found, args)
    for name, flag in options.items():
        value = given(args, flag)
        if value is not None:
            found[name] = value
    return found


def _folder(
    argv: tuple[str, ...], current: str, found: Mapping[str, str], args: Sequence[str]
) -> str | None:
    """The folder (behind `ROOT`) `cd` moves to from `current`, or None when it is worked out
    at run time (`cd "$(mktemp -d)"`) or leaves nothing to follow."""
    if len(argv) != 2:
        return None
    target = _expand(argv[1], found, args)
    if "${" in target or "$(" in target or "`" in target or target.startswith("~"):
        return None
    return root_join(current, target)


def _shell_commands(
    path: str, text: str, args: Sequence[str], env: Mapping[str, str], start: str
) -> list[ScriptCommand]:
    found = _variables(path, text, env, args)
    current, moved = start, False
    out: list[ScriptCommand] = []
    for command in split_commands(text):
        argv = tuple(_HERE.sub(ROOT + posixpath.dirname(path), w) for w in command.argv)
        if argv[0] in {"cd", "pushd"}:
            folder = _folder(argv, current, found, args)
            if folder is not None:
                current, moved = folder, True
            continue
        words: list[str] = []
        for word in argv:
            if word in {"$@", "$*", "${@}"}:
                words.extend(args)
            else:
                words.append(_expand(word, found, args))
        env_words = tuple(_expand(w, found, args) for w in command.env)
        out.append(
            ScriptCommand(tuple(words), command.background, env_words, current if moved else None)
        )
    return out


def script_commands(
    path: str, text: str, args: Sequence[str], env: Mapping[str, str], cwd: str
) -> list[tuple[str, ShellCommand]]:
    """(folder, command) of each command the script at root-relative `path` runs, given `args`
    under the workflow's `env`, started in folder `cwd`: in the order the script writes them."""
    start = ROOT + cwd
    kind = _language(path, text)
    if kind == "python":
        commands = python_commands(path, text, args, env, start)
    elif kind == "js":
        commands = js_commands(path, text, args, env, start)
    else:
        commands = _shell_commands(path, text, args, env, start)
    return finish(commands, cwd)
