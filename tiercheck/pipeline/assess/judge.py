"""Step 6, judge: what the measured legs mean.

Each leg's expected-failures baseline is applied to that leg at its revision, governance signals
are obtained (GitHub, a recorded snapshot, or skipped), the revisions are merged per leg, each
scenario the reviewed disputes file names gets its dispute on the governance day (which only
the SEP-1730 reading uses), and the implied tier and the exit code follow. Nothing here runs
the SDK.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from tiercheck.baseline import BaselineOutcome, BaselineVerdict, apply_baseline
from tiercheck.config.baseline import Baseline, load_baseline
from tiercheck.config.disputes import DisputeEntry
from tiercheck.config.registry import SdkEntry
from tiercheck.errors import ConfigError
from tiercheck.governance.disputes import disputes_on
from tiercheck.governance.obtain import GovernanceOptions, dispute_entries, obtain_signals
from tiercheck.governance.signals import GovernanceSignals
from tiercheck.governance.signals.release_date import published_days
from tiercheck.governance.snapshot import DisputeFacts, ReleaseFacts, Unavailable
from tiercheck.model import format_time
from tiercheck.pipeline.assess.base import ProgressSink, Unmeasured
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard.build import exit_code_for, leg_summary
from tiercheck.scorecard.model import GovernanceBlock
from tiercheck.scoring import LegVerdict, MergedLeg, mark_disputes, merge_revisions
from tiercheck.tier import ImpliedTier, compute_tier

__all__ = [
    "Baselines",
    "Judgement",
    "apply_baselines",
    "baseline_path",
    "evaluate_governance",
    "find_baselines",
    "judge",
    "load_dispute_entries",
    "load_leg_baselines",
]

Verdicts = Mapping[tuple[str, Leg], LegVerdict]


@dataclass(frozen=True)
class Baselines:
    """Each leg's expected-failures file per revision, and the configured ones not found."""

    #: (revision, leg) → the file.
    files: Mapping[tuple[str, Leg], Path] = field(default_factory=dict)
    unmeasured: tuple[Unmeasured, ...] = ()


@dataclass(frozen=True)
class Judgement:
    """The merged legs, the baseline, governance, the implied tier and the exit code."""

    server: MergedLeg
    client: MergedLeg
    baseline: BaselineVerdict | None
    #: (revision, leg) → the baseline file applied to that leg at that revision.
    baseline_files: Mapping[tuple[str, Leg], str]
    signals: GovernanceSignals
    #: The scorecard's `governance` block (where the signals came from).
    governance: GovernanceBlock
    implied: ImpliedTier
    exit_code: int
    unmeasured: tuple[Unmeasured, ...] = ()
    #: Tag → the day each of the SDK's GitHub releases came out, as of the governance day
    #: (empty without a snapshot): the release-date rule reads the assessed release's.
    release_days: Mapping[str, date] = field(default_factory=dict)


def load_dispute_entries(options: GovernanceOptions) -> tuple[DisputeEntry, ...]:
    """The reviewed disputes file (`--disputes`, else the shipped one); a bad one is a
    one-line `ConfigError`."""
    return dispute_entries(options)


def evaluate_governance(
    repo: str,
    options: GovernanceOptions,
    *,
    entry: SdkEntry | None,
    checkout: Path | None,
    now: datetime,
    progress: ProgressSink,
) -> tuple[GovernanceSignals, GovernanceBlock]:
    """The six signals plus the scorecard's `governance` block; never raises for GitHub trouble."""
    signals, block, _, _ = _governance(
        repo, options, entry=entry, checkout=checkout, now=now, progress=progress
    )
    return signals, block


def _governance(
    repo: str,
    options: GovernanceOptions,
    *,
    entry: SdkEntry | None,
    checkout: Path | None,
    now: datetime,
    progress: ProgressSink,
    tag_prefix: str | None = None,
) -> tuple[GovernanceSignals, GovernanceBlock, DisputeFacts | Unavailable | None, dict[str, date]]:
    """`evaluate_governance`, the snapshot's disputes (None when skipped or not recorded) and
    the day each SDK release came out (`published_days`: empty when skipped or unavailable);
    `tag_prefix` is the resolved one (None: the entry's)."""
    if not options.skip and options.snapshot is None:
        progress.step("governance", f"collecting {repo} from {options.api_url}")
    obtained = obtain_signals(
        repo,
        options,
        entry=entry,
        checkout=checkout,
        now=now,
        log=progress.warn,
        tag_prefix=tag_prefix,
    )
    if obtained.snapshot is not None:
        progress.done("governance", f"{obtained.source}, as of {obtained.signals.as_of:%Y-%m-%d}")
    snapshot = obtained.snapshot
    block = GovernanceBlock(
        source=obtained.source,
        as_of=None if snapshot is None else format_time(obtained.signals.as_of),
        captured_at=None if snapshot is None else format_time(snapshot.captured_at),
        snapshot=None if snapshot is None else obtained.where,
    )
    days = (
        published_days(snapshot.releases.releases, obtained.signals.as_of)
        if snapshot is not None and isinstance(snapshot.releases, ReleaseFacts)
        else {}
    )
    return obtained.signals, block, None if snapshot is None else snapshot.disputes, days


def find_baselines(
    revisions: Sequence[RevisionPlan], checkout: Path | None, *, explicit: bool = False
) -> Baselines:
    """Each leg's configured expected-failures file per revision, relative to the checkout.

    A configured file that does not exist at this commit is noted as unmeasured (the baseline
    could not be judged), not an error: older refs predate their baselines. A file named on the
    command line (or any file, with `explicit`) must exist.
    """
    files: dict[tuple[str, Leg], Path] = {}
    missing: list[Unmeasured] = []
    noted: set[tuple[str, str]] = set()
    for plan in revisions:
        for leg in LEGS:
            name = plan.config.baseline(leg)
            if not name:
                continue
            path = baseline_path(name, checkout)
            if path.is_file():
                files[(plan.revision, leg)] = path
            elif explicit or plan.config.baseline_given(leg):
                msg = f"{path}: expected-failures file not found"
                raise ConfigError(msg)
            elif (plan.revision, name) not in noted:
                noted.add((plan.revision, name))
                reason = f"{name} not found in the checkout"
                missing.append(Unmeasured(f"baseline {plan.revision}", reason))
    return Baselines(files, tuple(missing))


def baseline_path(name: str, checkout: Path | None) -> Path:
    """A configured baseline file: relative to the checkout (else the working directory)."""
    return Path(name) if Path(name).is_absolute() else (checkout or Path.cwd()) / name


def load_leg_baselines(files: Mapping[tuple[str, Leg], Path]) -> dict[Path, Baseline]:
    """Load each file once, and refuse (ConfigError) one given to a leg it was not written for:
    no key for that leg, entries for the other (`Baseline.misfit`) — unless the same file is
    the other leg's baseline at that revision too."""
    loaded: dict[Path, Baseline] = {}
    for (revision, leg), path in files.items():
        baseline = loaded.get(path)
        if baseline is None:
            baseline = loaded[path] = load_baseline(path)
        other: Leg = "client" if leg == "server" else "server"
        if files.get((revision, other)) == path:
            continue  # one file for both legs at this revision
        problem = baseline.misfit(leg)
        if problem is not None:
            raise ConfigError(f"{problem} (at {revision})")
    return loaded


def apply_baselines(
    revisions: Sequence[RevisionPlan],
    verdicts: Verdicts,
    files: Mapping[tuple[str, Leg], Path],
) -> tuple[BaselineVerdict | None, dict[tuple[str, Leg], str]]:
    """Apply each leg's expected-failures file to that leg at that revision, when measured."""
    loaded = load_leg_baselines(files)
    outcomes: list[BaselineOutcome] = []
    normal = 0
    applied: dict[tuple[str, Leg], str] = {}
    for plan in revisions:
        for leg in LEGS:
            path = files.get((plan.revision, leg))
            if path is None:
                continue
            verdict = verdicts[(plan.revision, leg)]
            measured = [verdict] if verdict.state == "measured" else []
            found = apply_baseline(loaded[path], measured)
            outcomes.extend(found.outcomes)
            normal += found.normal_passes
            applied[(plan.revision, leg)] = str(path)
    if not applied:
        return None, applied
    sources = ", ".join(dict.fromkeys(applied.values()))
    return BaselineVerdict(sources, tuple(outcomes), normal), applied


def judge(
    revisions: Sequence[RevisionPlan],
    verdicts: Verdicts,
    baselines: Baselines,
    *,
    repo: str,
    governance: GovernanceOptions,
    entry: SdkEntry | None,
    checkout: Path | None,
    now: datetime,
    progress: ProgressSink,
    interrupted: bool,
) -> Judgement:
    """Baselines first (a broken file stops before GitHub is asked), then governance (skipped
    after an interrupt), then the merged legs, the tier and the exit code."""
    baseline, files = apply_baselines(revisions, verdicts, baselines.files)
    entries = load_dispute_entries(governance)
    if interrupted:
        governance = dataclasses.replace(governance, skip=True)
    signals, meta, facts, release_days = _governance(
        repo,
        governance,
        entry=entry,
        checkout=checkout,
        now=now,
        progress=progress,
        tag_prefix=revisions[0].config.tag_prefix if revisions else None,
    )
    # Disputes are judged on the governance day (`--as-of`, else the snapshot's capture or now).
    marks = disputes_on(entries, facts, signals.as_of)
    server = mark_disputes(
        merge_revisions([verdicts[(p.revision, "server")] for p in revisions]), marks
    )
    client = mark_disputes(
        merge_revisions([verdicts[(p.revision, "client")] for p in revisions]), marks
    )
    return Judgement(
        server=server,
        client=client,
        baseline=baseline,
        baseline_files=files,
        signals=signals,
        governance=meta,
        implied=compute_tier(leg_summary(server), leg_summary(client), signals),
        exit_code=exit_code_for(server, client, baseline, interrupted=interrupted),
        unmeasured=baselines.unmeasured,
        release_days=release_days,
    )
