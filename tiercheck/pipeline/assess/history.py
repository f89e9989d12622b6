"""The run history around one assessment: the reuse lookup, the scorecard section, the append.

Everything the history database does here is wrapped so that its failure is one warning and
nothing else: history is never the reason a run fails.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from tiercheck.history.files import leg_results_of, requirements_digest
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.section import history_block
from tiercheck.history.store import HistoryError, HistoryStore, ReuseKey, StoredLegResults
from tiercheck.scorecard.model import Scorecard

__all__ = ["HistoryHook"]


class HistoryHook:
    """The history around one assessment: the reuse lookup, the scorecard section, the append.

    After the first failure of the database it warns once and stays out of the way.
    """

    def __init__(self, store: HistoryStore, warn: Callable[[str], None]) -> None:
        self.store = store
        self.broken = False
        self._warn = warn

    def _failed(self, exc: HistoryError) -> None:
        if not self.broken:
            self._warn(f"{exc}; the run goes on without history")
        self.broken = True

    def lookup(
        self, key: ReuseKey
    ) -> tuple[RunRecord, Mapping[tuple[str, str], StoredLegResults]] | None:
        """A stored run to re-use for `key`, or None (also when the database is broken)."""
        if self.broken:
            return None
        try:
            return self.store.reusable(key)
        except HistoryError as exc:
            self._failed(exc)
            return None

    def with_section(self, doc: Scorecard) -> Scorecard:
        """`doc` with its `history` section (unchanged when the database cannot be read)."""
        if self.broken:
            return doc
        current = record_of(doc)
        try:
            before = self.store.runs(current.sdk)
        except HistoryError as exc:
            self._failed(exc)
            return doc
        block = history_block(before, current, database=str(self.store.path))
        if doc.history:  # what --reuse recorded
            block = dataclasses.replace(
                block,
                reused_from=doc.history.reused_from,
                reused_timestamp=doc.history.reused_timestamp,
            )
        return dataclasses.replace(doc, history=block)

    def append(self, doc: Scorecard) -> None:
        """Add the run of `doc` to the database (with its legs' raw results, for --reuse)."""
        if self.broken:
            return
        try:
            self.store.append(
                record_of(doc),
                # A scorecard records its digest; one written before the field is computed.
                requirements_digest=doc.tiercheck.requirements_digest
                or requirements_digest(doc.requirements_revisions),
                leg_results=leg_results_of(doc),
            )
        except HistoryError as exc:
            self._failed(exc)
