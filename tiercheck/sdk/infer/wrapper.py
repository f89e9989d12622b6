"""A repository script that runs the harness for a workflow (`run-server.sh --spec-version …`):
the server it starts in the background, and the URL it hands the harness.

Read as conformance scripts are written: `NAME="value"` and `NAME="${NAME:-default}"`
assignments, a `cd "$SCRIPT_DIR/.."` (or `$(dirname "$0")/..`) to the folder it works in, one
command ending in `&`, and the harness's `--url`. `$PORT` becomes `{port}` (tiercheck exports
PORT to the server it starts). Pure: the script's path and text in, facts out.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from tiercheck.sdk.infer.shell import split_commands

__all__ = ["WrapperFacts", "expand", "read_wrapper"]

_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_HERE = ("SCRIPT_DIR", "DIR", "HERE", "dirname")


@dataclass(frozen=True)
class WrapperFacts:
    """The server the script starts (its words, root-relative) and the URL it gives the harness."""

    server_start: tuple[str, ...] | None = None
    url: str | None = None


def expand(word: str, variables: Mapping[str, str]) -> str:
    """`word` with `$PORT` as `{port}` and the script's own variables put in (others kept)."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name == "PORT":
            return "{port}"
        return variables.get(name, match.group(0))

    return _VARIABLE.sub(one, word)


def _variables(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _ASSIGN.match(line)
        if match is None:
            continue
        try:
            words = shlex.split(match.group(2), comments=True)
        except ValueError:
            continue
        if len(words) == 1:
            found[match.group(1)] = expand(words[0], found)
    return found


def _folder(script: str, argv: tuple[str, ...]) -> str | None:
    """The folder `cd` moves to, relative to the root, when it is the script's own plus a path."""
    if len(argv) != 2 or not any(h in argv[1] for h in _HERE):
        return None
    tail = re.sub(r"^.*?(\$\{?[A-Za-z_]+\}?|\$\([^)]*\))", "", argv[1], count=1)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(script), "./" + tail.lstrip("/")))
    return None if joined.startswith("..") else ("" if joined == "." else joined)


def read_wrapper(script: str, text: str) -> WrapperFacts:
    """What the script at root-relative path `script` starts and where the harness reaches it."""
    variables = _variables(text)
    cwd = posixpath.dirname(script)
    start: tuple[str, ...] | None = None
    url: str | None = None
    for command in split_commands(text):
        argv = command.argv
        if argv[0] == "cd":
            folder = _folder(script, argv)
            cwd = folder if folder is not None else cwd
        elif command.background and start is None:
            words = command.env + argv
            start = tuple(_root_word(expand(w, variables), cwd) for w in words)
        elif "--url" in argv[:-1] and url is None:
            url = expand(argv[argv.index("--url") + 1], variables)
    return WrapperFacts(start, url)


def _root_word(word: str, cwd: str) -> str:
    if not cwd or not word.startswith(("./", "../")):
        return word
    joined = posixpath.normpath(posixpath.join(cwd, word))
    if joined.startswith(".."):
        return word
    return joined if "/" in joined else f"./{joined}"
