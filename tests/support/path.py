"""A PATH that hides some tools and keeps every other one.

Dropping each PATH folder that holds a tool hides far more than the tool: on a machine where
pnpm is installed system-wide it lives in /usr/bin, with git and node. `path_without` builds a
folder of links to every executable on PATH but the hidden ones, the first of each name as PATH
finds it, and returns that folder as the new PATH.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["path_without"]


def _executables(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError:  # a PATH entry that is missing or unreadable finds nothing
        return []
    return [e for e in entries if e.is_file() and os.access(e, os.X_OK)]


def path_without(*tools: str, folder: Path, path: str | None = None) -> str:
    """A PATH on which none of `tools` is found and every other executable of `path` (default
    the current PATH) is: `folder` (created), holding a link to each, by the name PATH finds it
    under and to the file PATH finds first."""
    folder.mkdir(parents=True, exist_ok=True)
    hidden = set(tools)
    original = os.environ.get("PATH", "") if path is None else path
    for entry in original.split(os.pathsep):
        if not entry:
            continue
        for executable in _executables(Path(entry)):
            link = folder / executable.name
            if executable.name in hidden or os.path.lexists(link):
                continue
            link.symlink_to(executable.absolute())
    return str(folder)
