"""Nights of a line across a referee change: the notify nights (`support.notify_nights`) with
the scenario definitions a run records of its harness (`harness.definitions`).

Each scenario's definition is the digest of the checks its harness can emit
(`referee.definitions.definition_digest`): under every harness here a scenario emits
`<scenario>-check`, and a scenario the referee `changed` emits `<scenario>-check-v2` as well.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from tiercheck.referee.definitions import definition_digest
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.readings import revision_scenarios

#: The harness the line moves to on the referee change (`notify_nights.HARNESS` before it).
NEW = "0.2.0-alpha.13"


def definition(name: str, *, changed: bool = False) -> str:
    """The digest of scenario `name`'s definition, as the referee changed it or not."""
    checks = [f"{name}-check", *([f"{name}-check-v2"] if changed else [])]
    return definition_digest(checks)


def with_definitions(doc: Scorecard, changed: Collection[str] = ()) -> Scorecard:
    """`doc` recording the definition of each scenario it ran (those in `changed` changed)."""
    names = {d.scenario for _, _, d in revision_scenarios(doc)}
    found = {name: definition(name, changed=name in changed) for name in sorted(names)}
    return dataclasses.replace(doc, harness=dataclasses.replace(doc.harness, definitions=found))
