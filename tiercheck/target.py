"""What to assess: `--sdk NAME[@REF]`, `--sdk OWNER/REPO[@REF]`, `--sdk-path DIR`; and how a
release tag is read: its version (`parse_release_version`), the line's latest stable release
(`latest_stable_tag`) and the release a commit carries (`choose_release_tag`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.registry import Registry, SdkEntry
from tiercheck.errors import UsageError

__all__ = [
    "STABLE_REF",
    "ParsedVersion",
    "SdkSpec",
    "StableVersion",
    "Target",
    "check_repo",
    "choose_release_tag",
    "latest_stable_tag",
    "no_stable_tag",
    "parse_release_version",
    "parse_sdk_spec",
    "ref_problem",
    "resolve_target",
    "stable_version",
]

#: The ref that names a line's latest stable release (`--sdk go-sdk@stable`): resolved, once
#: the tags are fetched, to the highest stable tag (`latest_stable_tag`). A branch that is
#: itself called `stable` is still reachable as `origin/stable`.
STABLE_REF = "stable"


#: A semantic version at the end of a tag (`v1.2.3`, `rmcp-v3.1.4`, `pkg@1.2.0-rc.1`), in ASCII
#: digits (SEP-1730's ``[0-9]``).
_TRAILING_SEMVER = re.compile(
    r"(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+(?P<build>[0-9A-Za-z.-]+))?\Z",
    re.ASCII,
)


@dataclass(frozen=True)
class ParsedVersion:
    """A semantic version found in a release tag."""

    major: int
    minor: int
    patch: int
    prerelease: str | None
    build: str | None = None

    @property
    def text(self) -> str:
        """The version as written (``1.2.3``, ``1.2.3-rc.1`` or ``1.2.3+build.5``)."""
        base = f"{self.major}.{self.minor}.{self.patch}"
        base = f"{base}-{self.prerelease}" if self.prerelease else base
        return f"{base}+{self.build}" if self.build else base

    @property
    def is_plain(self) -> bool:
        """SEP-1730's ``^[0-9]+\\.[0-9]+\\.[0-9]+$``: no pre-release and no build metadata."""
        return self.prerelease is None and self.build is None

    @property
    def is_stable(self) -> bool:
        """SEP-1730's stable release version: plain ``X.Y.Z`` with X ≥ 1."""
        return self.is_plain and self.major >= 1


def parse_release_version(tag: str, tag_prefix: str | None = None) -> ParsedVersion | None:
    """The semantic version in `tag`, or None: the one reading of a release tag's version.

    With a `tag_prefix` the tag must be exactly ``<tag_prefix>X.Y.Z[-pre][+build]``
    (``rmcp-v3.1.4`` with prefix ``rmcp-v``); without one (None or "") the version is the
    trailing ``X.Y.Z[-pre][+build]`` of the tag on a version boundary, so ``v1.2.3``,
    ``pkg@1.2.3`` and ``server/v1.2.3`` all parse and ``v112.3.4`` is 112.3.4, never 12.3.4.
    """
    if tag_prefix:
        if not tag.startswith(tag_prefix):
            return None
        match = _TRAILING_SEMVER.fullmatch(tag[len(tag_prefix) :])
    else:
        match = _TRAILING_SEMVER.search(tag)
        if match is not None and match.start() > 0 and tag[match.start() - 1].isdigit():
            match = None  # "12.3.4" inside "v112.3.4" is not a version boundary
    if match is None:
        return None
    return ParsedVersion(
        int(match["major"]),
        int(match["minor"]),
        int(match["patch"]),
        match["pre"] or None,
        match["build"] or None,
    )


@dataclass(frozen=True, order=True)
class StableVersion:
    """The X.Y.Z of a stable release tag, ordered as SemVer orders release versions."""

    major: int
    minor: int
    patch: int


def stable_version(tag: str, tag_prefix: str = "") -> StableVersion | None:
    """The version of `tag` when it names a stable release, else None.

    SEP-1730 (sdk-tiers.mdx, "Stable Release"): "a published version explicitly marked as
    production-ready (e.g., version `1.0.0` or higher without pre-release identifiers like
    `-alpha`, `-beta`, or `-rc`)". The tag is read by `parse_release_version`, the reading the
    stable-release signal uses, and counts when `ParsedVersion.is_stable` (plain ``X.Y.Z``,
    X ≥ 1, no pre-release and no build metadata).
    """
    parsed = parse_release_version(tag, tag_prefix or None)
    if parsed is None or not parsed.is_stable:
        return None
    return StableVersion(parsed.major, parsed.minor, parsed.patch)


def latest_stable_tag(tags: Iterable[str], tag_prefix: str = "") -> str | None:
    """The tag of the highest stable release among `tags` (`stable_version`), or None.

    Two tags of one version (``v1.2.0`` and ``1.2.0``) are told apart by name, so the choice
    never depends on the order git lists them in.
    """
    best: tuple[StableVersion, str] | None = None
    for tag in tags:
        version = stable_version(tag, tag_prefix)
        if version is not None and (best is None or (version, tag) > best):
            best = (version, tag)
    return best[1] if best else None


def _release_key(version: ParsedVersion) -> tuple[int, int, int, int]:
    # A plain release ranks above the pre-releases of the same number.
    return (version.major, version.minor, version.patch, 0 if version.prerelease else 1)


def choose_release_tag(
    tags: Iterable[tuple[str, str]], tag_prefix: str | None
) -> tuple[str, str | None] | None:
    """The release a commit carries, as (tag, date or None), from (tag, date) pairs of the tags
    in its history (`sdk.checkout.tags_merged`): the highest stable version
    (`ParsedVersion.is_stable`), else the highest version at all (a 0.x line's newest release);
    None when no tag names a version. Tags are read by `parse_release_version`, so with a
    `tag_prefix` only the tags of exactly that prefix count (`tower-mcp-v0.21.0`, never
    `tower-mcp-macros-v0.4.0`)."""
    parsed = []
    for name, when in tags:
        version = parse_release_version(name, tag_prefix or None)
        if version is not None:
            parsed.append((version, name, when or None))
    if not parsed:
        return None
    stable = [p for p in parsed if p[0].is_stable]
    best = max(stable or parsed, key=lambda p: (_release_key(p[0]), p[1]))
    return best[1], best[2]


def no_stable_tag(repo: str, tag_prefix: str, count: int) -> str:
    """The one line said when `@stable` resolves to nothing."""
    shape = f"{tag_prefix}X.Y.Z" if tag_prefix else "a tag ending in X.Y.Z"
    return (
        f"{repo} has no stable release to assess at @{STABLE_REF}: none of its {count} tags is "
        f"{shape} with X >= 1 and no pre-release suffix (SEP-1730's stable release)"
    )


@dataclass(frozen=True)
class SdkSpec:
    """`name[@ref]` as typed: name may be `owner/repo`."""

    name: str
    ref: str | None


#: GitHub's owner and repository names: letters, digits, `-`, `_` and `.`.
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
#: What `git check-ref-format` refuses in any component, plus what git would read as an
#: option (a leading `-`) and whitespace anywhere.
_BAD_REF = re.compile(r"\.\.|@\{|//|/\.|[\x00-\x20\x7f~^:?*\[\\]")


def check_repo(text: str, where: str) -> str:
    """`text` if it is OWNER/REPO as GitHub spells them; UsageError naming `where` otherwise."""
    if not _REPO.match(text) or any(part in {".", ".."} for part in text.split("/")):
        msg = f"{where}: {text!r} is not OWNER/REPO (letters, digits, '-', '_' and '.')"
        raise UsageError(msg)
    return text


def ref_problem(ref: str) -> str | None:
    """Why git would refuse `ref` as a branch, tag or commit name, or None if it is fine.

    The rules of `git check-ref-format`, checked here so a bad ref is refused at once instead
    of after a clone; a leading `-` is refused too, as git would read it as an option.
    """
    if ref.startswith("-"):
        return "starts with '-'"
    if ref == "@" or _BAD_REF.search(ref):
        return "has a character or sequence git refuses in a ref (space, '..', '~', '^', ':', …)"
    if ref.startswith(("/", ".")) or ref.endswith(("/", ".", ".lock")):
        return "starts or ends in a way git refuses ('/', '.', '.lock')"
    return None


def parse_sdk_spec(text: str) -> SdkSpec:
    """Split `NAME[@REF]` at the last `@` (a leading `@` is part of the name).

    An empty `--sdk`, an empty ref (`name@`) and a ref git would refuse are UsageErrors, as is
    an OWNER/REPO name that is not one.
    """
    text = text.strip()
    if not text:
        msg = "--sdk: empty; pass --sdk NAME[@REF] (see `tier-check list`)"
        raise UsageError(msg)
    at = text.rfind("@")
    if at <= 0:
        spec = SdkSpec(text, None)
    else:
        ref = text[at + 1 :]
        if not ref:
            msg = f"--sdk {text}: the ref after '@' is empty; name one or drop the '@'"
            raise UsageError(msg)
        problem = ref_problem(ref)
        if problem is not None:
            msg = f"--sdk {text}: the ref {ref!r} {problem}"
            raise UsageError(msg)
        spec = SdkSpec(text[:at], ref)
    if "/" in spec.name:
        check_repo(spec.name, "--sdk")
    return spec


@dataclass(frozen=True)
class Target:
    """The SDK to assess, resolved: which config applies and where its code comes from."""

    name: str
    repo: str
    #: The ref named after `@`, if any. Which ref is checked out (the registry's default when
    #: none is named) is decided once, by `pipeline.assess.plan.decide_ref`.
    ref: str | None
    entry: SdkEntry | None
    #: An existing checkout (`--sdk-path`), or None to clone `repo` at `ref`.
    path: Path | None


def resolve_target(
    registry: Registry,
    *,
    sdk: str | None,
    sdk_path: Path | None,
    repo: str | None,
) -> Target:
    """Resolve the command line's choice of SDK against the registry.

    `--sdk NAME` must be known (one line with a "did you mean" otherwise). `--sdk OWNER/REPO`
    is attributed to that owner; its configuration is the registry entry named like the repo,
    if any. `--sdk-path DIR` uses `--sdk`'s entry, else the entry named like the directory,
    else none (commands then come from flags or TIERCHECK_* variables).
    """
    if sdk is None and sdk_path is None:
        msg = "nothing to assess: pass --sdk NAME[@REF] or --sdk-path DIR (see --help)"
        raise UsageError(msg)
    spec = parse_sdk_spec(sdk) if sdk is not None else None
    if repo is not None:
        check_repo(repo, "--repo")
    entry: SdkEntry | None = None
    owner_repo: str | None = None
    if spec is not None:
        if "/" in spec.name:
            owner_repo = spec.name
            entry = registry.find(spec.name.rsplit("/", 1)[1])
        else:
            entry = registry.get(spec.name)  # unknown → UsageError with "did you mean"
    if sdk_path is not None:
        path = sdk_path.resolve()
        if not path.is_dir():
            msg = f"--sdk-path {sdk_path}: not a directory"
            raise UsageError(msg)
        if entry is None and owner_repo is None:
            entry = registry.find(path.name)
        name = entry.name if entry else (owner_repo or path.name)
        attributed = repo or owner_repo or (entry.repo if entry else f"local/{path.name}")
        ref = spec.ref if spec else None
        return Target(name=name, repo=attributed, ref=ref, entry=entry, path=path)
    if spec is None:  # unreachable: checked at the top; kept for the type checker
        raise UsageError("nothing to assess: pass --sdk NAME[@REF]")
    if owner_repo is not None:
        name = entry.name if entry else owner_repo.rsplit("/", 1)[1]
        return Target(name=name, repo=repo or owner_repo, ref=spec.ref, entry=entry, path=None)
    if entry is None:  # unreachable: registry.get raises for an unknown name
        raise UsageError(f"unknown SDK {spec.name!r}")
    return Target(name=entry.name, repo=repo or entry.repo, ref=spec.ref, entry=entry, path=None)
