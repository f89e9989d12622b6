"""The scorecard's canonical JSON form: reading and writing it (pure).

Written from the typed model (`tiercheck.model.to_json`), in the model's field order: the
official `tier-check` fields first, ours after. Read back through the shipped schema (for a
one-line error at the first wrong path) and then into the model. Reading a saved scorecard from
disk is `document_files.load_scorecard`: no renderer opens a file.
"""

from __future__ import annotations

import json
import re

from tiercheck.config.validate import validate
from tiercheck.errors import ConfigError
from tiercheck.model import ModelError, from_json, to_json
from tiercheck.scorecard.model import Scorecard

__all__ = ["parse_scorecard", "render_json", "scorecard_from_data", "validate_scorecard"]

SCHEMA_NAME = "scorecard"

_SURROGATE = re.compile("[\ud800-\udfff]")


def validate_scorecard(doc: object, source: str = "scorecard") -> None:
    """Check JSON data against `scorecard.schema.json`; raise a one-line ConfigError if invalid.

    `source` names the document in the message (a file path when it was read from one).
    """
    validate(doc, SCHEMA_NAME, source)


def parse_scorecard(text: str, source: str = "scorecard") -> Scorecard:
    """A scorecard from its JSON text, validated; one-line ConfigError otherwise."""
    from tiercheck.config.safeload import parse_json

    data = parse_json(text, source)
    return scorecard_from_data(data, source)


def scorecard_from_data(data: object, source: str = "scorecard") -> Scorecard:
    """A scorecard from JSON data already read: the schema first (for a one-line error at the
    first wrong path), then the model."""
    validate_scorecard(data, source)
    try:
        return from_json(Scorecard, data)
    except ModelError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def render_json(doc: Scorecard) -> str:
    """The document as JSON: indent 2, model order, UTF-8 text kept readable, trailing newline.

    Raises ValueError for NaN or infinity (which `json` would otherwise write as invalid JSON).
    """
    data = to_json(doc)
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    if _SURROGATE.search(text):
        # A lone surrogate (from a `\ud800` escape in harness output) has no UTF-8 form; escape
        # everything rather than write a file no reader can decode.
        text = json.dumps(data, indent=2, ensure_ascii=True, allow_nan=False)
    return text + "\n"
