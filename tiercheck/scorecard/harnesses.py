"""Where the CI's harness and the referee disagree on one leg, scenario by scenario (pure).

`--compare-harness V` runs each leg again with harness V, the release an SDK's CI pins, against
the same server (or with the same client command), so that a maintainer whose CI is green sees
why the referee is not. Both sides' results are read as the harnesses wrote them
(`conformance.results`), and each scenario is judged by the one pass rule (`scoring.passes`: a
SUCCESS and no FAILURE). Per scenario, in this order:

* **scenario-absent**: one harness left a result for it (a `checks.json`), the other none;
* **verdict-flipped**: it passes under one and fails under the other; the check named is the
  first (in the failing side's order) whose status differs, with the failing side's message;
* **check-added** / **check-removed**: a check id (INFO notes aside) the referee emits and V
  does not, or the reverse, each one entry.

A check both emit with another status that does not flip the verdict (a WARNING for a SUCCESS)
is not a disagreement. Nothing here changes a verdict, a score or the tier. Scenario names,
check ids and messages are the harnesses' own text: untrusted, escaped by each report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tiercheck.conformance.results import FAILURE, INFO, Check, ScenarioResult
from tiercheck.plaintext import one_line
from tiercheck.scorecard.model import (
    ComparedLeg,
    DisagreementKind,
    HarnessComparison,
    HarnessDisagreement,
)
from tiercheck.scoring import passes

__all__ = [
    "COMPARISON_NOTE",
    "KINDS",
    "LegComparison",
    "compare_leg",
    "comparison_summary",
    "disagreement_text",
    "leg_text",
    "most_telling",
]

#: What every report says of the comparison, beside its title.
COMPARISON_NOTE = "another harness's results, never part of the verdict, the score or the tier"
#: The kinds of disagreement, in the order a summary counts them.
KINDS = ("scenario-absent", "verdict-flipped", "check-added", "check-removed")
#: The most of a harness's message kept in a disagreement.
MESSAGE_LIMIT = 300


@dataclass(frozen=True)
class LegComparison:
    """One leg compared: how many scenarios either side has a result for, how many of those
    the two judged alike, and every disagreement."""

    scenarios: int
    agreed: int
    disagreements: tuple[HarnessDisagreement, ...]


def _verdict(result: ScenarioResult | None) -> str | None:
    """pass, fail, or None: no result (not run, or inapplicable: an empty folder)."""
    if result is None:
        return None
    if result.parse_error is not None:
        return "fail"
    if not result.has_checks_file:
        return None
    return "pass" if passes(result.raw_checks) else "fail"


def _checks(result: ScenarioResult) -> dict[str, Check]:
    return {c.id: c for c in result.checks if c.status != INFO}


def _message(check: Check | None) -> str | None:
    if check is None or not check.message:
        return None
    text = one_line(check.message)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


@dataclass(frozen=True)
class _Found:
    """A disagreement on one scenario, before its revision, leg and name are added."""

    kind: DisagreementKind
    check: str | None
    referee: str | None
    ci: str | None
    message: str | None = None


def _flipped(
    mine: dict[str, Check], other: dict[str, Check], referee: str
) -> tuple[str | None, str | None]:
    """(the check, its message) a flipped verdict is named by: the first FAILURE of the failing
    side that the passing side does not fail; (None, None) when it fails for want of a
    SUCCESS (only WARNINGs) or for a checks.json that could not be read."""
    failing, passing = (mine, other) if referee == "fail" else (other, mine)
    for check in failing.values():
        theirs = passing.get(check.id)
        if check.status == FAILURE and (theirs is None or theirs.status != FAILURE):
            return check.id, _message(check)
    return None, None


def _scenario(mine: ScenarioResult | None, other: ScenarioResult | None) -> list[_Found]:
    """The disagreements on one scenario, each as the fields after (revision, leg, scenario)."""
    referee, ci = _verdict(mine), _verdict(other)
    if referee is None and ci is None:
        return []
    if mine is None or other is None or referee is None or ci is None:
        return [_Found("scenario-absent", None, referee, ci)]
    ours, theirs = _checks(mine), _checks(other)
    found: list[_Found] = []
    if referee != ci:
        named, said = _flipped(ours, theirs, referee)
        found.append(_Found("verdict-flipped", named, referee, ci, said))
    for check in ours.values():
        if check.id not in theirs:
            message = _message(check) if check.status == FAILURE else None
            found.append(_Found("check-added", check.id, check.status, None, message))
    for check in theirs.values():
        if check.id not in ours:
            message = _message(check) if check.status == FAILURE else None
            found.append(_Found("check-removed", check.id, None, check.status, message))
    return found


def compare_leg(
    revision: str, leg: str, referee: Sequence[ScenarioResult], ci: Sequence[ScenarioResult]
) -> LegComparison:
    """Every disagreement between the referee's results of one leg and the CI's harness's
    (see the module's docstring), in scenario-name order."""
    ours = {r.name: r for r in referee}
    theirs = {r.name: r for r in ci}
    found: list[HarnessDisagreement] = []
    scenarios = agreed = 0
    for name in sorted(ours.keys() | theirs.keys()):
        mine, other = ours.get(name), theirs.get(name)
        if _verdict(mine) is None and _verdict(other) is None:
            continue
        scenarios += 1
        on_it = _scenario(mine, other)
        agreed += not on_it
        found += [
            HarnessDisagreement(
                revision=revision,
                leg=leg,
                scenario=name,
                kind=f.kind,
                check=f.check,
                referee=f.referee,
                ci=f.ci,
                message=f.message,
            )
            for f in on_it
        ]
    return LegComparison(scenarios, agreed, tuple(found))


def disagreement_text(found: HarnessDisagreement, version: str) -> str:
    """One plain line for a disagreement (untrusted parts included: each report escapes it)."""
    them = f"harness {version}"
    if found.kind == "scenario-absent":
        if found.ci is None:
            return f"the referee runs it ({found.referee}); {them} left no result for it"
        return f"{them} runs it ({found.ci}); the referee left no result for it"
    if found.kind == "verdict-flipped":
        line = f"referee {found.referee}, {them} {found.ci}"
        if found.check is not None:
            line += f": check {found.check}"
        return line + (f": {found.message}" if found.message else "")
    if found.kind == "check-added":
        line = f"the referee checks {found.check} ({found.referee}); {them} does not"
    else:
        line = f"{them} checks {found.check} ({found.ci}); the referee does not"
    return line + (f": {found.message}" if found.message else "")


def most_telling(found: Sequence[HarnessDisagreement]) -> list[HarnessDisagreement]:
    """The disagreements that explain a verdict first: flipped verdicts, scenarios one side
    did not run, a check one side fails; then the checks added or removed that pass (a
    report that cuts its list keeps these last). Stable within each rank."""

    def rank(entry: HarnessDisagreement) -> int:
        if entry.kind == "verdict-flipped":
            return 0
        if entry.kind == "scenario-absent":
            return 1
        return 2 if FAILURE in (entry.referee, entry.ci) else 3

    return sorted(found, key=rank)


def comparison_summary(block: HarnessComparison) -> str:
    """One line: what was compared and how many disagreements, by kind."""
    compared = [leg for leg in block.legs if leg.state == "compared"]
    scenarios = sum(leg.scenarios for leg in compared)
    agreed = sum(leg.agreed for leg in compared)
    counts = [(kind, sum(d.kind == kind for d in block.disagreements)) for kind in KINDS]
    said = ", ".join(f"{n} {kind}" for kind, n in counts if n) or "none"
    return (
        f"harness {block.version} against the referee {block.referee}: "
        f"{len(compared)} of {len(block.legs)} legs compared, {agreed} of {scenarios} scenarios "
        f"alike; disagreements: {said}"
    )


def leg_text(leg: ComparedLeg) -> str:
    """One plain line for a leg: compared (how, and how many scenarios alike), or why not."""
    where = f"{leg.leg} {leg.revision}"
    if leg.state != "compared":
        return f"{where}: not compared: {leg.reason or 'not run'}"
    how = "as the referee does" if leg.way == "requirements" else "with --spec-version"
    return f"{where}: compared ({how}), {leg.agreed} of {leg.scenarios} scenarios alike"
