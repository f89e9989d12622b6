"""legacy-get-delete: GET and DELETE answer 405 on the stateless wire (2026-07-28).

There is no standalone SSE stream and no session to terminate at 2026-07-28; a server that
still opens a stream on GET or accepts DELETE keeps the legacy surface alive.
"""

from __future__ import annotations

from tiercheck.probes.base import Finding, Level, Probe, ProbeContext, broken, ok
from tiercheck.probes.wire import MODERN

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """GET (asking for an event stream) and DELETE, each at the 2026-07-28 wire."""
    ctx.wire()  # the endpoint speaks MCP at all
    evidence, problems, soft = [], [], True
    for method in ("GET", "DELETE"):
        headers = {"MCP-Protocol-Version": ctx.revision, "Accept": "text/event-stream"}
        reply = ctx.client.send(method, headers=headers, headers_only=True)
        evidence.append(f"{method} → HTTP {reply.status}")
        if reply.status != 405:
            problems.append(f"{method} got {reply.status}")
            soft = soft and 400 <= reply.status < 500
    if not problems:
        return ok("GET and DELETE got 405", *evidence)
    level: Level = "SHOULD" if soft else "MUST"
    return broken("; ".join(problems) + ", not 405", *evidence, level=level)


PROBE = Probe(
    name="legacy-get-delete",
    title="GET and DELETE get 405",
    level="MUST",
    spec=(
        "2026-07-28 (stateless Streamable HTTP): legacy traffic — GET and DELETE answer 405 "
        "Method Not Allowed; there is no standalone stream to open and no session to "
        "terminate. A 2xx is FAIL, another 4xx a WARN."
    ),
    fix="Answer GET and DELETE on the MCP endpoint with 405 Method Not Allowed (Allow: POST).",
    check=check,
    revisions=(MODERN,),
)
