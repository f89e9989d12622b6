"""The scorecard's JSON Schema, generated from the typed model.

`tiercheck/schemas/scorecard.schema.json` is this function's output, committed so that other
tools can read it without running Python; a unit test fails when the two differ. Regenerate
with ``python -m tiercheck.scorecard.schema > tiercheck/schemas/scorecard.schema.json``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from tiercheck.model import json_schema
from tiercheck.scorecard.model import Scorecard

__all__ = ["schema_text", "scorecard_schema"]

SCHEMA_ID = "https://tiercheck.dev/schemas/scorecard.schema.json"


def scorecard_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of `Scorecard`."""
    return json_schema(Scorecard, schema_id=SCHEMA_ID, title="tiercheck scorecard")


def schema_text() -> str:
    """The schema as the committed file holds it: indent 2, a trailing newline."""
    return json.dumps(scorecard_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_text())
