"""Untrusted text as GitHub-flavoured Markdown: the one place where SDK text becomes Markdown.

Everything an SDK, its repository or the harness wrote (scenario names, check ids, messages,
tag names, issue titles, file names) reaches the Markdown reports through here, and nowhere
else. What comes out is `Md`, Markdown that is safe to emit as it is; tiercheck's own wording is
marked with `own`. A renderer never formats an untrusted string itself.

* **Cleaning** (`clean`): one line (every run of whitespace, newlines and `\\r` included, is one
  space); NUL, the other control characters and lone surrogates become U+FFFD; bidirectional
  overrides and zero-width characters are shown as `[U+202E]`; `<!--` becomes `<!- -`, so no
  HTML comment (and none of tiercheck's own `<!-- tiercheck:… -->` markers) can start in it;
  the length is capped, with an ellipsis.
* **Inline text and table cells** (`text`, `cell`): word by word, an ordinary word (letters,
  numbers, versions like `1.2.3`, ids like `tools-call-simple`, plain punctuation) is left as it
  is, byte for byte, but for `<` written `&lt;` and, in a table cell, `|` written `\\|` (GFM
  splits a row before it reads anything else, code spans included, so a row keeps its
  columns). Any other word becomes a code span whose fence is longer than any backtick run
  inside (its pipes escaped in a cell), so no link, autolink, image, HTML, emphasis, mention
  (`@org/team`), issue reference (`#123`, `owner/repo#5`, `GH-7`) or commit reference can form
  from it. `code` and `code_cell` give one code span.
* **Links** (`github_url`, `https_url`, `link`): a link target is an https URL; one tiercheck
  builds from a repository and path parts percent-encodes each part, and one handed over whole
  is checked (https, a plain host name, no user or port) and percent-encoded again, so a tag name
  or a file name can neither end the link nor add text after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NewType
from urllib.parse import quote, urlsplit

__all__ = [
    "TEXT_LIMIT",
    "Md",
    "Url",
    "cell",
    "clean",
    "code",
    "code_cell",
    "github_url",
    "https_url",
    "join",
    "link",
    "own",
    "table",
    "text",
]

#: Markdown safe to emit as it is: made here from untrusted text, or tiercheck's own (`own`).
Md = NewType("Md", str)
#: An https URL safe as a Markdown link target (no space, bracket, parenthesis or backtick).
Url = NewType("Url", str)

#: Untrusted text is cut to this many characters (with an ellipsis) unless a caller says less.
TEXT_LIMIT = 2000

_SPACE = re.compile(r"\s+")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: Characters that reorder or hide text: shown by their code point.
_HIDDEN = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
#: Punctuation GFM and GitHub do nothing with inside a line (besides letters and digits).
_PLAIN = frozenset(" .,:;-/()'\"=+?%^§·—–→←…×°’‘“”")
#: What GitHub links even in plain words: URLs, `www.` autolinks, `GH-7`, commit-like hex runs.
_LINKISH = re.compile(r"://|www\.|\bgh-\d|\b[0-9a-f]{7,40}\b", re.IGNORECASE)
#: Brackets that make a link, image, reference or footnote (a lone `[0]` makes none: these
#: documents define no references).
_BRACKETS = re.compile(r"\]\(|\]\[|\[\^|^\[[^\]]*\]:")
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
_BACKTICKS = re.compile(r"`+")
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+")
#: What a URL keeps as it is when it is encoded again; everything else is percent-encoded.
_URL_SAFE = "/:#?=&%@+,;~.-_!$*"


def own(markdown: str) -> Md:
    """tiercheck's own Markdown (headings, labels, sentences it wrote), to emit as it is."""
    return Md(markdown)


def join(parts: Iterable[Md], separator: str = "") -> Md:
    """`parts` joined by `separator` (tiercheck's own, such as `", "`)."""
    return Md(separator.join(parts))


def clean(value: object, limit: int = TEXT_LIMIT) -> str:
    """`value` as one line of plain characters, shown honestly and cut to `limit` (see above)."""
    flat = _SPACE.sub(" ", "" if value is None else str(value)).strip()
    flat = _CONTROL.sub("\ufffd", flat)
    flat = _HIDDEN.sub(lambda m: f"[U+{ord(m.group()):04X}]", flat)
    if limit and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat.replace("<!--", "<!- -")


def _ordinary(word: str, *, first: bool) -> bool:
    """Whether `word` (no spaces) means nothing to GFM or GitHub where it stands, once its `<`
    and, in a table, its pipes are escaped."""
    for i, char in enumerate(word):
        if char.isalnum() or char in _PLAIN or char in "<|[]":
            continue
        if char == ">" and not (first and i == 0):
            continue  # `>` quotes only at the start of a line
        if char == "&" and not _ENTITY.match(word, i):
            continue  # `&` is only an entity with a name and `;`
        if char == "@" and i > 0 and word[i - 1].isalnum() and "." not in word[i:]:
            continue  # `sdk@v1` mentions no one and is no e-mail address
        inner = 0 < i < len(word) - 1 and word[i - 1].isalnum() and word[i + 1].isalnum()
        if char == "_" and inner:
            continue  # an underscore inside a word (`server_conformance`) is no emphasis
        return False
    return _LINKISH.search(word) is None and _BRACKETS.search(word) is None


def _word(word: str, *, first: bool, in_table: bool) -> str:
    if not _ordinary(word, first=first):
        return _span(word, in_table)
    word = re.sub(r"<(?=.)", "&lt;", word)  # `<` before a character opens HTML or an autolink
    return word.replace("|", "\\|") if in_table else word


def _words(flat: str, in_table: bool) -> Md:
    words = flat.split(" ")
    return Md(" ".join(_word(w, first=i == 0, in_table=in_table) for i, w in enumerate(words)))


def _span(flat: str, in_table: bool) -> Md:
    if not flat:
        return Md("")
    if in_table:
        # A backslash right before a pipe would escape the escape: double it first.
        flat = re.sub(r"(\\*)\|", lambda m: m.group(1) * 2 + "\\|", flat)
    longest = max((len(run) for run in _BACKTICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat[0] == "`" or flat[-1] == "`" else ""
    return Md(f"{fence}{pad}{flat}{pad}{fence}")


def text(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text inside a line outside a table: each ordinary word as it is (`<` escaped),
    every other word a code span."""
    return _words(clean(value, limit), in_table=False)


def cell(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text in a table cell: as `text`, with every pipe escaped."""
    return _words(clean(value, limit), in_table=True)


def code(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text as a code span, outside a table (empty text gives nothing)."""
    return _span(clean(value, limit), in_table=False)


def code_cell(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text as a code span in a table cell, its pipes escaped."""
    return _span(clean(value, limit), in_table=True)


def github_url(repo: object, *path: object) -> Url | None:
    """`https://github.com/OWNER/NAME/…`, each path part percent-encoded (its slashes kept);
    None when `repo` is not a plain `owner/name`."""
    repo_text = "" if repo is None else str(repo)
    if not _REPO.fullmatch(repo_text):
        return None
    parts = [quote(_CONTROL.sub("\ufffd", str(p)), safe="/") for p in path]
    return Url("/".join([f"https://github.com/{repo_text}", *parts]))


def https_url(url: object, hosts: Sequence[str] = ()) -> Url | None:
    """`url` as a safe link target: https, a plain host name (one of `hosts` when given), no
    user or port, everything but the URL's own delimiters percent-encoded; None otherwise."""
    if not isinstance(url, str) or _CONTROL.search(url) or _SPACE.search(url):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    if parts.scheme != "https" or port is not None or parts.username is not None:
        return None
    if not _HOST.fullmatch(host) or parts.netloc != host or (hosts and host not in hosts):
        return None
    rest = url[len(f"https://{host}") :]
    return Url(f"https://{host}{quote(rest, safe=_URL_SAFE)}")


def link(label: Md, url: Url | None) -> Md:
    """`label` linked to `url`; the label alone without one."""
    return Md(f"[{label}]({url})") if url and label else label


def table(header: Sequence[Md], rows: Iterable[Sequence[Md]]) -> list[Md]:
    """A GFM table's lines; every row must have the header's number of cells."""
    width = len(header)
    lines = [Md("| " + " | ".join(header) + " |"), Md("|" + "---|" * width)]
    for row in rows:
        if len(row) != width:
            msg = f"a table row of {len(row)} cells under a header of {width}"
            raise ValueError(msg)
        lines.append(Md("| " + " | ".join(row) + " |"))
    return lines
