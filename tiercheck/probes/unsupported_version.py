"""unsupported-version: an unsupported protocol version gets -32022 with `data.supported`."""

from __future__ import annotations

from tiercheck.probes._common import shown
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]

_VERSION = "1999-01-01"


def check(ctx: ProbeContext) -> Finding:
    """Header and `_meta` agree on a version no server supports."""
    wire = ctx.wire()
    meta = {"io.modelcontextprotocol/protocolVersion": _VERSION}
    extra = {"MCP-Protocol-Version": _VERSION}
    body, reply = wire.request("tools/list", {"_meta": meta}, extra=extra)
    headers = {**wire.headers("tools/list", None), **extra}
    evidence = shown("tools/list", headers, ("MCP-Protocol-Version",), reply)
    answer = reply.response(body["id"]) or {}
    error = answer.get("error") if isinstance(answer.get("error"), dict) else {}
    data = error.get("data") if isinstance(error, dict) else None
    supported = data.get("supported") if isinstance(data, dict) else None
    if reply.status == 400 and reply.error_code == -32022 and isinstance(supported, list):
        return ok(f"400 with -32022 and data.supported {supported}", evidence)
    return broken(
        f"HTTP {reply.status}, code {reply.error_code}, data.supported {supported!r}", evidence
    )


PROBE = Probe(
    name="unsupported-version",
    title="an unsupported version gets -32022 with data.supported",
    level="MUST",
    spec=(
        "If the server does not implement the requested version …, it MUST respond with an "
        "UnsupportedProtocolVersionError listing the versions it does support; the error data "
        "carries the supported versions (SEP-2575, the pinned harness's "
        "sep-2575-server-unsupported-version-error; -32022, HTTP 400)."
    ),
    fix="Answer 400 with error -32022 and data: {supported: [...], requested: ...}.",
    check=check,
    wires=("stateless",),
)
