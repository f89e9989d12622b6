"""Triage links on the dashboard (pure): which reviewed entry speaks for a failure, and which
entries are stale.

`Triage.lookup(line, revision, leg, scenario)` is the one lookup every page uses (the line
pages, the scenario pages, the tracking issues, any grid): the most specific entry wins — one
naming both revision and leg, then one naming the leg, then one naming the revision, then one
naming neither.

An entry is judged against each line's latest verdicts, as a baseline entry is against a run
(`tiercheck.baseline`): *met* while a failure it covers is failing now; *stale* when the
failure is gone — the scenario passes now wherever the entry reaches, or the line or the
scenario is no longer in the history; *not measured* when the legs it reaches were not measured
by the line's latest run (neither met nor stale).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tiercheck.config.triage import TriageEntry
from tiercheck.dashboard.model import ScenarioIndex

__all__ = ["Triage", "TriageEntry", "TriageState", "TriageStatus", "judge_triage"]

TriageState = Literal["met", "stale", "not-measured"]


@dataclass(frozen=True)
class TriageStatus:
    """One entry and how the latest verdicts judge it."""

    entry: TriageEntry
    state: TriageState
    #: One line: why (stale: what to do about it).
    reason: str

    @property
    def stale(self) -> bool:
        """The failure is gone: the entry should be removed."""
        return self.state == "stale"


def _reaches(entry: TriageEntry, revision: str, leg: str) -> bool:
    return entry.revision in (None, revision) and entry.leg in (None, leg)


class Triage:
    """The reviewed entries, looked up by failure."""

    def __init__(self, entries: Iterable[TriageEntry] = ()) -> None:
        self.entries: tuple[TriageEntry, ...] = tuple(entries)
        self._by: dict[tuple[str, str], list[TriageEntry]] = {}
        for entry in self.entries:
            self._by.setdefault((entry.line, entry.scenario), []).append(entry)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def lookup(self, line: str, revision: str, leg: str, scenario: str) -> TriageEntry | None:
        """The entry for `scenario` failing in `line` at `revision` and `leg`, or None."""
        found = [e for e in self._by.get((line, scenario), ()) if _reaches(e, revision, leg)]
        found.sort(key=lambda e: (e.leg is None, e.revision is None))
        return found[0] if found else None

    def of_line(self, line: str) -> list[TriageEntry]:
        """The entries naming `line`, in the file's order."""
        return [e for e in self.entries if e.line == line]


def judge_triage(
    entries: Sequence[TriageEntry], scenarios: ScenarioIndex, lines: Iterable[str]
) -> list[TriageStatus]:
    """Each entry, judged against the latest verdict of every line × revision of its scenario
    (`ScenarioIndex`: the dashboard's own document); `lines` are the history's lines."""
    rows: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    known = set(lines)
    for page in scenarios.scenarios:
        for row in page.lines:
            rows.setdefault((row.line, page.scenario), []).append(
                (row.revision, page.leg, row.state)
            )
    out = []
    for entry in entries:
        found = [
            state
            for revision, leg, state in rows.get((entry.line, entry.scenario), ())
            if _reaches(entry, revision, leg)
        ]
        if "failing" in found:
            out.append(TriageStatus(entry, "met", "failing now"))
        elif "passing" in found:
            out.append(TriageStatus(entry, "stale", "the scenario passes now; remove the entry"))
        elif found:
            out.append(TriageStatus(entry, "not-measured", "not measured in the line's latest run"))
        elif entry.line not in known:
            why = "the history has no line of that name; remove the entry"
            out.append(TriageStatus(entry, "stale", why))
        else:
            why = "the line's latest run has no such scenario there; remove the entry"
            out.append(TriageStatus(entry, "stale", why))
    return out
