"""The scorecard's JSON Schema, generated from the typed model.

`tiercheck/schemas/scorecard.schema.json` is this module's output, committed so that other
tools can read it without running Python; a unit test fails when the two differ. Regenerate
with ``python -m tiercheck.scorecard.schema > tiercheck/schemas/scorecard.schema.json``.
"""

from __future__ import annotations

import sys

from tiercheck import model
from tiercheck.scorecard.model import Scorecard

__all__ = ["schema_text"]

SCHEMA_ID = "https://tiercheck.dev/schemas/scorecard.schema.json"


def schema_text() -> str:
    """The scorecard schema as the committed file holds it."""
    return model.schema_text(Scorecard, schema_id=SCHEMA_ID, title="tiercheck scorecard")


if __name__ == "__main__":
    sys.stdout.write(schema_text())
