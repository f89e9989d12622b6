"""The scorecard's canonical JSON form: validation, parsing and serialisation (pure).

Reading a saved scorecard from disk is `writer.load_scorecard`: only `writer` opens files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tiercheck.config.validate import load_schema, validate
from tiercheck.errors import ConfigError

__all__ = ["parse_scorecard", "render_json", "validate_scorecard"]

SCHEMA_NAME = "scorecard"

_SURROGATE = re.compile("[\ud800-\udfff]")


def validate_scorecard(doc: object, source: str = "scorecard") -> None:
    """Check `doc` against `scorecard.schema.json`; raise a one-line ConfigError if it is invalid.

    `source` names the document in the message (a file path when it was read from one).
    """
    validate(doc, SCHEMA_NAME, source)


def parse_scorecard(text: str, source: str = "scorecard") -> dict[str, Any]:
    """A scorecard document from its JSON text, validated; one-line ConfigError otherwise."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        msg = f"{source}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise ConfigError(msg) from None
    validate_scorecard(doc, source)
    result: dict[str, Any] = doc
    return result


def _ordered(doc: Mapping[str, Any]) -> dict[str, Any]:
    # Top-level keys in the schema's order — the official `tier-check` fields first, ours after —
    # so files written by different builders diff cleanly; keys the schema does not name go last,
    # sorted. Nested objects keep the builder's order (official keys first by construction).
    known = list(load_schema(SCHEMA_NAME)["properties"])
    rank = {key: i for i, key in enumerate(known)}
    keys = sorted(doc, key=lambda k: (rank.get(k, len(rank)), k))
    return {key: doc[key] for key in keys}


def render_json(doc: Mapping[str, Any]) -> str:
    """The document as JSON: indent 2, stable key order, UTF-8 text kept readable, trailing newline.

    Raises TypeError for a value JSON cannot hold and ValueError for NaN or infinity (which
    `json` would otherwise write as invalid JSON).
    """
    ordered = _ordered(doc)
    text = json.dumps(ordered, indent=2, ensure_ascii=False, allow_nan=False)
    if _SURROGATE.search(text):
        # A lone surrogate (from a `\ud800` escape in harness output) has no UTF-8 form; escape
        # everything rather than write a file no reader can decode.
        text = json.dumps(ordered, indent=2, ensure_ascii=True, allow_nan=False)
    return text + "\n"
