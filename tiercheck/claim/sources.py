"""The SDK's files a claim reads: its documentation, its examples and its policy files.

The one module of `claim/` that touches the disk. It walks the checkout that was assessed (the
pipeline leaves it detached at the measured commit with a clean tree) and hands the rest of the
package plain text, so coverage and policy rules stay pure and testable on a dict.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

__all__ = ["DOC_SUFFIXES", "SourceTree", "classify", "read_tree"]

#: Prose documentation: what a reader of the repository reads.
DOC_SUFFIXES = frozenset({".md", ".mdx", ".markdown", ".rst", ".adoc", ".txt"})
#: Directories never read: tooling, dependencies, build output, and conformance fixtures
#: (the official rules: a conformance server is not documentation, nor an example).
_SKIP_DIRS = frozenset(
    {
        ".git",
        ".github",
        ".venv",
        "venv",
        "node_modules",
        "vendor",
        "target",
        "dist",
        "build",
        "__pycache__",
        ".tox",
        ".nox",
        "conformance",
        # The conformance "everything" server is a fixture even where it sits under examples/.
        "everything-server",
        "everything-client",
        "testdata",
        # Translations repeat the documentation; the reviewer reads the original.
        "i18n",
        "translations",
        "tests",
        "test",
        "__tests__",
    }
)
#: Files that record history or process, or instruct coding agents, rather than explain the SDK.
_NOT_DOCS = frozenset(
    {"changelog", "changes", "history", "news", "license", "security", "notice", "agents", "claude"}
)
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample"})
_MAX_BYTES = 512 * 1024
_MAX_FILES = 20000


def classify(path: str) -> str | None:
    """`docs`, `example` or None (not read) for a path relative to the checkout root."""
    pure = PurePosixPath(path)
    parts = [p.lower() for p in pure.parts[:-1]]
    stem = pure.stem.lower()
    suffix = pure.suffix.lower()
    if any(p in _EXAMPLE_DIRS for p in parts):
        return "example"
    if pure.name.lower().startswith("example_") and pure.name.endswith("_test.go"):
        # Go's Example functions render on pkg.go.dev: the language's own way to document.
        return "example"
    if suffix in DOC_SUFFIXES and stem not in _NOT_DOCS and stem != "requirements":
        return "docs"
    return None


@dataclass(frozen=True)
class SourceTree:
    """Text files of a checkout by POSIX path, with the kind each one was read as."""

    root: str | None
    kinds: Mapping[str, str] = field(default_factory=dict)
    texts: Mapping[str, str] = field(default_factory=dict)
    truncated: bool = False

    def of_kind(self, kind: str) -> Iterator[tuple[str, str]]:
        """(path, text) of every file read as `kind`, sorted by path."""
        for path in sorted(self.kinds):
            if self.kinds[path] == kind:
                yield path, self.texts[path]

    def text(self, path: str) -> str | None:
        """One file's text, when it was read."""
        return self.texts.get(path)


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", errors="replace")


def read_tree(root: Path, extra: tuple[str, ...] = ()) -> SourceTree:
    """The documentation and example files under `root`, plus each path of `extra` if present.

    `extra` names files read whatever their kind (the policy files, `.github/dependabot.yml`).
    Symbolic links are not followed out of the checkout.
    """
    root = root.resolve()
    kinds: dict[str, str] = {}
    texts: dict[str, str] = {}
    seen = 0
    truncated = False
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d.lower() not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            seen += 1
            if seen > _MAX_FILES:
                truncated = True
                break
            full = Path(directory) / name
            rel = full.relative_to(root).as_posix()
            kind = classify(rel)
            if kind is None or full.is_symlink():
                continue
            text = _read(full)
            if text is not None:
                kinds[rel] = kind
                texts[rel] = text
        if truncated:
            break
    for rel in extra:
        full = root / rel
        if rel in texts or not full.is_file() or full.is_symlink():
            continue
        text = _read(full)
        if text is not None:
            kinds[rel] = "policy"
            texts[rel] = text
    return SourceTree(str(root), kinds, texts, truncated)
