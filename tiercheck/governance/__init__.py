"""Governance: collect GitHub facts into a snapshot, then judge it with pure signal functions.

`snapshot` is the model and its JSON form, `collector` fills it from GitHub (through one
`tiercheck.ghapi` session), `obtain` skips, replays or collects a snapshot and judges it,
`signals` turns (snapshot, as_of) into the six scorecard checks, and `table` shows the checks
of `tier-check governance` as a plain-text table.
"""

from __future__ import annotations
