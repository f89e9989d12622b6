"""A workflow step's `run:` text as the simple commands a shell would run.

Enough of the shell for what conformance workflows write: line continuations, quoting, `&&`,
`||`, `;`, `|` and newlines between commands, `&` to start one in the background, redirections
(dropped, with their targets), `#` comments (outside quotes), and `VAR=value` assignments
before a command (kept apart from its words). Anything it cannot split (an unclosed quote) is
no command at all.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

__all__ = ["ShellCommand", "split_commands"]

_PUNCTUATION = ";&|<>\n"
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True)
class ShellCommand:
    """One simple command: its words, whether it was started in the background (`&`), and the
    `NAME=value` assignments written before it (`PORT=8001 ./server &`)."""

    argv: tuple[str, ...]
    background: bool = False
    env: tuple[str, ...] = ()


def _scan(line: str, quote: str | None) -> tuple[str, str | None]:
    """(`line` without a trailing `# comment`, the quote still open at its end), given the quote
    open before it (None: none)."""
    escaped = False
    for i, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i], None
        elif quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
    return line, quote


def _without_comments(text: str) -> str:
    """`text` without its comments (a comment may hold an apostrophe: "the tool's exit code");
    a `#` inside a quoted string, or inside a word, is kept."""
    kept: list[str] = []
    quote: str | None = None
    for line in text.splitlines():
        code, quote = _scan(line, quote)
        kept.append(code)
    return "\n".join(kept)


def _without_descriptors(text: str) -> str:
    """`text` without the descriptor numbers written against a redirection (the `2` of `2>&1`,
    outside quotes): `--port 3001 > log` keeps its 3001, which the shell's tokens alone (`3001`,
    `>`) could not tell from a descriptor."""
    out: list[str] = []
    quote: str | None = None
    escaped = False
    i = 0
    while i < len(text):
        char = text[i]
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
        elif quote is None and char.isdigit() and (i == 0 or text[i - 1] in " \t\n;&|("):
            end = i
            while end < len(text) and text[end].isdigit():
                end += 1
            if end < len(text) and text[end] in "<>":
                i = end  # the descriptor: dropped, its operator kept
                continue
            out.append(text[i:end])
            i = end
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _tokens(text: str) -> list[str] | None:
    kept = _without_descriptors(_without_comments(text))
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
    skip_next = False

    def close(background: bool) -> None:
        argv = list(words)
        env: list[str] = []
        while argv and _ASSIGNMENT.match(argv[0]):
            env.append(argv.pop(0))
        if argv:
            commands.append(ShellCommand(tuple(argv), background, tuple(env)))
        words.clear()

    for token in tokens:
        if _is_operator(token):
            if "<" in token or ">" in token:
                skip_next = True  # the target: a file, or the descriptor of `>&1`
                continue
            close(background=token.rstrip("\n").endswith("&") and "&&" not in token)
            skip_next = False
        elif skip_next:
            skip_next = False
        else:
            words.append(token)
    close(background=False)
    return commands
