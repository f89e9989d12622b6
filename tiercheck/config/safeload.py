"""Reading a user's file safely: the one place every YAML and JSON loader goes through.

Every document tiercheck reads from a user (known_sdks.yaml, a baseline, a requirement set, a
governance snapshot, a `checks.json`, a scorecard for `diff`) may be hostile. This module makes
each way it can be hostile one line naming the file, never a traceback:

- too big to be what it claims (`MAX_BYTES`), read without trusting the size the file reports;
- not UTF-8 text (a leading byte-order mark is allowed and dropped);
- JSON with `NaN`, `Infinity` or a number too large for a float (not JSON, and our writer
  refuses to write them back);
- nested deeper than `MAX_DEPTH` (every consumer, jsonschema included, recurses), including
  nesting deep enough to exhaust the parser's own recursion;
- a YAML alias that refers to itself (`a: &a [*a]`), or aliases that expand to more than
  `MAX_NODES` values (the "billion laughs");
- a mapping key that is not text (YAML `? [a, b]`, `1: x`), where the loader asks for text keys;
- a value no consumer can hold (`check_values`): an integer beyond 64 bits (`MAX_INT`), a number
  that is not finite, a timestamp on the calendar's first or last day whose offset puts it
  outside the calendar once converted to UTC, or a name with a lone surrogate (`"\\ud800"`, no
  UTF-8 form): a key, the value of a naming field (`NAME_KEYS`), or any text of YAML. Other
  JSON text may hold one (a harness message quoting a server): the writers escape it.

The YAML parser itself (safe loader, YAML 1.2 booleans, no timestamps) is `config.yamlio`, which
reads through here.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

from tiercheck.errors import ConfigError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_NODES",
    "NAME_KEYS",
    "check_shape",
    "check_values",
    "load_json",
    "parse_json",
    "read_text",
    "value_problem",
]

#: The largest file read (64 MiB): a snapshot of a repository with tens of thousands of issues
#: is a few MiB, the largest scorecard a few hundred KiB.
MAX_BYTES = 64 * 1024 * 1024
#: The deepest nesting accepted. Our documents nest about ten levels; jsonschema and the
#: serialisers recurse once (or more) per level, so this stays far below Python's limit.
MAX_DEPTH = 64
#: The most values a document may hold once YAML aliases are expanded.
MAX_NODES = 2_000_000
#: The largest integer (in magnitude) a document may hold: a signed 64-bit one, what every other
#: JSON reader holds, and far beyond any count, size or tier tiercheck records.
MAX_INT = 2**63 - 1


def read_text(path: Path, *, what: str = "", max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of `path`; ConfigError for an unreadable, oversized or non-UTF-8 file.

    `what` names the document in "cannot read <what>" (e.g. "the scorecard").

    At most `max_bytes + 1` bytes are read, whatever the file claims to be (a FIFO or
    `/dev/zero` reports no size), so nothing reads without bound.
    """
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        msg = f"{path}: cannot read{' ' + what if what else ''}: {exc.strerror or exc}"
        raise ConfigError(msg) from None
    if len(data) > max_bytes:
        msg = f"{path}: larger than {max_bytes // (1024 * 1024)} MiB; is this the right file?"
        raise ConfigError(msg)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1].hex()
        msg = (
            f"{path}:{line}: not UTF-8 text (byte 0x{byte} at offset {exc.start}); save it as UTF-8"
        )
        raise ConfigError(msg) from None


def _constant(name: str) -> float:
    msg = f"{name} is not JSON"
    raise ValueError(msg)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        msg = f"{text} is too large for a number"
        raise ValueError(msg)
    return value


def parse_json(text: str, source: str, *, max_depth: int = MAX_DEPTH, shape: bool = True) -> object:
    """Decode JSON text and check its shape; ConfigError "<source>: not JSON: …" otherwise.

    `shape=False` leaves out the walk over every value (depth, size): for a reader that checks
    the type of every value it takes itself, on thousands of small files (a history data
    folder), where the walk is most of the time. Nesting too deep for the parser is still
    refused."""
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        msg = f"{source}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise ConfigError(msg) from None
    except ValueError as exc:
        raise ConfigError(f"{source}: not JSON: {exc}") from None
    except RecursionError:
        raise ConfigError(_too_deep(source, max_depth)) from None
    if shape:
        check_shape(data, source, max_depth=max_depth)
        check_values(data, source)
    return data


def load_json(
    path: Path,
    *,
    what: str = "",
    max_depth: int = MAX_DEPTH,
    max_bytes: int = MAX_BYTES,
    shape: bool = True,
) -> object:
    """`read_text` then `parse_json`: a JSON file, decoded and checked."""
    text = read_text(path, what=what, max_bytes=max_bytes)
    return parse_json(text, str(path), max_depth=max_depth, shape=shape)


def _too_deep(source: str, max_depth: int) -> str:
    return f"{source}: nested deeper than {max_depth} levels; this is not a file tiercheck wrote"


def _where(path: list[object]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def check_shape(
    data: object,
    source: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    text_keys: bool = False,
) -> None:
    """Refuse a decoded document that is cyclic, too deep, too large once expanded, or (with
    `text_keys`) has a mapping key that is not a string.

    Iterative, and each shared container (a YAML alias) is measured once, so neither a deep
    nor a self-referring nor an exponentially aliased document can make the check itself blow up.
    """
    sizes: dict[int, int] = {}  # id → values under it, once finished
    # (container, depth, path, children left); a container on the stack is being walked.
    on_stack: set[int] = set()
    stack: list[tuple[object, int, list[object], list[tuple[object, object]]]] = []

    def children(node: object) -> list[tuple[object, object]]:
        if isinstance(node, dict):
            return list(node.items())
        if isinstance(node, list):
            return list(enumerate(node))
        return []

    def enter(node: object, depth: int, path: list[object]) -> None:
        if depth > max_depth:
            raise ConfigError(_too_deep(source, max_depth))
        on_stack.add(id(node))
        stack.append((node, depth, path, children(node)))

    if not isinstance(data, dict | list):
        return
    enter(data, 1, [])
    while stack:
        node, depth, path, todo = stack[-1]
        if not todo:
            stack.pop()
            on_stack.discard(id(node))
            total = 1 + sum(sizes.get(id(child), 1) for _, child in children(node))
            sizes[id(node)] = total
            if total > max_nodes:
                msg = f"{source}: {_where(path)}: expands to more than {max_nodes:,} values"
                raise ConfigError(msg)
            continue
        key, child = todo.pop()
        if text_keys and isinstance(node, dict) and not isinstance(key, str):
            msg = f"{source}: {_where(path)}: the key {key!r} is not text; quote it"
            raise ConfigError(msg)
        if not isinstance(child, dict | list) or id(child) in sizes:
            continue
        where = [*path, key]
        if id(child) in on_stack:
            msg = f"{source}: {_where(where)}: refers to itself (a recursive YAML alias)"
            raise ConfigError(msg)
        enter(child, depth + 1, where)


#: Fields whose text names something (a repository, an SDK line, a ref, a scenario): it lands in
#: titles, links and file names, so a lone surrogate there is refused even in JSON.
NAME_KEYS = frozenset(
    {"repo", "branch", "version", "name", "sdk", "ref", "commit", "scenario", "revision", "tag"}
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_TEXT = "holds a lone surrogate (half of a UTF-16 pair), which is not text"
#: Only a moment on the calendar's first or last day can leave it when its offset is undone.
_CALENDAR_EDGE = re.compile(r"(?:0001-01-01|9999-12-31)[T ]")


def _leaves_calendar(text: str) -> bool:
    """Whether `text` is an ISO-8601 moment with an offset that UTC cannot hold."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return False
    if moment.tzinfo is None:
        return False
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return True
    return False


def _digits(value: int) -> str:
    """How many digits `value` has: exactly, below the 4,300 Python writes out."""
    if value.bit_length() < 14_000:
        return str(len(str(abs(value))))
    return f"about {int(value.bit_length() * math.log10(2)) + 1}"


def value_problem(value: object, *, text: bool = True) -> str | None:
    """Why one decoded scalar cannot be used, or None when it can (`text=False`: a lone
    surrogate is allowed)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if -MAX_INT <= value <= MAX_INT:
            return None
        return f"a number of {_digits(value)} digits is too large (at most {MAX_INT:,})"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"expected a finite number, got {value}"
    if not isinstance(value, str):
        return None
    if not value.isascii():
        return f"{ascii(value)[:60]} {_NOT_TEXT}" if text and _SURROGATE.search(value) else None
    if _CALENDAR_EDGE.match(value) and _leaves_calendar(value):
        return f"{value[:40]!r} is outside the calendar once converted to UTC"
    return None


#: Where a value sits, as (the trail of its container, its key or index); None at the top.
_Trail = tuple["_Trail", object] | None


def _trail_path(trail: _Trail) -> list[object]:
    path: list[object] = []
    while trail is not None:
        trail, part = trail
        path.append(part)
    return path[::-1]


def check_values(data: object, source: str, *, all_text: bool = False) -> None:
    """Refuse a decoded document holding a value `value_problem` names, with one line naming
    the file and where in it. A lone surrogate is refused in keys and in the value of a
    `NAME_KEYS` field, and with `all_text` (a YAML document, written by a person) in any text.

    Run after `check_shape` (the document is then acyclic and bounded); each shared container
    is visited once.
    """
    seen: set[int] = set()
    stack: list[tuple[object, _Trail, bool]] = [(data, None, all_text)]
    while stack:
        node, trail, text = stack.pop()
        if isinstance(node, dict | list):
            if id(node) in seen:
                continue
            seen.add(id(node))
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, child in items:
                if isinstance(key, str) and not key.isascii() and _SURROGATE.search(key):
                    where = _where(_trail_path(trail))
                    msg = f"{source}: {where}: the key {ascii(key)[:60]} {_NOT_TEXT}"
                    raise ConfigError(msg)
                stack.append((child, (trail, key), all_text or key in NAME_KEYS))
            continue
        problem = value_problem(node, text=text)
        if problem is not None:
            raise ConfigError(f"{source}: {_where(_trail_path(trail))}: {problem}")
