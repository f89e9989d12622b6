"""A workflow step's `run:` text as the simple commands a shell would run.

Enough of the shell for what conformance workflows write: line continuations, quoting, `&&`,
`||`, `;`, `|` and newlines between commands, `&` to start one in the background, redirections
(dropped, with their targets), `#` comments, and `VAR=value` assignments before a command
(dropped). Anything it cannot split (an unclosed quote) is no command at all.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

__all__ = ["ShellCommand", "split_commands"]

_PUNCTUATION = ";&|<>\n"
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_FD = re.compile(r"^\d+$")


@dataclass(frozen=True)
class ShellCommand:
    """One simple command: its words, and whether it was started in the background (`&`)."""

    argv: tuple[str, ...]
    background: bool = False


def _tokens(text: str) -> list[str] | None:
    # A comment line may hold an apostrophe ("the tool's exit code"): drop such lines first.
    kept = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    joined = kept.replace("\\\r\n", " ").replace("\\\n", " ")
    lexer = shlex.shlex(joined, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    tokens: list[str] = []
    try:
        while (token := lexer.get_token()) is not None and token != lexer.eof:
            tokens.append(token)
    except ValueError:  # an unclosed quote: nothing here can be trusted to be a command
        return None
    return tokens


def _is_operator(token: str) -> bool:
    return bool(token) and all(c in _PUNCTUATION for c in token)


def split_commands(text: str) -> list[ShellCommand]:
    """The simple commands of `text`, in order (an empty list when it cannot be split)."""
    tokens = _tokens(text)
    if tokens is None:
        return []
    commands: list[ShellCommand] = []
    words: list[str] = []
    in_comment = False
    skip_next = False

    def close(background: bool) -> None:
        argv = list(words)
        while argv and _ASSIGNMENT.match(argv[0]):
            argv.pop(0)
        if argv:
            commands.append(ShellCommand(tuple(argv), background))
        words.clear()

    for token in tokens:
        if _is_operator(token):
            if "<" in token or ">" in token:
                if words and _FD.match(words[-1]):
                    words.pop()  # the `2` of `2>&1`
                # `>&1`, `>&2`: the target is the next word, a descriptor; `> file` likewise.
                skip_next = not in_comment
                continue
            if "\n" in token:
                in_comment = False
            if not in_comment:
                close(background=token.rstrip("\n").endswith("&") and "&&" not in token)
            skip_next = False
            continue
        if skip_next:
            skip_next = False
            continue
        if in_comment:
            continue
        if token.startswith("#"):  # bash: a word that starts with `#` starts a comment
            in_comment = True
            continue
        words.append(token)
    close(background=False)
    return commands
