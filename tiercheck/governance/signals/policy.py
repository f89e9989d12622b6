"""The policy-files check: which policy documents the repository publishes (informational)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tiercheck.governance.signals.base import CheckInfo, Signal, Status
from tiercheck.governance.snapshot import PolicyFileFacts, Snapshot, Unavailable

__all__ = ["CHECK", "OFFICIAL_POLICY_PATHS", "POLICY_CATEGORIES", "PolicySignal", "policy_signal"]

CHECK = CheckInfo(
    name="policy_signals",
    rank=7,
    remediation=(
        "Publish CHANGELOG, SECURITY, CONTRIBUTING, dependency, roadmap and versioning policies"
    ),
    departures=(
        "Informational, as officially. Each policy is looked for case-insensitively, with any "
        "extension, at the root, in .github/ or in docs/, and one file per category is enough "
        "(not all 13 official paths)."
    ),
)

#: The 13 paths `tier-check` files.ts requests, exactly (case-sensitive, root-relative).
OFFICIAL_POLICY_PATHS = (
    "CHANGELOG.md",
    "SECURITY.md",
    "CONTRIBUTING.md",
    "DEPENDENCY_POLICY.md",
    "docs/dependency-policy.md",
    ".github/dependabot.yml",
    ".github/renovate.json",
    "renovate.json",
    "ROADMAP.md",
    "docs/roadmap.md",
    "VERSIONING.md",
    "docs/versioning.md",
    "BREAKING_CHANGES.md",
)

#: Our categories: file stems (lower case, `-` and `_` equivalent) that satisfy each.
POLICY_CATEGORIES: Mapping[str, tuple[str, ...]] = {
    "changelog": ("changelog", "changes", "history", "news", "releases"),
    "security": ("security",),
    "contributing": ("contributing",),
    "dependency_policy": (
        "dependency_policy",
        "dependencies",
        "dependabot",
        "renovate",
        ".renovaterc",
        "renovaterc",
    ),
    "roadmap": ("roadmap",),
    "versioning": ("versioning", "breaking_changes", "versioning_policy", "release_policy"),
}
_POLICY_DIRS = ("", ".github/", "docs/")


@dataclass(frozen=True)
class PolicySignal(Signal):
    """Policy documents: the official 13 exact paths, and our case-insensitive search."""

    info = CHECK

    files: Mapping[str, bool]
    categories: Mapping[str, tuple[str, ...]]
    sep_status: Status

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep_status

    def official_fields(self) -> dict[str, Any]:
        """Official `PolicySignalsResult` fields."""
        return {"files": dict(self.files)}

    def sep1730_dict(self) -> dict[str, Any]:
        """The wider, case-insensitive search."""
        return {
            "status": self.sep_status,
            "categories": {name: list(paths) for name, paths in self.categories.items()},
        }


def _category_status(found: int, total: int) -> Status:
    if found == total:
        return "pass"
    return "partial" if found else "fail"


def _stem(name: str) -> str:
    """The name before its first extension, lower case, `-` read as `_`.

    ``Dependency-Policy.MD`` → ``dependency_policy``; ``.renovaterc.json`` → ``.renovaterc``.
    """
    lowered = name.lower().replace("-", "_")
    if lowered.startswith("."):
        return "." + lowered[1:].partition(".")[0]
    return lowered.partition(".")[0]


def policy_signal(snapshot: Snapshot) -> PolicySignal:
    """Which policy documents exist (informational in both readings; never a tier blocker).

    Official: the 13 exact paths of `tier-check` files.ts; pass only when all 13 exist, partial
    when some do. Ours: CHANGELOG, SECURITY,
    CONTRIBUTING, a dependency policy (or a Dependabot/Renovate config), a roadmap and a
    versioning policy, case-insensitive, any extension, at the root, in `.github/` or `docs/`.
    """
    group = snapshot.policy_files
    if isinstance(group, Unavailable):
        return PolicySignal(
            status="inconclusive",
            reason=group.reason,
            files=dict.fromkeys(OFFICIAL_POLICY_PATHS, False),
            categories=dict.fromkeys(POLICY_CATEGORIES, ()),
            sep_status="inconclusive",
        )
    assert isinstance(group, PolicyFileFacts)
    paths = set(group.paths)
    files = {path: path in paths for path in OFFICIAL_POLICY_PATHS}
    categories: dict[str, tuple[str, ...]] = {}
    for name, stems in POLICY_CATEGORIES.items():
        matches = []
        for path in sorted(group.paths):
            directory, _, base = path.rpartition("/")
            prefix = f"{directory}/" if directory else ""
            if prefix.lower() in _POLICY_DIRS and _stem(base) in stems:
                matches.append(path)
        categories[name] = tuple(matches)
    return PolicySignal(
        # Officially (the pinned files.ts) pass needs all 13 paths, some is partial, none fail.
        status=_category_status(sum(files.values()), len(files)),
        reason=None,
        files=files,
        categories=categories,
        sep_status=_category_status(sum(1 for m in categories.values() if m), len(categories)),
    )


# --- all six -------------------------------------------------------------------------------
