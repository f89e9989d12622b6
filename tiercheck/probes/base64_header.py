"""base64-header: a Base64-sentinel `Mcp-Name` (`=?base64?…?=`) is decoded before comparing.

The right name encoded must be served; another name encoded must get -32020 with HTTP 400.
"""

from __future__ import annotations

import base64

from tiercheck.probes._common import served
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE", "sentinel"]

_OTHER = "tiercheck_probe_other_tool"


def sentinel(value: str) -> str:
    """`value` in SEP-2243's Base64 sentinel form."""
    return "=?base64?" + base64.b64encode(value.encode()).decode() + "?="


def check(ctx: ProbeContext) -> Finding:
    """`tools/call` twice: Mcp-Name = the tool's name encoded, then another name encoded."""
    name = ctx.plain_tool_name()
    wire = ctx.wire()
    params = {"name": name, "arguments": {}}
    body, right = wire.request("tools/call", params, extra={"Mcp-Name": sentinel(name)})
    _, wrong = wire.request("tools/call", params, extra={"Mcp-Name": sentinel(_OTHER)})
    evidence = (
        f"POST tools/call {name} [Mcp-Name: {sentinel(name)}] → {right.evidence()}",
        f"POST tools/call {name} [Mcp-Name: {sentinel(_OTHER)}] → {wrong.evidence()}",
    )
    if not (wrong.status == 400 and wrong.error_code == -32020):
        got = f"HTTP {wrong.status}, code {wrong.error_code}"
        return broken(f"the encoded other name got {got}, not -32020", *evidence)
    if not served(right, body):
        # The pinned harness tests the sentinel on Mcp-Param-* headers only, but the spec
        # names Mcp-Name in the same MUST: a literal comparison breaks it.
        msg = "the encoded matching name was refused (compared literally, not decoded)"
        return broken(msg, *evidence)
    return ok("decoded before comparing: the match served, the mismatch -32020", *evidence)


PROBE = Probe(
    name="base64-header",
    title="Base64-sentinel header values are decoded before comparing",
    level="MUST",
    spec=(
        "Servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing "
        "it to the corresponding request body value during Server Validation; when rejecting "
        "a request due to header validation failure, servers MUST return HTTP status 400 Bad "
        "Request and a JSON-RPC error with code -32020 (HeaderMismatch). (2026-07-28 "
        "basic/transports/streamable-http, Value Encoding and Server Validation)"
    ),
    fix="Decode =?base64?…?= header values (strict Base64) before comparing with the body.",
    check=check,
    wires=("stateless",),
    needs=("http-url", "a tool that takes no arguments"),
)
