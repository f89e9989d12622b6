"""version-mismatch: a header/body protocol version disagreement gets -32020, HTTP 400."""

from __future__ import annotations

from tiercheck.probes._common import shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok
from tiercheck.probes.wire import MODERN
from tiercheck.revisions import STATEFUL_REVISION

__all__ = ["PROBE"]

_BODY_VERSION = STATEFUL_REVISION


def check(ctx: ProbeContext) -> Finding:
    """`MCP-Protocol-Version: 2026-07-28` over a body whose `_meta` says 2025-11-25."""
    wire = ctx.wire()
    meta = {"io.modelcontextprotocol/protocolVersion": _BODY_VERSION}
    _, reply = wire.request("tools/list", {"_meta": meta})
    headers = wire.headers("tools/list", None)
    evidence = shown("tools/list", headers, ("MCP-Protocol-Version",), reply)
    evidence += f" (body _meta protocolVersion {_BODY_VERSION})"
    code = reply.error_code
    if reply.status == 400 and code == -32020:
        return ok("the mismatch got 400 with -32020 HeaderMismatch", evidence)
    return broken(f"the mismatch got HTTP {reply.status} with code {code}", evidence)


PROBE = Probe(
    name="version-mismatch",
    title="a header/body version mismatch gets -32020, HTTP 400",
    level="MUST",
    spec=(
        "If the values do not match, the server MUST reject the request with 400 Bad Request "
        "and a HeaderMismatch JSON-RPC error (-32020). (SEP-2575 / SEP-2243, as the pinned "
        "harness's sep-2575-http-server-header-mismatch-400 check words it)"
    ),
    fix=(
        "Compare MCP-Protocol-Version with params._meta protocolVersion before dispatching; "
        "on a difference answer 400 with error code -32020."
    ),
    check=check,
    revisions=(MODERN,),
)
