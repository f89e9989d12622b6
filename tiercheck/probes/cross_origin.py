"""cross-origin: a POST with a foreign Origin is refused with 403 Forbidden.

Missing Origin validation is the DNS-rebinding class of bug that shipped as CVEs across six
SDKs and the Inspector; it is the first test testing-mcp-servers says to adopt.
"""

from __future__ import annotations

from tiercheck.probes._common import FOREIGN, listing, served, shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """Open a connection without an Origin (it must work), then list with a foreign one."""
    wire = ctx.wire()
    origin = f"http://{FOREIGN}"
    body, headers, reply = listing(wire, {"Origin": origin})
    evidence = shown("tools/list", headers, ("Origin",), reply)
    if reply.status == 403:
        return ok("a foreign Origin was refused with 403", evidence)
    if served(reply, body) or 200 <= reply.status < 300:
        return broken(f"a request from Origin {origin} was served", evidence)
    return broken(f"a foreign Origin was refused with {reply.status}, not 403", evidence)


PROBE = Probe(
    name="cross-origin",
    title="a POST with a foreign Origin gets 403",
    level="MUST",
    spec=(
        "Servers MUST validate the Origin header on all incoming connections to prevent DNS "
        "rebinding attacks. If the Origin header is present and invalid, servers MUST respond "
        "with HTTP 403 Forbidden. (basic/transports, Security Warning)"
    ),
    fix=(
        "Check Origin against an allow-list (localhost origins for a local server) before "
        "dispatching, and answer 403 when it is present and not allowed."
    ),
    check=check,
)
