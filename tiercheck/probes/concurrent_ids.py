"""concurrent-ids: N concurrent `tools/call`s, with unique and with duplicate JSON-RPC ids,
never get each other's responses.

The cross-wiring class of bug: a transport that routes responses by id alone hands one
caller's result to another (CVE-2026-25536; a python-sdk issue saw one user's tool response
delivered to another conversation). Duplicate ids MAY be refused; they must never be
answered with another request's result.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.client import ProbeTransportError
from tiercheck.probes.wire import Wire

__all__ = ["CONCURRENCY", "PROBE", "fingerprint"]

#: Requests in flight at once, per round.
CONCURRENCY = 8


def fingerprint(result: Any) -> str:
    """A tool result without its `_meta` (which may stamp per-request data), as canonical JSON."""
    if not isinstance(result, dict):
        return json.dumps(result, sort_keys=True)
    return json.dumps({k: v for k, v in result.items() if k != "_meta"}, sort_keys=True)


def _distinct_tools(ctx: ProbeContext, wire: Wire) -> dict[str, str]:
    """Up to four plain tools whose results differ from each other: name → fingerprint."""
    seen: dict[str, str] = {}
    for tool in ctx.plain_tools():
        name = str(tool["name"])
        result = wire.call("tools/call", {"name": name, "arguments": {}})
        if result is None:
            continue
        mark = fingerprint(result)
        if mark not in seen.values():
            seen[name] = mark
        if len(seen) == 4:
            break
    return seen


def _round(wire: Wire, names: list[str], ids: list[Any]) -> list[tuple[str, Any, Any]]:
    """Send one call per (name, id) at once: [(name, id, the response that came back)]."""

    def one(i: int) -> tuple[str, Any, Any]:
        params = {"name": names[i], "arguments": {}}
        try:
            _, reply = wire.request("tools/call", params, request_id=ids[i])
        except ProbeTransportError:
            return names[i], ids[i], None  # counted as "no result" below
        return names[i], ids[i], reply.response(ids[i])

    with ThreadPoolExecutor(max_workers=len(names), thread_name_prefix="probe-call") as pool:
        return list(pool.map(one, range(len(names))))


def check(ctx: ProbeContext) -> Finding:
    """A round with unique ids, then a round where every request has the same id."""
    wire = ctx.wire()
    marks = _distinct_tools(ctx, wire)
    if len(marks) < 2:
        raise Skip("fewer than two argument-free tools with different results to tell apart")
    tools = list(marks)
    names = [tools[i % len(tools)] for i in range(CONCURRENCY)]
    by_mark = {mark: name for name, mark in marks.items()}
    problems: list[str] = []
    unanswered = 0
    base = 7_000_000
    for label, ids in (
        ("unique ids", [base + i for i in range(CONCURRENCY)]),
        ("duplicate ids", [base + 100] * CONCURRENCY),
    ):
        for name, rid, answer in _round(wire, names, ids):
            if answer is None or "error" in answer:
                # A duplicate id may be refused; a call that timed out or was refused under
                # load says nothing about cross-wiring either way.
                unanswered += label == "unique ids"
                continue
            got = fingerprint(answer.get("result"))
            if got != marks[name]:
                other = by_mark.get(got, "an unknown result")
                problems.append(f"{label}: the call to {name} (id {rid}) got {other}'s result")
    summary = f"{CONCURRENCY} concurrent calls over {len(tools)} tools, unique then duplicate ids"
    if problems:
        summary = f"cross-wired responses: {len(problems)} of {2 * CONCURRENCY}"
        if ctx.modern or any(p.startswith("unique") for p in problems):
            return broken(summary, *problems[:5])
        # At 2025-11-25 duplicate ids inside one session already break the client's own MUST
        # (an id is not reused within a session), so the server's cross-wiring is a WARN there.
        note = " (duplicate ids in one session; the client broke id uniqueness first)"
        return broken(summary + note, *problems[:5], level="SHOULD")
    if unanswered:
        msg = f"{unanswered} of {CONCURRENCY} unique-id calls got no result (timeout or refusal)"
        raise Skip(msg + "; nothing cross-wired among the rest")
    return ok(f"{summary}: every response reached its own request")


PROBE = Probe(
    name="concurrent-ids",
    title="concurrent calls are never cross-wired",
    level="MUST",
    spec=(
        "Responses MUST include the same ID as the request they correspond to (basic, "
        "Responses). At 2026-07-28 every POST stands alone, so concurrent POSTs may share an "
        "id and a cross-wired answer is a FAIL; at 2025-11-25 the request ID MUST NOT have "
        "been used before within the same session, so with duplicates only the SHOULD is left "
        "that 'the SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC "
        "request sent in the POST body' (basic/transports): a WARN (cross-wiring with unique "
        "ids is a FAIL at both)."
    ),
    fix=(
        "Route each response to the HTTP request (or stream) that carried the call, keyed by "
        "connection and id, never by id alone; refuse a duplicate in-flight id rather than "
        "sharing a slot."
    ),
    check=check,
    needs=("http-url", "two argument-free tools with different results"),
)
