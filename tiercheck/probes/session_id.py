"""session-id: `Mcp-Session-Id` is neither minted nor echoed at 2026-07-28, and is ignored.

A SHOULD the spec sets for a server that supports 2026-07-28 alone; a dual-era server, which
keeps its 2025-11-25 sessions, is skipped.
"""

from __future__ import annotations

from tiercheck.probes._common import listing, modern_only, served, shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]

_SENT = "tiercheck-probe-session"


def check(ctx: ProbeContext) -> Finding:
    """List tools without a session id, then with one: no reply names a session."""
    wire = ctx.wire()
    modern_only(wire)
    evidence, problems = [], []
    minted = wire.opened.headers.get("mcp-session-id") if wire.opened else None
    if minted:
        problems.append(f"server/discover minted Mcp-Session-Id {minted!r}")
    body, headers, reply = listing(wire, {"Mcp-Session-Id": _SENT})
    evidence.append(shown("tools/list", headers, ("Mcp-Session-Id",), reply))
    echoed = reply.headers.get("mcp-session-id")
    if echoed:
        problems.append(f"the reply carried Mcp-Session-Id {echoed!r}")
    if not served(reply, body):
        problems.append("a request carrying Mcp-Session-Id was not served (it must be ignored)")
    if problems:
        return broken("; ".join(problems), *evidence)
    return ok("no session id minted or echoed; a sent one was ignored", *evidence)


PROBE = Probe(
    name="session-id",
    title="Mcp-Session-Id is ignored, neither minted nor echoed",
    level="SHOULD",
    spec=(
        "A server that supports only this revision and receives such traffic from an older "
        "client SHOULD respond as follows: an Mcp-Session-Id header on a request: ignore it, "
        "and do not mint or echo session IDs. (2026-07-28 basic/transports/streamable-http, "
        "Earlier Streamable HTTP Revisions; skipped for a server that also serves earlier "
        "revisions)"
    ),
    fix="Drop session handling on the 2026-07-28 wire: never set Mcp-Session-Id, ignore it.",
    check=check,
    wires=("stateless",),
)
