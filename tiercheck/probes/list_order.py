"""list-order: `tools/list` returns the tools in the same order twice."""

from __future__ import annotations

from tiercheck.probes._common import named
from tiercheck.probes.base import Finding, Probe, ProbeContext, Skip, broken, ok

__all__ = ["PROBE", "first_difference"]


def _names(ctx: ProbeContext) -> list[str]:
    # A new connection each time: at 2025-11-25 a new session, so a per-session cache cannot
    # answer the second list from the first.
    result = ctx.wire().call("tools/list")
    tools = result.get("tools") if result else None
    if not isinstance(tools, list):
        raise Skip("tools/list did not return a list of tools")
    return [str(t.get("name")) for t in tools if isinstance(t, dict)]


def first_difference(first: list[str], second: list[str]) -> str:
    """`position 2: beta, then always_error`: where two orders of the same names part."""
    at = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    return f"first difference at position {at + 1}: {first[at][:40]}, then {second[at][:40]}"


def check(ctx: ProbeContext) -> Finding:
    """List the tools on two connections and compare the order of the names."""
    first, second = _names(ctx), _names(ctx)
    evidence = (
        f"POST tools/list (first connection) → {named(first)}",
        f"POST tools/list (second connection) → {named(second)}",
    )
    if first == second:
        return ok(f"{len(first)} tools in the same order twice", *evidence)
    if sorted(first) != sorted(second):
        raise Skip("the two lists hold different tools (see tools-snapshot)")
    return broken(
        "the same tools came back in another order", *evidence, first_difference(first, second)
    )


PROBE = Probe(
    name="list-order",
    title="tools/list keeps its order",
    level="SHOULD",
    spec=(
        "Servers SHOULD return tools in a deterministic order (2026-07-28, server/tools): "
        "a manifest in dictionary-iteration order breaks every client that caches or "
        "snapshots it."
    ),
    fix="Sort the tool list (by name, or registration order) before returning it.",
    check=check,
)
