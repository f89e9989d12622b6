"""legacy-get-delete: GET and DELETE answer 405 on the stateless wire (2026-07-28).

There is no standalone SSE stream and no session to terminate at 2026-07-28; a server that
still opens a stream on GET or accepts DELETE keeps the legacy surface alive. The spec asks
this (a SHOULD) of a server that supports 2026-07-28 alone, so a dual-era server is skipped.
"""

from __future__ import annotations

from tiercheck.probes._common import modern_only
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """GET (asking for an event stream) and DELETE, each at the 2026-07-28 wire."""
    wire = ctx.wire()
    modern_only(wire)  # the endpoint speaks MCP, and 2026-07-28 alone
    evidence, problems = [], []
    for method in ("GET", "DELETE"):
        headers = {"MCP-Protocol-Version": wire.version, "Accept": "text/event-stream"}
        reply = ctx.client.send(method, headers=headers, headers_only=True)
        evidence.append(f"{method} → HTTP {reply.status}")
        if reply.status != 405:
            problems.append(f"{method} got {reply.status}")
    if not problems:
        return ok("GET and DELETE got 405", *evidence)
    return broken("; ".join(problems) + ", not 405", *evidence)


PROBE = Probe(
    name="legacy-get-delete",
    title="GET and DELETE get 405",
    level="SHOULD",
    spec=(
        "A server that supports only this revision and receives such traffic from an older "
        "client SHOULD respond as follows: HTTP GET or DELETE to the MCP endpoint: respond "
        "with 405 Method Not Allowed. (2026-07-28 basic/transports/streamable-http, Earlier "
        "Streamable HTTP Revisions; skipped for a server that also serves earlier revisions)"
    ),
    fix="Answer GET and DELETE on the MCP endpoint with 405 Method Not Allowed (Allow: POST).",
    check=check,
    wires=("stateless",),
)
