"""Where tiercheck finds its data files and keeps its cache."""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

__all__ = ["cache_dir", "data_path", "default_cache_dir"]


def data_path(*parts: str) -> Path:
    """A top-level data file (known_sdks.yaml, requirements/…, runners/…).

    One resolver for every layout: the package's `_data/` holds links to the top-level files in
    a source checkout (so an edit to known_sdks.yaml takes effect at once in an editable
    install), and the files themselves in a built wheel.
    """
    return Path(str(files("tiercheck").joinpath("_data", *parts)))


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
