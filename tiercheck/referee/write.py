"""Writing a referee change into its tree, for review, and checking it first.

Before anything is written, the proposed `requirements/` is put together in a scratch folder
and read the way tiercheck reads its own (revisions.yaml validated with every set beside it,
each set validated and loaded): a change tiercheck could not read back is refused.

Only the files whose text changes are written, each through `tiercheck.durable`, and only
inside the tree: a path that leads out of it (a link) is refused before anything is written.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tiercheck import durable
from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError, UsageError
from tiercheck.paths import link_out
from tiercheck.referee.proposal import Proposal
from tiercheck.referee.tree import REVISIONS, Tree
from tiercheck.revisions import read_revisions

__all__ = ["problems", "write"]


def _set_problems(path: Path, source: str) -> list[str]:
    raw = load_yaml(path)
    validate(raw, "requirements", source)
    assert isinstance(raw, dict)  # the schema says so
    found = []
    for leg in ("server", "client"):
        scored = set(raw.get(leg) or ())
        for entry in raw.get("not_scored") or ():
            if entry["leg"] == leg and entry["scenario"] in scored:
                found.append(f"{source}: {entry['scenario']} is both scored and not scored")
    if not (raw.get("server") or raw.get("client")):
        found.append(f"{source}: no scored scenario on either leg")
    return found


def problems(proposal: Proposal, tree: Tree) -> list[str]:
    """Why tiercheck could not read the proposed requirements back (empty: it can)."""
    with tempfile.TemporaryDirectory(prefix="tiercheck-referee-") as scratch:
        folder = Path(scratch) / "requirements"
        for name, text in tree.sets.items():
            durable.write_text(folder / f"{name}.yaml", text, sync=False)
        durable.write_text(folder / "revisions.yaml", tree.revisions_text, sync=False)
        for path, text in proposal.files.items():
            if path.startswith("requirements/"):
                durable.write_text(Path(scratch) / path, text, sync=False)
        found: list[str] = []
        try:
            revisions = read_revisions(Path(scratch) / REVISIONS)
            for revision in revisions:
                source = f"requirements/{revision.name}.yaml"
                found += _set_problems(Path(scratch) / source, source)
        except ConfigError as exc:
            found.append(exc.message.replace(scratch + "/", ""))
        return found


def write(proposal: Proposal, tree: Tree) -> tuple[str, ...]:
    """Write the files of `proposal` whose text changes into the tree; the paths written."""
    root = tree.root.resolve()
    changed = proposal.changed(tree)
    for path in changed:
        out = link_out(root, path)
        if out is not None:
            msg = f"--root {tree.root}: {out} leads out of the tree; nothing written"
            raise UsageError(msg)
    for path in changed:
        durable.write_text(root / path, proposal.files[path])
    return changed
