"""The label taxonomy check: which of the official triage labels the repository has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tiercheck.governance.signals.base import (
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    alias_map,
    canonical,
)
from tiercheck.governance.snapshot import LabelFacts, Snapshot, Unavailable

__all__ = [
    "CHECK",
    "PRIORITY_LABELS",
    "STATUS_LABELS",
    "TYPE_LABELS",
    "LabelsSignal",
    "labels_signal",
]

CHECK = CheckInfo(
    name="labels",
    rank=2,
    remediation="Create the missing triage labels (type, status and priority)",
    departures=(
        "Label aliases from known_sdks.yaml count as the official label they stand for: the text "
        "asks for the labels, not for one spelling. Issue types are read as the official code "
        "reads them (the repository's issue_types field)."
    ),
)

#: The official label taxonomy (SEP-1730 and `tier-check` labels.ts), compared case-insensitively.
TYPE_LABELS = ("bug", "enhancement", "question")
STATUS_LABELS = (
    "needs confirmation",
    "needs repro",
    "ready for work",
    "good first issue",
    "help wanted",
)
PRIORITY_LABELS = ("P0", "P1", "P2", "P3")


@dataclass(frozen=True)
class LabelsSignal(Signal):
    """The label taxonomy: official field names plus an alias-aware SEP-1730 reading."""

    info = CHECK

    present: int
    required: int
    missing: tuple[str, ...]
    found: tuple[str, ...]
    uses_issue_types: bool
    sep_missing: tuple[str, ...]
    sep_found: tuple[str, ...]
    sep_status: Status
    aliases_applied: Mapping[str, str]

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep_status

    def sep1730_dict(self) -> dict[str, Any]:
        """The alias-aware reading."""
        return {
            "status": self.sep_status,
            "missing": list(self.sep_missing),
            "found": list(self.sep_found),
            "aliases_applied": dict(sorted(self.aliases_applied.items())),
        }


def labels_signal(snapshot: Snapshot, config: SignalConfig) -> LabelsSignal:
    """Which of the official labels the repository has (12, or 9 when it uses issue types).

    The official reading compares names case-insensitively; ours also maps the SDK's
    `label_aliases` (a repository that says ``priority: critical`` for ``P0`` has a P0 label).
    """
    group = snapshot.labels
    if isinstance(group, Unavailable):
        return LabelsSignal(
            status="inconclusive",
            reason=group.reason,
            present=0,
            required=0,
            missing=(),
            found=(),
            uses_issue_types=False,
            sep_missing=(),
            sep_found=(),
            sep_status="inconclusive",
            aliases_applied={},
        )
    assert isinstance(group, LabelFacts)
    required = (() if group.uses_issue_types else TYPE_LABELS) + STATUS_LABELS + PRIORITY_LABELS
    exact = {name.lower() for name in group.names}
    aliases = alias_map(config)
    mapped = {canonical(name, aliases) for name in group.names}
    found = tuple(label for label in required if label.lower() in exact)
    missing = tuple(label for label in required if label.lower() not in exact)
    sep_found = tuple(label for label in required if label.lower() in mapped)
    sep_missing = tuple(label for label in required if label.lower() not in mapped)
    spelled = {repo.lower(): official for repo, official in config.label_aliases.items()}
    applied = {name: spelled[name.lower()] for name in group.names if name.lower() in spelled}
    return LabelsSignal(
        status="fail" if missing else "pass",
        reason=None,
        present=len(found),
        required=len(required),
        missing=missing,
        found=found,
        uses_issue_types=group.uses_issue_types,
        sep_missing=sep_missing,
        sep_found=sep_found,
        sep_status="fail" if sep_missing else "pass",
        aliases_applied=applied,
    )
