"""The spec revisions tiercheck assesses, and the legs of a conformance run."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["KNOWN_REVISIONS", "LEGS", "Leg", "is_known_revision", "unknown_revision"]

#: Spec revisions with a frozen requirement set. 2025-11-25 is the stateful wire (`initialize`
#: handshake); 2026-07-28 is stateless (per-request `_meta`, `server/discover`).
KNOWN_REVISIONS: Final = ("2025-11-25", "2026-07-28")

Leg = Literal["server", "client"]
LEGS: Final[tuple[Leg, Leg]] = ("server", "client")


def is_known_revision(value: object) -> bool:
    """True for a revision tiercheck has a requirement set for."""
    return isinstance(value, str) and value in KNOWN_REVISIONS


def unknown_revision(value: str) -> str:
    """The one-line complaint about a revision tiercheck has no requirement set for."""
    return f"{value!r} is not a known spec revision; use one of {', '.join(KNOWN_REVISIONS)}"
