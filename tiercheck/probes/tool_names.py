"""tool-names: every tool name is 1–128 characters of A–Z a–z 0–9 _ - . (SEP-986)."""

from __future__ import annotations

import re

from tiercheck.probes.base import Finding, Probe, ProbeContext, broken, ok

__all__ = ["PROBE", "bad_names"]

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def bad_names(names: list[str]) -> list[str]:
    """The names that break SEP-986."""
    return [n for n in names if not _NAME.fullmatch(n)]


def check(ctx: ProbeContext) -> Finding:
    """List the tools and check each name."""
    names = [str(t["name"]) for t in ctx.tools()]
    bad = bad_names(names)
    if bad:
        shown = ", ".join(repr(n[:40]) for n in bad[:5])
        return broken(f"{len(bad)} of {len(names)} tool names break SEP-986: {shown}")
    return ok(f"all {len(names)} tool names are 1-128 characters of A-Z a-z 0-9 _ - .")


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
