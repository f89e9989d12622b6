"""The matrix's JSON Schema, generated from the typed model.

`tiercheck/schemas/matrix.schema.json` is this module's output, committed so that other tools
can read `matrix.json` without running Python; a unit test fails when the two differ.
Regenerate with ``python -m tiercheck.matrix.schema > tiercheck/schemas/matrix.schema.json``.
"""

from __future__ import annotations

import sys

from tiercheck import model
from tiercheck.matrix.model import Matrix

__all__ = ["schema_text"]

SCHEMA_ID = "https://tiercheck.dev/schemas/matrix.schema.json"


def schema_text() -> str:
    """The matrix schema as the committed file holds it."""
    return model.schema_text(Matrix, schema_id=SCHEMA_ID, title="tiercheck matrix")


if __name__ == "__main__":
    sys.stdout.write(schema_text())
