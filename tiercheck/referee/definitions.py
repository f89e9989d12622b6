"""What a run records of the harness that judged it: a digest of each scenario's definition.

A scenario's definition, as tiercheck reads it, is the set of checks its code in the harness
bundle can emit (`referee.jsscan`, which the referee's review of a change reads too). A run
records, per scenario it ran, a short digest of those check ids (`harness.definitions` of the
scorecard); two runs under different harness versions then say which of their scenarios the
referee changed (`comparison.referee_change`): a digest that differs is a changed scenario,
one missing on either side is not known. A scenario whose checks could not be read has no
digest. Pure: the bundle's text arrives already read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Final

from tiercheck.referee.jsscan import scan_checks

__all__ = ["DIGEST_CHARS", "definition_digest", "definitions"]

#: Hex digits kept of a definition's digest: two definitions of one scenario never collide.
DIGEST_CHARS: Final = 12


def definition_digest(checks: Iterable[str]) -> str:
    """The digest of a scenario that can emit the check ids `checks` (order and repeats
    aside)."""
    text = "\n".join(sorted(set(checks)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def definitions(source: str, scenarios: Iterable[str]) -> dict[str, str]:
    """Of `scenarios`, each one whose checks are read in the bundle `source` → its digest."""
    found: Mapping[str, Mapping[str, object]] = scan_checks(source, scenarios)
    return {name: definition_digest(checks) for name, checks in sorted(found.items()) if checks}
