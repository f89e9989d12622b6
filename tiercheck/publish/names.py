"""Which names a site may hold (pure): the paths and badge names publish writes or removes.

A previous build's records (`.tiercheck-site.json`, `badges/aliases.json`) sit in the site
folder, where anything may have changed them; what they name is acted on only when it is a
plain path inside the site (`site_path`) or a plain badge name (`badge_name`); an alias given
on the command line must be one too, and no `..` in it (`alias_name`). And a site is
checked out on case-insensitive disks too (macOS, Windows): `CaseFold` keeps the first of two
paths that would be one file (or one folder) there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["ALIAS_NAME", "CaseFold", "alias_name", "badge_name", "site_path"]

#: One part of a site path: letters, digits, `.`, `_`, `-` (what slugs and the fixed files use).
_PART = re.compile(r"^[A-Za-z0-9._-]{1,255}$")
#: A badge name: a slug (`tiercheck.history.datafile.line_slug` makes nothing else).
_BADGE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
#: What `alias_name` takes, as a refusal says it.
ALIAS_NAME = (
    "letters, digits, '.', '_' and '-', the first a letter or digit, no '..', "
    "at most 128 characters"
)


def site_path(text: object) -> str | None:
    """`text` when it names a file inside the site, else None.

    Inside means relative, `/`-separated and normalised: no empty, `.` or `..` part, no
    backslash, drive, NUL or other character outside letters, digits, `.`, `_` and `-`.
    """
    if not isinstance(text, str):
        return None
    parts = text.split("/")
    if any(part in (".", "..") or not _PART.match(part) for part in parts):
        return None
    return text


def badge_name(text: object) -> str | None:
    """`text` when it can name a badge (`badges/<name>.svg`), else None."""
    if isinstance(text, str) and _BADGE.match(text) and text not in (".", ".."):
        return text
    return None


def alias_name(text: object) -> str | None:
    """`text` when it can name a badge alias given on the command line (`--alias OLD=NEW`):
    a badge name with no `..` in it (`ALIAS_NAME`), else None."""
    name = badge_name(text)
    return name if name is not None and ".." not in name else None


@dataclass
class CaseFold:
    """The paths of one site, none two of which are one file or folder under `casefold()`."""

    #: casefolded path or folder → the spelling taken first.
    _taken: dict[str, str] = field(default_factory=dict)
    _files: set[str] = field(default_factory=set)

    def clash(self, path: str) -> str | None:
        """The path or folder already taken that `path` (or one of its folders) would be on a
        case-insensitive disk, or None; `path` is taken when there is none."""
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        if path in self._files:
            return path
        for prefix in prefixes:
            seen = self._taken.get(prefix.casefold())
            if seen is not None and seen != prefix:
                return seen
        for prefix in prefixes:
            self._taken.setdefault(prefix.casefold(), prefix)
        self._files.add(path)
        return None
