"""Realistic scorecards for the report tests, built through the real builders.

Scenario results are harness checks (`Check`), judged by `scoring.score_leg` against a
requirement set and merged by `scoring.merge_revisions`; the baseline is applied by
`baseline.apply_baseline`; the document is assembled by `scorecard.build_scorecard` and its
remediation by `scorecard.remediation`. What stays hand-written is the input a real run would have
measured (checks, governance signal values) and the implied tier, whose blockers are worked out
by hand from those inputs (the tier rules have their own table tests).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from support.checks_builder import requirement_set
from tiercheck.baseline import BaselineVerdict, apply_baseline
from tiercheck.config.baseline import Baseline, BaselineEntry
from tiercheck.config.resolve import ConfigFlags, RevisionConfig
from tiercheck.conformance.results import Check, ScenarioResult, SpecReference
from tiercheck.model import from_json, to_json
from tiercheck.revisions import Leg
from tiercheck.scorecard.build import ScorecardParts, build_scorecard
from tiercheck.scorecard.model import (
    Artifacts,
    BuildBlock,
    GovernanceBlock,
    HarnessBlock,
    ProbeEntry,
    ProbesBlock,
    Scorecard,
    SdkBlock,
    SignalEntry,
    ToolBlock,
)
from tiercheck.scorecard.remediation import remediation
from tiercheck.scoring import (
    LegVerdict,
    merge_revisions,
    score_leg,
    skipped_leg,
    unmeasured_leg,
)
from tiercheck.tier import Blocker, ImpliedTier, SepTier

if TYPE_CHECKING:
    from tiercheck.config.registry import SdkEntry
    from tiercheck.config.requirements import RequirementSet

SPEC = "https://modelcontextprotocol.io/specification/2025-11-25"
LEGS_BOTH = frozenset({"server", "client"})
COMMIT = "3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3"
FINISHED = datetime(2026, 8, 20, 9, 15, tzinfo=UTC)
TIMESTAMP = "2026-08-20T09:15:00Z"
R1, R2 = "2025-11-25", "2026-07-28"

Signal = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Scenario:
    """What a harness run left for one scenario: its checks, or nothing at all."""

    name: str
    checks: tuple[Check, ...] | None
    not_scored: str | None = None


def check(check_id: str, message: str, spec_url: str | None = None) -> Check:
    """A failing check as the harness writes it."""
    refs = (SpecReference("MCP-X", spec_url),) if spec_url else ()
    return Check(check_id, "FAILURE", message, refs)


def scenario(
    name: str,
    *,
    passed: bool = True,
    checks_passed: int = 3,
    failing: Sequence[Check] = (),
    not_scored: str | None = None,
    warned: int = 0,
    no_results: bool = False,
) -> Scenario:
    """One scenario's checks: `checks_passed` successes (none when it failed without a failing
    check), the `failing` checks and `warned` warnings; `no_results` leaves none."""
    if no_results:
        return Scenario(name, None, not_scored)
    successes = checks_passed if passed or failing else 0
    checks = (
        *(Check(f"{name}-check-{n}", "SUCCESS", "") for n in range(successes)),
        *failing,
        *(Check(f"{name}-warning-{n}", "WARNING", "slow") for n in range(warned)),
    )
    return Scenario(name, checks, not_scored)


def measured_leg(revision: str, leg: Leg, scenarios: Sequence[Scenario]) -> LegVerdict:
    """A leg that ran: every scenario judged against a requirement set listing exactly these."""
    results_dir = Path(f"reports/raw/{revision}/{leg}")
    results = [
        ScenarioResult(s.name, results_dir / s.name.replace("/", "__") / "checks.json", s.checks)
        for s in scenarios
        if s.checks is not None
    ]
    names = [s.name for s in scenarios if not s.not_scored]
    rset = requirement_set(
        **{leg: names},
        not_scored=[(s.name, leg, s.not_scored) for s in scenarios if s.not_scored],
        revision=revision,
    )
    return score_leg(leg, revision, results, rset, results_dir=results_dir)


def labels(missing: Sequence[str] = ()) -> Signal:
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


def triage_inconclusive(reason: str) -> Signal:
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


def triage(rate: float = 0.96, total: int = 50, *, sep_status: str | None = None) -> Signal:
    """A measured triage signal; `sep_status` adds a differing SEP-1730 verdict."""
    labelled = round(rate * total)
    out: Signal = {
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


def p0(open_details: Sequence[tuple[int, str, int]] = (), closed: int = 4, slow: int = 0) -> Signal:
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


def release(version: str | None = "1.4.2", *, prerelease: bool = False) -> Signal:
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


def policy(found: Sequence[str] = ("CHANGELOG.md", "SECURITY.md", "CONTRIBUTING.md")) -> Signal:
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


def spec_tracking(days_gap: int = 12, sdk_release: str | None = "1.4.0") -> Signal:
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


def implied(
    tier: int,
    tier1: Sequence[Blocker],
    tier2: Sequence[Blocker] = (),
    *,
    sep_tier: int | None = None,
    note: str = "",
) -> ImpliedTier:
    """The implied tier with hand-worked blockers (SEP-1730's reading sees the same ones)."""
    sep = sep_tier or tier
    text = note or (
        f"Implied Tier {tier} from automated checks; documentation, dependency policy and "
        "roadmap are not judged here"
    )
    if any(b.kind in ("unmeasured", "inconclusive") for b in tier1):
        text += "; some evidence could not be measured, so this tier is a lower bound"
    if sep != tier:
        text += f"; SEP-1730 as written implies Tier {sep}"
    return ImpliedTier(
        tier=tier,
        tier1_blockers=tuple(tier1),
        tier2_met=tier < 3,
        note=text + ".",
        tier2_blockers=tuple(tier2),
        sep1730=SepTier(sep, tuple(tier1), sep < 3, (), ()),
    )


def scorecard(
    *,
    legs: Mapping[str, Mapping[Leg, LegVerdict]],
    signals: Mapping[str, Signal],
    tier: ImpliedTier,
    server_urls: Mapping[str, str] | None = None,
    baseline: Baseline | None = None,
    name: str = "example-sdk",
    harness_version: str = "0.2.0-alpha.10",
    node_version: str = "v22.12.0",
    exit_code: int = 0,
    durations: Mapping[str, float] | None = None,
    baselines: Mapping[str, tuple[str, Baseline]] | None = None,
    configs: Mapping[str, RevisionConfig] | None = None,
    sdk_fields: Mapping[str, Any] | None = None,
    release_days: Mapping[str, date] | None = None,
) -> Scorecard:
    """A whole scorecard from judged legs, signal values and the tier, remediation included.

    Every leg took 12.5 s unless `durations` ("client 2026-07-28": 3.0) says otherwise;
    `sdk_fields` replace fields of the `sdk` block (`ref`, `tag`, `release`), and
    `release_days` are the GitHub release days the judge step read (tag → day)."""
    server = merge_revisions([by_leg["server"] for by_leg in legs.values()])
    client = merge_revisions([by_leg["client"] for by_leg in legs.values()])
    verdict = None
    one = "baselines/example-sdk-2025-11-25.yaml"
    files: dict[tuple[str, Leg], str] = (
        {(R1, "server"): one, (R1, "client"): one} if baseline else {}
    )
    if baseline is not None:
        verdict = apply_baseline(baseline, [v for by_leg in legs.values() for v in by_leg.values()])
    if baselines:
        # One file per revision, each applied to its revision's legs (as the pipeline does).
        outcomes = []
        normal = 0
        for rev, (_, each) in baselines.items():
            applied = apply_baseline(each, list(legs[rev].values()))
            outcomes.extend(applied.outcomes)
            normal += applied.normal_passes
        files = {(rev, leg): path for rev, (path, _) in baselines.items() for leg in legs[rev]}
        verdict = BaselineVerdict(", ".join(dict.fromkeys(files.values())), tuple(outcomes), normal)
    unmeasured = [
        (f"{leg} {rev}", verdict_.reason or "")
        for rev, by_leg in legs.items()
        for leg, verdict_ in by_leg.items()
        if verdict_.state == "unmeasured"
    ] + [(key, s["reason"]) for key, s in signals.items() if s["status"] == "inconclusive"]
    parts = ScorecardParts(
        repo=f"example-org/{name}",
        branch="main",
        finished_at=FINISHED,
        revisions=list(legs),
        sdk=dataclasses.replace(
            SdkBlock(
                name=name,
                ref="main",
                commit=COMMIT,
                path=f"/home/ci/.cache/tiercheck/sdks/{name}",
                origin="clone",
            ),
            **(sdk_fields or {}),
        ),
        harness=HarnessBlock(
            package="@modelcontextprotocol/conformance",
            version=harness_version,
            node_version=node_version,
        ),
        tiercheck=ToolBlock(version="0.1.0", schema_version=1, run_id="20260820T091500Z"),
        server=server,
        client=client,
        per_revision=legs,
        server_urls=server_urls or {},
        configs=configs or {},
        checks={name: from_json(SignalEntry, dict(s), name) for name, s in signals.items()},
        governance=GovernanceBlock(source="github", as_of=TIMESTAMP, captured_at=TIMESTAMP),
        implied_tier=tier,
        stable_version=signals["stable_release"].get("version"),
        baseline=verdict,
        baseline_files=files,
        build=BuildBlock(state="cached", reason=None, log="reports/logs/build.log"),
        unmeasured=unmeasured,
        timings={"build": 0.4, "conformance": 141.2, "governance": 3.1}
        | {f"{leg} {rev}": 12.5 for rev in legs for leg in ("server", "client")}
        | dict(durations or {}),
        artifacts=Artifacts(
            out_dir="reports/example-sdk",
            raw="reports/example-sdk/raw",
            logs={
                "build": "reports/example-sdk/logs/build.log",
                "server-2025-11-25": "reports/example-sdk/logs/server-2025-11-25.log",
                "server-2026-07-28": "reports/example-sdk/logs/server-2026-07-28.log",
            },
        ),
        interrupted=False,
        exit_code=exit_code,
        release_days=release_days or {},
    )
    doc = build_scorecard(parts)
    return dataclasses.replace(doc, remediation=remediation(doc))


UNMEASURED = "harness exited with code 1 before writing results: Error: spawn npx ENOENT"
RATE_LIMITED = "GitHub rate limit exhausted (resets 09:42 UTC)"


def mixed_scorecard() -> Scorecard:
    """A Tier 3 SDK: passes and failures, not-scored results, an unmeasured leg, an inconclusive
    signal, a baselined failure, untrusted characters in messages (pipes, a bell, markup)."""
    server_r1 = [
        scenario("server-initialize"),
        scenario("tools-list"),
        scenario(
            "tools-call-image",
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
        scenario("resources-list"),
        scenario(
            "json-schema-2020-12",
            passed=False,
            checks_passed=0,
            failing=[check("json-schema-dialect", "$schema dropped from inputSchema")],
            not_scored="pending",
        ),
    ]
    client_r1 = [
        scenario("initialize"),
        scenario("tools_call"),
        scenario(
            "auth/scope-step-up",
            passed=False,
            failing=[
                check(
                    "scope-step-up-retry",
                    "client did not retry with scope=`files:read|write`\x07 [bold]after 403[/]",
                    f"{SPEC}/basic/authorization#scope-challenge-handling",
                )
            ],
        ),
        scenario("auth/dpop", no_results=True, not_scored="extension"),
    ]
    server_r2 = [
        scenario("server-stateless"),
        scenario("tools-list"),
        scenario("caching", warned=1),
    ]
    legs: dict[str, dict[Leg, LegVerdict]] = {
        R1: {
            "server": measured_leg(R1, "server", server_r1),
            "client": measured_leg(R1, "client", client_r1),
        },
        R2: {
            "server": measured_leg(R2, "server", server_r2),
            "client": unmeasured_leg(
                "client", R2, UNMEASURED, results_dir=Path(f"reports/raw/{R2}/client")
            ),
        },
    }
    signals = {
        "labels": labels(missing=("needs repro", "P3")),
        "triage": triage_inconclusive(RATE_LIMITED),
        "p0_resolution": p0(open_details=[(812, "Server | crashes on empty cursor", 9)], slow=1),
        "stable_release": release("1.4.2"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(),
    }
    signals["stable_release"]["sep1730"] = {"status": "pass", "is_stable": True}
    signals["p0_resolution"]["sep1730"] = {"status": "partial"}
    signals["p0_resolution"]["disagrees_with_official"] = True
    baseline = Baseline(
        "baselines/example-sdk-2025-11-25.yaml",
        (BaselineEntry("client", "auth/scope-step-up", None, 0),),
    )
    client_blocker = Blocker("client_conformance", 1, "unmeasured", reason=f"{R2}: {UNMEASURED}")
    return scorecard(
        legs=legs,
        signals=signals,
        tier=implied(
            3,
            [
                Blocker("server_conformance", 1),
                client_blocker,
                Blocker("triage", 1, "inconclusive", reason=RATE_LIMITED),
                Blocker("p0_resolution", 1),
                Blocker("labels", 1),
            ],
            [
                dataclasses.replace(client_blocker, tier=2),
                Blocker("p0_resolution", 2, qualifier="14 days"),
            ],
        ),
        server_urls={R1: "http://127.0.0.1:41235/mcp", R2: "http://127.0.0.1:41236/mcp"},
        baseline=baseline,
        exit_code=1,
        durations={f"client {R2}": 3.0},
    )


TIER1_SCENARIOS: dict[str, dict[Leg, tuple[str, ...]]] = {
    R1: {
        "server": ("server-initialize", "tools-list", "tools-call-simple-text"),
        "client": ("initialize",),
    },
    R2: {
        "server": ("server-stateless", "tools-list"),
        "client": ("tools_call", "request-metadata"),
    },
}


def tier1_scorecard(
    *,
    failing: Mapping[tuple[str, Leg, str], str] | None = None,
    replace_legs: Mapping[tuple[str, Leg], LegVerdict] | None = None,
) -> Scorecard:
    """A clean Tier 1 SDK: every required scenario passes, every signal passes.

    `failing` makes (revision, leg, scenario) fail with that message, and `replace_legs` puts
    another verdict in place of a leg, both judged and merged by the real scorer (the tier is
    left as it is, as when a diff compares a regression with the clean run).
    """
    failing = failing or {}
    legs: dict[str, dict[Leg, LegVerdict]] = {}
    for rev, by_leg in TIER1_SCENARIOS.items():
        legs[rev] = {}
        for leg, names in by_leg.items():
            legs[rev][leg] = (replace_legs or {}).get((rev, leg)) or measured_leg(
                rev,
                leg,
                [
                    scenario(
                        n,
                        passed=False,
                        failing=[
                            check(f"{n}-check", failing[(rev, leg, n)], f"{SPEC}/server/tools")
                        ],
                    )
                    if (rev, leg, n) in failing
                    else scenario(n)
                    for n in names
                ],
            )
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
    return scorecard(legs=legs, signals=signals, tier=implied(1, []))


def skipped(revision: str, leg: Leg, reason: str) -> LegVerdict:
    """A leg the configuration chose not to run."""
    return skipped_leg(leg, revision, reason)


def edited(doc: Scorecard, change: Callable[[dict[str, Any]], object]) -> Scorecard:
    """`doc` with `change` applied to its JSON form, read back through the model (so an edit
    that breaks the document's shape fails here, not in the formatter under test)."""
    data = to_json(doc)
    change(data)
    return from_json(Scorecard, data)


def with_regression(revision: str, leg: Leg, name: str, message: str) -> Scorecard:
    """The Tier 1 scorecard in which one passing scored scenario now fails."""
    return tier1_scorecard(failing={(revision, leg, name): message})


def probe_entry(probe: str, outcome: str, level: str, summary: str, **more: object) -> ProbeEntry:
    return ProbeEntry(
        probe=probe,
        outcome=outcome,  # type: ignore[arg-type]
        level=level,  # type: ignore[arg-type]
        summary=summary,
        evidence=tuple(more.get("evidence", ())),  # type: ignore[arg-type]
        spec=str(more.get("spec", "a spec sentence")),
        fix=more.get("fix"),  # type: ignore[arg-type]
        duration_s=0.125,
        rounds=more.get("rounds"),  # type: ignore[arg-type]
    )


def probed_scorecard() -> Scorecard:
    """Tier 1's document with one pass, one warn, one fail and one skip at 2026-07-28."""
    doc = tier1_scorecard()
    block = ProbesBlock(
        url="http://127.0.0.1:40001/mcp",
        revision="2026-07-28",
        duration_s=1.5,
        results=(
            probe_entry(
                "cross-origin",
                "pass",
                "MUST",
                "a foreign Origin was refused with 403",
                evidence=[
                    "POST tools/list [Origin: http://evil.example] → HTTP 403 Invalid <Origin>"
                ],
            ),
            probe_entry(
                "tool-names",
                "warn",
                "SHOULD",
                "1 of 3 tool names break SEP-986: 'bad name'",
                spec="Tool names SHOULD be between 1 and 128 characters",
                fix="Rename the tools.",
            ),
            probe_entry(
                "notification-202",
                "fail",
                "MUST",
                "the notification got 200 with a body, not 202",
                evidence=['POST notifications/cancelled → HTTP 200 {"jsonrpc":"2.0"}'],
                spec="the server MUST return HTTP status code 202 Accepted with no body",
                fix="Answer 202 with an empty body.",
            ),
            probe_entry("request-state", "skip", "MUST", "no input-required fixture tool"),
        ),
    )
    revisions = dict(doc.revisions)
    revisions["2026-07-28"] = dataclasses.replace(revisions["2026-07-28"], probes=block)
    return dataclasses.replace(doc, revisions=revisions)


@functools.cache
def _shipped_sample_entry(registry: Path, requirements: Path) -> SdkEntry:
    """The sample SDK's entry of the registry file `registry`, with the revisions of the
    requirements folder `requirements`: read once per test process for each pair (reading
    known_sdks.yaml is most of making a `sample_scorecard`, which tests make many times)."""
    from tiercheck.config.registry import load_registry

    return load_registry(registry).get("sample-sdk")


@functools.cache
def _frozen_set(revision: str, path: Path) -> RequirementSet:
    """The requirement set of `revision` read from `path`, once per test process."""
    from tiercheck.config.requirements import load_requirement_set

    return load_requirement_set(revision, path)


def sample_scorecard(
    *,
    failing: Mapping[tuple[str, Leg, str], str] | None = None,
    fail_everything: str | None = None,
    warned: Mapping[tuple[str, Leg, str], int] | None = None,
    baselines: Mapping[str, tuple[str, Baseline]] | None = None,
    flags: Mapping[str, str] | ConfigFlags | None = None,
) -> Scorecard:
    """The sample SDK as a real run at both revisions measures it: every scenario of the frozen
    requirement sets (`tiercheck/_data/requirements/`), each passing (30 + 37 server, 18 + 32
    client, as examples/sample-sdk/README.md reports), every governance signal passing.

    `failing` makes (revision, leg, scenario) fail with that message; `fail_everything` makes
    every scenario fail with that message (and its name); `warned` adds WARNING checks. Each
    revision's configuration is the shipped known_sdks.yaml entry resolved through the real
    cascade, with `flags` on top (`{"--client-cmd": "./c"}`, or the `ConfigFlags` a parser gave).
    """
    from tiercheck.config.registry import default_registry_path
    from tiercheck.config.requirements import requirement_set_path
    from tiercheck.config.resolve import resolve
    from tiercheck.revisions import requirements_dir

    entry = _shipped_sample_entry(default_registry_path(), requirements_dir())
    given = flags if isinstance(flags, ConfigFlags) else ConfigFlags(flags)
    configs = {rev: resolve(entry, rev, environ={}, flags=given) for rev in (R1, R2)}

    failing = dict(failing or {})
    warned = dict(warned or {})
    legs: dict[str, dict[Leg, LegVerdict]] = {}
    for rev in (R1, R2):
        rset = _frozen_set(rev, requirement_set_path(rev))
        legs[rev] = {}
        for leg in ("server", "client"):
            names: tuple[str, ...] = rset.server if leg == "server" else rset.client
            scenarios = []
            for n in names:
                message = failing.get((rev, leg, n))
                checks = [check(f"{n}-check", message or "", f"{SPEC}/server/tools")]
                if fail_everything is not None:
                    # Four failing checks each, as a scenario whose fixture is missing fails.
                    checks = [
                        check(f"{n}-check-{k}", f"{fail_everything} ({n}, check {k})")
                        for k in range(4)
                    ]
                    message = fail_everything
                warnings = warned.get((rev, leg, n), 0)
                if message is None:
                    scenarios.append(scenario(n, warned=warnings))
                else:
                    scenarios.append(
                        scenario(n, passed=False, checks_passed=1, failing=checks, warned=warnings)
                    )
            legs[rev][leg] = measured_leg(rev, leg, scenarios)
    signals = {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("1.0.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(0, "1.0.0"),
    }
    any_failing = bool(failing) or fail_everything is not None
    # Tier 1 is blocked by each leg with a failing scenario (by hand: a leg at 100% passes).
    failing_legs = {leg for _, leg, _ in failing} if fail_everything is None else LEGS_BOTH
    blockers = [
        Blocker(f"{leg}_conformance", 1) for leg in ("server", "client") if leg in failing_legs
    ]
    tier = implied(2, blockers) if any_failing else implied(1, [])
    if fail_everything is not None:
        tier = implied(
            3,
            [Blocker("server_conformance", 1), Blocker("client_conformance", 1)],
            [
                Blocker("server_conformance", 2, qualifier="< 80%"),
                Blocker("client_conformance", 2, qualifier="< 80%"),
            ],
        )
    doc = scorecard(
        legs=legs,
        signals=signals,
        tier=tier,
        name="sample-sdk",
        harness_version="0.2.0-alpha.12",
        baselines=baselines,
        configs=configs,
        exit_code=1 if any_failing else 0,
    )
    return dataclasses.replace(doc, repo="tiercheck/sample-sdk")


def legs_scorecard(server: LegVerdict, client: LegVerdict, *, exit_code: int) -> Scorecard:
    """A registered SDK's scorecard with one revision's two legs as given and every signal
    passing: a leg not measured blocks Tier 1 and Tier 2 (kind: its state, with its reason), so
    the tier is 3."""
    blockers = [
        Blocker(f"{verdict.leg}_conformance", tier, verdict.state, reason=verdict.reason)
        for verdict in (server, client)
        if verdict.state != "measured"
        for tier in (1, 2)
    ]
    return scorecard(
        legs={R1: {"server": server, "client": client}},
        signals={
            "labels": labels(),
            "triage": triage(),
            "p0_resolution": p0(),
            "stable_release": release(),
            "policy_signals": policy(),
            "spec_tracking": spec_tracking(),
        },
        tier=implied(3, [b for b in blockers if b.tier == 1], [b for b in blockers if b.tier == 2]),
        exit_code=exit_code,
        sdk_fields={"registered": True},
    )


def nothing_measured_scorecard() -> Scorecard:
    """A run that measured nothing (exit code 3): both legs of a registered SDK skipped for want
    of a command."""
    return legs_scorecard(
        skipped(R1, "server", "no server command/url configured"),
        skipped(R1, "client", "no client command"),
        exit_code=3,
    )
