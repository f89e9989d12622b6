"""Where tiercheck finds its data files and keeps its cache, and whether a path in a tree it was
given stays inside that tree."""

from __future__ import annotations

import os
from functools import cache
from importlib.resources import files
from pathlib import Path, PurePosixPath

from tiercheck.errors import UsageError

__all__ = [
    "CACHE_ENV",
    "cache_dir",
    "data_path",
    "default_cache_dir",
    "inside",
    "link_out",
    "writable_dir",
]


def data_path(*parts: str) -> Path:
    """A top-level data file (known_sdks.yaml, requirements/…, runners/…).

    One resolver for every layout: the package's `_data/` holds links to the top-level files in
    a source checkout (so an edit to known_sdks.yaml takes effect at once in an editable
    install), and the files themselves in a built wheel.
    """
    return _data_root().joinpath(*parts)


@cache
def _data_root() -> Path:
    """The package's `_data/` folder, looked up once."""
    return Path(str(files("tiercheck").joinpath("_data")))


#: The environment variable that names the cache folder.
CACHE_ENV = "TIERCHECK_CACHE"


def default_cache_dir() -> Path:
    """`TIERCHECK_CACHE`, else `$XDG_CACHE_HOME/tiercheck`, else `~/.cache/tiercheck`."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "tiercheck"


def cache_dir(given: str | None) -> Path:
    """`--cache-dir` when given, else the default cache directory."""
    return Path(given).expanduser() if given else default_cache_dir()


def writable_dir(path: Path, where: str) -> Path:
    """`path` if it is, or can be made, a directory we can write in; UsageError otherwise.

    Checked before any work, so a bad `--out` or `--cache-dir` costs one line, not a
    clone and a build first. Nothing is created here.
    """
    probe = path
    try:
        while not probe.exists() and probe.parent != probe:
            probe = probe.parent
        is_dir = probe.is_dir()
    except OSError as exc:
        raise UsageError(f"{where} {path}: cannot be checked: {exc.strerror or exc}") from None
    if not is_dir:
        what = "is a file" if probe == path else f"is under {probe}, which is a file"
        raise UsageError(f"{where} {path}: {what}, not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        read_only = bool(os.statvfs(probe).f_flag & os.ST_RDONLY)
        why = "is on a read-only file system" if read_only else "is not writable"
        shown = path if probe == path else f"{path}: {probe}"
        raise UsageError(f"{where} {shown} {why}")
    return path


def inside(root: Path, path: Path) -> bool:
    """Whether `path`, every link on the way followed, is `root` or below it (`root` resolved)."""
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a loop of links leads nowhere
        return False


def link_out(root: Path, rel: str) -> str | None:
    """The first part of `rel` (a POSIX path under `root`) that leads out of `root`, or None."""
    parts = PurePosixPath(rel).parts
    for end in range(1, len(parts) + 1):
        if not inside(root, root.joinpath(*parts[:end])):
            return "/".join(parts[:end])
    return None
