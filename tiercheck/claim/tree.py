"""The SDK files a claim reads, as plain text by path: what the pure rules take in.

`sources` fills it from a checkout (or a commit's objects); `docs` and `policies` read it. Kept
apart from `sources` so that the rules, and the reports that render them, never reach the disk.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

__all__ = ["SourceTree"]


@dataclass(frozen=True)
class SourceTree:
    """Text files of a checkout by POSIX path, with the kind each one was read as, and the
    symbolic links that lead out of the checkout (by their own path inside it), never read."""

    root: str | None
    kinds: Mapping[str, str] = field(default_factory=dict)
    texts: Mapping[str, str] = field(default_factory=dict)
    truncated: bool = False
    links_out: tuple[str, ...] = ()

    def of_kind(self, kind: str) -> Iterator[tuple[str, str]]:
        """(path, text) of every file read as `kind`, sorted by path."""
        for path in sorted(self.kinds):
            if self.kinds[path] == kind:
                yield path, self.texts[path]

    def text(self, path: str) -> str | None:
        """One file's text, when it was read."""
        return self.texts.get(path)
