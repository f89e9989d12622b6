"""Comparing two scorecards: what regressed, what was fixed, and what else changed (pure).

Scenarios are compared per (revision, leg, scenario) over the per-revision legs, so the same
scenario at two revisions is two requirements, as it is in scoring. A *regression* is a
scenario present in both documents that is scored and failing in the new one but passed (or
was not scored) in the old one. Scenarios in only one document are *added* or *removed*,
counted only where the leg was measured on both sides (a leg that changed state is reported
as such instead). An added scenario that fails is shown but is not a regression: it usually
comes with a harness or requirement-set change, which the diff reports as context.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from tiercheck.plaintext import one_line
from tiercheck.report.untrusted_md import text
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.view import failure_message, legs, short_sha

__all__ = [
    "ContextChange",
    "Diff",
    "LegChange",
    "ScenarioChange",
    "diff_scorecards",
    "diff_to_dict",
    "render_diff_markdown",
    "render_diff_terminal",
]

_Key = tuple[str, str, str]


@dataclass(frozen=True)
class ScenarioChange:
    """One scenario whose result changed (or that appeared or disappeared).

    `before`/`after` are ``passed``, ``failed``, ``not scored: passed``, ``not scored: failed``
    or ``absent``; `message` is the new failure's first failing check, when it fails.
    """

    revision: str
    leg: str
    scenario: str
    before: str
    after: str
    message: str | None = None


@dataclass(frozen=True)
class LegChange:
    """A leg whose measurement state changed (measured → unmeasured, say)."""

    revision: str
    leg: str
    before: str
    after: str
    reason: str | None = None


@dataclass(frozen=True)
class ContextChange:
    """A change in what was measured or with what, which may explain a difference."""

    field: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class Diff:
    """Everything that differs between an old and a new scorecard."""

    old_label: str
    new_label: str
    old_tier: int
    new_tier: int
    regressions: tuple[ScenarioChange, ...]
    fixed: tuple[ScenarioChange, ...]
    added: tuple[ScenarioChange, ...]
    removed: tuple[ScenarioChange, ...]
    newly_unmeasured: tuple[LegChange, ...]
    newly_measured: tuple[LegChange, ...]
    blockers_added: tuple[str, ...]
    blockers_removed: tuple[str, ...]
    context: tuple[ContextChange, ...]

    @property
    def tier_dropped(self) -> bool:
        """True when the new tier is worse (a higher number) than the old."""
        return self.new_tier > self.old_tier

    @property
    def has_regression(self) -> bool:
        """A newly failing scored scenario, a tier drop, or a leg newly unmeasured."""
        return bool(self.regressions or self.tier_dropped or self.newly_unmeasured)

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
        )


def _outcome(detail: ScenarioEntry) -> str:
    result = "unmeasured" if not detail.measured else "passed" if detail.passed else "failed"
    return result if detail.scored else f"not scored: {result}"


def _scenarios(doc: Scorecard) -> dict[_Key, ScenarioEntry]:
    return {
        (view.revision, view.leg, detail.scenario): detail
        for view in legs(doc)
        for detail in view.details
    }


def _leg_states(doc: Scorecard) -> dict[tuple[str, str], tuple[str, str]]:
    return {(v.revision, v.leg): (v.state, v.reason) for v in legs(doc)}


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


def _leg_unmeasured(state: str) -> bool:
    return state in ("unmeasured", "partially-measured")


def diff_scorecards(old: Scorecard, new: Scorecard) -> Diff:
    """What changed from the `old` scorecard document to the `new` one."""
    before, after = _scenarios(old), _scenarios(new)
    old_legs, new_legs = _leg_states(old), _leg_states(new)

    def both_measured(revision: str, leg: str) -> bool:
        # A leg that was not measured on one side has no scenarios there; listing all of its
        # scenarios as added or removed would bury the one line that matters (the leg change).
        sides = (old_legs.get((revision, leg)), new_legs.get((revision, leg)))
        return all(side is not None and side[0] == "measured" for side in sides)

    regressions: list[ScenarioChange] = []
    fixed: list[ScenarioChange] = []
    added: list[ScenarioChange] = []
    removed: list[ScenarioChange] = []
    for key in sorted(before.keys() | after.keys()):
        revision, leg, name = key
        old_detail, new_detail = before.get(key), after.get(key)
        if (old_detail is None or new_detail is None) and not both_measured(revision, leg):
            continue
        if old_detail is None and new_detail is not None:
            message = None if new_detail.passed else failure_message(new_detail)
            added.append(
                ScenarioChange(revision, leg, name, "absent", _outcome(new_detail), message)
            )
        elif new_detail is None and old_detail is not None:
            removed.append(ScenarioChange(revision, leg, name, _outcome(old_detail), "absent"))
        elif old_detail is not None and new_detail is not None:
            was, now = _outcome(old_detail), _outcome(new_detail)
            if now == "failed" and was != "failed":
                change = ScenarioChange(revision, leg, name, was, now, failure_message(new_detail))
                regressions.append(change)
            elif was == "failed" and now != "failed":
                fixed.append(ScenarioChange(revision, leg, name, was, now))
    newly_unmeasured: list[LegChange] = []
    newly_measured: list[LegChange] = []
    for revision, leg in sorted(old_legs.keys() | new_legs.keys()):
        was_state = old_legs.get((revision, leg), ("absent", ""))[0]
        now_state, now_reason = new_legs.get((revision, leg), ("absent", ""))
        if _leg_unmeasured(now_state) and not _leg_unmeasured(was_state):
            newly_unmeasured.append(
                LegChange(revision, leg, was_state, now_state, now_reason or None)
            )
        elif _leg_unmeasured(was_state) and now_state == "measured":
            newly_measured.append(LegChange(revision, leg, was_state, now_state))
    old_tier, new_tier = old.implied_tier, new.implied_tier
    old_blockers, new_blockers = old_tier.tier1_blockers, new_tier.tier1_blockers
    return Diff(
        old_label=_label(old),
        new_label=_label(new),
        old_tier=old_tier.tier,
        new_tier=new_tier.tier,
        regressions=tuple(regressions),
        fixed=tuple(fixed),
        added=tuple(added),
        removed=tuple(removed),
        newly_unmeasured=tuple(newly_unmeasured),
        newly_measured=tuple(newly_measured),
        blockers_added=tuple(b for b in new_blockers if b not in old_blockers),
        blockers_removed=tuple(b for b in old_blockers if b not in new_blockers),
        context=_context(old, new),
    )


def diff_to_dict(diff: Diff) -> dict[str, Any]:
    """JSON form of a diff, with `has_regression` and `tier_dropped` spelled out."""
    out = asdict(diff)
    out["has_regression"] = diff.has_regression
    out["tier_dropped"] = diff.tier_dropped
    return out


def _tier_line(diff: Diff) -> str:
    if diff.old_tier == diff.new_tier:
        return f"Tier {diff.new_tier} (unchanged)"
    verb = "dropped" if diff.tier_dropped else "rose"
    return f"Tier {diff.old_tier} → Tier {diff.new_tier} ({verb})"


def _scenario_line(change: ScenarioChange, *, with_message: bool = True) -> str:
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
    yield "New Tier 1 blockers", [one_line(b) for b in diff.blockers_added]
    yield "Cleared Tier 1 blockers", [one_line(b) for b in diff.blockers_removed]
    yield (
        "What else changed (may explain a difference)",
        [f"{c.field}: {c.before or '—'} → {c.after or '—'}" for c in diff.context],
    )


def render_diff_markdown(diff: Diff) -> str:
    """The diff as GitHub-flavoured Markdown (ends with a newline)."""
    verdict = "❌ regression" if diff.has_regression else "✅ no regression"
    lines = [
        f"# Scorecard diff: {_tier_line(diff)}",
        "",
        f"**Old:** {text(diff.old_label)}  ",
        f"**New:** {text(diff.new_label)}  ",
        f"**Verdict:** {verdict}",
    ]
    for title, items in _sections(diff):
        if items:
            lines += ["", f"## {title} ({len(items)})", ""]
            lines += [f"- {text(item)}" for item in items]
    if diff.unchanged and not diff.context:
        lines += ["", "No differences."]
    return "\n".join(lines) + "\n"


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
