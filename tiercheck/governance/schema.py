"""The governance snapshot's JSON Schema, generated from the snapshot's typed model.

`tiercheck/schemas/governance_snapshot.schema.json` is this module's output (a unit test fails
when they differ). Regenerate with
``python -m tiercheck.governance.schema > tiercheck/schemas/governance_snapshot.schema.json``.
"""

from __future__ import annotations

import sys

from tiercheck import model
from tiercheck.governance.snapshot import Snapshot

__all__ = ["schema_text"]

SCHEMA_ID = "https://tiercheck.dev/schemas/governance_snapshot.schema.json"


def schema_text() -> str:
    """The snapshot schema as the committed file holds it."""
    return model.schema_text(Snapshot, schema_id=SCHEMA_ID, title="tiercheck governance snapshot")


if __name__ == "__main__":
    sys.stdout.write(schema_text())
