"""Run the pinned official `tier-check` and ours on the same fake GitHub, and compare them.

The official side is the unmodified alpha.12 bundle (`dist/index.js` of the cached harness) run
by the harness's Node 22 as ``tier-check --repo R --skip-conformance --output json``, with
`official/preload.mjs`: it points the bundle's Octokit at our fake and fixes its clock at the
case's as-of. One Node process runs the bundle for many cases, one after the other, each a
fresh evaluation of the bundle's module (`official/each.mjs`); loading Node and the bundle's
dependencies, most of a run, is paid once. The bundle's tier function is also asked about both
legs at 100% (`official/tier.mjs`, which evaluates that function's own source from the bundle).

Our side is ``tier-check governance --repo R --as-of T --output json`` on the same fake
(in-process, through the command's own entry point), and `tier.compute_tier` on its signals.

`compare` lists every disagreement: a check's status, any official field, the implied tier with
the legs skipped and with both legs at 100%. Run this file as a script to print the agreement
table over every case (``PYTHONPATH=tests .venv/bin/python -m support.official_governance``),
or with ``--dump KEY…`` to print the bundle's own answers for those cases.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.fake_github import FakeGitHub
from support.governance_datasets import Case, all_cases, iso
from tiercheck import process
from tiercheck.conformance.harness import Harness
from tiercheck.document_formats import GOVERNANCE_FORMATS

OFFICIAL = Path(__file__).resolve().parent / "official"
TOKEN = "ghp_differential_fake_token_0123456789"
CHECKS = ("labels", "triage", "p0_resolution", "stable_release", "policy_signals", "spec_tracking")

__all__ = ["CHECKS", "Outcome", "agreement_table", "compare", "run_all"]


@dataclass(frozen=True)
class Outcome:
    """What both tools said about one case."""

    case: Case
    official: dict[str, Any]  # the bundle's JSON: checks, implied_tier
    official_full: dict[str, Any]  # the bundle's tier function with both legs at 100%
    ours: dict[str, Any]  # `tier-check governance --output json`
    ours_tier: dict[str, Any]  # legs skipped
    ours_tier_full: dict[str, Any]  # both legs measured at 100%


def _official_argv(case: Case) -> list[str]:
    """What follows `node BUNDLE` for `case`: `tier-check --skip-conformance --output json`."""
    argv = [
        "tier-check",
        "--repo",
        case.dataset.repo,
        "--skip-conformance",
        "--output",
        "json",
        "--token",
        TOKEN,
    ]
    if case.days is not None:
        argv += ["--days", str(case.days)]
    return argv


def run_official(harness: Harness, cases: Sequence[tuple[str, Case]]) -> list[dict[str, Any]]:
    """The bundle's `tier-check --skip-conformance --output json` for each (fake API, case),
    one after the other in one Node process (`official/each.mjs`)."""
    lines = [
        json.dumps({"argv": _official_argv(case), "api": api, "now": iso(case.as_of)})
        for api, case in cases
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "NO_COLOR": "1",
    }
    argv = [str(harness.node), str(OFFICIAL / "each.mjs"), str(harness.cli_js), handle.name]
    try:
        result = process.capture(argv, env=env, timeout_s=60 + 10 * len(lines))
    finally:
        Path(handle.name).unlink()
    if result.returncode != 0:
        msg = f"official/each.mjs exited {result.returncode}: {result.stderr[-800:]}"
        raise RuntimeError(msg)
    answers: list[dict[str, Any]] = json.loads(result.stdout)
    assert len(answers) == len(cases), f"{len(answers)} answers for {len(cases)} cases"
    documents = []
    for (_, case), answer in zip(cases, answers, strict=True):
        if answer["code"] != 0:
            msg = (
                f"{case.key}: the official bundle exited {answer['code']}: "
                f"{answer['stderr'][-800:]}"
            )
            raise RuntimeError(msg)
        document: dict[str, Any] = json.loads(answer["stdout"])
        documents.append(document)
    return documents


def official_tiers_at_full(harness: Harness, checks: Sequence[dict[str, Any]]) -> list[Any]:
    """The bundle's tier function over each `checks`, with both conformance legs at 100%."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(list(checks), handle)
    try:
        argv = [
            "sh",
            "-c",
            'exec "$0" "$1" "$2" < "$3"',
            str(harness.node),
            str(OFFICIAL / "tier.mjs"),
            str(harness.cli_js),
            handle.name,
        ]
        result = process.capture(argv, env={"PATH": os.environ.get("PATH", "")}, timeout_s=120)
    finally:
        Path(handle.name).unlink()
    if result.returncode != 0:
        msg = f"tier.mjs failed: {result.stderr[-800:]}"
        raise RuntimeError(msg)
    answers: list[Any] = json.loads(result.stdout)
    return answers


def run_ours(api: str, case: Case, cache: Path) -> tuple[dict[str, Any], Any]:
    """`tier-check governance --output json` on the fake, and the signals it judged."""
    from tiercheck.cli import governance as command

    argv = [
        "--repo",
        case.dataset.repo,
        "--as-of",
        iso(case.as_of),
        "--github-api-url",
        api,
        "--token",
        TOKEN,
        "--cache-dir",
        str(cache),
        "--output",
        "json",
    ]
    if case.days is not None:
        argv += ["--days", str(case.days)]
    args = command.governance_parser("tier-check governance").parse_args(argv)
    run = command.evaluate(args)
    # What the command prints, rendered in this thread (the command itself writes to stdout).
    printed = GOVERNANCE_FORMATS.get("json").render(command.governance_document(args), False)
    document: dict[str, Any] = json.loads(printed)
    return document, run.signals


def _tier(tier: Any) -> dict[str, Any]:
    return {
        "tier": tier.tier,
        "tier1_blockers": [str(b) for b in tier.tier1_blockers],
        "tier2_met": tier.tier2_met,
    }


def run_all(
    harness: Harness, cases: Iterable[Case], cache: Path, workers: int = 2
) -> list[Outcome]:
    """Both tools over every case, on one fake GitHub; the bundle in `workers` Node processes
    at a time, each running its share of the cases one after the other, while ours runs here."""
    from tiercheck.ghapi import Transport, transport
    from tiercheck.tier import LegSummary, compute_tier

    transport.DEFAULT = Transport(throttle=None)  # no politeness delay against our own fake
    cases = list(cases)
    fake = FakeGitHub().start()
    try:
        apis = {case.key: fake.add(case.key, case.dataset) for case in cases}
        count = max(workers, 1)
        shares = [[(apis[c.key], c) for c in cases[i::count]] for i in range(count)]
        shares = [share for share in shares if share]
        with ThreadPoolExecutor(max_workers=len(shares) or 1) as pool:
            running = [pool.submit(run_official, harness, share) for share in shares]
            mine = [run_ours(apis[case.key], case, cache / case.key) for case in cases]
            answered: dict[str, dict[str, Any]] = {}
            for share, future in zip(shares, running, strict=True):
                for (_, case), document in zip(share, future.result(), strict=True):
                    answered[case.key] = document
    finally:
        fake.stop()
    results = [(answered[case.key], *ours) for case, ours in zip(cases, mine, strict=True)]
    full = official_tiers_at_full(harness, [official["checks"] for official, _, _ in results])
    skipped = LegSummary("skipped", reason="--skip-conformance")
    measured = LegSummary("measured", pass_rate=1.0)
    return [
        Outcome(
            case=case,
            official=official,
            official_full=full_tier,
            ours=ours,
            ours_tier=_tier(compute_tier(skipped, skipped, signals)),
            ours_tier_full=_tier(compute_tier(measured, measured, signals)),
        )
        for case, (official, ours, signals), full_tier in zip(cases, results, full, strict=True)
    ]


def compare(outcome: Outcome) -> list[str]:
    """Every disagreement of one case, one line each (empty when the tools agree)."""
    problems = []
    key = outcome.case.key
    for check in CHECKS:
        theirs = outcome.official["checks"][check]
        ours = outcome.ours["checks"][check]
        # JSON.stringify drops an undefined `days_analyzed` (no --days); ours writes null.
        names = [*theirs, *(["days_analyzed"] if check == "triage" else [])]
        for name in dict.fromkeys(names):
            if ours.get(name) != theirs.get(name):
                problems.append(
                    f"{key}: {check}.{name}: official {theirs.get(name)!r}, ours {ours.get(name)!r}"
                )
    printed = {k: outcome.ours["implied_tier"][k] for k in ("tier", "tier1_blockers", "tier2_met")}
    if printed != outcome.official_full:
        problems.append(
            f"{key}: printed implied_tier: official {outcome.official_full}, ours {printed}"
        )
    official_tier = {
        k: outcome.official["implied_tier"][k] for k in ("tier", "tier1_blockers", "tier2_met")
    }
    if official_tier != outcome.ours_tier:
        problems.append(
            f"{key}: implied tier (legs skipped): official {official_tier}, "
            f"ours {outcome.ours_tier}"
        )
    if outcome.official_full != outcome.ours_tier_full:
        problems.append(
            f"{key}: implied tier (legs at 100%): official {outcome.official_full}, "
            f"ours {outcome.ours_tier_full}"
        )
    return problems


def agreement_table(outcomes: Sequence[Outcome]) -> str:
    """Per check: statuses and official fields that agree; then the implied tiers."""
    lines = [f"{'check':<16} {'status agrees':>16} {'official fields agree':>24}"]
    for check in CHECKS:
        statuses = sum(
            o.official["checks"][check]["status"] == o.ours["checks"][check]["status"]
            for o in outcomes
        )
        cells = agree = 0
        for o in outcomes:
            for name, value in o.official["checks"][check].items():
                cells += 1
                agree += o.ours["checks"][check].get(name) == value
        lines.append(f"{check:<16} {statuses:>9}/{len(outcomes):<6} {agree:>15}/{cells:<8}")
    skipped = sum(
        {k: o.official["implied_tier"][k] for k in ("tier", "tier1_blockers", "tier2_met")}
        == o.ours_tier
        for o in outcomes
    )
    full = sum(o.official_full == o.ours_tier_full for o in outcomes)
    tiers = sum(o.official["implied_tier"]["tier"] == o.ours_tier["tier"] for o in outcomes)
    lines.append(f"implied tier number (legs skipped): {tiers}/{len(outcomes)}")
    lines.append(f"implied tier + blockers (legs skipped): {skipped}/{len(outcomes)}")
    lines.append(f"implied tier + blockers (legs at 100%): {full}/{len(outcomes)}")
    kinds = {o.case.kind for o in outcomes}
    counts = ", ".join(f"{sum(o.case.kind == k for o in outcomes)} {k}" for k in sorted(kinds))
    lines.append(f"datasets: {len(outcomes)} ({counts})")
    return "\n".join(lines)


def _main(argv: Sequence[str]) -> int:
    import tempfile

    from tiercheck.conformance.harness import provision
    from tiercheck.paths import default_cache_dir

    cache = Path(os.environ.get("TIERCHECK_CACHE") or default_cache_dir())
    harness = provision(cache)
    cases = all_cases()
    if argv[:1] == ["--dump"]:
        # The bundle's own answers for the named cases, for unit tests' expected values.
        cases = [case for case in cases if case.key in argv[1:]]
    with tempfile.TemporaryDirectory() as scratch:
        outcomes = run_all(harness, cases, Path(scratch))
    if argv[:1] == ["--dump"]:
        dump = {
            o.case.key: {**o.official["checks"], "tier_at_100": o.official_full} for o in outcomes
        }
        print(json.dumps(dump, indent=1))
        return 0
    print(agreement_table(outcomes))
    for outcome in outcomes:
        for line in compare(outcome):
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
