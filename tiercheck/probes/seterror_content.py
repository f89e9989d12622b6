"""seterror-content: a tool that fails reports `isError: true` and keeps its content."""

from __future__ import annotations

import json

from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.client import trim

__all__ = ["PROBE", "failing_tool"]

_FAILING = ("error", "fail", "invalid")


def failing_tool(ctx: ProbeContext) -> str:
    """The name of a tool that fails by design (its name says so, and it takes no arguments)."""
    for tool in ctx.tools():
        schema = tool.get("inputSchema") or {}
        required = schema.get("required") if isinstance(schema, dict) else None
        name = str(tool["name"])
        if not required and any(word in name.lower() for word in _FAILING):
            return name
    raise Skip("no tool that fails by design (a name with error, fail or invalid, no arguments)")


def check(ctx: ProbeContext) -> Finding:
    """Call the failing tool; its result must be `isError: true` with non-empty content."""
    name = failing_tool(ctx)
    wire = ctx.shared()
    body, reply = wire.request("tools/call", {"name": name, "arguments": {}})
    answer = reply.response(body["id"]) or {}
    evidence = f"POST tools/call {name} → {reply.evidence()}"
    if "error" in answer:
        return broken(f"{name} failed as a JSON-RPC error, not a tool result", evidence)
    result = answer.get("result")
    if not isinstance(result, dict):
        raise Skip(f"tools/call {name} got no result: {reply.evidence()}")
    if result.get("isError") is not True:
        raise Skip(f"{name} did not fail (isError is {result.get('isError')!r})")
    content = result.get("content")
    if not isinstance(content, list) or not content:
        return broken(f"{name} reported isError with no content", evidence)
    summary = f"{name} reported isError with its content: {trim(json.dumps(content), 80)}"
    return ok(summary, evidence)


PROBE = Probe(
    name="seterror-content",
    title="tool errors keep their content",
    level="SHOULD",
    spec=(
        "Any errors that originate from the tool SHOULD be reported inside the result object, "
        "with isError set to true, not as an MCP protocol-level error response. "
        "(server/tools, Error Handling)"
    ),
    fix=(
        "Return a CallToolResult with isError: true and the error text as content, instead of "
        "a JSON-RPC error or an empty content list."
    ),
    check=check,
    needs=("http-url", "a tool that fails by design"),
)
