"""The commands a repository script runs, once read: what the shell, Python and JavaScript
readers (`wrapper`, `pyscript`, `jsscript`) all give.

A script is read for the commands it would run, in the order it writes them, each with the
folder it runs in, whether it is started and left running (the server), and the `NAME=value`
settings it is given. A path a script builds from its own location (`Path(__file__).parent`,
`import.meta.dirname`, `$SCRIPT_DIR`) is a root-relative path behind `ROOT`, made relative to the
folder its command runs in at the end (`finish`). A value the reader cannot work out is written
as an unexpanded `${NAME}`, which the entry never writes. Pure: no file is read here.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tiercheck.sdk.infer.shell import ShellCommand

__all__ = [
    "ROOT",
    "ScriptCommand",
    "finish",
    "given",
    "root_join",
    "unknown",
]

#: Marks a root-relative path a script built from its own location (`ROOT + "conf/srv.py"`).
ROOT = "\x00root/"

#: How many values a reader works out by following names, at most (a name defined by itself).
MAX_DEPTH = 24


@dataclass(frozen=True)
class ScriptCommand:
    """One command a script runs: its words, whether it is left running, its `NAME=value`
    settings, and the folder it runs in (root-relative, or None: the folder the script was
    started in)."""

    argv: tuple[str, ...]
    background: bool = False
    env: tuple[str, ...] = ()
    cwd: str | None = None


def unknown(name: str) -> str:
    """A value that cannot be worked out: `${name}`, which the entry refuses to write."""
    return "${" + "".join(c if c.isalnum() or c in "_-." else "_" for c in name)[:40] + "}"


def given(args: Sequence[str], flag: str) -> str | None:
    """The value the script was given for its own option `flag` (`--flag V` or `--flag=V`, the
    last one), or None."""
    found = None
    for i, word in enumerate(args):
        if word == flag and i + 1 < len(args):
            found = args[i + 1]
        elif word.startswith(flag + "="):
            found = word[len(flag) + 1 :]
    return found


def root_join(base: str, *parts: str) -> str:
    """`parts` joined to `base` as a path join does (an absolute part starts again); a path
    behind `ROOT` stays one, and never leaves the root."""
    path = base
    for part in parts:
        path = part if part.startswith(("/", ROOT)) else posixpath.join(path, part)
    if not path.startswith(ROOT):
        return path
    inner = posixpath.normpath("/" + path[len(ROOT) :]).lstrip("/")
    return ROOT + ("" if inner == "." else inner)


def _relative(path: str, cwd: str) -> str:
    """The root-relative `path` as written in folder `cwd`: `./x` or `../x`, runnable."""
    inner = path[len(ROOT) :] or "."
    rel = posixpath.relpath(inner, cwd or ".")
    return rel if rel.startswith("../") or rel == ".." else f"./{rel}".removesuffix("/.")


def _word(word: str, cwd: str) -> str:
    if ROOT not in word:
        return word
    head, _, tail = word.partition(ROOT)
    end = len(tail)
    for stop in " '\":;,=":
        at = tail.find(stop)
        end = at if 0 <= at < end else end
    return head + _relative(ROOT + tail[:end], cwd) + _word(tail[end:], cwd)


def finish(commands: Iterable[ScriptCommand], caller_cwd: str) -> list[tuple[str, ShellCommand]]:
    """(folder, command) of each command, its folder root-relative (the caller's when the
    script set none) and its words behind `ROOT` written relative to that folder."""
    out: list[tuple[str, ShellCommand]] = []
    for command in commands:
        cwd = caller_cwd if command.cwd is None else command.cwd
        if cwd.startswith(ROOT):
            cwd = cwd[len(ROOT) :]
        cwd = "" if cwd in {".", ""} else cwd
        argv = tuple(_word(w, cwd) for w in command.argv)
        env = tuple(_word(w, cwd) for w in command.env)
        if argv:
            out.append((cwd, ShellCommand(argv, command.background, env)))
    return out
