"""The release tag prefix of an SDK: the text its release tags share before the version."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from tiercheck.target import parse_release_version

__all__ = ["tag_prefix"]


def _prefix(tag: str) -> str | None:
    version = parse_release_version(tag)
    return tag[: len(tag) - len(version.text)] if version is not None else None


def tag_prefix(tags: Iterable[str], name: str | None) -> tuple[str | None, str | None]:
    """(prefix, None), or (None, why) when the tags do not tell.

    One prefix among the versioned tags is the prefix. Among several (a monorepo tags each
    package: `tower-mcp-v0.21.0`, `tower-mcp-macros-v0.21.0`), the one that is the SDK's
    `name` followed by separators (`-_/@.`) and a `v`, either or both (`tower-mcp-v`,
    `tower-mcp@`, `tower-mcpv`), else the most used
    one when it is `v` or empty, else the one whose stem the others extend (`rmcp-v` beside
    `rmcp-macros-v`: the crate and its companions)."""
    counts = Counter(p for p in map(_prefix, tags) if p is not None)
    if not counts:
        return None, "no tag names a version (X.Y.Z)"
    if len(counts) == 1:
        return next(iter(counts)), None
    if name:
        own = [p for p in counts if p.rstrip("v").rstrip("-_/@.") == name]
        if len(own) == 1:
            return own[0], None
    (top, _), *_ = counts.most_common()
    if top in {"", "v"}:
        return top, None
    stems = {p: p.rstrip("v").rstrip("-_/@.") for p in counts}
    roots = [
        p
        for p, stem in stems.items()
        if stem and any(q != p and other.startswith(stem + "-") for q, other in stems.items())
    ]
    if len(roots) == 1:
        return roots[0], None
    shown = ", ".join(f"{p or '(none)'}X.Y.Z" for p, _ in counts.most_common(4))
    return None, f"the tags have {len(counts)} prefixes ({shown}) and none is the name's"
