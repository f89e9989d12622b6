"""Builders of realistic scorecard documents for the report tests.

Each builder returns plain JSON data shaped as `schemas/scorecard.schema.json` describes, with
the totals computed by the official rules (a scenario counts only when scored; status pass at
1.0, partial at 0.8), so a document built here is one the pipeline could have written. The
tests validate every document they build against the schema.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tiercheck.report.remediation import remediation

SPEC = "https://modelcontextprotocol.io/specification/2025-11-25"
COMMIT = "3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3"
TIMESTAMP = "2026-08-20T09:15:00Z"

Doc = dict[str, Any]


def check(check_id: str, message: str, spec_url: str | None = None) -> dict[str, Any]:
    """A failing check as the scorecard records it."""
    return {"id": check_id, "status": "FAILURE", "message": message, "spec_url": spec_url}


def scenario(
    name: str,
    revision: str,
    leg: str,
    *,
    passed: bool = True,
    checks_passed: int = 3,
    failing: Sequence[dict[str, Any]] = (),
    not_scored: str | None = None,
    baseline: str | None = None,
    reason: str | None = None,
    warned: int = 0,
) -> dict[str, Any]:
    """One scenario of one leg at one revision."""
    out: dict[str, Any] = {
        "scenario": name,
        "passed": passed,
        "checks_passed": checks_passed if passed or failing else 0,
        "checks_failed": len(failing),
        "revision": revision,
    }
    if not_scored:
        out["notScoredReason"] = not_scored
    out |= {
        "leg": leg,
        "checks_warned": warned,
        "reason": reason,
        "failures": list(failing),
        "warnings": [],
        "results_path": f"reports/raw/{revision}/{leg}/{name.replace('/', '__')}/checks.json",
    }
    if baseline:
        out["baseline"] = baseline
    return out


def _status(rate: float) -> str:
    return "pass" if rate >= 1.0 else "partial" if rate >= 0.8 else "fail"


def _totals(details: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    details = list(details)
    scored = [d for d in details if "notScoredReason" not in d]
    unscored = [d for d in details if "notScoredReason" in d]
    passed = sum(bool(d["passed"]) for d in scored)
    total = len(scored)
    rate = passed / total if total else 0.0
    return {
        "status": _status(rate),
        "pass_rate": rate,
        "passed": passed,
        "failed": total - passed,
        "total": total,
        "not_scored": {
            "total": len(unscored),
            "failed": sum(not d["passed"] for d in unscored),
        },
    }


def measured_leg(
    details: Sequence[dict[str, Any]], *, results_dir: str, duration_s: float = 12.5
) -> dict[str, Any]:
    """A leg that ran, with its totals."""
    return {
        **_totals(details),
        "details": list(details),
        "state": "measured",
        "reason": None,
        "results_dir": results_dir,
        "duration_s": duration_s,
    }


def unmeasured_leg(reason: str, *, results_dir: str | None = None) -> dict[str, Any]:
    """A leg we tried and could not measure; shaped like the official error result."""
    return {
        "status": "fail",
        "pass_rate": 0.0,
        "passed": 0,
        "failed": 0,
        "total": 0,
        "error": reason,
        "details": [],
        "state": "unmeasured",
        "reason": reason,
        "results_dir": results_dir,
        "duration_s": 3.0,
    }


def skipped_leg(reason: str) -> dict[str, Any]:
    """A leg the configuration chose not to run."""
    return {
        "status": "skipped",
        "pass_rate": 0.0,
        "passed": 0,
        "failed": 0,
        "total": 0,
        "details": [],
        "state": "skipped",
        "reason": reason,
    }


def merge(parts: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One leg across revisions, as `scoring.merge_revisions` merges it."""
    measured = {r: p for r, p in parts.items() if p["state"] == "measured"}
    missing = {r: p for r, p in parts.items() if p["state"] != "measured"}
    details = [d for p in measured.values() for d in p["details"]]
    out = _totals(details)
    reason = "; ".join(f"{r}: {p['reason']}" for r, p in missing.items()) or None
    if not missing:
        state = "measured"
    elif not measured and all(p["state"] == "skipped" for p in missing.values()):
        state, out["status"] = "skipped", "skipped"
    elif not measured:
        state, out["status"] = "unmeasured", "fail"
    else:
        state = "partially-measured"
    if state in ("unmeasured", "partially-measured"):
        out["error"] = reason
    return out | {
        "details": details,
        "state": state,
        "reason": reason,
        "conclusive": state == "measured",
        "revisions": list(parts),
        "measured_revisions": list(measured),
        "missing_revisions": [
            {"revision": r, "state": p["state"], "reason": p["reason"]} for r, p in missing.items()
        ],
    }


def labels(missing: Sequence[str] = ()) -> dict[str, Any]:
    """The labels signal with `missing` labels absent."""
    required = [
        "bug",
        "enhancement",
        "question",
        "needs confirmation",
        "needs repro",
        "ready for work",
        "good first issue",
        "help wanted",
        "P0",
        "P1",
        "P2",
        "P3",
    ]
    found = [name for name in required if name not in missing]
    return {
        "status": "fail" if missing else "pass",
        "reason": None,
        "present": len(found),
        "required": len(required),
        "missing": list(missing),
        "found": found,
        "uses_issue_types": False,
        "disagrees_with_official": False,
    }


def triage_inconclusive(reason: str) -> dict[str, Any]:
    """A triage signal GitHub would not answer."""
    return {
        "status": "inconclusive",
        "reason": reason,
        "compliance_rate": 0.0,
        "total_issues": 0,
        "triaged_within_sla": 0,
        "exceeding_sla": 0,
        "median_hours": 0.0,
        "p95_hours": 0.0,
        "days_analyzed": 30,
        "disagrees_with_official": False,
    }


def triage(rate: float = 0.96, total: int = 50, *, sep_status: str | None = None) -> dict[str, Any]:
    """A measured triage signal; `sep_status` adds a differing SEP-1730 verdict."""
    labelled = round(rate * total)
    out: dict[str, Any] = {
        "status": "pass" if rate >= 0.9 else "partial" if rate >= 0.8 else "fail",
        "reason": None,
        "compliance_rate": rate,
        "total_issues": total,
        "triaged_within_sla": labelled,
        "exceeding_sla": total - labelled,
        "median_hours": 6.0,
        "p95_hours": 70.0,
        "days_analyzed": 30,
    }
    out["sep1730"] = {"status": sep_status or out["status"], "rate_2_business_days": 0.72}
    out["disagrees_with_official"] = sep_status is not None and sep_status != out["status"]
    return out


def p0(open_details: Sequence[tuple[int, str, int]] = (), closed: int = 4, slow: int = 0) -> Doc:
    """The P0 signal: open P0s as (number, title, age in days); `slow` closed after 7 days."""
    within_7 = not open_details and not slow
    return {
        "status": "pass" if within_7 else "fail",
        "reason": None,
        "open_p0s": len(open_details),
        "open_p0_details": [{"number": n, "title": t, "age_days": a} for n, t, a in open_details],
        "closed_within_7d": closed - slow,
        "closed_within_14d": closed,
        "closed_total": closed,
        "all_p0s_resolved_within_7d": within_7,
        "all_p0s_resolved_within_14d": not open_details,
        "disagrees_with_official": False,
    }


def release(version: str | None = "1.4.2", *, prerelease: bool = False) -> dict[str, Any]:
    """The stable-release signal for the newest release `version`."""
    stable = bool(version) and not prerelease and not str(version).startswith("0.")
    return {
        "status": "pass" if stable else "fail",
        "reason": None,
        "version": version,
        "is_stable": stable,
        "is_prerelease": prerelease,
        "disagrees_with_official": False,
    }


def policy(found: Sequence[str] = ("CHANGELOG.md", "SECURITY.md", "CONTRIBUTING.md")) -> Doc:
    """The (informational) policy-files signal."""
    names = [
        "CHANGELOG.md",
        "SECURITY.md",
        "CONTRIBUTING.md",
        "ROADMAP.md",
        "VERSIONING.md",
        ".github/dependabot.yml",
    ]
    files = {name: name in found for name in names}
    hits = sum(files.values())
    return {
        "status": "pass" if hits == len(names) else "partial" if hits else "fail",
        "reason": None,
        "files": files,
        "disagrees_with_official": False,
    }


def spec_tracking(days_gap: int = 12, sdk_release: str | None = "1.4.0") -> dict[str, Any]:
    """The spec-tracking signal against spec release 2025-11-25."""
    return {
        "status": "pass" if days_gap <= 30 else "fail",
        "reason": None,
        "latest_spec_release": "2025-11-25",
        "latest_sdk_release": sdk_release,
        "sdk_release_within_30d": days_gap <= 30,
        "days_gap": days_gap,
        "disagrees_with_official": False,
    }


def scorecard(
    *,
    revisions: Mapping[str, Mapping[str, Any]],
    signals: Mapping[str, dict[str, Any]],
    tier: int,
    tier1_blockers: Sequence[str],
    tier2_blockers: Sequence[str] = (),
    sep_tier: int | None = None,
    name: str = "example-sdk",
    commit: str = COMMIT,
    harness_version: str = "0.2.0-alpha.10",
    node_version: str = "v22.12.0",
    exit_code: int = 0,
    baseline: Mapping[str, Any] | None = None,
) -> Doc:
    """A whole scorecard: per-revision legs, merged legs, signals, tier, remediation, evidence."""
    server = merge({rev: legs["server"] for rev, legs in revisions.items()})
    client = merge({rev: legs["client"] for rev, legs in revisions.items()})
    unmeasured = [
        {"what": f"{leg} {rev}", "reason": part["reason"]}
        for rev, legs in revisions.items()
        for leg, part in legs.items()
        if leg in ("server", "client") and part["state"] == "unmeasured"
    ] + [
        {"what": key, "reason": s["reason"]}
        for key, s in signals.items()
        if s["status"] == "inconclusive"
    ]
    sep = sep_tier or tier
    note = (
        f"Implied Tier {tier} from automated checks; documentation, dependency policy and "
        "roadmap are not judged here"
    )
    if any("unmeasured" in b or "inconclusive" in b for b in tier1_blockers):
        note += "; some evidence could not be measured, so this tier is a lower bound"
    if sep != tier:
        note += f"; SEP-1730 as written implies Tier {sep}"
    doc: Doc = {
        "repo": f"example-org/{name}",
        "branch": "main",
        "timestamp": TIMESTAMP,
        "version": signals["stable_release"].get("version"),
        "requirements_revisions": list(revisions),
        "checks": {"conformance": server, "client_conformance": client, **signals},
        "implied_tier": {
            "tier": tier,
            "tier1_blockers": list(tier1_blockers),
            "tier2_met": tier < 3,
            "note": note + ".",
            "tier2_blockers": list(tier2_blockers),
            "sep1730": {"tier": sep, "blockers": list(tier1_blockers), "tier2_met": sep < 3},
            "disagrees_with_official": sep != tier,
        },
        "tiercheck": {"version": "0.1.0", "schema_version": 1, "run_id": "20260820T091500Z"},
        "sdk": {
            "name": name,
            "ref": "main",
            "commit": commit,
            "path": f"/home/ci/.cache/tiercheck/sdks/{name}",
            "origin": "clone",
        },
        "harness": {
            "package": "@modelcontextprotocol/conformance",
            "version": harness_version,
            "node_version": node_version,
        },
        "revisions": {rev: dict(legs) for rev, legs in revisions.items()},
        "baseline": dict(baseline) if baseline is not None else None,
        "build": {"state": "cached", "reason": None, "log": "reports/logs/build.log"},
        "governance": {"source": "github", "as_of": TIMESTAMP, "captured_at": TIMESTAMP},
        "unmeasured": unmeasured,
        "timings": {"build": 0.4, "conformance": 141.2, "governance": 3.1},
        "artifacts": {
            "out_dir": "reports/example-sdk",
            "raw": "reports/example-sdk/raw",
            "logs": {
                "build": "reports/example-sdk/logs/build.log",
                "server-2025-11-25": "reports/example-sdk/logs/server-2025-11-25.log",
                "server-2026-07-28": "reports/example-sdk/logs/server-2026-07-28.log",
            },
        },
        "interrupted": False,
        "exit_code": exit_code,
    }
    doc["remediation"] = remediation(doc)
    return doc


R1, R2 = "2025-11-25", "2026-07-28"


def mixed_scorecard() -> Doc:
    """A Tier 3 SDK: passes and failures, not-scored results, an unmeasured leg, an inconclusive
    signal, a baselined failure, untrusted characters in messages (pipes, a bell, markup)."""
    server_r1 = [
        scenario("server-initialize", R1, "server"),
        scenario("tools-list", R1, "server"),
        scenario(
            "tools-call-image",
            R1,
            "server",
            passed=False,
            checks_passed=1,
            failing=[
                check(
                    "tools-call-image-content",
                    "Expected content[0].type == 'image', got 'text' | mimeType missing",
                    f"{SPEC}/server/tools#image-content",
                ),
                check("wire-schema-valid", "result.content[0]: required property 'data'"),
            ],
        ),
        scenario("resources-list", R1, "server"),
        scenario(
            "json-schema-2020-12",
            R1,
            "server",
            passed=False,
            checks_passed=0,
            failing=[check("json-schema-dialect", "$schema dropped from inputSchema")],
            not_scored="pending",
        ),
    ]
    client_r1 = [
        scenario("initialize", R1, "client"),
        scenario("tools_call", R1, "client"),
        scenario(
            "auth/scope-step-up",
            R1,
            "client",
            passed=False,
            failing=[
                check(
                    "scope-step-up-retry",
                    "client did not retry with scope=`files:read|write`\x07 [bold]after 403[/]",
                    f"{SPEC}/basic/authorization#scope-challenge-handling",
                )
            ],
            baseline="expected-failure",
        ),
        scenario(
            "auth/dpop", R1, "client", passed=False, reason="no results", not_scored="extension"
        ),
    ]
    server_r2 = [
        scenario("server-stateless", R2, "server"),
        scenario("tools-list", R2, "server"),
        scenario("caching", R2, "server", warned=1),
    ]
    unmeasured = "harness exited with code 1 before writing results: Error: spawn npx ENOENT"
    revisions: dict[str, dict[str, Any]] = {
        R1: {
            "server": measured_leg(server_r1, results_dir=f"reports/raw/{R1}/server"),
            "client": measured_leg(client_r1, results_dir=f"reports/raw/{R1}/client"),
            "server_url": "http://127.0.0.1:41235/mcp",
        },
        R2: {
            "server": measured_leg(server_r2, results_dir=f"reports/raw/{R2}/server"),
            "client": unmeasured_leg(unmeasured, results_dir=f"reports/raw/{R2}/client"),
            "server_url": "http://127.0.0.1:41236/mcp",
        },
    }
    client_blocker = f"client_conformance (unmeasured: {R2}: {unmeasured})"
    rate_limited = "GitHub rate limit exhausted (resets 09:42 UTC)"
    signals = {
        "labels": labels(missing=("needs repro", "P3")),
        "triage": triage_inconclusive(rate_limited),
        "p0_resolution": p0(open_details=[(812, "Server | crashes on empty cursor", 9)], slow=1),
        "stable_release": release("1.4.2"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(),
    }
    signals["stable_release"]["sep1730"] = {"status": "pass", "is_stable": True}
    signals["p0_resolution"]["sep1730"] = {"status": "partial"}
    signals["p0_resolution"]["disagrees_with_official"] = True
    baseline = {
        "exit_ok": True,
        "files": {R1: "baselines/example-sdk-2025-11-25.yaml"},
        "entries": [
            {
                "revision": R1,
                "leg": "client",
                "scenario": "auth/scope-step-up",
                "check": None,
                "outcome": "expected-failure",
                "detail": "listed whole; SEP-835 step-up not implemented",
            }
        ],
    }
    return scorecard(
        revisions=revisions,
        signals=signals,
        tier=3,
        tier1_blockers=[
            "server_conformance",
            client_blocker,
            f"triage (inconclusive: {rate_limited})",
            "p0_resolution",
            "labels",
        ],
        tier2_blockers=[client_blocker, "p0_resolution (14 days)"],
        sep_tier=3,
        exit_code=1,
        baseline=baseline,
    )


def tier1_scorecard() -> Doc:
    """A clean Tier 1 SDK: every required scenario passes, every signal passes."""
    revisions: dict[str, dict[str, Any]] = {}
    for rev, server_names, client_names in (
        (R1, ("server-initialize", "tools-list", "tools-call-simple-text"), ("initialize",)),
        (R2, ("server-stateless", "tools-list"), ("tools_call", "request-metadata")),
    ):
        revisions[rev] = {
            "server": measured_leg(
                [scenario(n, rev, "server") for n in server_names],
                results_dir=f"reports/raw/{rev}/server",
            ),
            "client": measured_leg(
                [scenario(n, rev, "client") for n in client_names],
                results_dir=f"reports/raw/{rev}/client",
            ),
        }
    signals = {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(
            (
                "CHANGELOG.md",
                "SECURITY.md",
                "CONTRIBUTING.md",
                "ROADMAP.md",
                "VERSIONING.md",
                ".github/dependabot.yml",
            )
        ),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }
    return scorecard(revisions=revisions, signals=signals, tier=1, tier1_blockers=[])


def with_regression(doc: Doc, revision: str, leg: str, name: str, message: str) -> Doc:
    """A copy of `doc` in which one passing scored scenario now fails (totals recomputed)."""
    new = copy.deepcopy(doc)
    part = new["revisions"][revision][leg]
    for detail in part["details"]:
        if detail["scenario"] == name:
            detail["passed"] = False
            detail["checks_failed"] = 1
            detail["failures"] = [check(f"{name}-check", message, f"{SPEC}/server/tools")]
    part.update(_totals(part["details"]))
    key = "conformance" if leg == "server" else "client_conformance"
    merged = merge({rev: legs[leg] for rev, legs in new["revisions"].items()})
    new["checks"][key] = merged
    return new
