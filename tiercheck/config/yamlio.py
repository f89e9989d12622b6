"""YAML loading that keeps what the user wrote.

PyYAML's safe loader follows YAML 1.1: an unquoted `2025-11-25` becomes a `datetime.date` and
`on`/`yes`/`off` become booleans. Revisions and refs must stay strings, so this loader drops the
timestamp resolver and accepts only `true`/`false` as booleans (the YAML 1.2 core schema).

Files are read, and the decoded document checked (depth, recursive aliases, alias expansion,
text keys, values no consumer can hold), by `config.safeload`, the one place every loader goes
through.

A document that parsed and passed those checks is remembered by its text (the last
`_REMEMBERED` of them, each up to `_REMEMBERED_CHARS`): the same text read again, as the
bundled `known_sdks.yaml` is by every command that names an SDK, is handed out as a fresh copy
instead of being parsed again. A document that failed is never remembered, so each read says
why again.
"""

from __future__ import annotations

import copy
import hashlib
import re
import threading
from collections import OrderedDict
from pathlib import Path

import yaml

from tiercheck.config.safeload import MAX_DEPTH, check_shape, check_values, read_text
from tiercheck.errors import ConfigError

__all__ = ["load_yaml", "loads_yaml"]


class _TooDeepError(Exception):
    """Raised by the composer at the first node nested deeper than `MAX_DEPTH`."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader without YAML 1.1 timestamps and with YAML 1.2 booleans, that stops composing
    at the first node nested deeper than `MAX_DEPTH`.

    Counting while composing matters for time, not only for correctness: PyYAML parses the
    rest of a hostile 5,000-deep document before `check_shape` could count it, which takes
    seconds; the composer pulls events lazily, so stopping here skips the rest.
    """

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH + 1:  # the document node itself is depth 1
                raise _TooDeepError
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_StrictLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in {"tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool"}
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def _no_duplicate_keys(
    loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False
) -> dict[object, object]:
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            # `? [a, b]` makes a list key; PyYAML's own check would say so, ours comes first.
            mark = key_node.start_mark
            msg = f"a {type(key).__name__} cannot be a key (line {mark.line + 1}); use text"
            raise yaml.constructor.ConstructorError(None, None, msg, mark) from None
        if key in seen:
            mark = key_node.start_mark
            msg = f"duplicate key {key!r} (line {mark.line + 1})"
            raise yaml.constructor.ConstructorError(None, None, msg, mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicate_keys)


#: How many parsed documents are remembered (the bundled registry, the requirement sets, a
#: registry file and a baseline or two of one run, with room to spare), and the largest text
#: remembered: a bigger one is parsed each time rather than held.
_REMEMBERED = 32
_REMEMBERED_CHARS = 256 * 1024
_parsed: OrderedDict[bytes, object] = OrderedDict()
_parsed_lock = threading.Lock()


def loads_yaml(text: str, source: str) -> object:
    """Parse YAML text; a syntax error becomes a one-line ConfigError naming `source` and line.

    The document is then checked by `safeload.check_shape`: no recursive alias, no nesting
    deeper than `safeload.MAX_DEPTH`, no alias bomb, and text keys only; and by
    `safeload.check_values`: no number, text or timestamp a consumer cannot hold (a lone
    surrogate in any text: a person wrote the file). Each call gets a document of its own to
    change: a text parsed before is copied, not parsed again.
    """
    if len(text) > _REMEMBERED_CHARS:
        return _parse(text, source)
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    with _parsed_lock:
        if key in _parsed:
            _parsed.move_to_end(key)
            return copy.deepcopy(_parsed[key])
    data = _parse(text, source)
    with _parsed_lock:
        _parsed[key] = copy.deepcopy(data)
        while len(_parsed) > _REMEMBERED:
            _parsed.popitem(last=False)
    return data


def _parse(text: str, source: str) -> object:
    """`loads_yaml`'s parse and checks, every time."""
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except (RecursionError, _TooDeepError):
        # The parser recurses once per level: nesting this deep would exhaust it.
        msg = f"{source}: nested deeper than {MAX_DEPTH} levels"
        raise ConfigError(msg) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        problem = exc.problem or exc.context or "invalid YAML"
        msg = f"{where}: {problem}"
        raise ConfigError(msg) from exc
    except yaml.YAMLError as exc:
        msg = f"{source}: invalid YAML: {exc}"
        raise ConfigError(msg) from exc
    except ValueError as exc:
        # The int constructor refuses more digits than Python converts (4,300); the advice
        # after the ';' is for programmers.
        msg = f"{source}: invalid YAML: {str(exc).split(';', maxsplit=1)[0]}"
        raise ConfigError(msg) from None
    check_shape(data, source, text_keys=True)
    check_values(data, source, all_text=True)
    return data


def load_yaml(path: Path) -> object:
    """Read (through `safeload.read_text`) and parse a YAML file; any problem is one line."""
    return loads_yaml(read_text(path), str(path))
