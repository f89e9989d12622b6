"""notification-202: a notification POST gets 202 Accepted with no body (2026-07-28)."""

from __future__ import annotations

from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE"]


def check(ctx: ProbeContext) -> Finding:
    """POST `notifications/cancelled` for a request id never used."""
    wire = ctx.wire()
    note = wire.message("notifications/cancelled", {"requestId": 6_999_999, "reason": "probe"})
    reply = wire.post(note, wire.headers("notifications/cancelled", None))
    evidence = f"POST notifications/cancelled → {reply.evidence()}"
    if reply.status == 202 and not reply.text.strip():
        return ok("the notification got 202 with no body", evidence)
    if 400 <= reply.status < 500:
        return broken(f"the notification was refused with {reply.status}", evidence, level="SHOULD")
    body = "a body" if reply.text.strip() else "no body"
    return broken(f"the notification got {reply.status} with {body}, not 202", evidence)


PROBE = Probe(
    name="notification-202",
    title="a notification POST gets 202, no body",
    level="MUST",
    spec=(
        "If the input is a JSON-RPC response or notification: if the server accepts the "
        "input, the server MUST return HTTP status code 202 Accepted with no body. "
        "(basic/transports, Sending Messages to the Server)"
    ),
    fix="Answer every accepted notification with 202 and an empty body, never 200 + JSON.",
    check=check,
    wires=("stateless",),
)
