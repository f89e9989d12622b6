"""The registry of probes and the one entry point that runs them against a server."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tiercheck.probes import (
    base64_header,
    concurrent_ids,
    content_type,
    cross_origin,
    dns_rebind,
    legacy_methods,
    list_order,
    mcp_method_headers,
    notification_accepted,
    origin_header,
    protocol_violations,
    request_state,
    session_id,
    seterror_content,
    tool_names,
    tools_snapshot,
    unsupported_version,
    version_mismatch,
)
from tiercheck.probes.base import Probe, ProbeContext, ProbeResult
from tiercheck.probes.client import ProbeClient

__all__ = ["PROBES", "ProbeReport", "probe_names", "run_probes", "select"]

#: Every probe, in the order they run and are reported: MCP-TUI's verify probes, the three
#: tests testing-mcp-servers says to adopt, then the 2026-07-28 wire rules.
PROBES: tuple[Probe, ...] = (
    cross_origin.PROBE,
    dns_rebind.PROBE,
    content_type.PROBE,
    origin_header.PROBE,
    mcp_method_headers.PROBE,
    seterror_content.PROBE,
    tool_names.PROBE,
    list_order.PROBE,
    protocol_violations.PROBE,
    concurrent_ids.PROBE,
    tools_snapshot.PROBE,
    notification_accepted.PROBE,
    legacy_methods.PROBE,
    session_id.PROBE,
    version_mismatch.PROBE,
    base64_header.PROBE,
    unsupported_version.PROBE,
    request_state.PROBE,
)


def probe_names() -> tuple[str, ...]:
    """Every probe's name."""
    return tuple(p.name for p in PROBES)


def select(spec: str) -> tuple[str, ...]:
    """The probes `--probes all|none|NAME,…` names; ValueError naming an unknown probe."""
    text = spec.strip()
    if text in ("", "all"):
        return probe_names()
    if text == "none":
        return ()
    wanted = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in wanted if n not in probe_names()]
    if unknown:
        msg = f"unknown probe(s) {', '.join(unknown)}; known: {', '.join(probe_names())}"
        raise ValueError(msg)
    return tuple(n for n in probe_names() if n in wanted)


@dataclass(frozen=True)
class ProbeReport:
    """Every selected probe's result against one server at one revision."""

    url: str
    revision: str
    results: tuple[ProbeResult, ...]
    duration_s: float

    def to_dict(self) -> dict[str, Any]:
        """The scorecard's `probes` block of one revision."""
        return {
            "url": self.url,
            "revision": self.revision,
            "duration_s": self.duration_s,
            "results": [r.to_dict() for r in self.results],
        }

    @property
    def failed(self) -> bool:
        """Whether any probe failed (a broken MUST)."""
        return any(r.outcome == "fail" for r in self.results)


def run_probes(
    url: str,
    revision: str,
    names: Sequence[str] | None = None,
    *,
    timeout_s: float = 5.0,
    max_bytes: int = 1 << 20,
    race_rounds: int | None = None,
) -> ProbeReport:
    """Run the probes named (default all) that apply at `revision`, one after another.

    `race_rounds` lowers the bound of the probes that repeat a race (`concurrent-ids`; None is
    their own). Raises ValueError for a URL that is not loopback http; never for what the
    server does.
    """
    chosen = [p for p in PROBES if (names is None or p.name in names) and p.applies_to(revision)]
    began = time.monotonic()
    with ProbeClient(url, timeout_s=timeout_s, max_bytes=max_bytes) as client:
        ctx = ProbeContext(client, revision, race_rounds=race_rounds)
        results = tuple(p.run(ctx) for p in chosen)
    return ProbeReport(url, revision, results, round(time.monotonic() - began, 3))
