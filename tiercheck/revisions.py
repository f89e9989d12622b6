"""The spec revisions tiercheck assesses, and the legs of a conformance run.

The one module that spells a revision: every other one takes them from here
(`tests/unit/test_revisions.py` reads the code for a revision written out elsewhere).
"""

from __future__ import annotations

from datetime import date
from typing import Final, Literal

__all__ = [
    "KNOWN_REVISIONS",
    "LEGS",
    "STATEFUL_REVISION",
    "STATELESS_REVISION",
    "Leg",
    "is_known_revision",
    "release_date",
    "unknown_revision",
]

#: The stateful wire: the `initialize` handshake, then a session (`Mcp-Session-Id`).
STATEFUL_REVISION: Final = "2025-11-25"
#: The first stateless revision: per-request `_meta`, `server/discover`, no session.
STATELESS_REVISION: Final = "2026-07-28"
#: Spec revisions with a frozen requirement set, oldest first.
KNOWN_REVISIONS: Final = (STATEFUL_REVISION, STATELESS_REVISION)

Leg = Literal["server", "client"]
LEGS: Final[tuple[Leg, Leg]] = ("server", "client")


def is_known_revision(value: object) -> bool:
    """True for a revision tiercheck has a requirement set for."""
    return isinstance(value, str) and value in KNOWN_REVISIONS


def unknown_revision(value: object) -> str:
    """The one-line complaint about a revision tiercheck has no requirement set for."""
    return f"{value!r} is not a known spec revision; use one of {', '.join(KNOWN_REVISIONS)}"


def release_date(revision: str) -> date | None:
    """The day a known revision was released: a revision is named after that day."""
    return date.fromisoformat(revision) if is_known_revision(revision) else None
