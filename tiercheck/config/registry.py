"""known_sdks.yaml: the SDK lines tiercheck knows, validated on every load."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiercheck.config.requires import Requirement, parse_requirements
from tiercheck.config.seconds import seconds_problem
from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError, UsageError
from tiercheck.paths import data_path
from tiercheck.revisions import is_known_revision, requirements_dir, shipped_revisions

__all__ = [
    "Registry",
    "SdkEntry",
    "default_registry_path",
    "load_registry",
    "load_with_bundled",
]


@dataclass(frozen=True)
class SdkEntry:
    """One SDK line as written in known_sdks.yaml (unresolved: see `config.resolve`)."""

    name: str
    repo: str
    default_ref: str
    revisions: tuple[str, ...]
    tag_prefix: str
    label_aliases: Mapping[str, str]
    #: The entry's own values, as written, for the configuration cascade.
    raw: Mapping[str, Any] = field(repr=False)
    #: Where it came from, e.g. "known_sdks.yaml".
    source: str = "known_sdks.yaml"
    #: Tools the line needs on the machine (`requires`), checked before the checkout.
    requires: tuple[Requirement, ...] = ()
    #: The SEP-1730 tier the line claims (`claimed_tier`), if it says.
    claimed_tier: int | None = None
    #: The language the SDK is written in (`language`), as the claim's title names it.
    language: str | None = None
    #: The harness versions the SDK's own CI pins (`ci_harness`), as `init` read them.
    ci_harness: tuple[str, ...] = ()

    def override_for(self, revision: str) -> Mapping[str, Any]:
        """The `spec_overrides[revision]` block ({} when there is none)."""
        overrides: Mapping[str, Any] = self.raw.get("spec_overrides") or {}
        block: Mapping[str, Any] = overrides.get(revision) or {}
        return block


@dataclass(frozen=True)
class Registry:
    """Every known SDK line, by name, in file order."""

    path: Path
    entries: Mapping[str, SdkEntry]
    #: Every file read, the bundled registry first (one file unless one was added to it).
    files: tuple[Path, ...] = ()
    #: Entry name → why a revision it claims was left out of it (the requirements folder has no
    #: such revision): one warning per entry, for the command line to print.
    left_out: Mapping[str, str] = field(default_factory=dict)

    @property
    def warnings(self) -> tuple[str, ...]:
        """One line per entry that lost a revision it claims (see `left_out`)."""
        return tuple(self.left_out.values())

    def names(self) -> list[str]:
        """The SDK names in file order."""
        return list(self.entries)

    def get(self, name: str) -> SdkEntry:
        """The entry called `name`; an unknown name is a UsageError with a "did you mean"."""
        entry = self.entries.get(name)
        if entry is not None:
            return entry
        close = difflib.get_close_matches(name, self.names(), n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        known = ", ".join(self.names())
        where = " + ".join(str(f) for f in self.files or (self.path,))
        msg = (
            f"unknown SDK {name!r}{hint} (known: {known}; registry: {where}); an SDK not in the "
            "registry is assessed with --sdk-path DIR and its commands as flags, or an entry "
            "of its own (`tier-check init`) in --registry FILE"
        )
        raise UsageError(msg)

    def find(self, name: str) -> SdkEntry | None:
        """The entry called `name`, or None."""
        return self.entries.get(name)


def default_registry_path() -> Path:
    """The top-level known_sdks.yaml (or the installed copy)."""
    return data_path("known_sdks.yaml")


def load_registry(path: Path | None = None) -> Registry:
    """Load and validate known_sdks.yaml (the default one unless `path` is given).

    Raises ConfigError with one line naming the file, the path inside it and the fix.
    """
    source = path or default_registry_path()
    raw = load_yaml(source)
    if raw is None:
        raw = {}
    raw, left_out = _without_unknown_revisions(raw, source)
    validate(raw, "known_sdks", str(source))
    assert isinstance(raw, dict)  # the schema says so
    entries: dict[str, SdkEntry] = {}
    for name, body in raw.items():
        _check_timeouts(source, name, body)
        claimed = tuple(body["revisions"])
        for revision in body.get("spec_overrides") or {}:
            if revision not in claimed:
                msg = (
                    f"{source}: {name}.spec_overrides.{revision}: {name} does not claim "
                    f"{revision} (revisions: {', '.join(claimed)}); add it to revisions or "
                    "remove the override"
                )
                raise ConfigError(msg)
        entries[name] = SdkEntry(
            name=name,
            repo=body["repo"],
            default_ref=body.get("default_ref", "main"),
            revisions=claimed,
            tag_prefix=body.get("tag_prefix", ""),
            label_aliases=dict(body.get("label_aliases") or {}),
            raw=body,
            source=str(source),
            requires=parse_requirements(body.get("requires"), f"{source}: {name}.requires"),
            claimed_tier=body.get("claimed_tier"),
            language=body.get("language"),
            ci_harness=tuple(body.get("ci_harness") or ()),
        )
    return Registry(path=source, entries=entries, files=(source,), left_out=left_out)


def load_with_bundled(path: Path | None = None) -> Registry:
    """The bundled registry, with the entries of the registry file `path` added to it.

    An entry of `path` replaces the bundled entry of the same name (in its place); the others
    follow the bundled ones in `path`'s order. Without `path`, the bundled registry alone. The
    registry's `path` is the added file, so a run handed it (`--registry`) adds it again.
    """
    bundled = load_registry()
    if path is None or path.resolve() == bundled.path.resolve():
        return bundled
    added = load_registry(path)
    entries = {**bundled.entries, **added.entries}
    # A bundled entry the added file replaces is not used: what it lost is not said.
    left_out = {n: w for n, w in bundled.left_out.items() if n not in added.entries}
    return Registry(
        path=added.path,
        entries=entries,
        files=(bundled.path, added.path),
        left_out={**left_out, **added.left_out},
    )


def _unknown(claimed: object) -> list[str]:
    """The revisions of `claimed` (an entry's `revisions`) that tiercheck ships but the
    requirements folder in use lacks."""
    if not isinstance(claimed, list):
        return []
    shipped = shipped_revisions()
    return [r for r in claimed if r in shipped and not is_known_revision(r)]


def _without_unknown_revisions(raw: object, source: Path) -> tuple[object, dict[str, str]]:
    """`raw` with each entry's revisions that the requirements folder lacks left out (from
    `revisions` and `spec_overrides`), and one warning per entry that lost any.

    A registry may name a revision tiercheck knows that the folder in use has no requirement set
    for (`TIERCHECK_REQUIREMENTS` naming a folder without it): the rest of each entry still
    runs, and every command goes on. An entry left with no revision at all is left out of the
    registry. A revision tiercheck does not know at all (a typo) is still the schema's error.
    """
    if not isinstance(raw, dict):
        return raw, {}
    kept: dict[object, object] = {}
    left_out: dict[str, str] = {}
    for name, body in raw.items():
        missing = _unknown(body.get("revisions")) if isinstance(body, dict) else []
        if not missing:
            kept[name] = body
            continue
        assert isinstance(body, dict)  # _unknown found revisions in it
        revisions = [r for r in body["revisions"] if r not in missing]
        which = ", ".join(missing)
        where = f"{source}: {name}"
        lacks = f"{requirements_dir()} has no requirement set for {which} (revisions.yaml)"
        if not revisions:
            left_out[str(name)] = f"{where}: left out: it claims only {which}, and {lacks}"
            continue
        trimmed = {**body, "revisions": revisions}
        overrides = body.get("spec_overrides")
        if isinstance(overrides, dict):
            trimmed["spec_overrides"] = {k: v for k, v in overrides.items() if k not in missing}
        kept[name] = trimmed
        left_out[str(name)] = f"{where}: {which} left out of its revisions: {lacks}"
    return kept, left_out


_TIMEOUTS = (("server", "ready_timeout"), ("client", "timeout"))


def _check_timeouts(source: Path, name: str, body: Mapping[str, Any]) -> None:
    """NaN and infinity pass the schema's `exclusiveMinimum`; refuse them (and the rest) here."""
    blocks: list[tuple[str, Mapping[str, Any]]] = [(name, body)]
    for revision, override in (body.get("spec_overrides") or {}).items():
        blocks.append((f"{name}.spec_overrides.{revision}", override or {}))
    for where, block in blocks:
        for section, key in _TIMEOUTS:
            part = block.get(section)
            if isinstance(part, Mapping) and key in part:
                problem = seconds_problem(part[key])
                if problem is not None:
                    raise ConfigError(f"{source}: {where}.{section}.{key}: {problem}")
