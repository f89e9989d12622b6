"""Write harness-shaped output directories for tests: `checks.json` per scenario run."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from tiercheck.config.requirements import NotScored, RequirementSet
from tiercheck.revisions import Leg

TS = "2026-11-30T06-36-55-475Z"


def check(
    check_id: str,
    status: str = "SUCCESS",
    *,
    message: str | None = None,
    url: str | None = "https://modelcontextprotocol.io/specification/x",
    description: str | None = None,
) -> dict[str, object]:
    """One check as the harness writes it."""
    out: dict[str, object] = {
        "id": check_id,
        "name": check_id.title(),
        "description": description or f"{check_id} works",
        "status": status,
        "timestamp": "2026-11-30T06:36:55.496Z",
    }
    if url is not None:
        out["specReferences"] = [{"id": "MCP-X", "url": url}]
    if message is not None:
        out["errorMessage"] = message
    return out


def write_scenario(
    out: Path,
    name: str,
    checks: Sequence[dict[str, object]] | str | None,
    *,
    leg: Leg = "server",
    ts: str = TS,
) -> Path:
    """Create `<out>/[server-]<name>-<ts>/checks.json`; None leaves the dir empty, str is raw."""
    prefix = "server-" if leg == "server" else ""
    directory = out / f"{prefix}{name}-{ts}"
    directory.mkdir(parents=True)
    if isinstance(checks, str):
        (directory / "checks.json").write_text(checks)
    elif checks is not None:
        (directory / "checks.json").write_text(json.dumps(list(checks), indent=2))
    return directory


def passing() -> list[dict[str, object]]:
    """The checks of a passing scenario."""
    return [check("main-check"), check("wire-schema-valid")]


def failing(message: str = "expected 8, got 7") -> list[dict[str, object]]:
    """The checks of a failing scenario."""
    return [check("main-check", "FAILURE", message=message), check("wire-schema-valid")]


def requirement_set(
    server: Iterable[str] = (),
    client: Iterable[str] = (),
    not_scored: Iterable[tuple[str, Leg, str]] = (),
    revision: str = "2026-07-28",
) -> RequirementSet:
    """A RequirementSet built in place (no YAML)."""
    return RequirementSet(
        revision=revision,
        server=tuple(server),
        client=tuple(client),
        not_scored=tuple(NotScored(s, leg, reason) for s, leg, reason in not_scored),  # type: ignore[arg-type]
    )


#: Unreadable harness output, each kind once: (raw bytes of checks.json, words of the reason).
UNREADABLE = [
    pytest.param(b'[{"id": "a", "status": "SUCC', "not JSON", id="truncated"),
    pytest.param(b"<html>oops</html>", "not JSON", id="not-json"),
    pytest.param(b'[{"id": "caf\xe9", "status": "SUCCESS"}]', "not UTF-8", id="not-utf8"),
    pytest.param(b'{"checks": []}', "expected a JSON array of checks", id="wrong-shape"),
    pytest.param(b'["not an object"]', "is not an object with a status", id="wrong-items"),
    pytest.param(b"[" * 5000 + b"]" * 5000, "nested deeper than", id="deep"),
]
