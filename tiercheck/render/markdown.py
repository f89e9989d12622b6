"""GitHub-flavoured Markdown: the one place where Markdown is made, untrusted text neutralised.

Everything an SDK, its repository or the harness wrote (scenario names, check ids, messages,
tag names, issue titles, file names) reaches the Markdown documents through here, and every
Markdown renderer composes its document from what this module gives back: `Md`, Markdown safe
to emit as it is. `Md` is a `str`, but only this module can make one: a plain `str` handed to
any function here is untrusted text and is neutralised (`text`), so a renderer that forgets to
escape shows the text as text, never as markup. Joining `Md` with `+` or an f-string gives a
plain `str` again, neutralised in turn: compose with `fmt`, `join` and the builders below.

* **Cleaning** (`clean`): one line (every run of whitespace, newlines and `\\r` included, is one
  space); NUL, the other control characters and lone surrogates become U+FFFD; bidirectional
  controls, zero-width characters and noncharacters are shown as `[U+202E]`, as every output
  kind shows them (`tiercheck.plaintext.visible`); `<!--` becomes `<!- -`
  (`no_comment`), so no HTML comment (and none of tiercheck's own `<!-- tiercheck:… -->`
  markers) can start in it; the length is capped, with an ellipsis.
* **Inline text** (`text`, and every plain `str` given to a builder): word by word, an ordinary
  word (letters, numbers, versions like `1.2.3`, ids like `tools-call-simple`, plain
  punctuation) is left as it is, byte for byte, but for `<` written `&lt;`. Any other word,
  and a first word that would start a block at the start of a line (`>`, `-`, `1.`, `===`),
  becomes a code span whose fence is longer than any backtick run inside, so no link, autolink,
  image, HTML, emphasis, mention (`@org/team`), issue reference (`#123`, `owner/repo#5`,
  `GH-7`) or commit reference can form from it. `code` gives one code span.
* **Tiercheck's own wording** (`own`, `fmt`): a literal Markdown string, or a literal template
  whose `{}` take `Md` as it is, numbers as they are and any other text neutralised.
* **Blocks**: `heading`, `bold`, `italic`, `bullet`, `task`, `numbered`, `quote`, `table`
  (every cell's pipes escaped, `\\|`, since GFM splits a row before it reads anything else,
  code spans included), `details` (its summary HTML-escaped: GitHub reads no Markdown inside
  `<summary>`), `code_block` (a fence longer than any backtick run in it) and `document`.
* **Links** (`github_url`, `https_url`, `link`): a link target is a `Url`, an https URL; one
  tiercheck builds from a repository and path parts percent-encodes each part, and one handed
  over whole is checked (https, a plain host name, no user or port, one of ours when `hosts` is
  given) and percent-encoded again, so a tag name or a file name can neither end the link nor
  add text after it. An issue, pull request or release a document names is linked by
  `github_link` only when `element.github_page` accepts its address; else it is plain text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Literal, NewType, TypeAlias
from urllib.parse import quote as percent_encode
from urllib.parse import urlsplit

from tiercheck.plaintext import visible
from tiercheck.render.element import GITHUB_PAGE_KINDS, GithubPageKind, github_page

__all__ = [
    "BLANK",
    "TEXT_LIMIT",
    "Md",
    "Url",
    "bold",
    "bullet",
    "clean",
    "code",
    "code_block",
    "details",
    "document",
    "fmt",
    "github_link",
    "github_url",
    "heading",
    "https_url",
    "inline",
    "italic",
    "join",
    "leading_lines",
    "link",
    "no_comment",
    "numbered",
    "own",
    "quote",
    "strip_end",
    "table",
    "task",
    "text",
]


class Md(str):
    """Markdown safe to emit as it is. Only this module makes one (`Md(...)` raises): from
    untrusted text it neutralised, or from tiercheck's own literal wording (`own`, `fmt`)."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Md:
        msg = "Markdown is made only by tiercheck.render.markdown (own, fmt, text, …)"
        raise TypeError(msg)

    def __reduce__(self) -> tuple[Callable[[str], Md], tuple[str]]:
        return _md, (str(self),)


def _md(markdown: str) -> Md:
    """The one raw constructor: `markdown` taken as safe. Private to this module."""
    return str.__new__(Md, markdown)


#: An empty line.
BLANK = _md("")

#: An https URL safe as a Markdown link target (no space, bracket, parenthesis or backtick).
Url = NewType("Url", str)

#: What a builder takes: `Md` as it is; any other text is untrusted and neutralised.
Inline: TypeAlias = Md | str
#: What `join` may put between parts (tiercheck's own separators).
Separator: TypeAlias = Literal["", " ", ", ", "; ", "<br>"]

#: Untrusted text is cut to this many characters (with an ellipsis) unless a caller says less.
TEXT_LIMIT = 2000

_SPACE = re.compile(r"\s+")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: Punctuation GFM and GitHub do nothing with inside a line (besides letters and digits).
_PLAIN = frozenset(" .,:;-/()'\"=+?%^§·—–→←…×°’‘“”≥≤≠±")
#: What GitHub links even in plain words: URLs, `www.` autolinks, `GH-7`, commit-like hex runs.
_LINKISH = re.compile(r"://|www\.|\bgh-\d|\b[0-9a-f]{7,40}\b", re.IGNORECASE)
#: Brackets that make a link, image, reference or footnote (a lone `[0]` makes none: these
#: documents define no references).
_BRACKETS = re.compile(r"\]\(|\]\[|\[\^|^\[[^\]]*\]:")
#: A first word that starts a block at the start of a line: a list marker, a rule, `===`.
_BLOCK_START = re.compile(r"[-+=]+|\d{1,9}[.)]")
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
_BACKTICKS = re.compile(r"`+")
#: A pipe and the backslashes right before it: in a table cell each is escaped, the
#: backslashes doubled first so that none escapes the escape.
_PIPE = re.compile(r"(\\*)\|")
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+")
#: What a URL keeps as it is when it is encoded again; everything else is percent-encoded.
_URL_SAFE = "/:#?=&%@+,;~.-_!$*"
#: A line that opens a fenced code block, and its fence.
_OPEN_FENCE = re.compile(r"(`{3,}|~{3,})[^`]*")


# -- cleaning --------------------------------------------------------------------------------


def no_comment(value: str) -> str:
    """`value` with every `<!--` written `<!- -`: no HTML comment, and so none of tiercheck's
    own markers, can start in it (it reads the same, in code or out of it)."""
    return value.replace("<!--", "<!- -")


def clean(value: object, limit: int = TEXT_LIMIT) -> str:
    """`value` as one line of plain characters, shown honestly and cut to `limit` (see above)."""
    flat = _SPACE.sub(" ", "" if value is None else str(value)).strip()
    flat = _CONTROL.sub("\ufffd", flat)
    flat = visible(flat)
    if limit and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return no_comment(flat)


def _ordinary(word: str, *, first: bool) -> bool:
    """Whether `word` (no spaces) means nothing to GFM or GitHub where it stands, once its `<`
    and, in a table, its pipes are escaped."""
    if first and _BLOCK_START.fullmatch(word):
        return False  # at the start of a line: a list item, a rule or a heading's underline
    for i, char in enumerate(word):
        if char.isalnum() or char in _PLAIN or char in "<|[]":
            continue
        if char == ">" and not (first and i == 0):
            continue  # `>` quotes only at the start of a line
        if char == "&" and not _ENTITY.match(word, i):
            continue  # `&` is only an entity with a name and `;`
        if char == "@" and i > 0 and word[i - 1].isalnum() and "." not in word[i:]:
            continue  # `sdk@v1` mentions no one and is no e-mail address
        if char == "@" and i == len(word) - 1:
            continue  # an `@` that ends a word (`30/30 @ 2025-11-25`) is followed by no name
        inner = 0 < i < len(word) - 1 and word[i - 1].isalnum() and word[i + 1].isalnum()
        if char == "_" and inner:
            continue  # an underscore inside a word (`server_conformance`) is no emphasis
        return False
    return _LINKISH.search(word) is None and _BRACKETS.search(word) is None


def _word(word: str, *, first: bool) -> str:
    if not _ordinary(word, first=first):
        return _span(word)
    return re.sub(r"<(?=.)", "&lt;", word)  # `<` before a character opens HTML or an autolink


def _span(flat: str) -> str:
    if not flat:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat[0] == "`" or flat[-1] == "`" else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


# -- inline ----------------------------------------------------------------------------------


def text(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text inside a line: each ordinary word as it is (`<` escaped), every other
    word a code span."""
    words = clean(value, limit).split(" ")
    return _md(" ".join(_word(w, first=i == 0) for i, w in enumerate(words)))


def code(value: object, limit: int = TEXT_LIMIT) -> Md:
    """Untrusted text as one code span (empty text gives nothing)."""
    return _md(_span(clean(value, limit)))


def inline(value: Inline | int) -> Md:
    """`value` as Markdown: `Md` as it is, an int as its digits, any other text neutralised."""
    if isinstance(value, Md):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return _md(str(value))
    return text(value)


def own(markdown: str) -> Md:
    """tiercheck's own Markdown, a literal (a label, a sentence, an icon), to emit as it is."""
    return _md(markdown)


def fmt(template: str, *values: Inline | int) -> Md:
    """tiercheck's own literal `template` with each `{}` filled: `Md` as it is, an int as its
    digits, any other text neutralised (`text`)."""
    return _md(template.format(*(inline(v) for v in values)))


def join(parts: Iterable[Inline], separator: Separator = "") -> Md:
    """`parts` (plain text neutralised) joined by one of tiercheck's own separators."""
    return _md(separator.join(inline(p) for p in parts))


def strip_end(markdown: Md, chars: str) -> Md:
    """`markdown` without the trailing run of `chars` (from `:;,. `: nothing it ends in can
    open or close markup)."""
    if set(chars) - set(":;,. "):
        msg = f"strip_end strips only punctuation and spaces, not {chars!r}"
        raise ValueError(msg)
    return _md(markdown.rstrip(chars))


def bold(content: Inline) -> Md:
    """`**content**`."""
    return _md(f"**{inline(content)}**")


def italic(content: Inline) -> Md:
    """`_content_`."""
    return _md(f"_{inline(content)}_")


def github_url(repo: object, *path: object) -> Url | None:
    """`https://github.com/OWNER/NAME/…`, each path part percent-encoded (its slashes kept);
    None when `repo` is not a plain `owner/name`."""
    repo_text = "" if repo is None else str(repo)
    if not _REPO.fullmatch(repo_text):
        return None
    parts = [percent_encode(_CONTROL.sub("\ufffd", str(p)), safe="/") for p in path]
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
    return Url(f"https://{host}{percent_encode(rest, safe=_URL_SAFE)}")


def link(label: Inline, url: Url | None) -> Md:
    """`label` linked to `url`; the label alone without one (or when it is empty)."""
    shown = inline(label)
    return _md(f"[{shown}]({url})") if url and shown else shown


def github_link(
    label: Inline | None,
    url: object,
    *,
    repo: str | None = None,
    kinds: Collection[GithubPageKind] = GITHUB_PAGE_KINDS,
) -> Md:
    """`label` (None: the page's own name, `OWNER/NAME#N` or the tag) linked to `url` when
    `element.github_page` accepts it (an issue, pull request or release page of one of `kinds`,
    of `repo` when given); otherwise plain text: `label`, or the URL as written, in code."""
    page = github_page(url, repo=repo, kinds=kinds)
    if page is None:
        return code(url) if label is None else inline(label)
    return link(page.label if label is None else label, Url(page.url))


# -- lines and blocks ------------------------------------------------------------------------


def heading(level: int, content: Inline) -> Md:
    """`## content`, `level` hashes (1 to 6)."""
    if not 1 <= level <= 6:
        msg = f"no Markdown heading of level {level}"
        raise ValueError(msg)
    return _md(f"{'#' * level} {inline(content)}")


def bullet(content: Inline, indent: int = 0) -> Md:
    """`- content`, after `indent` spaces (2 under a bullet, 3 under `1.`)."""
    return _md(f"{' ' * indent}- {inline(content)}")


def task(content: Inline) -> Md:
    """`- [ ] content`: an unticked task-list item."""
    return _md(f"- [ ] {inline(content)}")


def numbered(number: int, content: Inline) -> Md:
    """`N. content`."""
    return _md(f"{number}. {inline(content)}")


def quote(content: Inline) -> Md:
    """`> content`: one blockquote line."""
    return _md(f"> {inline(content)}")


def _cell(value: Inline) -> str:
    return _PIPE.sub(lambda m: m.group(1) * 2 + "\\|", inline(value))


def _row(cells: Sequence[Inline]) -> Md:
    return _md("| " + " | ".join(_cell(c) for c in cells) + " |")


def table(
    header: Sequence[Inline], rows: Iterable[Sequence[Inline]], *, spaced: bool = False
) -> list[Md]:
    """A GFM table's lines (the delimiter row `|---|` or, `spaced`, `| --- |`); every row must
    have the header's number of cells, and every pipe in a cell is escaped."""
    width = len(header)
    rule = "| " + " | ".join(["---"] * width) + " |" if spaced else "|" + "---|" * width
    lines = [_row(header), _md(rule)]
    for row in rows:
        if len(row) != width:
            msg = f"a table row of {len(row)} cells under a header of {width}"
            raise ValueError(msg)
        lines.append(_row(row))
    return lines


def details(summary: str, lines: Sequence[Inline]) -> list[Md]:
    """A folded block: `<details>`, the `<summary>` (plain text, HTML-escaped: GitHub reads no
    Markdown inside it), a blank line, `lines`, a blank line, `</details>`."""
    shown = html.escape(clean(summary), quote=False)
    body = [inline(line) for line in lines]
    return [
        _md("<details>"),
        _md(f"<summary>{shown}</summary>"),
        _md(""),
        *body,
        _md(""),
        _md("</details>"),
    ]


def code_block(lines: Sequence[str], info: str = "") -> list[Md]:
    """A fenced code block of `lines` (shown as they are, but for control and hidden
    characters and `<!--`), its fence longer than any backtick run in them; `info` is
    tiercheck's own language tag (`sh`)."""
    shown = [
        no_comment(visible(_CONTROL.sub("\ufffd", x))) for line in lines for x in line.split("\n")
    ]
    longest = max((len(run) for line in shown for run in _BACKTICKS.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [_md(f"{fence}{info}"), *(_md(line) for line in shown), _md(fence)]


def leading_lines(lines: Sequence[Md], room: int, measure: Callable[[str], int] = len) -> list[Md]:
    """The first of `lines` that fit in `room` (as `measure` counts, a newline after each),
    a fenced code block left open closed: a document cut between lines, so no code span or
    link is cut open."""
    kept: list[Md] = []
    used = 0
    fence = ""
    for line in lines:
        after = _fence_after(fence, line)
        cost = used + measure(line) + 1
        if cost + (measure(after) + 1 if after else 0) > room:
            break
        kept.append(line)
        used, fence = cost, after
    return [*kept, _md(fence)] if fence else kept


def _fence_after(fence: str, line: str) -> str:
    """The code fence open after `line`, when `fence` was open before it ("" for none)."""
    stripped = line.strip()
    if fence:
        closes = re.fullmatch(re.escape(fence[0]) + "{" + str(len(fence)) + ",}", stripped)
        return "" if closes else fence
    opened = _OPEN_FENCE.fullmatch(stripped)
    return opened.group(1) if opened else ""


def document(lines: Iterable[Inline]) -> Md:
    """`lines` as one document (plain text lines neutralised), trailing blank lines and spaces
    dropped, ending with one newline."""
    return _md("\n".join(inline(line) for line in lines).rstrip() + "\n")
