"""Where tiercheck finds its data files and keeps its cache."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir", "data_path", "default_cache_dir", "project_root"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path | None:
    """The source checkout tiercheck runs from (it has known_sdks.yaml), or None when installed."""
    candidate = _PACKAGE_DIR.parent.parent
    if (candidate / "known_sdks.yaml").is_file() and (candidate / "requirements").is_dir():
        return candidate
    return None


def data_path(*parts: str) -> Path:
    """A top-level data file (known_sdks.yaml, requirements/…, runners/…).

    From a source checkout the editable files at the top level win, so a user's edit takes
    effect at once; an installed wheel carries copies under `tiercheck/_data/`.
    """
    root = project_root()
    if root is not None:
        return root.joinpath(*parts)
    return _PACKAGE_DIR.joinpath("_data", *parts)


def default_cache_dir() -> Path:
    """`TIERCHECK_CACHE`, else `$XDG_CACHE_HOME/tiercheck`, else `~/.cache/tiercheck`."""
    explicit = os.environ.get("TIERCHECK_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "tiercheck"


def cache_dir(given: str | None) -> Path:
    """`--cache-dir` when given, else the default cache directory."""
    return Path(given).expanduser() if given else default_cache_dir()
