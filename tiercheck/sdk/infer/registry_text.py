"""An inferred entry as known_sdks.yaml text, and that text put into a registry file's text.

The values are written by the YAML dumper (never by formatting strings), so whatever the
repository put in them stays a value: it cannot add a key, end the entry or start a comment.
The reasons are comment lines made of printable characters only.
"""

from __future__ import annotations

from typing import Any

import yaml

from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError
from tiercheck.sdk.infer.entry import InferredEntry

__all__ = ["entry_text", "put_entry"]


def _comment(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)


def entry_text(entry: InferredEntry) -> str:
    """The entry as a top-level block of known_sdks.yaml: `NAME:`, a `# FIELD: why` line per
    reason, then the values."""
    dumped = yaml.safe_dump(
        {entry.name: dict(entry.body)},
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=False,
        width=2**16,
    )
    head, _, rest = dumped.partition("\n")
    comments = "".join(f"  # {_comment(key)}: {_comment(why)}\n" for key, why in entry.reasons)
    return f"{head}\n{comments}{rest}"


def _top_level_spans(text: str, source: str) -> dict[str, tuple[int, int]]:
    """Each top-level key of `text` → (first line, line after its block), 0-based."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if node is None:
        return {}
    if not isinstance(node, yaml.MappingNode) or node.flow_style:
        raise ConfigError(f"{source}: not a known_sdks.yaml (a mapping of SDK names)")
    lines = text.splitlines()
    starts = [(str(k.value), k.start_mark.line) for k, _ in node.value]
    spans: dict[str, tuple[int, int]] = {}
    for i, (key, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(lines)
        # Comment and blank lines at column 0 just before the next key belong to it.
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
            end -= 1
        spans[key] = (start, end)
    return spans


def put_entry(existing: str | None, entry: InferredEntry, source: str) -> tuple[str, bool]:
    """(the registry text with `entry` added, or put in place of the entry of its name; whether
    one was replaced). The rest of the text is kept as it is, comments included.

    A text that is not YAML, not a mapping written in block style, or that would not read back
    as its other entries and this one, is refused (ConfigError): nothing of it is lost."""
    block = entry_text(entry)
    if existing is None or not existing.strip():
        return block, False
    data: Any = loads_yaml(existing, source)
    if data is not None and not isinstance(data, dict):
        raise ConfigError(f"{source}: not a known_sdks.yaml (a mapping of SDK names)")
    spans = _top_level_spans(existing, source)
    lines = existing.splitlines(keepends=True)
    replaced = entry.name in spans
    if replaced:
        start, end = spans[entry.name]
        text = "".join(lines[:start]) + block + "".join(lines[end:])
    else:
        tail = existing if existing.endswith("\n") else existing + "\n"
        text = f"{tail}\n{block}"
    # The other entries must read as they did, and this one as inferred: else nothing is written.
    expected = {**(data or {}), entry.name: dict(entry.body)}
    if loads_yaml(text, source) != expected:
        msg = f"{source}: the entry cannot be put in this file as it is written; add it by hand"
        raise ConfigError(msg)
    return text, replaced
