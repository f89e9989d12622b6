"""One run as the history keeps it, read from a typed scorecard (pure).

The same function reads a scorecard just produced and one loaded from a saved folder
(`tier-check history import`), so both fill the history with the same rows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

from tiercheck.model import doc_field
from tiercheck.plaintext import NAME_CHARS, TEXT_CHARS, cut
from tiercheck.revisions import LEGS
from tiercheck.scorecard.compared import GOVERNANCE_SIGNALS
from tiercheck.scorecard.model import ScenarioEntry, Scorecard, SignalEntry
from tiercheck.scorecard.readings import measured_nothing
from tiercheck.target import STABLE_REF

__all__ = [
    "EARLIEST",
    "LATEST",
    "MAX_COUNT",
    "SERIES",
    "DisputeRecord",
    "LegRow",
    "RunRecord",
    "ScenarioRow",
    "Series",
    "UnaddressedRecord",
    "UnaddressedStatus",
    "bounded",
    "config_digest",
    "line_of",
    "parse_time",
    "record_of",
    "record_problem",
    "run_key",
    "series_line",
    "series_of",
    "signals_digest",
    "text_problem",
    "unaddressed_record",
]

#: The moments a run may be recorded at: far around any night tiercheck runs, and far inside
#: the calendar, so every date the history computes from a run (a streak's due date, `--since`)
#: stays on it.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)
#: The largest tier or count the history stores: SQLite's INTEGER is a signed 64-bit one.
MAX_COUNT = 2**63 - 1
#: The schema of a name and of a message or reason the history keeps (`bounded`).
NAME = {"maxLength": NAME_CHARS}
TEXT = {"maxLength": TEXT_CHARS}


@dataclass(frozen=True)
class LegRow:
    """One leg at one revision: measured or not (and why not), and its scored result.

    The row of the history database and the line of a data folder's run file alike."""

    revision: str
    leg: str
    state: str = doc_field(doc="measured, unmeasured or skipped")
    reason: str | None = doc_field(doc="why the leg is unmeasured or skipped", schema=TEXT)
    pass_rate: float = doc_field(doc="scored scenarios passed / scored scenarios")
    # Declared like the described fields before them (still required, still positional).
    passed: int = doc_field()
    total: int = doc_field()


@dataclass(frozen=True)
class DisputeRecord:
    """A scenario's dispute in the conformance repository as one run judged it: the scorecard's
    `dispute`, kept with the run so every later view reads that day's state, never today's."""

    state: Literal["open", "resolved"] = doc_field(
        doc="open: left out of SEP-1730's reading that day; resolved: it counted again"
    )
    issue: str = doc_field(doc="the dispute's issue URL (validated when the disputes file loads)")


@dataclass(frozen=True)
class ScenarioRow:
    """One scenario of a measured leg: its verdict, whether it is scored, the first failure.

    The row of the history database and the line of a data folder's run file alike."""

    revision: str
    leg: str
    scenario: str = doc_field(schema=NAME)
    passed: bool = doc_field()
    scored: bool = doc_field(doc="counted by the requirement set (not an extension or pending)")
    check: str | None = doc_field(doc="the first failing check's id", schema=NAME)
    message: str | None = doc_field(doc="the first failing check's message", schema=TEXT)
    dispute: DisputeRecord | None = doc_field(
        default=None,
        omit_none=True,
        doc="the scenario's dispute on the run's governance day (absent: none, or a run "
        "recorded before disputes were)",
    )
    expected: bool | None = doc_field(
        default=None,
        omit_none=True,
        doc="true: a failure the run's expected-failures baseline lists (absent: not listed)",
    )
    unmeasured: bool | None = doc_field(
        default=None,
        omit_none=True,
        doc="true: its leg was measured but this scenario's answer was not (no readable "
        "checks.json); neither passed nor failed (absent: measured)",
    )
    flaky: bool | None = doc_field(
        default=None,
        omit_none=True,
        doc="true: it failed beside other work and passed when run again by itself in this "
        "run, counted as passed; one flip of the flaky view (absent: not so)",
    )

    @property
    def outcome(self) -> Literal["passed", "failed", "unmeasured"]:
        """passed, failed, or unmeasured (neither)."""
        return "unmeasured" if self.unmeasured else "passed" if self.passed else "failed"

    @property
    def disputed(self) -> bool:
        """Left out of SEP-1730's reading: its dispute was open on the run's governance day."""
        return self.dispute is not None and self.dispute.state == "open"

    @property
    def counts(self) -> bool:
        """Counted by SEP-1730's reading: scored, and not disputed that day."""
        return self.scored and not self.disputed


#: How a run judged SEP-1730's "issues unaddressed for two months": pass (none), fail (some),
#: inconclusive (the issues or their timelines could not be read) or skipped.
UnaddressedStatus = Literal["pass", "fail", "inconclusive", "skipped"]
#: How long a title the history keeps (the oldest issue's): a name's bound.
TITLE_CHARS = NAME_CHARS


@dataclass(frozen=True)
class UnaddressedRecord:
    """SEP-1730's "issues unaddressed for two months" as one run judged it (the scorecard's
    `checks.unaddressed_issues`): the row of the history database and the object of a data
    folder's run file alike. A run without one did not record it (not "none")."""

    status: UnaddressedStatus = doc_field(
        doc="pass: none; fail: some issues unaddressed for two months; inconclusive; skipped"
    )
    reason: str | None = doc_field(doc="why it is inconclusive or skipped", schema=TEXT)
    days: int = doc_field(doc="two months, in days: the age an unaddressed issue has reached")
    total: int = doc_field(doc="open issues unaddressed for `days` or more (exact)")
    oldest_number: int | None = doc_field(doc="the oldest such issue's number")
    oldest_title: str | None = doc_field(
        doc="its title, from GitHub (untrusted), cut short", schema=NAME
    )
    oldest_age_days: int | None = doc_field(doc="its age in whole days at the run's as-of")


@dataclass(frozen=True)
class RunRecord:
    """Everything the history stores of one run."""

    run_id: str
    timestamp: datetime
    sdk: str
    repo: str
    ref: str | None
    commit: str | None
    tiercheck_version: str
    harness_version: str | None
    node_version: str | None
    revisions: tuple[str, ...]
    config_digest: str
    tier: int
    blockers: tuple[str, ...]
    governance_digest: str
    signals: Mapping[str, str]
    interrupted: bool
    legs: tuple[LegRow, ...]
    scenarios: tuple[ScenarioRow, ...]
    #: The digest of the requirement sets the run was scored against; None when unknown (a
    #: scorecard older than the field). Runs are compared only under the same one.
    requirements_digest: str | None = None
    #: SEP-1730's issues unaddressed for two months as the run judged them; None when the run
    #: did not record it (a scorecard, database row or data file older than the record).
    unaddressed: UnaddressedRecord | None = None
    #: SEP-1730's tier as the run read it (disputed scenarios left out); None when the run
    #: did not record it (a scorecard, row or file older than the field).
    sep_tier: int | None = None
    #: The run measured no leg at all (its exit code 3): it has no tier, and no comparison
    #: ever starts from it. Its `tier` is what the scorecard wrote and is never shown.
    nothing_measured: bool = False
    #: Scenario → the digest of its definition in the harness that ran it (the scorecard's
    #: `harness.definitions`): what says which scenarios a referee change changed. None when
    #: the run did not record it (a scorecard, row or file older than the field).
    definitions: Mapping[str, str] | None = field(default=None, hash=False)

    def leg(self, revision: str, leg: str) -> LegRow | None:
        """The leg row of (revision, leg), if the run planned it."""
        return next((r for r in self.legs if r.revision == revision and r.leg == leg), None)

    @property
    def series(self) -> Series:
        """`stable` for a run of the ref `stable`, else `branch` (`series_of`)."""
        return series_of(self.ref)

    @property
    def assessed(self) -> bool:
        """The run measured something, so it has a tier and may be a comparison's baseline."""
        return not self.nothing_measured

    @property
    def assessed_tier(self) -> int | None:
        """The run's implied tier; None when it measured nothing (that tier rests on nothing,
        and no view shows it)."""
        return self.tier if self.assessed else None

    @property
    def all_measured(self) -> bool:
        """Whether every leg the run planned was measured (skipped legs excepted)."""
        return not self.interrupted and all(r.state in ("measured", "skipped") for r in self.legs)


#: Which series of its line a run belongs to: `stable`, the runs of the ref `stable` (the
#: line's latest stable release, which SEP-1730's relegation rule reads), or `branch`, every
#: other run (the default branch the nightly assesses, or any ref named). The series is read
#: from the run's requested ref, so runs stored before the series existed are `branch` runs.
Series = Literal["branch", "stable"]
#: Every series, the branch's first.
SERIES: tuple[Series, ...] = ("branch", "stable")


def series_of(ref: str | None) -> Series:
    """The series of a run that asked for `ref`."""
    return "stable" if ref == STABLE_REF else "branch"


def line_of(record: RunRecord) -> str:
    """The name a run's series goes by wherever lines are listed apart (the dashboard, the
    tracking issues, `notify`): the line's own name for its branch series, `NAME@stable` for
    its stable series."""
    return series_line(record.sdk, record.series)


def series_line(sdk: str, series: Series) -> str:
    """The line an SDK's `series` goes by (`line_of`)."""
    return sdk if series == "branch" else f"{sdk}@{STABLE_REF}"


def run_key(record: RunRecord) -> str:
    """What makes a run itself: a run id is only a folder name, unique per SDK line at most."""
    text = "\x1f".join(
        (
            record.sdk,
            record.run_id,
            record.timestamp.isoformat(),
            record.commit or "",
            record.ref or "",
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


def parse_time(text: str) -> datetime:
    """An ISO timestamp of a scorecard (`2026-08-20T09:15:00Z`), aware, in UTC.

    ValueError (one line) when it is not one, or when it lies outside `EARLIEST`..`LATEST`
    (`9999-12-31T23:59:59-05:00` is not even on the calendar once in UTC)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    try:
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except OverflowError:
        moment = LATEST if moment.year > 1 else EARLIEST - timedelta(days=1)
    if not EARLIEST <= moment < LATEST:
        msg = (
            f"{text[:40]!r} is out of range: a run's time is between {EARLIEST.date()} and "
            f"{LATEST.date()}"
        )
        raise ValueError(msg)
    return moment


def record_problem(record: RunRecord) -> str | None:
    """Why the history cannot hold `record` (a tier, count or pass rate out of range), or None.

    The time is checked by `parse_time`, the text by the JSON loader (`config.safeload`)."""
    if not 0 <= record.tier <= MAX_COUNT:
        return f"tier: {_number(record.tier)} is out of range"
    if record.sep_tier is not None and not 0 <= record.sep_tier <= MAX_COUNT:
        return f"sep_tier: {_number(record.sep_tier)} is out of range"
    found = record.unaddressed
    if found is not None:
        counts = (found.days, found.total, found.oldest_number or 0, found.oldest_age_days or 0)
        if not all(0 <= n <= MAX_COUNT for n in counts):
            return "unaddressed: a count out of range"
    for x in record.legs:
        where = f"{x.revision} {x.leg}"
        if not 0 <= x.passed <= MAX_COUNT or not 0 <= x.total <= MAX_COUNT:
            return f"{where}: passed {_number(x.passed)} of {_number(x.total)} is out of range"
        if not 0.0 <= x.pass_rate <= 1.0:
            return f"{where}: pass rate {_number(x.pass_rate)} is not between 0 and 1"
    return None


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(record: RunRecord) -> str | None:
    """Where `record` holds text with a lone surrogate (`"\\ud800"` in JSON: it has no UTF-8
    form, so no database can store it), or None."""
    header = (
        record.run_id,
        record.sdk,
        record.repo,
        record.ref,
        record.commit,
        record.tiercheck_version,
        record.harness_version,
        record.node_version,
        record.config_digest,
        record.governance_digest,
        record.requirements_digest,
        *(
            (record.unaddressed.reason, record.unaddressed.oldest_title)
            if record.unaddressed
            else ()
        ),
        *record.revisions,
        *record.blockers,
        *(text for pair in record.signals.items() for text in pair),
    )
    rows = (
        *((x.revision, x.leg, x.state, x.reason) for x in record.legs),
        *((s.revision, s.leg, s.scenario, s.check, s.message) for s in record.scenarios),
    )
    for text in (*header, *(t for row in rows for t in row)):
        if text is not None and not text.isascii() and _LONE_SURROGATE.search(text):
            return f"{ascii(text)[:60]} holds a lone surrogate, which is not text"
    return None


def _free_text(text: str | None) -> str | None:
    """An SDK's or the harness's message as the history keeps it: a lone surrogate (which a
    `\\ud800` escape in their JSON may carry) becomes U+FFFD."""
    if text is None or text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def _number(value: float) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"a number of {len(text)} characters"


def _digest(data: object) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def config_digest(configs: Mapping[str, Mapping[str, object]]) -> str:
    """A digest of the resolved configuration: revision → key → value (sources left out: where
    a value came from does not change what is measured)."""
    return _digest({rev: dict(values) for rev, values in sorted(configs.items())})


def signals_digest(signals: Mapping[str, object]) -> str:
    """A digest of the governance signals as judged."""
    return _digest(signals)


def _scenario_row(revision: str, leg: str, d: ScenarioEntry) -> ScenarioRow:
    """A scenario's verdict as the history keeps it: its first failure's check and message
    (else the reason it gives), its dispute, and whether a baseline expected it to fail or it
    was not measured (kept only when so)."""
    first = d.failures[0] if d.failures else None
    return ScenarioRow(
        revision,
        leg,
        d.scenario,
        d.passed,
        d.scored,
        _free_text(first.id if first else None),
        _free_text(first.message if first else d.reason),
        dispute=DisputeRecord(d.dispute.state, d.dispute.issue) if d.dispute else None,
        expected=True if d.expected_failure else None,
        unmeasured=True if not d.measured else None,
        flaky=True if d.result == "flaky" else None,
    )


def _verdicts(doc: Scorecard) -> tuple[tuple[LegRow, ...], tuple[ScenarioRow, ...]]:
    """Every leg of every revision, and the scenarios of each measured leg (an unmeasured leg
    has no verdicts: none of its scenarios is ever recorded as failing)."""
    legs: list[LegRow] = []
    scenarios: list[ScenarioRow] = []
    for revision, entry in doc.revisions.items():
        for leg in LEGS:
            part = entry.server if leg == "server" else entry.client
            legs.append(
                LegRow(
                    revision, leg, part.state, part.reason, part.pass_rate, part.passed, part.total
                )
            )
            if part.state == "measured":
                scenarios += [_scenario_row(revision, leg, d) for d in part.details]
    return tuple(legs), tuple(scenarios)


def record_of(doc: Scorecard) -> RunRecord:
    """The history's record of a scorecard, every text an SDK or the harness wrote within its
    bound (`bounded`)."""
    legs, scenarios = _verdicts(doc)
    configs = {
        rev: {key: c.value for key, c in entry.config.items()}
        for rev, entry in doc.revisions.items()
    }
    signals = {name: doc.checks.signal(name) for name in GOVERNANCE_SIGNALS}
    record = RunRecord(
        run_id=doc.tiercheck.run_id,
        timestamp=parse_time(doc.timestamp),
        sdk=doc.sdk.name,
        repo=doc.repo,
        ref=doc.sdk.ref,
        commit=doc.sdk.commit,
        tiercheck_version=doc.tiercheck.version,
        harness_version=doc.harness.version,
        node_version=doc.harness.node_version,
        revisions=tuple(doc.revisions),
        config_digest=config_digest(configs),
        tier=doc.implied_tier.tier,
        blockers=(*doc.implied_tier.tier1_blockers, *doc.implied_tier.tier2_blockers),
        governance_digest=signals_digest(
            {n: {"status": s.status, "reason": s.reason, **s.facts} for n, s in signals.items()}
        ),
        signals={name: s.status for name, s in signals.items()},
        interrupted=doc.interrupted,
        legs=legs,
        scenarios=scenarios,
        requirements_digest=doc.tiercheck.requirements_digest,
        unaddressed=unaddressed_record(doc.checks.unaddressed_issues),
        sep_tier=doc.implied_tier.sep1730.tier,
        nothing_measured=measured_nothing(doc),
        definitions=dict(doc.harness.definitions) if doc.harness.definitions else None,
    )
    return bounded(record)


def _name(text: str) -> str:
    return text if len(text) <= NAME_CHARS else cut(text, NAME_CHARS)


def _opt_name(text: str | None) -> str | None:
    return text if text is None or len(text) <= NAME_CHARS else cut(text, NAME_CHARS)


def _opt_text(text: str | None) -> str | None:
    return text if text is None or len(text) <= TEXT_CHARS else cut(text, TEXT_CHARS)


def _long_scenario(s: ScenarioRow) -> bool:
    return (
        len(s.scenario) > NAME_CHARS
        or (s.check is not None and len(s.check) > NAME_CHARS)
        or (s.message is not None and len(s.message) > TEXT_CHARS)
    )


def bounded(record: RunRecord) -> RunRecord:
    """`record` with every text an SDK, its repository or the harness wrote within its bound
    (`plaintext.cut`): a name (the line, repository, ref, commit, versions, a scenario, a check
    id, an issue's title) to `NAME_CHARS`, a message or reason to `TEXT_CHARS`; a cut text
    says so and keeps a digest of the whole. `record` itself when every text is within.

    Every run the history takes passes here (`record_of`, `datafile.record_of_file`), so a
    run file and the database hold what `history_run.schema.json` bounds, and a file written
    before the bounds is cut as it is read."""
    scenarios = record.scenarios
    if any(_long_scenario(s) for s in scenarios):
        scenarios = tuple(
            dataclasses.replace(
                s,
                scenario=_name(s.scenario),
                check=_opt_name(s.check),
                message=_opt_text(s.message),
            )
            if _long_scenario(s)
            else s
            for s in scenarios
        )
    legs = record.legs
    if any(x.reason is not None and len(x.reason) > TEXT_CHARS for x in legs):
        legs = tuple(dataclasses.replace(x, reason=_opt_text(x.reason)) for x in legs)
    found = record.unaddressed
    if found is not None:
        found = dataclasses.replace(
            found, reason=_opt_text(found.reason), oldest_title=_opt_name(found.oldest_title)
        )
    definitions = record.definitions
    if definitions is not None and any(len(k) > NAME_CHARS for k in definitions):
        definitions = {_name(k): v for k, v in definitions.items()}
    sdk, repo = _name(record.sdk), _name(record.repo)
    ref, commit = _opt_name(record.ref), _opt_name(record.commit)
    harness, node = _opt_name(record.harness_version), _opt_name(record.node_version)
    if (
        (sdk, repo, ref, commit, harness, node)
        == (
            record.sdk,
            record.repo,
            record.ref,
            record.commit,
            record.harness_version,
            record.node_version,
        )
        and scenarios is record.scenarios
        and legs is record.legs
        and found == record.unaddressed
        and definitions is record.definitions
    ):
        return record
    return dataclasses.replace(
        record,
        sdk=sdk,
        repo=repo,
        ref=ref,
        commit=commit,
        harness_version=harness,
        node_version=node,
        scenarios=scenarios,
        legs=legs,
        unaddressed=found,
        definitions=definitions,
    )


_UNADDRESSED_STATUSES: tuple[UnaddressedStatus, ...] = ("pass", "fail", "inconclusive", "skipped")


def _count(value: object) -> int | None:
    """`value` when it is a count the history can hold, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    return None


def unaddressed_record(signal: SignalEntry | None) -> UnaddressedRecord | None:
    """The history's record of a scorecard's `checks.unaddressed_issues` (None: the scorecard
    predates it). Counts that are not counts leave it inconclusive, never zero."""
    if signal is None:
        return None
    sep = signal.get("sep1730")
    sep = sep if isinstance(sep, Mapping) else {}
    listed = sep.get("unaddressed")
    oldest = listed[0] if isinstance(listed, list) and listed else None
    oldest = oldest if isinstance(oldest, Mapping) else None
    status = signal.status
    total = _count(sep.get("unaddressed_total"))
    days = _count(sep.get("days"))
    reason = signal.reason
    if status not in _UNADDRESSED_STATUSES or days is None:
        reason = reason or f"status {status!r} with no number of days"
        status = "inconclusive"
    elif status == "fail" and (total is None or not oldest):
        reason = reason or "no unaddressed issue to show"
        status = "inconclusive"
    title = oldest.get("title") if oldest else None
    return UnaddressedRecord(
        status=status,
        reason=_free_text(cut(reason, TITLE_CHARS) if reason else None),
        days=days or 0,
        total=(total or 0) if status == "fail" else 0,
        oldest_number=_count(oldest.get("number")) if oldest and status == "fail" else None,
        oldest_title=(
            _free_text(cut(title, TITLE_CHARS))
            if isinstance(title, str) and status == "fail"
            else None
        ),
        oldest_age_days=_count(oldest.get("age_days")) if oldest and status == "fail" else None,
    )
