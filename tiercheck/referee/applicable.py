"""Which listed scenarios the harness does not apply at a spec revision, and why.

`conformance list --server` (and `--client`) prints, in brackets after each scenario, the spec
versions it applies to (`- initialize [2025-06-18,2025-11-25]`), or `extension` for one off the
spec timeline. The harness runs a scenario only at a version it applies to (elsewhere it skips it
as "not applicable at spec version …", introduced in X, removed in Y), and neither requirement
set scores one outside its versions. Read from those brackets alone:

* the timeline is every dated version listed, in order, with the revision asked about;
* a scenario listed for a version before the revision, but not for the revision, was
  **removed**: in the first version of the timeline after the last one it applies to before the
  revision (`initialize` at 2026-07-28: removed in 2026-07-28);
* a scenario listed only for versions after the revision is **not yet introduced**: it is
  introduced in the first of them (`server-stateless` at 2025-11-25: introduced in 2026-07-28).

An extension scenario, one listed without versions, and one listed for the revision are none
of these. Pure: the listing arrives already read (`referee.bundle`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["Inapplicable", "Why", "inapplicable", "timeline"]

#: removed: listed up to an earlier version; not-yet-introduced: listed from a later one.
Why = Literal["removed", "not-yet-introduced"]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Inapplicable:
    """A listed scenario the harness does not apply at a revision."""

    scenario: str
    leg: str
    why: Why
    #: The version it was removed in, or is introduced in.
    version: str
    #: The versions the harness lists it for.
    applies: tuple[str, ...]


def _dated(applies: Iterable[str]) -> list[str]:
    return sorted({v for v in applies if _DATE.fullmatch(v)})


def timeline(listed: Mapping[str, Mapping[str, Iterable[str]]], *also: str) -> list[str]:
    """Every dated version the listing names (leg → scenario → versions), with `also`, in
    order."""
    found = {v for leg in listed.values() for applies in leg.values() for v in _dated(applies)}
    return sorted(found | {v for v in also if _DATE.fullmatch(v)})


def inapplicable(
    listed: Mapping[str, Mapping[str, Iterable[str]]], revision: str, legs: Iterable[str]
) -> tuple[Inapplicable, ...]:
    """The scenarios of `legs` that the listing (leg → scenario → versions, in the harness's
    order) does not apply at `revision`: removed before it or not yet introduced, leg by leg in
    the order of `legs`, each leg's in its listed order. Empty when `revision` is not a date."""
    if not _DATE.fullmatch(revision):
        return ()
    versions = timeline(listed, revision)
    found: list[Inapplicable] = []
    for leg in legs:
        for name, applies in listed.get(leg, {}).items():
            dated = _dated(applies)
            if not dated or revision in dated:
                continue
            before = [v for v in dated if v < revision]
            if before:
                removed = next(v for v in versions if v > before[-1])
                found.append(Inapplicable(name, leg, "removed", removed, tuple(dated)))
            else:
                found.append(Inapplicable(name, leg, "not-yet-introduced", dated[0], tuple(dated)))
    return tuple(found)
