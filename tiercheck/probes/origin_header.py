"""origin-header: Origin enforcement is not scoped to POST only — a GET with a foreign Origin
opens no stream.

At 2025-11-25 a GET opens the server's SSE stream, so an Origin check applied to POST alone
still lets a rebinding page read every server-to-client message.
"""

from __future__ import annotations

from tiercheck.probes._common import FOREIGN
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """GET the endpoint (with the session, at 2025-11-25) naming a foreign Origin."""
    wire = ctx.wire()
    headers = {**wire.headers("GET", None), "Origin": f"http://{FOREIGN}"}
    headers["Accept"] = "text/event-stream"
    for key in ("Content-Type", "Mcp-Method", "Mcp-Name"):
        headers.pop(key, None)
    reply = ctx.client.send("GET", headers=headers, headers_only=True)
    evidence = f"GET [Origin: http://{FOREIGN}] → HTTP {reply.status} {reply.content_type}"
    if 200 <= reply.status < 300:
        return broken("a GET with a foreign Origin was answered (a stream opened)", evidence)
    return ok(f"a GET with a foreign Origin got {reply.status}", evidence)


PROBE = Probe(
    name="origin-header",
    title="a foreign Origin is refused on GET as well as POST",
    level="MUST",
    spec=(
        "Servers MUST validate the Origin header on all incoming connections to prevent DNS "
        "rebinding attacks. (basic/transports, Security Warning)"
    ),
    fix=(
        "Apply the Origin check to every method of the MCP endpoint (GET opens the SSE "
        "stream), not only to POST."
    ),
    check=check,
)
