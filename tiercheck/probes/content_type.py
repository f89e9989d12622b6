"""content-type: a POST whose Content-Type is not JSON is refused.

`text/plain` is what a web page can POST cross-origin without a CORS preflight; a server that
accepts it is reachable from any page the user visits.
"""

from __future__ import annotations

from tiercheck.probes._common import answered, listing, shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """List tools with `Content-Type: text/plain` (the body is still valid JSON-RPC)."""
    wire = ctx.wire()
    _, headers, reply = listing(wire, {"Content-Type": "text/plain"})
    evidence = shown("tools/list", headers, ("Content-Type",), reply)
    if answered(reply):
        return broken("a text/plain POST was served", evidence)
    return ok(f"a text/plain POST was refused with {reply.status}", evidence)


PROBE = Probe(
    name="content-type",
    title="a POST with a non-JSON Content-Type is refused",
    level="SHOULD",
    spec=(
        "No sentence of the spec asks a server to refuse another Content-Type: the body MUST "
        "be a single JSON-RPC message (basic/transports, Sending Messages to the Server), and "
        "that is all. This is hardening, as MCP-TUI's verify checks it: text/plain is the body "
        "a web page can POST cross-origin without a CORS preflight, so a server that serves "
        "it depends on its Origin check alone. A WARN, never a FAIL."
    ),
    fix="Answer 415 Unsupported Media Type unless Content-Type is application/json.",
    check=check,
)
