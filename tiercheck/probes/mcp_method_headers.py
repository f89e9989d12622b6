"""mcp-method-headers: the SEP-2243 `Mcp-Method` / `Mcp-Name` headers are tolerated.

At 2026-07-28 they are required and a matching pair MUST be accepted; at 2025-11-25 they are
unknown headers a server SHOULD ignore (a client or proxy that sends them on every revision
must not break the older wire).
"""

from __future__ import annotations

from tiercheck.probes._common import served, shown
from tiercheck.probes.base import Finding, Level, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """`tools/call` of a plain tool with matching `Mcp-Method` and `Mcp-Name` headers."""
    name = ctx.plain_tool_name()
    wire = ctx.wire()
    extra = {"Mcp-Method": "tools/call", "Mcp-Name": name}
    params = {"name": name, "arguments": {}}
    headers = {**wire.headers("tools/call", params), **extra}
    body, reply = wire.request("tools/call", params, extra=extra)
    evidence = shown("tools/call", headers, ("Mcp-Method", "Mcp-Name"), reply)
    if served(reply, body):
        return ok("a request carrying matching Mcp-Method and Mcp-Name was served", evidence)
    level: Level = "MUST" if ctx.modern else "SHOULD"
    return broken("a request carrying Mcp-Method and Mcp-Name was refused", evidence, level=level)


PROBE = Probe(
    name="mcp-method-headers",
    title="Mcp-Method / Mcp-Name headers are tolerated",
    level="SHOULD",
    spec=(
        "2026-07-28: servers MUST validate that header values match the body (SEP-2243), so a "
        "matching pair is accepted. 2025-11-25: the headers are unknown fields, and recipients "
        "SHOULD ignore unrecognized header fields (RFC 9110 §5.1)."
    ),
    fix="Accept Mcp-Method and Mcp-Name when they match the body; ignore them before 2026-07-28.",
    check=check,
    needs=("http-url", "a tool that takes no arguments"),
)
