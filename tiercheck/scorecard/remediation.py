"""What to do next: one action per blocker between the SDK and the next tier (pure).

Blockers are read as data (`implied_tier.blocker_details`: check, tier, kind, qualifier,
reason), never parsed out of their official strings. A Tier 1 and a Tier 2 blocker with the same
cause (``p0_resolution`` and ``p0_resolution (14 days)``) need one action, which then clears
both; `unblocks` counts the blockers it clears.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tiercheck.governance.signals import CHECKS
from tiercheck.plaintext import one_line
from tiercheck.scorecard.model import BlockerEntry, RemediationStep, ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import (
    LEG_CHECK_KEYS,
    LegView,
    failure_message,
    legs,
    measured_nothing,
    pct,
)

__all__ = [
    "NOTHING_MEASURED",
    "NOT_ASSESSED",
    "NotAssessed",
    "not_assessed",
    "nothing_measured",
    "remediation",
]

#: What every format shows where the tier would be when nothing was measured, and why.
NOT_ASSESSED = "not assessed"
NOTHING_MEASURED = "nothing was measured"

_LEG_OF = {f"{leg}_conformance": leg for leg in LEG_CHECK_KEYS}

# Among actions that clear as many blockers, measure first (a tier computed over missing
# evidence is a lower bound, and fixing a build may reveal or clear failures), then the
# conformance work that decides most tiers, then governance, quickest first.
_KIND_RANK = {"unmeasured": 0, "inconclusive": 1, "skipped": 2, "failed": 3}
_BASE_RANK = {
    "server_conformance": 0,
    "client_conformance": 1,
    **{check.name: check.rank for check in CHECKS},
}
_REMEDIATION = {check.name: check.remediation for check in CHECKS}


@dataclass
class _Action:
    """An action under construction (mutable while blockers are folded into it)."""

    first: BlockerEntry
    for_tier: int
    blockers: list[BlockerEntry] = field(default_factory=list)

    @property
    def base(self) -> str:
        return self.first.check

    @property
    def kind(self) -> str:
        return self.first.kind


def _qualifier(blocker: BlockerEntry) -> str:
    """What the blocker says beyond its check: the reason of an unmeasured or inconclusive one
    (as its official string shows it), else the rule's variant."""
    if blocker.kind == "unmeasured":
        return blocker.reason or "no reason recorded"
    if blocker.kind == "inconclusive":
        return blocker.reason or "no data"
    if blocker.kind == "skipped":
        return ""
    return blocker.qualifier or ""


def _scenario_item(revision: str, detail: ScenarioEntry) -> str:
    text = f"{revision} {one_line(detail.scenario)}: {failure_message(detail)}"
    urls = [c.spec_url for c in detail.failures if c.spec_url]
    if urls:
        text += f" ({one_line(urls[0])})"
    if detail.expected_failure:
        text += " [in the expected-failures baseline]"
    return text


def _not_conformance(doc: Scorecard, leg: str, views: list[LegView]) -> tuple[str, list[str]]:
    """The action for a leg unmeasured because it ran against no conformance server or client
    (`LegView.diagnosis`): add what the harness needs, never fix the failures it caused."""
    items = [f"{v.revision}: {v.reason}" for v in views]
    items += [
        f"{v.revision} harness output: {one_line(v.results_dir)}" for v in views if v.results_dir
    ]
    logs = doc.artifacts.logs
    items += [
        f"log: {one_line(logs[name])}"
        for name in sorted({f"{leg}-{v.revision}" for v in views})
        if name in logs
    ]
    if leg == "server":
        action = (
            "Point the server leg at the SDK's conformance server: add the tools, resources and "
            "prompts the harness's scenarios call, as its SDK integration guide says"
        )
    else:
        action = (
            "Point the client leg at the SDK's conformance client: a client that takes the "
            "server URL as its last argument and acts on MCP_CONFORMANCE_SCENARIO, as the "
            "harness's SDK integration guide says"
        )
    return action, items


def _conformance(doc: Scorecard, leg: str, kind: str, qualifier: str) -> tuple[str, list[str]]:
    views = [v for v in legs(doc) if v.leg == leg]
    failing = [(v.revision, d) for v in views for d in v.failing]
    failing_items = [_scenario_item(rev, d) for rev, d in failing]
    if kind == "unmeasured":
        unmeasured = [v for v in views if v.state == "unmeasured"]
        if unmeasured and all(v.diagnosis for v in unmeasured):
            return _not_conformance(doc, leg, unmeasured)
        items = [
            f"{v.revision}: {v.reason or 'no reason recorded'}"
            for v in views
            if v.state == "unmeasured"
        ] or [qualifier]
        build_failed = doc.build is not None and doc.build.state == "failed"
        if doc.build is not None and build_failed:
            reason = one_line(doc.build.reason or "see the build log")
            items.insert(0, f"build failed: {reason}")
        items += [
            f"{v.revision} harness output: {one_line(v.results_dir)}"
            for v in views
            if v.state == "unmeasured" and v.results_dir
        ]
        logs = doc.artifacts.logs
        wanted = {f"{leg}-{v.revision}" for v in views if v.state == "unmeasured"}
        if build_failed:
            wanted.add("build")
        items += [f"log: {one_line(logs[name])}" for name in sorted(wanted) if name in logs]
        items += failing_items
        return f"Make the {leg} leg measurable: fix the build or {leg} start-up first", items
    if kind == "skipped":
        items = [f"{v.revision}: {v.reason}" for v in views if v.state == "skipped" and v.reason]
        what = "server command and URL" if leg == "server" else "client command"
        if doc.sdk.registered is False:
            flags = "--server-cmd and --server-url" if leg == "server" else "--client-cmd"
            return (
                f"Configure a {what} so the {leg} leg runs: {one_line(doc.sdk.name)} is not in "
                f"the registry, so pass {flags}, or write its entry with `tier-check init` and "
                "pass --registry FILE",
                items,
            )
        return f"Configure a {what} in known_sdks.yaml so the {leg} leg runs", items
    rate = pct(doc.checks.merged(leg).pass_rate)
    count = len(failing)
    noun = "scenario" if count == 1 else "scenarios"
    goal = "80%" if qualifier.startswith("<") else "100%"
    action = f"Fix {count} failing required {leg} {noun} ({rate} passing, {goal} needed)"
    return action, failing_items


def _governance(doc: Scorecard, base: str, kind: str, qualifier: str) -> tuple[str, list[str]]:
    signal = doc.checks.signal(base)
    if kind == "skipped":
        reason = one_line(signal.reason or "governance was skipped")
        return f"Run the {base} check (skipped in this run: {reason})", []
    if kind == "inconclusive":
        return (
            f"Re-run {base} with GitHub access (it could not be measured)",
            [qualifier or one_line(signal.reason or "no data")],
        )
    if base == "labels":
        missing = [one_line(m) for m in signal.get("missing") or []]
        return f"Create the {len(missing)} missing triage labels", missing
    if base == "triage":
        total = signal.get("total_issues", 0)
        labelled = signal.get("triaged_within_sla", 0)
        items = [
            f"{labelled} of {total} open issues carry a label "
            f"({pct(signal.get('compliance_rate'))}; 90% needed)"
        ]
        if signal.get("exceeding_sla"):
            items.append(f"{signal.get('exceeding_sla')} unlabelled issues are older than 48 hours")
        return "Label the unlabelled open issues", items
    if base == "p0_resolution":
        items = [
            f"#{p.get('number')} {one_line(p.get('title'), 80)} (open {p.get('age_days')} days)"
            for p in signal.get("open_p0_details") or []
        ]
        closed = signal.get("closed_total", 0)
        slow = closed - signal.get("closed_within_7d", 0)
        if closed and slow > 0:
            # The official check clocks every P0 ever closed, so one old slow fix blocks for good.
            items.append(f"{slow} of {closed} closed P0s took longer than 7 days (all history)")
        return "Resolve the open P0 issues; Tier 1 needs every P0 closed within 7 days", items
    if base == "stable_release":
        version = signal.get("version")
        items = [f"newest release: {one_line(version)}" if version else "no release found"]
        return "Cut a stable release (1.0.0 or later, no pre-release suffix)", items
    if base == "spec_tracking":
        spec = one_line(signal.get("latest_spec_release") or "the latest spec release")
        items = [f"days since spec release {spec}: {signal.get('days_gap')} (30 allowed)"]
        if signal.get("latest_sdk_release"):
            items.append(f"latest SDK release: {one_line(signal.get('latest_sdk_release'))}")
        return f"Release an SDK version tracking spec release {spec}", items
    return _REMEDIATION.get(base, f"Resolve {base}"), [qualifier] if qualifier else []


def _render(doc: Scorecard, action: _Action) -> RemediationStep:
    qualifier = _qualifier(action.first)
    if action.base in _LEG_OF:
        text, items = _conformance(doc, _LEG_OF[action.base], action.kind, qualifier)
    else:
        text, items = _governance(doc, action.base, action.kind, qualifier)
    return RemediationStep(
        blocker=action.first.text,
        for_tier=action.for_tier,
        action=text,
        items=tuple(items),
        unblocks=len(action.blockers),
    )


def remediation(doc: Scorecard) -> tuple[RemediationStep, ...]:
    """The actions between this SDK and the next tier(s), most unblocking first.

    For each Tier 1 blocker — and, when the tier is 3, each Tier 2 blocker — one action: the
    failing scenarios with their first failing check and spec link, an unmeasured leg's reasons
    (fix the build or server first), a skipped leg's missing configuration, the missing labels by
    name, the open or slow P0s, the release to cut, the spec release to track. Blockers with the
    same cause share one action, whose `for_tier` is the lower tier it is needed for and whose
    `unblocks` counts the blockers it clears. Order: actions needed for the next tier first, then
    the most blockers cleared, then measurement before fixes, conformance before governance.
    The document's own `remediation`, if any, is ignored.
    """
    implied = doc.implied_tier
    tier = implied.tier
    details = implied.blocker_details
    wanted: list[BlockerEntry] = []
    if tier == 3:
        wanted += [b for b in details if b.tier == 2]
    if tier >= 2:
        wanted += [b for b in details if b.tier == 1]
    actions: dict[tuple[str, str], _Action] = {}
    for blocker in wanted:
        key = (blocker.check, blocker.kind)
        if key not in actions:
            actions[key] = _Action(blocker, blocker.tier)
        # The same unmeasured leg blocks both tiers under one name: it clears two blockers.
        actions[key].blockers.append(blocker)
    next_tier = tier - 1

    def order(action: _Action) -> tuple[int, int, int, int, str]:
        return (
            action.for_tier != next_tier,
            -len(action.blockers),
            _KIND_RANK.get(action.kind, 9),
            _BASE_RANK.get(action.base, 9),
            action.first.text,
        )

    return tuple(_render(doc, a) for a in sorted(actions.values(), key=order))


def _why_nothing(doc: Scorecard) -> tuple[str, tuple[str, ...]] | None:
    """(why no leg was measured, what to do: lines) when the run measured nothing
    (`readings.measured_nothing`); None otherwise."""
    if not measured_nothing(doc):
        return None
    states = [doc.checks.merged(leg).state for leg in LEG_CHECK_KEYS]
    name = one_line(doc.sdk.name)
    where = f"--sdk-path {one_line(doc.sdk.path)}" if doc.sdk.path else f"--sdk {name}"
    preview = f"`tier-check show-config {where}` (with the same flags) shows what would run"
    every_skipped = all(state == "skipped" for state in states)
    if every_skipped and doc.sdk.registered is False:
        return (
            f"{name} is not in the registry, so no leg has a command",
            (
                "configure it with flags: --server-cmd CMD (with {port}) and --server-url URL "
                "for the server legs, --client-cmd CMD for the client legs",
                "or write its registry entry with `tier-check init DIR --write FILE` and pass "
                "--registry FILE (added to the bundled registry)",
                preview,
            ),
        )
    if every_skipped:
        return (
            f"no leg of {name} has a command configured",
            (
                "set server.command, server.url and client.command in its registry entry, or "
                "pass --server-cmd, --server-url and --client-cmd",
                preview,
            ),
        )
    return "every leg was unmeasured or skipped", ()


def nothing_measured(doc: Scorecard) -> tuple[str, ...]:
    """Why a run measured no leg at all (its exit code 3), and what to do: lines for stderr.

    Empty when something was measured. An SDK that is not in the registry is told so, with the
    flags that configure it and the registry entry `tier-check init` writes; a registered one
    whose legs were all skipped is pointed at its configuration; otherwise the legs were
    unmeasured and the report says why.
    """
    found = _why_nothing(doc)
    if found is None:
        return ()
    why, todo = found
    if not todo:
        return (f"{NOTHING_MEASURED}: {why}; the report's 'What to do next' says why",)
    return (f"{NOTHING_MEASURED}: {why}", *todo)


@dataclass(frozen=True)
class NotAssessed:
    """A run that measured nothing, as every format shows it: `NOT_ASSESSED` where the tier
    would be (no tier stands on no evidence), then `reason` and `hint` beside it."""

    #: `nothing was measured: …`, the first line of `nothing_measured`.
    reason: str
    #: What to do first: the first thing `nothing_measured` says to do, else the first
    #: remediation step (an unmeasured leg's); None when there is neither.
    hint: str | None


def not_assessed(doc: Scorecard) -> NotAssessed | None:
    """The run's not-assessed state when it measured nothing (`readings.measured_nothing`), else
    None: the one reading every scorecard format takes instead of the tier."""
    found = _why_nothing(doc)
    if found is None:
        return None
    why, todo = found
    hint = todo[0] if todo else (doc.remediation[0].action if doc.remediation else None)
    return NotAssessed(reason=f"{NOTHING_MEASURED}: {why}", hint=hint)
