"""The spec revisions tiercheck assesses, read from data, and the legs of a conformance run.

The revisions are data: `requirements/revisions.yaml`, beside each revision's frozen requirement
set, names each one with its wire (stateful or stateless), release date, and the harness release
whose set defines it. This module is that file's one reader; every other module asks it (known
revisions in order, the wire of a revision, its release date, its harness release) and none
spells a revision (`tests/unit/test_revisions.py` reads the code for one).

`TIERCHECK_REQUIREMENTS` names another folder holding `revisions.yaml` and the requirement sets,
for every command: a maintainer assesses a new revision with data alone. The file is validated
on load (tiercheck/schemas/revisions.schema.json); bad data is one ConfigError line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Final, Literal

import yaml

from tiercheck.errors import ConfigError
from tiercheck.paths import data_path

__all__ = [
    "LEGS",
    "REQUIREMENTS_ENV",
    "WIRES",
    "Leg",
    "Revision",
    "WireKind",
    "harness_release",
    "harness_requirements",
    "is_known_revision",
    "known_revisions",
    "read_revisions",
    "release_date",
    "requirements_dir",
    "revision",
    "revisions_on",
    "shipped_revisions",
    "unknown_revision",
    "wire_of",
]

Leg = Literal["server", "client"]
LEGS: Final[tuple[Leg, Leg]] = ("server", "client")

#: stateful: the `initialize` handshake, then a session (`Mcp-Session-Id`); stateless:
#: per-request `_meta`, `server/discover`, no session.
WireKind = Literal["stateful", "stateless"]
WIRES: Final[tuple[WireKind, WireKind]] = ("stateful", "stateless")

#: Names the folder holding `revisions.yaml` and the requirement sets, instead of the shipped one.
REQUIREMENTS_ENV: Final = "TIERCHECK_REQUIREMENTS"
_FILE: Final = "revisions.yaml"


@dataclass(frozen=True)
class Revision:
    """One spec revision, as `revisions.yaml` describes it."""

    name: str
    wire: WireKind
    released: date
    released_source: str
    #: The harness release whose frozen set this revision's requirement set mirrors.
    harness: str
    #: What the harness gets as `--requirements`: a set its bundle ships (it fixes the wire).
    harness_requirements: str


def requirements_dir() -> Path:
    """`$TIERCHECK_REQUIREMENTS`, else the shipped `requirements/` folder."""
    explicit = os.environ.get(REQUIREMENTS_ENV)
    return Path(explicit).expanduser() if explicit else data_path("requirements")


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps an unquoted date as the text written (YAML 1.1 would make a date)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _validated(raw: object, source: Path) -> None:
    from jsonschema import Draft202012Validator

    text = resources.files("tiercheck.schemas").joinpath("revisions.schema.json").read_text()
    errors = list(Draft202012Validator(json.loads(text)).iter_errors(raw))
    if errors:
        best = max(errors, key=lambda e: len(e.absolute_path))
        where = ".".join(str(p) for p in best.absolute_path) or "(top level)"
        message = str(best.message).splitlines()[0]
        raise ConfigError(f"{source}: {where}: {message}")


def _entry(item: dict[str, str], index: int, source: Path) -> Revision:
    where = f"{source}: revisions[{index}]"
    try:
        released = date.fromisoformat(item["released"])
        date.fromisoformat(item["name"])
    except ValueError as exc:
        raise ConfigError(f"{where}: not a calendar date: {exc}") from None
    wire: WireKind = "stateless" if item["wire"] == "stateless" else "stateful"
    return Revision(
        name=item["name"],
        wire=wire,
        released=released,
        released_source=" ".join(item["released_source"].split()),
        harness=item["harness"],
        harness_requirements=item.get("harness_requirements", item["name"]),
    )


def read_revisions(source: Path) -> tuple[Revision, ...]:
    """The revisions of the file `source` (a `revisions.yaml`), validated, read afresh: for a
    tree other than the one in use (`tier-check referee update --root`)."""
    try:
        raw = yaml.load(source.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506
    except OSError as exc:
        raise ConfigError(f"{source}: cannot be read: {exc.strerror or exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"{source}: invalid YAML: {first}") from None
    _validated(raw, source)
    assert isinstance(raw, dict)  # the schema says so
    found = tuple(_entry(item, i, source) for i, item in enumerate(raw["revisions"]))
    for i, (older, newer) in enumerate(pairwise(found), start=1):
        if newer.name <= older.name:
            msg = (
                f"{source}: revisions[{i}]: {newer.name} follows {older.name}; "
                "list each revision once, oldest first"
            )
            raise ConfigError(msg)
    for i, entry in enumerate(found):
        if not (source.parent / f"{entry.name}.yaml").is_file():
            msg = f"{source}: revisions[{i}]: no requirement set {entry.name}.yaml beside it"
            raise ConfigError(msg)
    return found


_load = cache(read_revisions)


def _all() -> tuple[Revision, ...]:
    return _load(requirements_dir() / _FILE)


def known_revisions() -> tuple[str, ...]:
    """The revisions with a frozen requirement set, oldest first."""
    return tuple(r.name for r in _all())


def shipped_revisions() -> tuple[str, ...]:
    """The revisions of the requirements folder tiercheck ships, oldest first, whichever folder
    `TIERCHECK_REQUIREMENTS` names: a revision of these that the folder in use lacks is one
    tiercheck knows but cannot assess here (the registry leaves it out, with a warning)."""
    return tuple(r.name for r in _load(data_path("requirements") / _FILE))


def is_known_revision(value: object) -> bool:
    """True for a revision tiercheck has a requirement set for."""
    return isinstance(value, str) and value in known_revisions()


def unknown_revision(value: object) -> str:
    """The one-line complaint about a revision tiercheck has no requirement set for."""
    return f"{value!r} is not a known spec revision; use one of {', '.join(known_revisions())}"


def revision(name: str) -> Revision:
    """The data of a known revision; an unknown one is a one-line ConfigError."""
    for entry in _all():
        if entry.name == name:
            return entry
    raise ConfigError(unknown_revision(name))


def wire_of(name: str) -> WireKind:
    """The wire a known revision speaks."""
    return revision(name).wire


def revisions_on(wire: WireKind) -> tuple[str, ...]:
    """The known revisions on `wire`, oldest first."""
    return tuple(r.name for r in _all() if r.wire == wire)


def release_date(name: str) -> date | None:
    """The day a known revision was released; None for a revision without data (one an old
    scorecard names)."""
    for entry in _all():
        if entry.name == name:
            return entry.released
    return None


def harness_release(name: str) -> str:
    """The harness release whose frozen set defines a known revision."""
    return revision(name).harness


def harness_requirements(name: str) -> str:
    """What the harness is given as `--requirements` to run `name` (a revision without data,
    say one an old scorecard names, is passed as it is)."""
    for entry in _all():
        if entry.name == name:
            return entry.harness_requirements
    return name
