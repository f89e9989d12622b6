"""The assessment's options, each declared once: its flag, group, help, default, environment
variable, how its text is read and how a value is written back as argv.

As nox declares its options (`nox/_options.py`): one table, `ASSESSMENT`, of `Option`s in the
order `tier-check --help` lists them. Everything else is derived from it:

* the parser: `add_options(parser, ASSESSMENT)`, and `add_group(parser, GROUP)` for the groups
  other commands share (the configuration overrides, the governance flags); a command with an
  option of the assessment's adds that declaration (`SDK.add_to(parser, help=…)`);
* the typed records the pipeline reads: a field of `RunSettings` or `TargetRequest` is bound to
  its option (`rebuild: bool = bound(REBUILD)`) and `from_args(RunSettings, args, …)` fills
  every bound field from parsed arguments, each read the way its option says (`Option.hold`);
* argv again: `to_argv(record)` writes each bound field back as its flag (what a matrix row's
  own `tier-check` is given, `request.AssessCommand`), so that reading the written argv gives
  the record back.

It sits in the assessment's room, below every command that parses or writes an assessment's
command line (`cli/`, the matrix).

The configuration overrides are the cascade's fields (`config.resolve.FIELDS`, where each is
declared with its key and variable); `CONFIG_FLAGS` adds them here as one entry whose value is
`ConfigFlags`.

This module is on `tier-check --help`'s path (the only one of the pipeline's): at the top it
imports only the standard library and light modules; what reads a value (the probes, the
pinned harness) loads when it is read.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from tiercheck.config.resolve import ConfigFlags, Field, flag_fields
from tiercheck.config.seconds import parse_seconds
from tiercheck.document_formats import SCORECARD_FORMATS
from tiercheck.errors import UsageError
from tiercheck.paths import CACHE_ENV, writable_dir
from tiercheck.paths import cache_dir as default_or_given_cache

__all__ = [
    "ASSESSMENT",
    "CONFIG",
    "CONFIG_FLAGS",
    "DEFAULT_GOVERNANCE_DEADLINE_S",
    "GITHUB",
    "Declared",
    "Group",
    "Option",
    "add_group",
    "add_options",
    "argument_type",
    "bound",
    "declared_in",
    "from_args",
    "probe_selection",
    "to_argv",
]

T = TypeVar("T")
R = TypeVar("R")

#: Where an option is found in a record's field (`dataclasses.field(metadata=…)`).
_META = "tiercheck.pipeline.assess.options"
#: "Keep the declaration's": an `add_to` override left out.
_KEEP: Any = object()


@dataclass(frozen=True)
class Group:
    """A titled group of options in `--help`."""

    title: str


class Declared(ABC, Generic[T]):
    """What an option declaration gives: its flags on a parser, its value read from parsed
    arguments, that value written back as argv, and the field of a record it fills."""

    group: Group | None

    @property
    @abstractmethod
    def flags(self) -> tuple[str, ...]:
        """The flags it adds to a parser."""

    @abstractmethod
    def add_to(self, target: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
        """Add its flags to `target` (a parser or a group of one) as declared."""

    @abstractmethod
    def held(self, args: argparse.Namespace) -> T:
        """The value a record holds for what `args` (parsed) says."""

    @abstractmethod
    def argv(self, value: T) -> list[str]:
        """The flags and texts that say `value` on a command line ([] for the default)."""

    @abstractmethod
    def unset(self) -> T:
        """The value held when the command line does not give the option."""

    def binding(self) -> Mapping[str, Any]:
        """The metadata that binds a field to this option (`bound`); for a field without a
        default, `dataclasses.field(metadata=OPTION.binding())`."""
        return {_META: self}


Kind = Literal["value", "switch", "repeat"]


@dataclass(frozen=True, eq=False)
class Option(Declared[T]):
    """One option: its flag, where `--help` lists it and what it says, how argparse reads it,
    and how the value a record holds is made from what argparse stored and written back.

    `kind`: "value" (one value, the last given), "switch" (present or not) or "repeat" (one
    value each time it is given, in a list; None when never given).
    """

    flag: str
    group: Group | None
    help: str | None = None
    metavar: str | None = None
    kind: Kind = "value"
    #: How argparse reads the text (its `type`); a bad text is then a usage error.
    read: Callable[[str], Any] | None = None
    choices: Sequence[Any] | None = None
    #: What argparse stores when the flag is absent.
    default: Any = None
    #: The environment variable that gives the value when the flag is absent (`from_env`).
    env: str | None = None
    #: What a record holds, from what argparse stored (default: the same; a repeat: a tuple,
    #: None when never given).
    hold: Callable[[Any], T] | None = None
    #: What argparse would store for a value a record holds: the inverse of `hold` (default:
    #: the same; a repeat: the list of its values).
    unhold: Callable[[T], Any] | None = None

    @property
    def dest(self) -> str:
        """The attribute parsed arguments hold it under (`--sdk-path` → `sdk_path`)."""
        return self.flag.removeprefix("--").replace("-", "_")

    @property
    def flags(self) -> tuple[str, ...]:
        """Its one flag."""
        return (self.flag,)

    def add_to(
        self,
        target: argparse.ArgumentParser | argparse._ArgumentGroup,
        *,
        help: str | None = _KEEP,
        metavar: str | None = _KEEP,
    ) -> None:
        """Add the flag to `target`; another command may say it in its own words (`help`,
        `metavar`) while reading and meaning the same."""
        kwargs: dict[str, Any] = {
            "dest": self.dest,
            "help": self.help if help is _KEEP else help,
            "default": self.default,
        }
        if self.kind == "switch":
            kwargs["action"] = "store_true"
        else:
            if self.kind == "repeat":
                kwargs["action"] = "append"
            kwargs["metavar"] = self.metavar if metavar is _KEEP else metavar
            if self.read is not None:
                kwargs["type"] = self.read
            if self.choices is not None:
                kwargs["choices"] = self.choices
        target.add_argument(self.flag, **kwargs)

    def given(self, args: argparse.Namespace) -> Any:
        """What argparse stored for it (its default when the parser lacks the flag)."""
        return getattr(args, self.dest, self.default)

    def from_env(self, args: argparse.Namespace, environ: Mapping[str, str]) -> Any:
        """What argparse stored, else (absent, or empty) its environment variable, else None."""
        value = self.given(args)
        if value or self.env is None:
            return value
        return environ.get(self.env) or None

    def held(self, args: argparse.Namespace) -> T:
        """The value a record holds for what `args` says."""
        return self._hold(self.given(args))

    def unset(self) -> T:
        """The value held when the flag is not given."""
        return self._hold(self.default)

    def argv(self, value: T) -> list[str]:
        """The flag and its text(s) for `value`; [] when the flag would not be given."""
        stored = self.unhold(value) if self.unhold is not None else self._unhold(value)
        if self.kind == "switch":
            return [self.flag] if stored else []
        if self.kind == "repeat":
            return [part for item in stored or () for part in (self.flag, _text(item))]
        if stored is None or stored == self.default:
            return []
        return [self.flag, _text(stored)]

    def _hold(self, stored: Any) -> T:
        if self.hold is not None:
            return self.hold(stored)
        if self.kind == "repeat":
            held: Any = tuple(stored) if stored else None
            return held  # type: ignore[no-any-return]
        return stored  # type: ignore[no-any-return]

    def _unhold(self, value: T) -> Any:
        if self.kind == "repeat":
            return list(value) if value else None  # type: ignore[call-overload]
        return value


def _text(value: object) -> str:
    """A value as its flag's text (seconds keep every digit)."""
    return repr(value) if isinstance(value, float) else str(value)


def argument_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """`parse` as argparse's `type`: its ValueError's reason becomes the usage error."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


class ConfigOptions(Declared[ConfigFlags]):
    """The configuration overrides: one flag per field of the cascade that has one
    (`config.resolve.flag_fields`), each with the field's metavar and help and its variable
    named; read together as `ConfigFlags`."""

    def __init__(self, group: Group) -> None:
        self.group = group

    @property
    def flags(self) -> tuple[str, ...]:
        """The flags of the cascade's fields, in `--help` order."""
        return tuple(flag for flag, _ in _config_fields())

    def add_to(self, target: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
        """Each field's flag; the first line says what the name in parentheses is."""
        for i, (flag, spec) in enumerate(_config_fields()):
            env = f"env {spec.env_var}" if i == 0 else spec.env_var
            text = f"{spec.help} ({env})"
            # A typed field (the timeouts) is read here, so a bad value is a usage error before
            # anything runs; a repeatable one (the baseline SPECs) each time it is given.
            if spec.repeat is not None:
                target.add_argument(
                    flag,
                    dest=spec.dest,
                    action="append",
                    metavar=spec.metavar,
                    type=argument_type(spec.repeat),
                    help=text,
                )
                continue
            kind = str if spec.parse is str else argument_type(spec.parse)
            target.add_argument(flag, dest=spec.dest, metavar=spec.metavar, type=kind, help=text)

    def held(self, args: argparse.Namespace) -> ConfigFlags:
        """The flags `args` gives, read."""
        given = {flag: getattr(args, spec.dest, None) for flag, spec in _config_fields()}
        return ConfigFlags(given)

    def unset(self) -> ConfigFlags:
        """None given."""
        return ConfigFlags()

    def argv(self, value: ConfigFlags) -> list[str]:
        """Each flag given, once per text (a SPEC per `--expected-failures`)."""
        return [part for flag, texts in value.texts().items() for t in texts for part in (flag, t)]


def _config_fields() -> Iterator[tuple[str, Field]]:
    for spec in flag_fields():
        assert spec.flag is not None  # flag_fields() holds only fields with a flag
        yield spec.flag, spec


# --- reading values ------------------------------------------------------------------------


def probe_selection(spec: str) -> tuple[str, ...] | None:
    """`--probes` as the pipeline takes it: None for all, () for none."""
    from tiercheck.probes import select

    try:
        chosen = select(spec)
    except ValueError as exc:
        raise UsageError(f"--probes: {exc}") from exc
    return None if spec.strip() in ("", "all") else chosen


def _probes_text(chosen: tuple[str, ...] | None) -> str:
    if chosen is None:
        return "all"
    return ",".join(chosen) or "none"


def _pinned_or(version: str | None) -> str:
    from tiercheck.conformance.harness import PINNED_VERSION

    return version or PINNED_VERSION


def _not_pinned(version: str) -> str | None:
    from tiercheck.conformance.harness import PINNED_VERSION

    return None if version == PINNED_VERSION else version


def _path(text: str | None) -> Path | None:
    return Path(text) if text else None


def _resolved(text: str | None) -> Path | None:
    return Path(text).resolve() if text else None


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _cache_dir(given: str | None) -> Path:
    """`--cache-dir`, else the default cache directory; refused at once if it cannot be one."""
    where = (
        CACHE_DIR.flag
        if given
        else CACHE_DIR.env
        if CACHE_DIR.env and os.environ.get(CACHE_DIR.env)
        else "the cache"
    )
    return writable_dir(default_or_given_cache(given), str(where))


# --- the declarations ----------------------------------------------------------------------

WHAT_TO_ASSESS = Group("what to assess")
RUNNING = Group("checkout, build and run")
CONFIG = Group("configuration overrides (beat known_sdks.yaml and env)")
GOVERNANCE = Group("governance")
GITHUB = Group("governance (GitHub)")
RUN_HISTORY = Group("run history")
ADVISORY_PROBES = Group("advisory probes (never change the score or the tier)")
REPORTS = Group("reports")

#: How long governance may take in all, by default, and the variable that changes it.
DEFAULT_GOVERNANCE_DEADLINE_S = 180.0
GOVERNANCE_DEADLINE_ENV = "TIERCHECK_GOVERNANCE_DEADLINE"
#: The database file under the cache directory when `--history` is not given.
DEFAULT_HISTORY_FILE = "history.sqlite"

SDK: Option[str | None] = Option(
    "--sdk", WHAT_TO_ASSESS, metavar="NAME[@REF]", help="a known SDK or OWNER/REPO, at a ref"
)
SDK_PATH: Option[Path | None] = Option(
    "--sdk-path",
    WHAT_TO_ASSESS,
    metavar="DIR",
    help="an existing checkout (config from --sdk)",
    hold=_path,
    unhold=_str,
)
REPO: Option[str | None] = Option(
    "--repo", WHAT_TO_ASSESS, metavar="OWNER/REPO", help="the GitHub repository to attribute"
)
REVISION: Option[tuple[str, ...] | None] = Option(
    "--revision",
    WHAT_TO_ASSESS,
    kind="repeat",
    metavar="REV",
    help="assess only this claimed revision (repeatable; default: every claimed revision)",
)
SERVER_URL: Option[str | None] = Option(
    "--conformance-server-url",
    WHAT_TO_ASSESS,
    metavar="URL",
    help="run the legs against an already-running server (with --repo, optional --client-cmd)",
)
GIT_URL: Option[str | None] = Option(
    "--git-url", RUNNING, metavar="URL", help="clone from here (TIERCHECK_GIT_BASE: a mirror)"
)
CACHE_DIR: Option[Path] = Option(
    "--cache-dir",
    RUNNING,
    metavar="DIR",
    env=CACHE_ENV,
    help="clones, builds, harness (TIERCHECK_CACHE)",
    hold=_cache_dir,
    unhold=str,
)
REBUILD: Option[bool] = Option(
    "--rebuild", RUNNING, kind="switch", default=False, help="build even if cached for the commit"
)
SKIP_BUILD: Option[bool] = Option(
    "--skip-build", RUNNING, kind="switch", default=False, help="trust the checkout as it is"
)
HARNESS_VERSION: Option[str] = Option(
    "--harness-version",
    RUNNING,
    metavar="V",
    help="another published harness version",
    hold=_pinned_or,
    unhold=_not_pinned,
)
COMPARE_HARNESS: Option[str | None] = Option(
    "--compare-harness",
    RUNNING,
    metavar="V",
    help=(
        "also run each leg with harness V (the one the SDK's CI pins) and report, per "
        "scenario, where it and the referee disagree; never changes the score or the tier"
    ),
)
CONCURRENCY: Option[int | None] = Option(
    "--concurrency",
    RUNNING,
    read=int,
    metavar="N",
    help=(
        "at most N client scenarios at once (0: all at once; default: admitted by the CPU "
        "the running clients use, at least one per core)"
    ),
    # A negative count means unbounded, as 0 does.
    hold=lambda n: None if n is None else max(0, n),
)
BUDGET: Option[Path | None] = Option(
    "--budget",
    RUNNING,
    metavar="DIR",
    help=(
        "share machine-wide budgets with other runs through DIR: client slots "
        "(--concurrency) and build slots (--max-builds); `tier-check matrix` passes one"
    ),
    hold=_resolved,
    unhold=_str,
)
MAX_BUILDS: Option[int] = Option(
    "--max-builds",
    RUNNING,
    read=int,
    metavar="N",
    default=1,
    help="with --budget: builds at once across the runs sharing it (default 1)",
    hold=lambda n: max(1, n),
)
SEQUENTIAL: Option[bool] = Option(
    "--sequential",
    RUNNING,
    kind="switch",
    default=False,
    help="run revisions one after another instead of overlapping them",
)
COLD_CLIENTS: Option[bool] = Option(
    "--cold-clients",
    RUNNING,
    kind="switch",
    default=False,
    help=(
        "start every client cold (default: a client run as `PYTHON SCRIPT.py` is forked from "
        "one interpreter that has already imported what SCRIPT imports; a client on Node 22.1+ "
        "reads a compile cache that one warm-up run prepared for the leg)"
    ),
)
REGISTRY: Option[Path | None] = Option(
    "--registry",
    CONFIG,
    metavar="FILE",
    env="TIERCHECK_REGISTRY",
    help=(
        "a registry file (known_sdks.yaml's format) whose entries are added to the bundled "
        "registry, winning by name (env TIERCHECK_REGISTRY)"
    ),
    hold=_path,
    unhold=_str,
)
CONFIG_FLAGS = ConfigOptions(CONFIG)
SKIP_GOVERNANCE: Option[bool] = Option(
    "--skip-governance", GOVERNANCE, kind="switch", default=False, help="no GitHub signals"
)
TOKEN: Option[str | None] = Option(
    "--token",
    GITHUB,
    help="GitHub token (else GITHUB_TOKEN, GH_TOKEN, gh auth token); readable by every "
    "local process in /proc/PID/cmdline, so prefer --token-file or the environment",
)
TOKEN_FILE: Option[str | None] = Option(
    "--token-file", GITHUB, metavar="FILE", help="read the GitHub token from FILE"
)
# Its variable is read where every GitHub address is resolved (`ghapi.api_url`).
GITHUB_API_URL: Option[str | None] = Option(
    "--github-api-url",
    GITHUB,
    metavar="URL",
    help="API base, for GitHub Enterprise (GITHUB_API_URL)",
)
GOVERNANCE_SNAPSHOT: Option[Path | None] = Option(
    "--governance-snapshot",
    GITHUB,
    metavar="FILE",
    help="replay a recorded snapshot",
    hold=_path,
    unhold=_str,
)
RECORD_GOVERNANCE: Option[Path | None] = Option(
    "--record-governance",
    GITHUB,
    metavar="FILE",
    help="write the collected snapshot",
    hold=_path,
    unhold=_str,
)
AS_OF: Option[str | None] = Option(
    "--as-of",
    GITHUB,
    metavar="DATE",
    help="fix 'now' (ISO date or time) so verdicts are reproducible",
)
DAYS: Option[int | None] = Option(
    "--days", GITHUB, read=int, metavar="N", help="triage window in days (default 90)"
)
DISPUTES: Option[Path | None] = Option(
    "--disputes",
    GITHUB,
    metavar="FILE",
    help="the reviewed disputed-scenario file (default: requirements/disputes.yaml)",
    hold=_path,
    unhold=_str,
)
GOVERNANCE_DEADLINE: Option[float | None] = Option(
    "--governance-deadline",
    GITHUB,
    read=argument_type(parse_seconds),
    metavar="S",
    env=GOVERNANCE_DEADLINE_ENV,
    help=(
        f"seconds GitHub may take in all; what is missing then is inconclusive "
        f"(default {DEFAULT_GOVERNANCE_DEADLINE_S:.0f}; {GOVERNANCE_DEADLINE_ENV})"
    ),
)
HISTORY: Option[Path | None] = Option(
    "--history",
    RUN_HISTORY,
    metavar="PATH",
    help=f"the run history database (default $TIERCHECK_CACHE/{DEFAULT_HISTORY_FILE})",
    hold=_path,
    unhold=_str,
)
NO_HISTORY: Option[bool] = Option(
    "--no-history", RUN_HISTORY, kind="switch", default=False, help="do not read or add to it"
)
REUSE: Option[bool] = Option(
    "--reuse",
    RUN_HISTORY,
    kind="switch",
    default=False,
    help="take the verdicts of a stored run of the same commit, configuration, harness "
    "version and requirement sets instead of running again (governance stays fresh)",
)
PROBES: Option[tuple[str, ...] | None] = Option(
    "--probes",
    ADVISORY_PROBES,
    metavar="all|none|NAME,…",
    default="all",
    help="probes to run against each revision's server while it is up (default all)",
    hold=probe_selection,
    unhold=_probes_text,
)
FAIL_ON_PROBE: Option[bool] = Option(
    "--fail-on-probe",
    ADVISORY_PROBES,
    kind="switch",
    default=False,
    help="exit 1 when a probe fails (a MUST broken), for teams that gate CI on them",
)
OUTPUT: Option[tuple[str, ...] | None] = Option(
    "--output",
    REPORTS,
    kind="repeat",
    choices=SCORECARD_FORMATS.choices(),
    help=f"format on stdout; repeat for several (default {SCORECARD_FORMATS.default})",
)
OUT: Option[Path | None] = Option(
    "--out",
    REPORTS,
    metavar="DIR",
    help="write every format here (default reports/<sdk>/<run-id>/)",
    hold=_path,
    unhold=_str,
)

#: Every option of the assessment, in `tier-check --help` order (each group's together).
ASSESSMENT: tuple[Declared[Any], ...] = (
    SDK,
    SDK_PATH,
    REPO,
    REVISION,
    SERVER_URL,
    GIT_URL,
    CACHE_DIR,
    REBUILD,
    SKIP_BUILD,
    HARNESS_VERSION,
    COMPARE_HARNESS,
    CONCURRENCY,
    BUDGET,
    MAX_BUILDS,
    SEQUENTIAL,
    COLD_CLIENTS,
    REGISTRY,
    CONFIG_FLAGS,
    SKIP_GOVERNANCE,
    TOKEN,
    TOKEN_FILE,
    GITHUB_API_URL,
    GOVERNANCE_SNAPSHOT,
    RECORD_GOVERNANCE,
    AS_OF,
    DAYS,
    DISPUTES,
    GOVERNANCE_DEADLINE,
    HISTORY,
    NO_HISTORY,
    REUSE,
    PROBES,
    FAIL_ON_PROBE,
    OUTPUT,
    OUT,
)


# --- parsers -------------------------------------------------------------------------------


def add_options(parser: argparse.ArgumentParser, options: Iterable[Declared[Any]]) -> None:
    """Add `options` in order, each group's under its title (a group's options must be listed
    together: a group is added once, where its first option is)."""
    groups: dict[Group, argparse._ArgumentGroup] = {}
    last: Group | None = None
    for option in options:
        group = option.group
        if group is None:
            option.add_to(parser)
            continue
        if group not in groups:
            groups[group] = parser.add_argument_group(group.title)
        elif group != last:
            msg = f"{group.title!r}: its options are not listed together"
            raise ValueError(msg)
        option.add_to(groups[group])
        last = group


def add_group(parser: argparse.ArgumentParser, group: Group) -> None:
    """The assessment's options of `group`, under its title, on another command's parser."""
    add_options(parser, (option for option in ASSESSMENT if option.group == group))


# --- records -------------------------------------------------------------------------------


def bound(option: Declared[T]) -> T:
    """A dataclass field bound to `option` (`name: T = bound(OPTION)`): filled by `from_args`,
    written by `to_argv`; its default is the value held when the flag is absent."""
    field: T = dataclasses.field(default_factory=option.unset, metadata=option.binding())
    return field


def declared_in(record: type) -> dict[str, Declared[Any]]:
    """The fields of the dataclass `record` bound to an option → that option."""
    return {
        f.name: f.metadata[_META]
        for f in dataclasses.fields(record)
        if isinstance(f.metadata.get(_META), Declared)
    }


def from_args(record: type[R], args: argparse.Namespace, **given: Any) -> R:
    """`record` from parsed arguments: each bound field as its option reads it, in field order,
    the fields in `given` as given; any other field keeps its default."""
    values = dict(given)
    for name, option in declared_in(record).items():
        if name not in values:
            values[name] = option.held(args)
    return record(**values)


def to_argv(record: object) -> list[str]:
    """The command line that says `record`: each bound field written by its option, a field
    holding a record of its own written in its place; fields left at their default are left
    out."""
    assert dataclasses.is_dataclass(record)
    assert not isinstance(record, type)
    bound = declared_in(type(record))
    argv: list[str] = []
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if f.name in bound:
            argv += bound[f.name].argv(value)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            argv += to_argv(value)
    return argv
