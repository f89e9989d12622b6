"""The SDK's files a claim reads: its documentation, its examples and its policy files.

The one module of `claim/` that touches the disk. It walks the checkout that was assessed (the
pipeline leaves it detached at the measured commit with a clean tree) and hands the rest of the
package plain text, so coverage and policy rules stay pure and testable on a dict.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from tiercheck.claim.baseline import BaselineSource
from tiercheck.claim.header import Manifest, TagFact
from tiercheck.claim.tree import SourceTree
from tiercheck.paths import inside, link_out
from tiercheck.target import choose_release_tag

__all__ = [
    "DOC_SUFFIXES",
    "SourceTree",
    "classify",
    "read_baselines",
    "read_manifest",
    "read_release",
    "read_root_names",
    "read_tree",
    "read_tree_at",
]

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
#: `docs_src` holds the code a documentation site includes (python-sdk, FastAPI style).
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample", "docs_src"})
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
    name = pure.name.lower()
    if name.endswith("_test.go") and (
        name.startswith("example") or name.endswith("_example_test.go")
    ):
        # Go's Example functions render on pkg.go.dev: the language's own way to document.
        return "example"
    if suffix in DOC_SUFFIXES and stem not in _NOT_DOCS and stem != "requirements":
        return "docs"
    return None


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


def _read_inside(root: Path, rel: str) -> str | None:
    """The text of `root/rel` when it is a file that stays inside `root` (`root` resolved)."""
    full = root / rel
    if not full.is_file() or link_out(root, rel) is not None:
        return None
    return _read(full)


@dataclass
class _Found:
    """What a read of a checkout has found so far: each file's kind and text by its path,
    the links that lead out of it, and whether the walk stopped at `_MAX_FILES`."""

    kinds: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    links_out: set[str] = field(default_factory=set)
    truncated: bool = False


def _walked_dirs(root: Path, here: Path, names: Iterable[str], found: _Found) -> list[str]:
    """The folders of `here` the walk goes into, sorted: not skipped (`_SKIP_DIRS`), not
    hidden, not a link (one that leads out of `root` is recorded)."""
    walked = []
    for name in sorted(names):
        if name.lower() in _SKIP_DIRS or name.startswith("."):
            continue
        if (here / name).is_symlink():  # os.walk does not descend into it either
            if not inside(root, here / name):
                found.links_out.add((here / name).relative_to(root).as_posix())
            continue
        walked.append(name)
    return walked


def _walk(root: Path, found: _Found) -> None:
    """Read every documentation and example file under `root` (`classify`) into `found`, up
    to `_MAX_FILES` files seen; a file that is a link is not read (one that leads out of
    `root` is recorded)."""
    seen = 0
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = _walked_dirs(root, here, dirs, found)
        for name in sorted(files):
            seen += 1
            if seen > _MAX_FILES:
                found.truncated = True
                return
            full = here / name
            rel = full.relative_to(root).as_posix()
            if full.is_symlink():
                if not inside(root, full):
                    found.links_out.add(rel)
                continue
            kind = classify(rel)
            if kind is None:
                continue
            text = _read(full)
            if text is not None:
                found.kinds[rel] = kind
                found.texts[rel] = text


def _read_extra(root: Path, extra: Iterable[str], found: _Found) -> None:
    """Read each path of `extra` the walk did not, as a policy file, when it is there and
    stays inside `root` (a link leading out of it is recorded instead)."""
    for rel in extra:
        if rel in found.texts or not os.path.lexists(root / rel):
            continue
        leaving = link_out(root, rel)
        if leaving is not None:
            found.links_out.add(leaving)
            continue
        text = _read_inside(root, rel)
        if text is not None:
            found.kinds[rel] = "policy"
            found.texts[rel] = text


def read_tree(root: Path, extra: tuple[str, ...] = ()) -> SourceTree:
    """The documentation and example files under `root`, plus each path of `extra` if present.

    `extra` names files read whatever their kind (the policy files, `.github/dependabot.yml`).

    Nothing outside the checkout is read: a symbolic link (to a folder or a file) that leads
    out of it is not followed, and is recorded by its own path in `links_out`, never by where
    it points. The walk follows no link at all, even one that stays inside: its target is read
    at its own path, so nothing counts twice. An `extra` path may go through a link that stays
    inside (`CONTRIBUTING.md` → `.github/CONTRIBUTING.md`) and is read under the name asked for.
    """
    root = root.resolve()
    found = _Found()
    _walk(root, found)
    _read_extra(root, extra, found)
    return SourceTree(
        str(root), found.kinds, found.texts, found.truncated, tuple(sorted(found.links_out))
    )


def _kind_at(path: str) -> str | None:
    """`classify`, for a path of a commit: the directories `read_tree` skips are skipped too."""
    parts = PurePosixPath(path).parts[:-1]
    if any(p.lower() in _SKIP_DIRS or p.startswith(".") for p in parts):
        return None
    return classify(path)


def read_tree_at(root: Path, ref: str) -> tuple[SourceTree, str]:
    """The documentation and example files of `ref` (a branch, tag or commit of the checkout
    at `root`), read from git's objects without checking anything out, and the commit `ref`
    names. Raises UsageError when `ref` names nothing there."""
    from tiercheck.errors import UsageError
    from tiercheck.sdk.checkout import files_at, resolve_ref

    commit = resolve_ref(root, ref)
    if commit is None:
        msg = f"--docs-ref {ref!r}: not a branch, tag or commit of {root}"
        raise UsageError(msg)
    kinds: dict[str, str] = {}
    texts: dict[str, str] = {}
    truncated = False
    for path, data in files_at(root, commit, lambda p: _kind_at(p) is not None, _MAX_BYTES):
        if len(kinds) >= _MAX_FILES:
            truncated = True
            break
        if b"\0" in data[:4096]:
            continue
        kind = _kind_at(path)
        if kind is not None:
            kinds[path] = kind
            texts[path] = data.decode("utf-8", errors="replace")
    return SourceTree(f"{root}@{commit}", kinds, texts, truncated), commit


def read_release(root: Path, commit: str | None, tag_prefix: str | None) -> TagFact | None:
    """The release tag the commit at `root` carries (`target.choose_release_tag`), with the
    number of commits since it; None when the checkout has no git history or no release tag."""
    from tiercheck.sdk.checkout import commits_between, tags_merged

    if not commit:
        return None
    chosen = choose_release_tag(tags_merged(root, commit), tag_prefix)
    if chosen is None:
        return None
    tag, date = chosen
    return TagFact(tag, date, commits_between(root, f"refs/tags/{tag}", commit))


def _toml_name(text: str, table: str) -> str | None:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    block = data.get(table)
    name = block.get("name") if isinstance(block, dict) else None
    return name if isinstance(name, str) and name else None


def _json_name(text: str) -> str | None:
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("private") is True:
        return None
    name = data.get("name")
    return name if isinstance(name, str) and name else None


def _maven_name(text: str) -> str | None:
    import re

    # The project's own coordinates come before <dependencies>; a parent's are inside <parent>.
    head = re.sub(
        r"<parent>.*?</parent>", "", text.split("<dependencies>", maxsplit=1)[0], flags=re.S
    )
    group = re.search(r"<groupId>\s*([^<\s]+)\s*</groupId>", head)
    artifact = re.search(r"<artifactId>\s*([^<\s]+)\s*</artifactId>", head)
    return f"{group.group(1)}/{artifact.group(1)}" if group and artifact else None


def _go_module(text: str) -> str | None:
    import re

    match = re.search(r"^module\s+(\S+)", text, re.M)
    return match.group(1) if match else None


def read_root_names(root: Path) -> tuple[str, ...]:
    """The names of the files at the checkout's root (for its language), sorted; none when it
    cannot be listed."""
    try:
        return tuple(sorted(p.name for p in root.iterdir() if p.is_file()))
    except OSError:
        return ()


def read_manifest(root: Path) -> Manifest | None:
    """The package the checkout's root manifest publishes (pyproject.toml, package.json, go.mod,
    Cargo.toml, composer.json, *.gemspec, pom.xml), for the registry link of its release. A
    manifest that is a link out of the checkout is not read."""
    import re

    readers = (
        ("pyproject.toml", "pypi", lambda t: _toml_name(t, "project")),
        ("go.mod", "go", _go_module),
        ("Cargo.toml", "crates", lambda t: _toml_name(t, "package")),
        ("package.json", "npm", _json_name),
        ("composer.json", "packagist", _json_name),
        ("pom.xml", "maven", _maven_name),
    )
    root = root.resolve()
    for name, kind, read in readers:
        text = _read_inside(root, name)
        if text is not None and (found := read(text)):
            return Manifest(kind, found)
    for spec in sorted(root.glob("*.gemspec")):
        text = _read_inside(root, spec.name) or ""
        match = re.search(r"\.name\s*=\s*[\"']([^\"']+)[\"']", text)
        if match:
            return Manifest("rubygems", match.group(1))
    return None


def read_baselines(root: Path | None, paths: Iterable[str]) -> dict[str, BaselineSource]:
    """Each baseline file the scorecard names (relative to the checkout unless absolute), with
    its path inside the checkout (for links) and its text (for the reasons its comments give).

    A file inside the checkout is read only when it stays inside: through a link that leads
    out, it has no text. An absolute path elsewhere is the operator's own file
    (`--expected-failures`), read as given."""
    found: dict[str, BaselineSource] = {}
    for name in paths:
        path = Path(name)
        if root is None:
            text = _read(path) if path.is_absolute() and path.is_file() else None
            found[name] = BaselineSource(None if path.is_absolute() else name, text)
            continue
        base = root.resolve()
        rel = _under(root, path) or _under(base, path)
        if rel is None:
            found[name] = BaselineSource(None, _read(path) if path.is_file() else None)
            continue
        found[name] = BaselineSource(rel, _read_inside(base, rel))
    return found


def _under(root: Path, path: Path) -> str | None:
    """`path` (relative to `root` unless absolute) as a POSIX path below `root` as written (no
    link followed), or None when it names a file elsewhere."""
    full = Path(os.path.normpath(path if path.is_absolute() else Path.cwd() / root / path))
    try:
        rel = full.relative_to(os.path.normpath(Path.cwd() / root))
    except ValueError:
        return None
    return rel.as_posix() if rel.parts else None
