"""The conformance harness: provisioning it, running its legs, reading what it wrote."""

from __future__ import annotations

from tiercheck.conformance.results import (
    Check,
    ScenarioResult,
    SpecReference,
    collapse_checks,
    parse_results,
    scenario_name,
)

__all__ = [
    "Check",
    "ScenarioResult",
    "SpecReference",
    "collapse_checks",
    "parse_results",
    "scenario_name",
]
