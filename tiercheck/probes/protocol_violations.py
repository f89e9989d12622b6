"""protocol-violations: listing tools, resources and prompts draws only valid JSON-RPC 2.0.

Every message on the reply must be a JSON-RPC 2.0 object; exactly one response must answer the
request, with its id, carrying exactly one of `result` or `error`; there is no stray response
to another id, no line that is not JSON-RPC, and (at 2026-07-28, which has no server-to-client
requests) no request from the server.
"""

from __future__ import annotations

from typing import Any

from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.client import Reply, trim

__all__ = ["PROBE", "described", "violations"]

_LISTS = (("tools", "tools/list"), ("resources", "resources/list"), ("prompts", "prompts/list"))


def _flat(reply: Reply) -> list[Any]:
    out: list[Any] = []
    for message in reply.messages:
        out.extend(message if isinstance(message, list) else [message])
    return out


def violations(reply: Reply, request_id: Any, *, modern: bool) -> list[str]:
    """What in `reply` breaks JSON-RPC 2.0 (or the revision) for a request of `request_id`."""
    found = [f"not JSON-RPC: {trim(line, 60)}" for line in reply.garbage if line.strip()]
    responses = 0
    for message in _flat(reply):
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            found.append(f"not a JSON-RPC 2.0 object: {trim(str(message), 60)}")
            continue
        has_result, has_error = "result" in message, "error" in message
        if "method" in message:
            if modern and "id" in message:
                found.append(f"a server-to-client request on 2026-07-28: {message['method']}")
            continue
        if has_result == has_error:
            found.append("a response with both or neither of result and error")
        if message.get("id") != request_id:
            found.append(f"a response to id {message.get('id')!r}, which was not asked")
        else:
            responses += 1
    if responses != 1 and reply.status == 200:
        found.append(f"{responses} responses to the request, not one")
    return found


def described(method: str, request_id: Any, reply: Reply) -> str:
    """`POST tools/list (id 7) → HTTP 200 text/event-stream: 2 messages, ids 'x', 7`: what the
    reply carried, message by message, without the payloads."""
    flat = _flat(reply)
    ids = [repr(m.get("id")) if isinstance(m, dict) else "not an object" for m in flat[:6]]
    got = f"{len(flat)} message(s)" + (f", ids {', '.join(ids)}" if ids else "")
    if len(flat) > len(ids):
        got += ", …"
    if reply.garbage:
        got += f"; {len(reply.garbage)} line(s) that are not JSON"
    kind = reply.content_type or "no content type"
    return f"POST {method} (id {request_id!r}) → HTTP {reply.status} {kind}: {got}"


def check(ctx: ProbeContext) -> Finding:
    """List each kind the server advertises, and read every message of every reply."""
    wire = ctx.shared()
    caps = wire.capabilities()
    listed: list[str] = []
    seen: list[str] = []
    problems: list[str] = []
    for cap, method in _LISTS:
        if cap not in caps:
            continue
        body, reply = wire.request(method)
        listed.append(method)
        seen.append(described(method, body["id"], reply))
        problems.extend(f"{method}: {p}" for p in violations(reply, body["id"], modern=ctx.modern))
    if not listed:
        raise Skip("the server advertises none of tools, resources and prompts")
    if problems:
        return broken(f"{len(problems)} protocol violation(s)", *seen, *problems[:5])
    return ok(f"{', '.join(listed)}: every message valid JSON-RPC 2.0", *seen)


PROBE = Probe(
    name="protocol-violations",
    title="listing draws only valid JSON-RPC 2.0",
    level="MUST",
    spec=(
        "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 "
        "specification; responses MUST include the same ID as the request they correspond "
        "to, and either a result or an error MUST be set, not both. (basic, Messages)"
    ),
    fix=(
        "Send exactly one response per request, with its id and one of result/error; write "
        "nothing else to the response stream but JSON-RPC messages."
    ),
    check=check,
)
