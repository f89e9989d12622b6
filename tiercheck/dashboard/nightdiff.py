"""Night against night (pure): each night's differences from the night before, per line.

A *night* is a UTC date on which some line ran. For each line that ran on it, the night's
state is the line's latest run that night, and it is compared with the line's latest run of
the night before that on which the line ran and measured something (its *previous night*: a
night that measured nothing is never one), by the one rule of `tiercheck.comparison.compare`:
scenarios added, removed, newly failing, fixed, newly unmeasured, measured again, newly scored,
no longer scored, newly disputed and with their dispute resolved, legs newly unmeasured or
measured again, and whether the line regressed by that rule. Under another harness version
the pair is *incomparable*: no scenario is compared (the legs' states still are), and the
entry says what changed in the basis.

`api/v1/nights/<night>.json` (`NightDiff`) is one night; `api/v1/nights.json` (`NightList`)
lists every night with its counts, newest first. A night's document depends only on the runs
up to that night (and on which nights come next, for the links), so a published night does not
change when later nights are added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from tiercheck.comparison import (
    RunScenarios,
    ScenarioChange,
    comparable,
    compare,
    starts_comparisons,
)
from tiercheck.dashboard.model import API_VERSION
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import RunRecord, run_key
from tiercheck.history.regression import NightState, basis_change, run_scenarios, timeline
from tiercheck.history.section import stamp
from tiercheck.model import doc_field

__all__ = [
    "KINDS",
    "NIGHTS_PAGE",
    "DiffEntry",
    "LegDiff",
    "LineNightDiff",
    "NightDiff",
    "NightList",
    "NightSummary",
    "build_nights",
    "night_page",
]

#: The scenario kinds a night lists, in the order it lists them (field names of
#: `LineNightDiff`).
KINDS = (
    "newly_failing",
    "fixed",
    "newly_unmeasured",
    "measured_again",
    "added",
    "removed",
    "newly_scored",
    "no_longer_scored",
    "newly_disputed",
    "dispute_resolved",
)


@dataclass(frozen=True, kw_only=True)
class DiffEntry:
    """One scenario that changed."""

    revision: str
    leg: str
    scenario: str
    before: str = doc_field(doc="its outcome the night before: passed, failed, absent, …")
    after: str = doc_field(doc="its outcome this night, in the same words")
    message: str | None = doc_field(doc="why it fails this night, when it does")


@dataclass(frozen=True, kw_only=True)
class LegDiff:
    """A leg measured one night and not the other."""

    revision: str
    leg: str
    before: str
    after: str
    reason: str | None = doc_field(doc="why this night left it unmeasured")


@dataclass(frozen=True, kw_only=True)
class LineNightDiff:
    """One line's night against its previous night."""

    line: str
    slug: str
    page: str = doc_field(doc="the line's page")
    run_id: str = doc_field(doc="the night's run (the line's latest that night)")
    timestamp: str
    previous_night: str | None = doc_field(doc="the line's previous night (null: its first)")
    previous_run: str | None
    comparable: bool = doc_field(
        doc="false: the two runs used different harness versions, so no scenario was compared"
    )
    basis_change: tuple[str, ...] = doc_field(
        doc="what changed in the harness or requirement sets between the two runs"
    )
    newly_failing: tuple[DiffEntry, ...] = doc_field(doc="scored in both: passed, then failed")
    fixed: tuple[DiffEntry, ...] = doc_field(doc="scored in both: failed, then passed")
    newly_unmeasured: tuple[DiffEntry, ...] = doc_field(
        doc="scored in both: a verdict, then unmeasured"
    )
    measured_again: tuple[DiffEntry, ...] = doc_field(
        doc="scored in both: unmeasured, then a verdict"
    )
    added: tuple[DiffEntry, ...] = doc_field(doc="listed this night only")
    removed: tuple[DiffEntry, ...] = doc_field(doc="listed the night before only")
    newly_scored: tuple[DiffEntry, ...]
    no_longer_scored: tuple[DiffEntry, ...]
    legs_newly_unmeasured: tuple[LegDiff, ...]
    legs_measured_again: tuple[LegDiff, ...]
    newly_disputed: tuple[DiffEntry, ...] = doc_field(
        default=(),
        optional=True,
        doc="scored in both: its dispute opened (left out of SEP-1730's reading)",
    )
    dispute_resolved: tuple[DiffEntry, ...] = doc_field(
        default=(), optional=True, doc="scored in both: its dispute closed (it counts again)"
    )
    regressed: bool = doc_field(
        default=False,
        optional=True,
        doc="the line's state after the night, as its page and the index say: a regression open "
        "(the history's reading of the one comparison rule)",
    )

    @property
    def changes(self) -> int:
        """How many scenarios and legs changed."""
        scenarios = sum(len(getattr(self, kind)) for kind in KINDS)
        return scenarios + len(self.legs_newly_unmeasured) + len(self.legs_measured_again)


@dataclass(frozen=True, kw_only=True)
class NightDiff:
    """One night against the night before (`api/v1/nights/<night>.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-night")

    api_version: int
    night: str = doc_field(doc="the UTC date")
    previous: str | None = doc_field(doc="the night before with a run of any line")
    next: str | None = doc_field(doc="the night after with a run of any line")
    lines: tuple[LineNightDiff, ...] = doc_field(doc="every line that ran this night, by name")
    absent: tuple[str, ...] = doc_field(doc="lines with runs that did not run this night")


@dataclass(frozen=True, kw_only=True)
class NightSummary:
    """One night in the list: where it is and how much changed."""

    night: str
    page: str
    data: str = doc_field(doc="its `NightDiff` document")
    lines: int = doc_field(doc="lines that ran")
    newly_failing: int
    fixed: int
    newly_unmeasured: int = doc_field(doc="scenarios and legs newly unmeasured")
    added: int
    removed: int
    incomparable: int = doc_field(doc="lines whose night could not be compared (harness)")


@dataclass(frozen=True, kw_only=True)
class NightList:
    """Every night (`api/v1/nights.json`), newest first."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-nights")

    api_version: int
    latest: str | None
    nights: tuple[NightSummary, ...]


#: The page listing every night.
NIGHTS_PAGE = "nights/index.html"


def night_page(night: str) -> str:
    """A night's page in the site."""
    return f"nights/{night}.html"


def _entry(c: ScenarioChange) -> DiffEntry:
    return DiffEntry(
        revision=c.revision,
        leg=c.leg,
        scenario=c.scenario,
        before=c.before,
        after=c.after,
        message=c.message,
    )


def _line_diff(
    line: str,
    run: RunRecord,
    previous: RunRecord | None,
    forms: tuple[RunScenarios, RunScenarios | None],
    *,
    regressed: bool,
) -> LineNightDiff:
    """`run` against `previous`; `forms` are the two in `compare`'s form (each run's made once);
    `regressed` is the line's state after `run` (`NightState.regressed`)."""
    slug = line_slug(line)
    kinds: dict[str, list[DiffEntry]] = {kind: [] for kind in KINDS}
    legs_unmeasured: list[LegDiff] = []
    legs_again: list[LegDiff] = []
    ok = True
    now, before = forms
    if previous is not None and before is not None:
        found = compare(before, now)
        ok = comparable(previous.harness_version, run.harness_version)
        for c in found.changes:
            kinds[c.kind.replace("-", "_")].append(_entry(c))
        legs_unmeasured = [
            LegDiff(revision=x.revision, leg=x.leg, before=x.before, after=x.after, reason=x.reason)
            for x in found.legs_newly_unmeasured
        ]
        legs_again = [
            LegDiff(revision=x.revision, leg=x.leg, before=x.before, after=x.after, reason=None)
            for x in found.legs_measured_again
        ]
    ordered = {
        kind: tuple(sorted(entries, key=lambda e: (e.revision, e.leg, e.scenario)))
        for kind, entries in kinds.items()
    }
    return LineNightDiff(
        line=line,
        slug=slug,
        page=f"lines/{slug}.html",
        run_id=run.run_id,
        timestamp=stamp(run),
        previous_night=previous.timestamp.date().isoformat() if previous else None,
        previous_run=previous.run_id if previous else None,
        comparable=ok,
        basis_change=basis_change(previous, run) if previous else (),
        newly_failing=ordered["newly_failing"],
        fixed=ordered["fixed"],
        newly_unmeasured=ordered["newly_unmeasured"],
        measured_again=ordered["measured_again"],
        added=ordered["added"],
        removed=ordered["removed"],
        newly_scored=ordered["newly_scored"],
        no_longer_scored=ordered["no_longer_scored"],
        legs_newly_unmeasured=tuple(legs_unmeasured),
        legs_measured_again=tuple(legs_again),
        newly_disputed=ordered["newly_disputed"],
        dispute_resolved=ordered["dispute_resolved"],
        regressed=regressed,
    )


def _summary(diff: NightDiff) -> NightSummary:
    def count(kind: str) -> int:
        return sum(len(getattr(x, kind)) for x in diff.lines)

    return NightSummary(
        night=diff.night,
        page=night_page(diff.night),
        data=f"api/v1/nights/{diff.night}.json",
        lines=len(diff.lines),
        newly_failing=count("newly_failing"),
        fixed=count("fixed"),
        newly_unmeasured=count("newly_unmeasured") + count("legs_newly_unmeasured"),
        added=count("added"),
        removed=count("removed"),
        incomparable=sum(not x.comparable for x in diff.lines),
    )


def build_nights(
    by_line: Mapping[str, Sequence[RunRecord]],
    *,
    timelines: Mapping[str, Sequence[NightState]] | None = None,
) -> tuple[NightList, dict[str, NightDiff]]:
    """Every night of every line's runs (`grid.runs_by_line`): the list and each night's
    document, by night. `timelines` is each line's `timeline` of those runs when the caller
    has it already (publish, from the dashboard's build); without it, it is worked out here."""
    # line → night → the line's latest run that night (runs are oldest first).
    nightly: dict[str, dict[date, RunRecord]] = {}
    for line, runs in by_line.items():
        for run in runs:
            nightly.setdefault(line, {})[run.timestamp.date()] = run
    nights = sorted({day for per in nightly.values() for day in per})
    # The line's state after each run, as its page and the index read it.
    if timelines is None:
        timelines = {line: timeline(runs) for line, runs in by_line.items()}
    states = {run_key(state.run): state for line in by_line for state in timelines[line]}
    diffs: dict[str, NightDiff] = {}
    previous_of: dict[str, RunRecord | None] = dict.fromkeys(nightly)
    form_of: dict[str, RunScenarios | None] = dict.fromkeys(nightly)
    for i, day in enumerate(nights):
        lines: list[LineNightDiff] = []
        absent: list[str] = []
        for line in sorted(nightly):
            found = nightly[line].get(day)
            if found is None:
                if previous_of[line] is not None:
                    absent.append(line)
                continue
            state = states[run_key(found)]
            form = state.form or run_scenarios(found)
            lines.append(
                _line_diff(
                    line,
                    found,
                    previous_of[line],
                    (form, form_of[line]),
                    regressed=state.regressed,
                )
            )
            if starts_comparisons(form):  # a night that measured nothing is no baseline
                previous_of[line], form_of[line] = found, form
        key = day.isoformat()
        diffs[key] = NightDiff(
            api_version=API_VERSION,
            night=key,
            previous=nights[i - 1].isoformat() if i > 0 else None,
            next=nights[i + 1].isoformat() if i + 1 < len(nights) else None,
            lines=tuple(lines),
            absent=tuple(absent),
        )
    listing = NightList(
        api_version=API_VERSION,
        latest=nights[-1].isoformat() if nights else None,
        nights=tuple(_summary(diffs[day.isoformat()]) for day in reversed(nights)),
    )
    return listing, diffs
