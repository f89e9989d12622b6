"""dns-rebind: a request to 127.0.0.1 that names a foreign Host is refused."""

from __future__ import annotations

from tiercheck.probes._common import FOREIGN, answered, listing, shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """List tools with `Host: evil.example` (and no Origin, so only Host validation answers)."""
    wire = ctx.wire()
    _, headers, reply = listing(wire, {"Host": FOREIGN})
    evidence = shown("tools/list", headers, ("Host",), reply)
    if answered(reply):
        return broken(f"a request naming Host {FOREIGN} was served", evidence)
    if 400 <= reply.status < 500:
        return ok(f"a foreign Host was refused with {reply.status}", evidence)
    return broken(f"a foreign Host got {reply.status}, not a 4xx refusal", evidence)


PROBE = Probe(
    name="dns-rebind",
    title="a foreign Host header is refused",
    level="SHOULD",
    spec=(
        "Servers MUST validate the Origin header on all incoming connections to prevent DNS "
        "rebinding attacks (basic/transports, Security Warning). No sentence names the Host "
        "header, so a served foreign Host is a WARN: it is the protection the pinned harness's "
        "dns-rebinding-protection scenario checks (security_best_practices, Local MCP Server "
        "Compromise)."
    ),
    fix=(
        "Refuse requests whose Host is not the address the server listens on (127.0.0.1:PORT, "
        "localhost:PORT) with a 4xx, before dispatching."
    ),
    check=check,
)
