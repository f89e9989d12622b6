"""Comparing two runs: the one rule every report of "what changed" follows (pure).

The scorecard diff, the claim's changes since the previous assessment, the matrix's changes
since the previous night and the history's regressions (the dashboard, the feed and notify read
those) each turn their own inputs into one form, `RunScenarios` — per (revision, leg, scenario)
an outcome (passed, failed, unmeasured), whether it is scored and whether an open dispute left
it out that day, every planned leg's state, the run's tier and the basis it was measured on —
and `compare` classifies what changed between two of them. No other module decides what is
newly failing, fixed, a tier drop or a regression. The rule:

* **Nothing measured.** A run that measured no leg (its exit code 3) has no tier (`tier`
  None) and is never the run a comparison starts from (`starts_comparisons`): the next run is
  compared with the last run that measured something.
* **Incomparable.** Two runs under different harness versions are not compared scenario by
  scenario (a version not recorded — a file older than the field — differs from none):
  `incomparable` is set and no scenario is newly failing, fixed, added, removed or rescored.
  A scenario that passed under one harness and fails under another says as much about the
  harness as about the SDK. What a leg's state says (below) is still reported: a leg that
  could not be measured is a fact of the run.
* **Referee changed.** Between two runs under different harness versions (both known),
  `referee_change` says what the referee changed in the legs both measured: the scenarios
  the newer run lists that the older did not (*added*), those both list whose definition
  (the digest of the checks the harness can emit for it, `RunScenarios.definitions`) differs
  (*changed*), and those both list whose definition one run did not record (*unknown*). It
  replaces "regressed" wherever a night is compared with one under another harness, and it
  is what SEP-1730's clock reads: a failing streak carries across a referee change unless
  its scenario was added or changed there.
* **Legs.** Scenarios are compared only in legs measured in both runs. A leg measured before
  and unmeasured now (``unmeasured`` or ``partially-measured``) is *newly unmeasured*; the
  reverse is *measured again*. Its scenarios are not listed one by one as removed or added,
  and a leg skipped or not planned in either run compares nothing.
* **Scenarios**, in a leg measured in both runs, each in at most one class:

  - listed now, not before: *added* (even if it fails: a new scenario is not a regression);
  - listed before, not now: *removed*;
  - scored before, not now: *no longer scored*; the reverse: *newly scored* (a scenario that
    begins to count and fails is not newly failing: it has no scored verdict to fall from);
  - scored in both, its dispute opened in between: *newly disputed*; closed: *dispute
    resolved* (SEP-1730 leaves a disputed scenario out while its dispute is open, so neither
    is newly failing or fixed; a scenario disputed in both runs has no verdict to compare);
  - scored in both: passed → failed *newly failing*; failed → passed *fixed*; passed or
    failed → unmeasured *newly unmeasured*; unmeasured → passed or failed *measured again*;
  - not scored in either: no change (a scenario that does not count has no verdict).
* **Tier.** The tier *dropped* when both runs judged their tier (every planned leg measured,
  skipped ones aside, not interrupted, no governance signal inconclusive: a tier lowered by
  what could not be measured is a gap, not a drop), on the same basis (harness version and
  requirement sets; one unknown is taken as the same), and the newer tier is lower (a higher
  number). A tier is compared with the last run that judged one: the history, which holds a
  line's every run, passes that run (a night that judged none is a gap, as a scenario's
  unmeasured night is); a caller given two runs alone (`diff`, the matrix against its previous
  night) has it only when the older judged its tier, and otherwise knows of no drop.
* **Regressed**: a scenario newly failing, the tier dropped, or a leg newly unmeasured. A leg
  that could not be measured is no SDK failure and is never called failing (it has its own
  class), but it may hide one: whatever the leg would have said is unknown, so no gate may
  pass over it. It is a regression until the leg is measured again.

Changes come in the order of the newer run's scenarios, then those only the older run lists,
in its order; each caller sorts as its report reads best.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Literal, TypeVar

__all__ = [
    "ChangeKind",
    "Comparison",
    "LegChange",
    "LegOutcome",
    "Outcome",
    "RefereeChange",
    "RunScenarios",
    "ScenarioChange",
    "ScenarioOutcome",
    "classify",
    "comparable",
    "compare",
    "leg_changes",
    "leg_measured",
    "leg_unmeasured",
    "referee_change",
    "starts_comparisons",
    "tier_dropped",
]

#: A scenario's outcome in one run; ``absent``: the run does not list it.
Outcome = Literal["passed", "failed", "unmeasured", "absent"]

ChangeKind = Literal[
    "newly-failing",
    "fixed",
    "newly-unmeasured",
    "measured-again",
    "added",
    "removed",
    "no-longer-scored",
    "newly-scored",
    "newly-disputed",
    "dispute-resolved",
]

_Key = tuple[str, str, str]
_K = TypeVar("_K")


@dataclass(frozen=True)
class ScenarioOutcome:
    """One scenario of one leg at one revision, as one run left it."""

    revision: str
    leg: str
    scenario: str
    outcome: Literal["passed", "failed", "unmeasured"]
    scored: bool
    #: Why it failed (the first failing check), when it failed.
    message: str | None = None
    #: An open dispute left it out of SEP-1730's reading on the run's governance day.
    disputed: bool = False

    @property
    def key(self) -> _Key:
        """(revision, leg, scenario)."""
        return (self.revision, self.leg, self.scenario)


@dataclass(frozen=True)
class LegOutcome:
    """One leg a run planned: measured, unmeasured, partially-measured, skipped, or another
    state its report names (``not-claimed``); only ``measured`` gives scenario verdicts."""

    revision: str
    leg: str
    state: str
    reason: str | None = None


@dataclass(frozen=True)
class RunScenarios:
    """One run in the form `compare` reads."""

    harness_version: str | None
    legs: tuple[LegOutcome, ...]
    scenarios: tuple[ScenarioOutcome, ...]
    #: The run's implied tier (official reading); None: the run measured nothing, or the form
    #: it was read from has no tier.
    tier: int | None = None
    #: The digest of the requirement sets it was scored against (None: not recorded).
    requirements_digest: str | None = None
    interrupted: bool = False
    #: Some governance signal could not be read (the tier is not judged on it).
    governance_inconclusive: bool = False
    #: Scenario → the digest of its definition in the harness that ran it
    #: (`referee.definitions`); None: not recorded (a run older than the record).
    definitions: Mapping[str, str] | None = field(default=None, hash=False)

    @property
    def judges_tier(self) -> bool:
        """The run's tier says what the SDK earned: it has one, every planned leg was measured
        (skipped ones aside), it was not interrupted and no governance signal was inconclusive."""
        return (
            self.tier is not None
            and not self.interrupted
            and not self.governance_inconclusive
            and all(leg_measured(x.state) or x.state == "skipped" for x in self.legs)
        )

    @cached_property
    def by_key(self) -> dict[_Key, ScenarioOutcome]:
        """Each scenario by its key (the last one listed, should a key be listed twice):
        made once, as a run is compared with the run before it and then with the next."""
        return {s.key: s for s in self.scenarios}

    @cached_property
    def scenario_keys(self) -> tuple[_Key, ...]:
        """`by_key`'s keys, in its order."""
        return tuple(self.by_key)


@dataclass(frozen=True)
class ScenarioChange:
    """One scenario classified by `compare` (or `classify`)."""

    kind: ChangeKind
    revision: str
    leg: str
    scenario: str
    was: Outcome
    now: Outcome
    scored_before: bool
    scored_after: bool
    #: The newer run's failure message, when it fails there.
    message: str | None = None

    @property
    def before(self) -> str:
        """The older run's outcome as a reader sees it: ``passed``, ``not scored: failed``,
        ``absent``…"""
        return _label(self.was, self.scored_before)

    @property
    def after(self) -> str:
        """The newer run's outcome, in the same words as `before`."""
        return _label(self.now, self.scored_after)


@dataclass(frozen=True)
class LegChange:
    """A leg measured in one run and unmeasured in the other."""

    revision: str
    leg: str
    before: str
    after: str
    #: Why the newer run left it unmeasured (newly unmeasured legs only).
    reason: str | None = None


@dataclass(frozen=True)
class Comparison:
    """What changed from an older run to a newer one."""

    harness_before: str | None
    harness_after: str | None
    #: Every classified scenario, in the order the module docstring gives (empty when
    #: incomparable).
    changes: tuple[ScenarioChange, ...] = ()
    legs_newly_unmeasured: tuple[LegChange, ...] = ()
    legs_measured_again: tuple[LegChange, ...] = ()
    tier_before: int | None = None
    tier_after: int | None = None
    #: The tier went down by the rule above (`tier_dropped`).
    tier_dropped: bool = False

    @property
    def incomparable(self) -> bool:
        """The runs used different harness versions: no scenario was compared."""
        return not comparable(self.harness_before, self.harness_after)

    @property
    def regressed(self) -> bool:
        """A scenario newly failing, the tier dropped, or a leg newly unmeasured."""
        return bool(self.newly_failing or self.tier_dropped or self.legs_newly_unmeasured)

    def of(self, *kinds: ChangeKind) -> tuple[ScenarioChange, ...]:
        """The changes of these kinds, in order."""
        return tuple(c for c in self.changes if c.kind in kinds)

    @property
    def newly_failing(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs: passed, then failed."""
        return self.of("newly-failing")

    @property
    def fixed(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs: failed, then passed."""
        return self.of("fixed")

    @property
    def newly_unmeasured(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs: a verdict, then unmeasured."""
        return self.of("newly-unmeasured")

    @property
    def measured_again(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs: unmeasured, then a verdict."""
        return self.of("measured-again")

    @property
    def added(self) -> tuple[ScenarioChange, ...]:
        """Listed by the newer run only."""
        return self.of("added")

    @property
    def removed(self) -> tuple[ScenarioChange, ...]:
        """Listed by the older run only."""
        return self.of("removed")

    @property
    def no_longer_scored(self) -> tuple[ScenarioChange, ...]:
        """Scored in the older run, not in the newer."""
        return self.of("no-longer-scored")

    @property
    def newly_scored(self) -> tuple[ScenarioChange, ...]:
        """Scored in the newer run, not in the older."""
        return self.of("newly-scored")

    @property
    def newly_disputed(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs; its dispute opened in between."""
        return self.of("newly-disputed")

    @property
    def dispute_resolved(self) -> tuple[ScenarioChange, ...]:
        """Scored in both runs; its dispute closed in between."""
        return self.of("dispute-resolved")


@dataclass(frozen=True)
class RefereeChange:
    """What the referee changed between two runs under different harness versions, in the legs
    both measured (scenario names, each once, sorted)."""

    before: str
    after: str
    #: Listed by the newer run only.
    added: tuple[str, ...] = ()
    #: Listed by both, their recorded definitions different.
    changed: tuple[str, ...] = ()
    #: Listed by both, a definition not recorded by one of them: whether it changed is unknown.
    unknown: tuple[str, ...] = ()

    def restarts(self, scenario: str) -> bool:
        """Whether a failing streak of `scenario` restarts at this change: the scenario was
        added or changed (an unknown definition is no evidence of a change)."""
        return scenario in self.added or scenario in self.changed

    @property
    def counts(self) -> str:
        """`4 scenarios added, 8 changed` (and how many are not known, when some are)."""
        counts = [_count(len(self.added), "added"), f"{len(self.changed)} changed"]
        if self.unknown:
            counts.append(f"{len(self.unknown)} not known (definitions not recorded)")
        return ", ".join(counts)

    def sentence(self, day: date | str) -> str:
        """`referee changed on 2026-08-04 (harness 0.2.0-alpha.11 → 0.2.0-alpha.12):
        4 scenarios added, 8 changed`: plain text, the versions as the runs recorded them."""
        when = day if isinstance(day, str) else day.isoformat()
        return f"referee changed on {when} (harness {self.before} → {self.after}): {self.counts}"


def _count(n: int, what: str) -> str:
    return f"{n} scenario{'' if n == 1 else 's'} {what}"


def referee_change(before: RunScenarios, after: RunScenarios) -> RefereeChange | None:
    """What the referee changed from `before` to `after` (the module docstring), or None when
    both ran the same harness version or one version is not recorded."""
    if comparable(before.harness_version, after.harness_version):
        return None
    assert before.harness_version is not None  # not comparable: both known
    assert after.harness_version is not None
    old_legs = {(x.revision, x.leg) for x in before.legs if leg_measured(x.state)}
    both = old_legs & {(x.revision, x.leg) for x in after.legs if leg_measured(x.state)}
    listed_before = {s.scenario for s in before.scenarios if (s.revision, s.leg) in both}
    listed_after = {s.scenario for s in after.scenarios if (s.revision, s.leg) in both}
    was, now = before.definitions or {}, after.definitions or {}
    kept = listed_before & listed_after
    return RefereeChange(
        before=before.harness_version,
        after=after.harness_version,
        added=tuple(sorted(listed_after - listed_before)),
        changed=tuple(sorted(s for s in kept if s in was and s in now and was[s] != now[s])),
        unknown=tuple(sorted(s for s in kept if s not in was or s not in now)),
    )


def _label(outcome: Outcome, scored: bool) -> str:
    return outcome if scored or outcome == "absent" else f"not scored: {outcome}"


def comparable(harness_before: str | None, harness_after: str | None) -> bool:
    """Whether two runs' scenarios may be compared: the same harness version, or one unknown.

    A version is unknown only in a file written before it was recorded; treating it as another
    harness would make the first night after an upgrade incomparable for every row.
    """
    return harness_before is None or harness_after is None or harness_before == harness_after


def starts_comparisons(run: RunScenarios) -> bool:
    """Whether a comparison may start from `run`: it measured something (it has a tier)."""
    return run.tier is not None


def tier_dropped(before: RunScenarios, after: RunScenarios) -> bool:
    """The tier went down from `before` to `after`: both judged their tier, on the same basis
    (harness version and requirement sets), and `after`'s is lower (a higher number)."""
    if not (before.judges_tier and after.judges_tier):
        return False
    if not comparable(before.harness_version, after.harness_version):
        return False
    if not comparable(before.requirements_digest, after.requirements_digest):
        return False
    assert before.tier is not None  # judges_tier
    assert after.tier is not None
    return after.tier > before.tier


def leg_measured(state: str) -> bool:
    """A leg state that gives scenario verdicts."""
    return state == "measured"


def leg_unmeasured(state: str) -> bool:
    """A leg state of a leg tried and not (wholly) measured."""
    return state in ("unmeasured", "partially-measured")


def classify(
    before: ScenarioOutcome | None, after: ScenarioOutcome | None
) -> ScenarioChange | None:
    """The class of one scenario between two runs whose leg both measured (None: unchanged).

    `before`/`after` are the scenario as each run lists it, None where it does not."""
    if before is None and after is None:
        return None
    kind = _kind(before, after)
    if kind is None:
        return None
    some = after or before
    assert some is not None  # one of them is listed
    now: Outcome = after.outcome if after else "absent"
    return ScenarioChange(
        kind=kind,
        revision=some.revision,
        leg=some.leg,
        scenario=some.scenario,
        was=before.outcome if before else "absent",
        now=now,
        scored_before=before.scored if before else False,
        scored_after=after.scored if after else False,
        message=after.message if after is not None and now == "failed" else None,
    )


def _kind(before: ScenarioOutcome | None, after: ScenarioOutcome | None) -> ChangeKind | None:
    if before is None:
        return "added"
    if after is None:
        return "removed"
    if before.scored != after.scored:
        return "newly-scored" if after.scored else "no-longer-scored"
    if not after.scored:
        return None
    if before.disputed != after.disputed:
        return "newly-disputed" if after.disputed else "dispute-resolved"
    if after.disputed or before.outcome == after.outcome:
        return None
    if after.outcome == "unmeasured":
        return "newly-unmeasured"
    if before.outcome == "unmeasured":
        return "measured-again"
    return "newly-failing" if after.outcome == "failed" else "fixed"


def _ordered_keys(before: Iterable[_K], after: Iterable[_K]) -> list[_K]:
    """The newer run's keys in its order, then the older run's others in theirs."""
    seen: dict[_K, None] = dict.fromkeys(after)
    for key in before:
        seen.setdefault(key, None)
    return list(seen)


def leg_changes(
    before: RunScenarios, after: RunScenarios
) -> tuple[tuple[LegChange, ...], tuple[LegChange, ...]]:
    """The legs newly unmeasured and the legs measured again from the `before` run to the
    `after` run, by the rule above (what `compare` says of the legs, without the scenarios)."""
    old_legs = {(x.revision, x.leg): x for x in before.legs}
    new_legs = {(x.revision, x.leg): x for x in after.legs}
    newly_unmeasured: list[LegChange] = []
    measured_again: list[LegChange] = []
    for where in _ordered_keys(old_legs, new_legs):
        was, now = old_legs.get(where), new_legs.get(where)
        if was is None or now is None:
            continue
        if leg_measured(was.state) and leg_unmeasured(now.state):
            newly_unmeasured.append(LegChange(*where, was.state, now.state, now.reason or None))
        elif leg_unmeasured(was.state) and leg_measured(now.state):
            measured_again.append(LegChange(*where, was.state, now.state))
    return tuple(newly_unmeasured), tuple(measured_again)


def compare(before: RunScenarios, after: RunScenarios) -> Comparison:
    """What changed from the `before` run to the `after` run, by the rule above."""
    old_legs = {(x.revision, x.leg): x for x in before.legs}
    new_legs = {(x.revision, x.leg): x for x in after.legs}
    newly_unmeasured, measured_again = leg_changes(before, after)
    changes: list[ScenarioChange] = []
    if comparable(before.harness_version, after.harness_version):
        old, new = before.by_key, after.by_key
        # Two runs of one line list the same scenarios, in the same order, most nights.
        same = before.scenario_keys == after.scenario_keys
        for key in after.scenario_keys if same else _ordered_keys(old, new):
            was, now = old.get(key), new.get(key)
            if was is now:
                continue  # the one outcome (as `HistoryStore.runs` shares rows): no change
            where = key[:2]
            was_leg, now_leg = old_legs.get(where), new_legs.get(where)
            if was_leg is None or now_leg is None:
                continue
            if not (leg_measured(was_leg.state) and leg_measured(now_leg.state)):
                continue
            change = classify(was, now)
            if change is not None:
                changes.append(change)
    return Comparison(
        harness_before=before.harness_version,
        harness_after=after.harness_version,
        changes=tuple(changes),
        legs_newly_unmeasured=newly_unmeasured,
        legs_measured_again=measured_again,
        tier_before=before.tier,
        tier_after=after.tier,
        tier_dropped=tier_dropped(before, after),
    )
