"""What to assess: `--sdk NAME[@REF]`, `--sdk OWNER/REPO[@REF]`, `--sdk-path DIR`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.registry import Registry, SdkEntry
from tiercheck.errors import UsageError

__all__ = ["SdkSpec", "Target", "parse_sdk_spec", "resolve_target"]


@dataclass(frozen=True)
class SdkSpec:
    """`name[@ref]` as typed: name may be `owner/repo`."""

    name: str
    ref: str | None


def parse_sdk_spec(text: str) -> SdkSpec:
    """Split at the last `@` (a leading `@` or a trailing one means no ref)."""
    text = text.strip()
    at = text.rfind("@")
    if at <= 0:
        return SdkSpec(text, None)
    ref = text[at + 1 :]
    return SdkSpec(text[:at], ref or None)


@dataclass(frozen=True)
class Target:
    """The SDK to assess, resolved: which config applies and where its code comes from."""

    name: str
    repo: str
    #: The ref named after `@`, if any. Which ref is checked out (the registry's default when
    #: none is named) is decided once, by `pipeline.plan.decide_ref`.
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
    spec = parse_sdk_spec(sdk) if sdk else None
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
    assert spec is not None
    if owner_repo is not None:
        name = entry.name if entry else owner_repo.rsplit("/", 1)[1]
        return Target(name=name, repo=repo or owner_repo, ref=spec.ref, entry=entry, path=None)
    assert entry is not None
    return Target(name=entry.name, repo=repo or entry.repo, ref=spec.ref, entry=entry, path=None)
