"""version-mismatch: a header/body protocol version disagreement gets -32020, HTTP 400."""

from __future__ import annotations

from tiercheck.probes._common import shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok
from tiercheck.revisions import revisions_on

__all__ = ["PROBE"]


def _body_version() -> str:
    """A real version other than the header's: the newest revision on the stateful wire."""
    return revisions_on("stateful")[-1]


def check(ctx: ProbeContext) -> Finding:
    """`MCP-Protocol-Version` of the stateless revision probed over a body whose `_meta` names
    the newest stateful revision."""
    wire = ctx.wire()
    body_version = _body_version()
    meta = {"io.modelcontextprotocol/protocolVersion": body_version}
    _, reply = wire.request("tools/list", {"_meta": meta})
    headers = wire.headers("tools/list", None)
    evidence = shown("tools/list", headers, ("MCP-Protocol-Version",), reply)
    evidence += f" (body _meta protocolVersion {body_version})"
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
    wires=("stateless",),
)
