"""Small helpers the probe modules share."""

from __future__ import annotations

from typing import Any

from tiercheck.probes.base import Skip, request_line
from tiercheck.probes.client import Reply
from tiercheck.probes.wire import Wire
from tiercheck.revisions import revisions_on

__all__ = ["FOREIGN", "answered", "listing", "modern_only", "named", "served", "shown"]

#: A host no test or user server is ever named: the attacker's page in a rebinding attack.
FOREIGN = "evil.example"


def served(reply: Reply, body: dict[str, Any]) -> bool:
    """Whether `reply` is a 2xx that carries a successful result for `body`."""
    answer = reply.response(body.get("id"))
    return 200 <= reply.status < 300 and answer is not None and "result" in answer


def answered(reply: Reply) -> bool:
    """Whether the request got through the transport (2xx)."""
    return 200 <= reply.status < 300


def named(names: list[str], most: int = 8) -> str:
    """`3 tools: a, b, c`, or the first `most` names and how many more: evidence stays short
    whatever the size of the catalogue."""
    head = ", ".join(n[:40] for n in names[:most])
    more = f", … (+{len(names) - most} more)" if len(names) > most else ""
    return f"{len(names)} tools" + (f": {head}{more}" if names else "")


def shown(method: str, headers: dict[str, str], keys: tuple[str, ...], reply: Reply) -> str:
    """`POST tools/list [Origin: …] → HTTP 403 …`."""
    return f"{request_line(method, headers, keys)} → {reply.evidence()}"


def listing(
    wire: Wire, extra: dict[str, str], drop: tuple[str, ...] = ()
) -> tuple[dict[str, Any], dict[str, str], Reply]:
    """A `tools/list` on `wire` with `extra` headers: (body, headers sent, reply)."""
    headers = {**wire.headers("tools/list", None), **extra}
    for key in drop:
        headers.pop(key, None)
    body, reply = wire.request("tools/list", extra=extra, drop=drop)
    return body, headers, reply


def modern_only(wire: Wire) -> None:
    """Skip unless the server serves the stateless wire alone: the spec asks 405 for GET and
    DELETE and an ignored `Mcp-Session-Id` only of "a server that supports only this revision";
    a dual-era server keeps serving the stateful session wire on the same endpoint. A version
    older than the first stateless revision is a stateful one."""
    first_stateless = revisions_on("stateless")[:1]
    earlier = [v for v in wire.supported_versions() if first_stateless and v < first_stateless[0]]
    if earlier:
        msg = (
            f"the server also serves {', '.join(earlier)} (server/discover supportedVersions); "
            f"this rule binds a server that supports {wire.revision} alone"
        )
        raise Skip(msg)
