"""Comparing two scorecards: what regressed, what was fixed, and what else changed (pure).

Scenarios are compared per (revision, leg, scenario) over the per-revision legs, so the same
scenario at two revisions is two requirements, as it is in scoring, and by the one rule of
`tiercheck.comparison` that the claim, the matrix and the history follow too: a *regression*
is a scored scenario that passed and now fails, a tier drop (both runs judged their tier on
one basis) or a leg newly unmeasured, as that rule says. A scorecard that measured nothing has
no tier ("not assessed").
Scenarios in only one document are *added* or *removed*, counted only where the leg was
measured on both sides (a leg that changed state is reported as such instead); an added
scenario that fails is shown but is not a regression. Scorecards of two harness versions are
*incomparable*: no scenario is compared, and the context says which versions.
A *flaky* scenario (failed beside other work, passed by itself: `scoring.confirm_failure`)
counts as the pass it is scored as, so it is never a regression nor a fix; the diff lists
apart the scenarios flaky in the new document and not in the old, and the other way round.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from tiercheck.comparison import LegChange, ScenarioChange, compare
from tiercheck.plaintext import one_line
from tiercheck.render.badge import tier_text
from tiercheck.render.markdown import BLANK, Md, bullet, document, fmt, heading, own, text
from tiercheck.scorecard.compared import run_scenarios
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import flaky_summary, legs, short_sha

__all__ = [
    "ContextChange",
    "Diff",
    "FlakyChange",
    "LegChange",
    "ScenarioChange",
    "diff_scorecards",
    "diff_to_dict",
    "render_diff_markdown",
    "render_diff_terminal",
]


@dataclass(frozen=True)
class ContextChange:
    """A change in what was measured or with what, which may explain a difference."""

    field: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class FlakyChange:
    """A scored scenario flaky on one side only: what it was and is (passed, flaky, failed,
    unmeasured, absent), and how it failed beside other work on the side it was flaky."""

    revision: str
    leg: str
    scenario: str
    before: str
    after: str
    message: str


@dataclass(frozen=True)
class Diff:
    """Everything that differs between an old and a new scorecard."""

    old_label: str
    new_label: str
    #: None: that scorecard measured nothing, so it has no tier.
    old_tier: int | None
    new_tier: int | None
    regressions: tuple[ScenarioChange, ...]
    fixed: tuple[ScenarioChange, ...]
    added: tuple[ScenarioChange, ...]
    removed: tuple[ScenarioChange, ...]
    newly_unmeasured: tuple[LegChange, ...]
    newly_measured: tuple[LegChange, ...]
    blockers_added: tuple[str, ...]
    blockers_removed: tuple[str, ...]
    context: tuple[ContextChange, ...]
    #: Scored in the new document, not in the old (a failure among them is not a regression).
    newly_scored: tuple[ScenarioChange, ...] = ()
    no_longer_scored: tuple[ScenarioChange, ...] = ()
    #: Scored scenarios of legs measured on both sides, to or from unmeasured.
    newly_unmeasured_scenarios: tuple[ScenarioChange, ...] = ()
    measured_again_scenarios: tuple[ScenarioChange, ...] = ()
    #: The documents ran different harness versions: no scenario was compared.
    incomparable: bool = False
    #: Scored in both, its dispute opened or resolved in between.
    newly_disputed: tuple[ScenarioChange, ...] = ()
    dispute_resolved: tuple[ScenarioChange, ...] = ()
    #: The tier dropped, by the rule of `tiercheck.comparison`.
    tier_dropped: bool = False
    #: A newly failing scored scenario, a tier drop, or a leg newly unmeasured
    #: (`Comparison.regressed`).
    has_regression: bool = False
    #: Scored scenarios flaky in the new document and not in the old, and the other way round
    #: (each counted as passed where it is flaky: never a regression or a fix).
    newly_flaky: tuple[FlakyChange, ...] = ()
    no_longer_flaky: tuple[FlakyChange, ...] = ()

    @property
    def unchanged(self) -> bool:
        """True when nothing but the context (timestamps aside) differs."""
        return not (
            self.regressions
            or self.fixed
            or self.added
            or self.removed
            or self.newly_unmeasured
            or self.newly_measured
            or self.blockers_added
            or self.blockers_removed
            or self.old_tier != self.new_tier
            or self.newly_scored
            or self.no_longer_scored
            or self.newly_unmeasured_scenarios
            or self.measured_again_scenarios
            or self.newly_disputed
            or self.dispute_resolved
            or self.newly_flaky
            or self.no_longer_flaky
        )


def _label(doc: Scorecard) -> str:
    return f"{one_line(doc.repo)}@{short_sha(doc.sdk.commit)} ({doc.timestamp})"


def _context(old: Scorecard, new: Scorecard) -> tuple[ContextChange, ...]:
    def get(doc: Scorecard, path: str) -> str | None:
        value: Any = doc
        for part in path.split("."):
            value = getattr(value, part, None)
        if isinstance(value, tuple):
            return ", ".join(str(v) for v in value)
        return None if value is None else str(value)

    fields = (
        "sdk.commit",
        "sdk.ref",
        "harness.package",
        "harness.version",
        "harness.node_version",
        "requirements_revisions",
        "tiercheck.version",
        "governance.source",
    )
    changes = []
    for path in fields:
        before, after = get(old, path), get(new, path)
        if before != after:
            changes.append(ContextChange(path, before, after))
    return tuple(changes)


def _sorted(changes: Iterable[ScenarioChange]) -> tuple[ScenarioChange, ...]:
    return tuple(sorted(changes, key=lambda c: (c.revision, c.leg, c.scenario)))


def _results(doc: Scorecard) -> dict[tuple[str, str, str], ScenarioEntry]:
    """Each scored scenario by (revision, leg, scenario)."""
    return {
        (view.revision, view.leg, detail.scenario): detail
        for view in legs(doc)
        for detail in view.details
        if detail.scored
    }


def _flaky(old: Scorecard, new: Scorecard) -> tuple[list[FlakyChange], list[FlakyChange]]:
    """(newly flaky, no longer flaky): scored scenarios flaky on one side only. Incomparable
    documents (another harness) compare no scenario, so none."""
    before, after = _results(old), _results(new)

    def result(side: dict[tuple[str, str, str], ScenarioEntry], key: tuple[str, str, str]) -> str:
        return side[key].result if key in side else "absent"

    def change(key: tuple[str, str, str], flaky: ScenarioEntry) -> FlakyChange:
        revision, leg, scenario = key
        return FlakyChange(
            revision, leg, scenario, result(before, key), result(after, key), flaky_summary(flaky)
        )

    newly = [
        change(k, d) for k, d in sorted(after.items()) if d.flaky and result(before, k) != "flaky"
    ]
    gone = [
        change(k, d) for k, d in sorted(before.items()) if d.flaky and result(after, k) != "flaky"
    ]
    return newly, gone


def diff_scorecards(old: Scorecard, new: Scorecard) -> Diff:
    """What changed from the `old` scorecard document to the `new` one."""
    found = compare(run_scenarios(old), run_scenarios(new))

    def key(change: LegChange) -> tuple[str, str]:
        return (change.revision, change.leg)

    old_blockers, new_blockers = old.implied_tier.tier1_blockers, new.implied_tier.tier1_blockers
    newly_flaky, no_longer_flaky = ([], []) if found.incomparable else _flaky(old, new)
    return Diff(
        old_label=_label(old),
        new_label=_label(new),
        old_tier=found.tier_before,
        new_tier=found.tier_after,
        regressions=_sorted(found.newly_failing),
        fixed=_sorted(found.fixed),
        added=_sorted(found.added),
        removed=_sorted(found.removed),
        newly_unmeasured=tuple(sorted(found.legs_newly_unmeasured, key=key)),
        newly_measured=tuple(sorted(found.legs_measured_again, key=key)),
        blockers_added=tuple(b for b in new_blockers if b not in old_blockers),
        blockers_removed=tuple(b for b in old_blockers if b not in new_blockers),
        context=_context(old, new),
        newly_scored=_sorted(found.newly_scored),
        no_longer_scored=_sorted(found.no_longer_scored),
        newly_unmeasured_scenarios=_sorted(found.newly_unmeasured),
        measured_again_scenarios=_sorted(found.measured_again),
        incomparable=found.incomparable,
        newly_disputed=_sorted(found.newly_disputed),
        dispute_resolved=_sorted(found.dispute_resolved),
        tier_dropped=found.tier_dropped,
        has_regression=found.regressed,
        newly_flaky=tuple(newly_flaky),
        no_longer_flaky=tuple(no_longer_flaky),
    )


def _change_dict(change: ScenarioChange) -> dict[str, Any]:
    return {
        "revision": change.revision,
        "leg": change.leg,
        "scenario": change.scenario,
        "before": change.before,
        "after": change.after,
        "message": change.message,
    }


def diff_to_dict(diff: Diff) -> dict[str, Any]:
    """JSON form of a diff, with `has_regression` and `tier_dropped` spelled out."""
    out: dict[str, Any] = {}
    for name in (f.name for f in dataclasses.fields(diff)):
        value = getattr(diff, name)
        if isinstance(value, tuple) and value and isinstance(value[0], ScenarioChange):
            out[name] = [_change_dict(c) for c in value]
        elif isinstance(value, tuple):
            out[name] = [v if isinstance(v, str) else asdict(v) for v in value]
        else:
            out[name] = value
    return out


def _tier_line(diff: Diff) -> str:
    old, new = diff.old_tier, diff.new_tier
    if old == new:
        return f"{tier_text(new)} (unchanged)"
    if old is None or new is None:
        return f"{tier_text(old)} → {tier_text(new)} (nothing was measured)"
    if new < old:
        verb = "rose"
    elif diff.tier_dropped:
        verb = "dropped"
    else:
        verb = "lower, not a drop: a run did not judge its tier, or the basis changed"
    return f"Tier {old} → Tier {new} ({verb})"


def _scenario_line(change: ScenarioChange | FlakyChange, *, with_message: bool = True) -> str:
    text = f"{change.leg} {change.revision} {one_line(change.scenario)}: "
    text += f"{change.before} → {change.after}"
    if with_message and change.message:
        text += f" — {one_line(change.message)}"
    return text


def _sections(diff: Diff) -> Iterable[tuple[str, list[str]]]:
    yield "Regressions", [_scenario_line(c) for c in diff.regressions]
    yield (
        "Newly unmeasured legs",
        [
            f"{c.leg} {c.revision}: {c.before} → {c.after} — {c.reason}"
            for c in diff.newly_unmeasured
        ],
    )
    yield "Fixed", [_scenario_line(c) for c in diff.fixed]
    yield "Newly measured legs", [f"{c.leg} {c.revision}" for c in diff.newly_measured]
    yield "Added scenarios", [_scenario_line(c) for c in diff.added]
    yield "Removed scenarios", [_scenario_line(c, with_message=False) for c in diff.removed]
    yield "Newly scored scenarios", [_scenario_line(c) for c in diff.newly_scored]
    yield (
        "No longer scored",
        [_scenario_line(c, with_message=False) for c in diff.no_longer_scored],
    )
    yield "Newly unmeasured scenarios", [_scenario_line(c) for c in diff.newly_unmeasured_scenarios]
    yield "Measured again", [_scenario_line(c) for c in diff.measured_again_scenarios]
    yield (
        "Newly disputed (left out of SEP-1730's reading)",
        [_scenario_line(c) for c in diff.newly_disputed],
    )
    yield "Dispute resolved (counted again)", [_scenario_line(c) for c in diff.dispute_resolved]
    yield (
        "Newly flaky (counted as passed: failed beside other work, passed by itself)",
        [_scenario_line(c) for c in diff.newly_flaky],
    )
    yield "No longer flaky", [_scenario_line(c, with_message=False) for c in diff.no_longer_flaky]
    yield "New Tier 1 blockers", [one_line(b) for b in diff.blockers_added]
    yield "Cleared Tier 1 blockers", [one_line(b) for b in diff.blockers_removed]
    yield (
        "What else changed (may explain a difference)",
        [f"{c.field}: {c.before or '—'} → {c.after or '—'}" for c in diff.context],
    )


def _incomparable_line(diff: Diff) -> str | None:
    if not diff.incomparable:
        return None
    return "Another harness version: no scenario was compared (see what else changed)."


def render_diff_markdown(diff: Diff) -> str:
    """The diff as GitHub-flavoured Markdown (ends with a newline)."""
    verdict = own("❌ regression") if diff.has_regression else own("✅ no regression")
    lines: list[Md] = [
        heading(1, fmt("Scorecard diff: {}", _tier_line(diff))),
        BLANK,
        fmt("**Old:** {}  ", diff.old_label),
        fmt("**New:** {}  ", diff.new_label),
        fmt("**Verdict:** {}", verdict),
    ]
    incomparable = _incomparable_line(diff)
    if incomparable is not None:
        lines += [BLANK, text(incomparable)]
    for title, items in _sections(diff):
        if items:
            lines += [BLANK, heading(2, fmt("{} ({})", title, len(items))), BLANK]
            lines += [bullet(item) for item in items]
    if diff.unchanged and not diff.context:
        lines += [BLANK, own("No differences.")]
    return document(lines)


def render_diff_terminal(diff: Diff, color: bool) -> str:
    """The diff for a terminal; ANSI colour only when `color`."""
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=100,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        markup=False,
        emoji=False,
        _environ={},
    )
    style = "bold red" if diff.has_regression else "bold green"
    console.print(Text(_tier_line(diff), style=style))
    console.print(Text(f"old {diff.old_label}\nnew {diff.new_label}", style="dim"))
    incomparable = _incomparable_line(diff)
    if incomparable is not None:
        console.print(Text(incomparable, style="yellow"))
    styles = {"Regressions": "red", "Newly unmeasured legs": "magenta", "Fixed": "green"}
    for title, items in _sections(diff):
        if not items:
            continue
        console.print()
        console.print(Text(f"{title} ({len(items)})", style="bold"))
        for item in items:
            console.print(Text(f"  {item}", style=styles.get(title, "")))
    if diff.unchanged and not diff.context:
        console.print(Text("No differences.", style="green"))
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"
