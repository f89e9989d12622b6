"""`--compare-harness V`: each leg run again with harness V, the release an SDK's CI pins, and
the two harnesses' results compared scenario by scenario (`scorecard.harnesses`).

Before anything is cloned, V is installed (or reused) and read from its package
(`referee.capability`): each planned revision it runs as the referee does (`--requirements`)
or the way an older release does (`--spec-version REVISION`) is compared; a revision it cannot
run at all is not, and the run says so (a warning, and the revision's legs `not-compared` with
the reason). A V that runs none of the planned revisions, or cannot be installed, is refused in
one line (exit 2).

After the referee's leg, the legs step runs V's leg against the same running server (server
legs) or with the same client command (client legs), into `compare/REVISION/LEG/` beside
`raw/`. Nothing here reaches a verdict, a score or the tier; the comparison runs only when
asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tiercheck.conformance.harness import Harness, provision
from tiercheck.conformance.legs import LegRun, LegWay
from tiercheck.conformance.results import ScenarioResult, parse_results
from tiercheck.errors import ConfigError, TiercheckError, ToolMissingError
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard.harnesses import compare_leg
from tiercheck.scorecard.model import ComparedLeg, HarnessComparison, HarnessDisagreement
from tiercheck.scoring import LegVerdict

__all__ = [
    "COMPARE_DIR",
    "ComparedRun",
    "Comparing",
    "compare_dir",
    "comparison_block",
    "prepare_comparison",
]

#: The folder of the run's `--out` that holds the CI's harness's raw results.
COMPARE_DIR = "compare"

#: What a compared leg left: V's run, or why V did not run it.
ComparedRun = LegRun | str


@dataclass(frozen=True)
class Comparing:
    """Harness V, installed, and how it runs each planned revision."""

    harness: Harness
    #: Revision → how V runs it; a revision it cannot run is in `cannot` instead.
    ways: Mapping[str, LegWay]
    #: Revision → why V cannot run it (one line).
    cannot: Mapping[str, str]


def prepare_comparison(
    options: AssessOptions, revisions: Sequence[str], progress: ProgressSink
) -> Comparing | None:
    """Harness V of `--compare-harness`, installed and read (None when not asked); raises
    ConfigError (one line, exit 2) when it cannot be installed or runs none of `revisions`."""
    version = options.settings.compare_harness
    if version is None:
        return None
    from tiercheck.referee.bundle import read_bundle
    from tiercheck.referee.capability import fit
    from tiercheck.referee.harvest import ask_fit

    try:
        harness = provision(
            options.settings.cache_dir,
            version=version,
            progress=lambda text: progress.step("compare harness", text),
        )
    except ToolMissingError:
        raise
    except TiercheckError as exc:
        msg = f"--compare-harness {version} could not be provisioned: {exc.message}"
        raise ConfigError(msg) from None
    reading = read_bundle(ask_fit(harness, revisions))
    fits = [fit(reading, revision) for revision in revisions]
    ways = {f.revision: f.way for f in fits if f.way is not None}
    cannot = {f.revision: f.cannot() for f in fits if f.way is None}
    if not ways:
        raise ConfigError(f"--compare-harness: {'; '.join(cannot.values())}")
    said = ", ".join(
        f"{rev} {'as the referee does' if way == 'requirements' else 'with --spec-version'}"
        for rev, way in ways.items()
    )
    progress.done("compare harness", f"{harness.version} runs {said}")
    for reason in cannot.values():
        progress.warn(f"{reason}; not compared there")
    return Comparing(harness, ways, cannot)


def _results_of(run: LegRun, leg: Leg) -> tuple[tuple[ScenarioResult, ...], str | None]:
    """(V's results, None) or ((), why they cannot be compared)."""
    found = parse_results(run.results_dir, leg)
    if run.timed_out:
        return (), f"harness run timed out after {run.duration_s:.0f} s"
    if not found and run.returncode != 0:
        last = run.log_tail.strip().splitlines()[-1:] or [""]
        return (), f"it left no results (exit {run.returncode}): {last[0]}".rstrip(": ")
    return found, None


def _compared_leg(
    revision: str,
    leg: Leg,
    comparing: Comparing,
    verdict: LegVerdict,
    run: ComparedRun | None,
) -> tuple[ComparedLeg, tuple[HarnessDisagreement, ...]]:
    way = comparing.ways.get(revision)

    def left_out(reason: str, *, ran: bool = False) -> ComparedLeg:
        return ComparedLeg(
            revision=revision,
            leg=leg,
            state="not-compared",
            way=way if ran else None,
            reason=reason,
            scenarios=0,
            agreed=0,
            results_dir=str(run.results_dir) if isinstance(run, LegRun) else None,
        )

    if way is None:
        return left_out(comparing.cannot.get(revision, "not run")), ()
    if isinstance(run, str):
        return left_out(run), ()
    if run is None:
        reason = verdict.reason or verdict.state
        return left_out(f"the referee's leg is {verdict.state}: {reason}"), ()
    if verdict.state != "measured" or verdict.results_dir is None:
        reason = (verdict.reason or verdict.state).splitlines()[0]
        return left_out(f"the referee's leg is {verdict.state}: {reason}", ran=True), ()
    theirs, why_not = _results_of(run, leg)
    if why_not is not None:
        return left_out(f"harness {comparing.harness.version}: {why_not}", ran=True), ()
    ours = parse_results(verdict.results_dir, leg)
    found = compare_leg(revision, leg, ours, theirs)
    entry = ComparedLeg(
        revision=revision,
        leg=leg,
        state="compared",
        way=way,
        reason=None,
        scenarios=found.scenarios,
        agreed=found.agreed,
        results_dir=str(run.results_dir),
    )
    return entry, found.disagreements


def comparison_block(
    comparing: Comparing,
    referee: str,
    revisions: Sequence[str],
    verdicts: Mapping[tuple[str, Leg], LegVerdict],
    runs: Mapping[tuple[str, Leg], ComparedRun],
) -> HarnessComparison:
    """The scorecard's `harness_comparison`: every planned leg, compared or why not, and every
    disagreement (V's results and the referee's read from the folders the legs wrote)."""
    legs: list[ComparedLeg] = []
    found: list[HarnessDisagreement] = []
    for revision in revisions:
        for leg in LEGS:
            entry, disagreements = _compared_leg(
                revision, leg, comparing, verdicts[(revision, leg)], runs.get((revision, leg))
            )
            legs.append(entry)
            found += disagreements
    return HarnessComparison(
        version=comparing.harness.version,
        referee=referee,
        legs=tuple(legs),
        disagreements=tuple(found),
    )


def compare_dir(out_dir: Path, revision: str, leg: Leg) -> Path:
    """Where V's results of one leg go."""
    return out_dir / COMPARE_DIR / revision / leg
