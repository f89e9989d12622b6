"""tools-snapshot: `tools/list` stays under a byte ceiling and does not change after calls.

The re-check is the point: the Deadbugz campaign mutates tool descriptions only after the
third call, so a single-shot assertion passes. The ceiling catches context-blowing catalogues.
"""

from __future__ import annotations

import json
from typing import Any

from tiercheck.probes.base import Finding, Level, Probe, ProbeContext, Skip, broken, ok
from tiercheck.probes.wire import Wire

__all__ = ["CALLS", "CEILING_BYTES", "PROBE", "changed_at"]

#: Bytes of the serialised tool list above which the catalogue is reported (WARN).
CEILING_BYTES = 256 * 1024
#: Tool calls made between the snapshot and the re-check (more than three, on purpose).
CALLS = 5


def _catalogue(wire: Wire) -> dict[str, str]:
    result = wire.call("tools/list")
    tools = result.get("tools") if result else None
    if not isinstance(tools, list):
        raise Skip("tools/list did not return a list of tools")
    return {str(t.get("name")): json.dumps(t, sort_keys=True) for t in tools if isinstance(t, dict)}


def _size(catalogue: dict[str, Any]) -> int:
    return sum(len(v.encode()) for v in catalogue.values())


def _listed(when: str, catalogue: dict[str, str]) -> str:
    return f"POST tools/list ({when}) → {len(catalogue)} tools, {_size(catalogue)} bytes"


def changed_at(name: str, before: str | None, after: str | None) -> str:
    """`alpha: …"Returns alpha (generation 0)"… became …"(generation 1)"…`: the first place a
    tool's JSON changed, with a little context either side (short whatever the tool's size)."""
    if before is None or after is None:
        return f"{name[:40]}: {'added' if before is None else 'removed'}"
    at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), None)
    if at is None:
        at = min(len(before), len(after))
    start = max(0, at - 30)
    return f"{name[:40]}: …{before[start : at + 40]}… became …{after[start : at + 40]}…"


def check(ctx: ProbeContext) -> Finding:
    """Snapshot, call tools and list again several times, then compare with the snapshot."""
    wire = ctx.wire()
    first = _catalogue(wire)
    plain = [str(t["name"]) for t in ctx.plain_tools()]
    called: list[str] = []
    for i in range(CALLS):
        if plain:
            called.append(plain[i % len(plain)])
            wire.call("tools/call", {"name": called[-1], "arguments": {}})
        if i % 2:
            wire.call("tools/list")
    last = _catalogue(wire)
    between = (
        f"then POST tools/call {', '.join(dict.fromkeys(called))} ({len(called)} calls) and "
        f"{CALLS // 2} more POST tools/list"
        if called
        else f"then {CALLS // 2} more POST tools/list (no tool to call without arguments)"
    )
    evidence = [_listed("snapshot", first), between, _listed("re-check", last)]
    changed = sorted(n for n in first.keys() | last.keys() if first.get(n) != last.get(n))
    if changed:
        # 2025-11-25 lets a server announce changes (tools.listChanged): still reported, as
        # a change right after calls is the tool-poisoning pattern, but as a SHOULD there.
        listed = wire.capabilities().get("tools") or {}
        level: Level = "SHOULD" if not ctx.modern and listed.get("listChanged") else "MUST"
        return broken(
            f"the tool list changed after {CALLS} calls: {', '.join(changed[:5])}",
            *evidence,
            *(changed_at(n, first.get(n), last.get(n)) for n in changed[:2]),
            level=level,
        )
    size = _size(first)
    if size > CEILING_BYTES:
        return broken(
            f"the tool list is {size} bytes, over the {CEILING_BYTES}-byte ceiling",
            *evidence,
            level="SHOULD",
        )
    return ok(f"{len(first)} tools, {size} bytes, unchanged after {CALLS} calls", *evidence)


PROBE = Probe(
    name="tools-snapshot",
    title="tools/list is stable across calls and bounded",
    level="MUST",
    spec=(
        "tools/list does not vary per connection (it MAY vary by the authorization presented) "
        "(2026-07-28, server/tools); at 2025-11-25 a changed list is announced with "
        "notifications/tools/list_changed."
    ),
    fix=(
        "Serve one catalogue for the life of the server (or announce changes); keep "
        "descriptions and schemas small."
    ),
    check=check,
)
