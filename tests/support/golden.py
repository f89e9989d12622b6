"""Golden files: tiercheck's own outputs kept in tests/unit/golden/ as a change detector,
each diff read by hand (`TIERCHECK_UPDATE_GOLDEN=1` rewrites them); the hand-worked expectations
live in the other tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "unit" / "golden"


def golden(name: str, text: str) -> None:
    """Compare `text` with its golden file, or rewrite it under TIERCHECK_UPDATE_GOLDEN=1."""
    path = GOLDEN / name
    if os.environ.get("TIERCHECK_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; run with TIERCHECK_UPDATE_GOLDEN=1 to create it")
    assert text == path.read_bytes().decode("utf-8"), f"{name} differs from its golden file"
