"""`--expected-failures SPEC`: which baseline file applies to which leg at which revision.

SDK repositories keep their baselines in several ways: one file for everything (go-sdk), one
file per revision holding both legs (typescript-sdk, python-sdk), one file per leg and per
revision (tower-mcp). The flag says each of them, repeated as often as needed:

    FILE            both legs, every revision
    LEG=FILE        one leg (server or client), every revision
    @REV=FILE       both legs at one revision
    LEG@REV=FILE    one leg at one revision

For one leg at one revision the most specific SPEC that names them wins (a revision outranks a
leg, as `spec_overrides.<rev>` outranks the entry's top level in known_sdks.yaml); of two
equally specific ones, the later. Pure: no file is read here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from tiercheck.revisions import Leg
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BaselineSpec", "check_claimed", "parse_baseline_spec", "pick_baseline"]

#: The legs (tiercheck.revisions.LEGS; that module reads YAML, which start-up does not load).
_LEGS = ("server", "client")
#: Text before `=` that reads as LEG@REV (no path in it), so `sever=b.yml` is a typo'd leg.
_WHERE = re.compile(r"[A-Za-z_-]*(?:@[^/\\]*)?")
_FORMS = "FILE, LEG=FILE, @REV=FILE or LEG@REV=FILE (LEG: server or client)"


@dataclass(frozen=True)
class BaselineSpec:
    """One `--expected-failures` value: a file, and the leg and revision it is for (None: all)."""

    file: str
    leg: Leg | None = None
    revision: str | None = None

    @property
    def text(self) -> str:
        """The SPEC as the command line writes it."""
        where = (self.leg or "") + (f"@{self.revision}" if self.revision else "")
        return f"{where}={self.file}" if where else self.file

    @property
    def rank(self) -> int:
        """How specific it is: a revision counts more than a leg."""
        return (2 if self.revision else 0) + (1 if self.leg else 0)

    def applies(self, leg: str, revision: str) -> bool:
        """Whether it names `leg` at `revision` (directly or as "all")."""
        return self.leg in (None, leg) and self.revision in (None, revision)


def parse_baseline_spec(text: str) -> BaselineSpec:
    """`FILE`, `LEG=FILE`, `@REV=FILE` or `LEG@REV=FILE`; anything else is a ValueError.

    Text before the first `=` is read as LEG@REV when it holds no path (a word, an `@`): a file
    whose name holds `=` is named with its folder (`./a=b.yml`).
    """
    from tiercheck.revisions import is_known_revision, unknown_revision

    if not text:
        msg = f"empty; give {_FORMS}"
        raise ValueError(msg)
    head, eq, tail = text.partition("=")
    if not eq or not head or not _WHERE.fullmatch(head):
        return BaselineSpec(text)
    leg, at, revision = head.partition("@")
    if leg and leg not in _LEGS:
        msg = f"{text!r}: unknown leg {leg!r}; give {_FORMS}"
        raise ValueError(msg)
    if at and not revision:
        msg = f"{text!r}: no revision after '@'; give {_FORMS}"
        raise ValueError(msg)
    if revision and not is_known_revision(revision):
        msg = f"{text!r}: {unknown_revision(revision)}"
        raise ValueError(msg)
    if not tail:
        msg = f"{text!r}: no file after '='; give {_FORMS}"
        raise ValueError(msg)
    return BaselineSpec(tail, cast("Leg", leg) if leg else None, revision or None)


def pick_baseline(specs: Sequence[BaselineSpec], leg: str, revision: str) -> BaselineSpec | None:
    """The SPEC in force for `leg` at `revision`: the most specific, of those the later."""
    chosen: BaselineSpec | None = None
    for spec in specs:
        if spec.applies(leg, revision) and (chosen is None or spec.rank >= chosen.rank):
            chosen = spec
    return chosen


def check_claimed(specs: Sequence[BaselineSpec], name: str, claimed: Sequence[str]) -> None:
    """Refuse (UsageError) a SPEC for a revision the SDK does not claim: it would apply nowhere."""
    from tiercheck.errors import UsageError

    for spec in specs:
        if spec.revision is not None and spec.revision not in claimed:
            msg = (
                f"--expected-failures {spec.text}: {name} claims only {', '.join(claimed)}; "
                f"it is not assessed at {spec.revision}"
            )
            raise UsageError(msg)
