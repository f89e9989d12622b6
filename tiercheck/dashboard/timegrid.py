"""The grid as of every night (pure): `nights/<night>/grid.html`, a permalink that never moves.

A night's grid is the cross-SDK grid (`grid.build_grid`) of the runs up to the end of that
night (UTC) — each line's runs until then, the revisions their latest runs claimed then, every
line that had run by then — read from the verdicts the runs recorded, exactly as `grid.html`
was published that night: nothing is scored again, and no run of a later night reaches it.

Built in one reading of each line's runs (`grid.line_cells`): after the last run of each of
a line's nights, the line's cells are kept, with a digest of everything in them so far (each
cell that changed, each run's date, claimed revisions and scenarios scored outside the frozen
sets). A night's `key` is made of those digests, so the next build knows, without building
it, that a night's grid is the one it published — and a later night never changes an earlier
night's key. The grid itself (`NightGrids.grid`) is built only for a night whose page is
rendered.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.dashboard.grid import Grid, GridCell, build_grid, grid_cell, grid_keys, line_cells
from tiercheck.history.record import RunRecord

__all__ = ["NightGrids", "night_grid_page"]


def night_grid_page(night: str) -> str:
    """The page of the grid as of `night` (an ISO date)."""
    return f"nights/{night}/grid.html"


_Sets = Mapping[str, Mapping[str, Sequence[str]]]


_Key = tuple[str, str, str]


@dataclass(frozen=True)
class _Kept:
    """A line after its last run of a night."""

    night: str
    upto: int  # how many of the line's runs (oldest first) the night has
    digest: str
    cells: dict[_Key, GridCell]


def _said(key: _Key, cell: GridCell) -> bytes:
    """What a page shows of a cell, as bytes for the digest."""
    fields = [cell.state, cell.disputed, cell.since, cell.since_run, cell.check, cell.message]
    text = json.dumps([*key, *fields, cell.page], ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass")


def _outside(run: RunRecord, names: Mapping[tuple[str, str], set[str]]) -> str:
    """The scenarios `run` scored outside the frozen sets' `names`, as one text."""
    return "\x1f".join(
        sorted(
            f"{s.revision}/{s.leg}/{s.scenario}"
            for s in run.scenarios
            if s.scored and s.scenario not in names.get((s.revision, s.leg), ())
        )
    )


def _kept(
    line: str, runs: Sequence[RunRecord], keys: list[_Key], pages: Mapping[tuple[str, str], str]
) -> list[_Kept]:
    """The line after the last run of each of its nights, oldest first. A cell is made again
    only when what it shows changed (`grid.line_cells`: its state, the run its stretch began
    with, its dispute, a failure's check and message), and only then added to the digest; a
    night that changed no cell shares the night before's cells."""
    kept: list[_Kept] = []
    names: dict[tuple[str, str], set[str]] = {}
    for revision, leg, name in keys:
        names.setdefault((revision, leg), set()).add(name)
    digest = hashlib.sha256()
    cells: dict[_Key, GridCell] = {}
    for i, (run, changed) in enumerate(line_cells(runs, keys)):
        if changed:
            cells = dict(cells)  # a new one: the nights before keep theirs
        for key, found in changed.items():
            made = grid_cell(line, key[0], found, pages.get((key[1], key[2])))
            cells[key] = made
            digest.update(_said(key, made))
        night = run.timestamp.date().isoformat()
        revisions = " ".join(sorted({x.revision for x in run.legs}))
        said = f"\x1e{night}\x1e{revisions}\x1e{_outside(run, names)}"
        digest.update(said.encode("utf-8", "surrogatepass"))
        entry = _Kept(night, i + 1, digest.copy().hexdigest(), cells)
        if kept and kept[-1].night == night:
            kept[-1] = entry
        else:
            kept.append(entry)
    return kept


class NightGrids:
    """The grid as of each night of `by_line`'s runs (`grid.runs_by_line`) over the frozen sets
    `sets` (revision → leg → its scored scenarios: every revision any run claimed that has
    one), with the scenario `pages` of the site."""

    def __init__(
        self,
        by_line: Mapping[str, Sequence[RunRecord]],
        sets: _Sets,
        *,
        pages: Mapping[tuple[str, str], str],
    ) -> None:
        self._by_line = by_line
        self._sets = sets
        self._pages = pages
        keys = grid_keys(sets)
        self._kept = {
            line: _kept(line, runs, keys, pages) for line, runs in sorted(by_line.items())
        }
        self._nights = {line: [k.night for k in kept] for line, kept in self._kept.items()}
        #: Every night on which some line ran, oldest first.
        self.nights: tuple[str, ...] = tuple(
            sorted({k.night for kept in self._kept.values() for k in kept})
        )
        self._base = json.dumps(
            [
                {
                    r: {leg: list(names) for leg, names in sorted(v.items())}
                    for r, v in sets.items()
                },
                sorted([*key, page] for key, page in pages.items()),
            ],
            ensure_ascii=False,
            sort_keys=True,
        )

    def _as_of(self, night: str) -> dict[str, _Kept]:
        """Each line that had run by the end of `night`, as it stood then."""
        found: dict[str, _Kept] = {}
        for line, nights in self._nights.items():
            i = bisect.bisect_right(nights, night)
            if i:
                found[line] = self._kept[line][i - 1]
        return found

    def key(self, night: str) -> str:
        """A digest of everything the grid as of `night` is made from."""
        lines = sorted((line, k.digest) for line, k in self._as_of(night).items())
        text = json.dumps([self._base, night, lines], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def grid(self, night: str) -> Grid:
        """The grid as of the end of `night`."""
        kept = self._as_of(night)
        by_line = {line: self._by_line[line][: k.upto] for line, k in kept.items()}
        revisions = {x.revision for runs in by_line.values() for x in runs[-1].legs}
        sets = {r: self._sets[r] for r in sorted(revisions) if r in self._sets}
        cells = {line: k.cells for line, k in kept.items()}
        return build_grid(by_line, sets, scenario_pages=self._pages, cells=cells)

    def latest_cells(self) -> dict[str, dict[_Key, GridCell]]:
        """Each line's cells after its last run: the present grid's (`build_grid(cells=…)`)."""
        return {line: kept[-1].cells for line, kept in self._kept.items() if kept}
