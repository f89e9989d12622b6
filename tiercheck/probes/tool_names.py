"""tool-names: every tool name is 1–128 characters of A–Z a–z 0–9 _ - . (SEP-986)."""

from __future__ import annotations

import re

from tiercheck.probes._common import named
from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE", "bad_names", "why_bad"]

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_ALLOWED = re.compile(r"[A-Za-z0-9_.-]")


def bad_names(names: list[str]) -> list[str]:
    """The names that break SEP-986."""
    return [n for n in names if not _NAME.fullmatch(n)]


def why_bad(name: str) -> str:
    """`'a b/c': 5 characters, not allowed: ' ', '/'`: what a name breaks, for the evidence."""
    odd = sorted({c for c in name if not _ALLOWED.fullmatch(c)})
    parts = [f"{len(name)} characters" + ("" if 1 <= len(name) <= 128 else " (not 1-128)")]
    if odd:
        parts.append("not allowed: " + ", ".join(repr(c) for c in odd[:8]))
    return f"{name[:40]!r}: " + ", ".join(parts)


def check(ctx: ProbeContext) -> Finding:
    """List the tools and check each name."""
    names = [str(t["name"]) for t in ctx.tools()]
    listed = f"POST tools/list → {named(names)}"
    bad = bad_names(names)
    if bad:
        shown = ", ".join(repr(n[:40]) for n in bad[:5])
        return broken(
            f"{len(bad)} of {len(names)} tool names break SEP-986: {shown}",
            listed,
            *(why_bad(n) for n in bad[:5]),
        )
    return ok(f"all {len(names)} tool names are 1-128 characters of A-Z a-z 0-9 _ - .", listed)


PROBE = Probe(
    name="tool-names",
    title="tool names follow SEP-986",
    level="SHOULD",
    spec=(
        "Tool names SHOULD be between 1 and 128 characters in length (inclusive) … The "
        "following SHOULD be the only allowed characters: uppercase and lowercase ASCII "
        "letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.). "
        "(server/tools, Tool Names)"
    ),
    fix="Rename the tools to 1-128 characters of A-Z a-z 0-9 _ - . (no spaces or slashes).",
    check=check,
)
