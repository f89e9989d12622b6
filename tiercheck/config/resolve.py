"""The configuration cascade, with provenance.

One resolution path for every value an assessment uses, lowest to highest:

    built-in defaults < the known_sdks.yaml entry < its spec_overrides[revision]
                      < TIERCHECK_* environment variables < command-line flags

`server` merges field by field (an override may change only the URL); `build`, `client` and
`env` replace wholesale. `expected_failures` is resolved per leg: a FILE sets both legs' baseline,
a `{server: FILE, client: FILE}` mapping only the legs it names (a revision's override keeps the
other leg's file from the entry), `TIERCHECK_EXPECTED_FAILURES` is one FILE for both, and the
repeatable `--expected-failures SPEC` is picked per leg and revision (`config.baseline_spec`).
Every resolved value remembers which layer it came from, so `tier-check show-config` can say
why a command is what it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tiercheck.config.baseline_spec import BaselineSpec, parse_baseline_spec, pick_baseline
from tiercheck.config.seconds import parse_seconds
from tiercheck.errors import ConfigError

if TYPE_CHECKING:
    # Only a type here: the command line imports this module (for FIELDS) on its `--help`
    # path, and the registry module loads YAML.
    from tiercheck.config.registry import SdkEntry

__all__ = [
    "BASELINE_KEYS",
    "FIELDS",
    "ConfigFlags",
    "Field",
    "FlagValue",
    "Layer",
    "RevisionConfig",
    "Sourced",
    "flag_fields",
    "resolve",
]

T = TypeVar("T")


class Layer(IntEnum):
    """Where a value came from; higher layers win."""

    DEFAULT = 0
    REGISTRY = 1
    SPEC_OVERRIDE = 2
    ENVIRONMENT = 3
    COMMAND_LINE = 4


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A resolved value and the layer (with a human description) that supplied it."""

    value: T
    layer: Layer
    source: str


def _seconds(text: str) -> float:
    return parse_seconds(text)


@dataclass(frozen=True)
class Field:
    """One configurable value: its key in known_sdks.yaml, and how to set it from outside.

    The command line builds its configuration flags from this table (flag, metavar, help) and
    names the environment variable in each flag's help, so a value is declared here and only here.
    """

    key: str  # dotted: "server.url"
    env_var: str | None
    flag: str | None
    default: Any = None
    parse: Callable[[str], Any] = str
    metavar: str | None = None
    #: What the flag sets, for `--help` (which adds the environment variable).
    help: str | None = None
    #: A repeatable flag whose values this parses (the baseline SPECs); the cascade picks the
    #: one for the field's leg and revision. The environment variable is still read by `parse`.
    repeat: Callable[[str], Any] | None = None

    @property
    def dest(self) -> str:
        """The flag's attribute name on parsed arguments (`--server-cmd` → `server_cmd`)."""
        if self.flag is None:
            msg = f"{self.key} has no flag"
            raise ValueError(msg)
        return self.flag.removeprefix("--").replace("-", "_")


FIELDS: tuple[Field, ...] = (
    Field(
        "build",
        "TIERCHECK_BUILD_CMD",
        "--build-cmd",
        metavar="CMD",
        help="build command",
    ),
    Field("env", None, None, default={}),
    Field("pass_env", None, None, default=()),
    Field(
        "tag_prefix",
        "TIERCHECK_TAG_PREFIX",
        "--tag-prefix",
        default="",
        metavar="PREFIX",
        help="what the SDK's release tags start with before X.Y.Z, e.g. tower-mcp-v",
    ),
    Field(
        "server.command",
        "TIERCHECK_SERVER_CMD",
        "--server-cmd",
        metavar="CMD",
        help="server command, {port} allowed",
    ),
    Field(
        "server.url",
        "TIERCHECK_SERVER_URL",
        "--server-url",
        metavar="URL",
        help="server URL, {port} allowed",
    ),
    Field(
        "server.ready_timeout",
        "TIERCHECK_READY_TIMEOUT",
        "--ready-timeout",
        30.0,
        _seconds,
        metavar="S",
        help="server start-up wait, s",
    ),
    Field(
        "client.command",
        "TIERCHECK_CLIENT_CMD",
        "--client-cmd",
        metavar="CMD",
        help="client command",
    ),
    # A command per scenario pattern; a higher layer's client.command replaces them all.
    Field("client.commands", None, None, default={}),
    Field(
        "client.timeout",
        "TIERCHECK_CLIENT_TIMEOUT",
        "--client-timeout",
        30.0,
        _seconds,
        metavar="S",
        help="per client scenario, s",
    ),
    # One flag for both legs' baselines: `--expected-failures SPEC`, repeatable.
    *(
        Field(
            f"expected_failures.{leg}",
            "TIERCHECK_EXPECTED_FAILURES",
            "--expected-failures",
            metavar="SPEC",
            help=(
                "baseline: FILE, LEG=FILE, @REV=FILE or LEG@REV=FILE (LEG server|client), "
                "repeatable; relative to the SDK's checkout; the variable is one FILE"
            ),
            repeat=parse_baseline_spec,
        )
        for leg in ("server", "client")
    ),
)

#: The cascade keys of the two legs' baselines.
BASELINE_KEYS = {"server": "expected_failures.server", "client": "expected_failures.client"}


def flag_fields() -> tuple[Field, ...]:
    """The fields a command-line flag can set, as `--help` lists them.

    Commands, URLs and files first, the timeouts (parsed as seconds) after; otherwise in cascade
    order. A flag several fields share (`--expected-failures`) is listed once, by its first.
    """
    settable: dict[str, Field] = {}
    for spec in FIELDS:
        if spec.flag is not None:
            settable.setdefault(spec.flag, spec)
    return tuple(sorted(settable.values(), key=lambda spec: spec.parse is not str))


#: What a configuration flag holds once read: a command or a URL (text), a timeout (seconds), or
#: the baseline SPECs of the repeatable `--expected-failures`, in the order given.
FlagValue = str | float | tuple[BaselineSpec, ...]


@dataclass(frozen=True, init=False)
class ConfigFlags:
    """The configuration flags the command line gave: the top layer of the cascade.

    Keyed by flag (`--server-cmd`), each value read as its field reads it: a timeout as
    seconds, each baseline SPEC parsed, a command as its text; a flag not given is absent. Made
    from texts or from values already read (the parser reads each as the flag is given), so a
    bad text is refused here (ConfigError naming the flag), and a flag no field has is a
    programming error (KeyError).
    """

    values: Mapping[str, FlagValue]

    def __init__(self, given: Mapping[str, object] | None = None) -> None:
        by_flag = {spec.flag: spec for spec in flag_fields()}
        read: dict[str, FlagValue] = {}
        for flag, value in (given or {}).items():
            if value is None:
                continue
            if flag not in by_flag:
                msg = f"{flag} is not a configuration flag"
                raise KeyError(msg)
            read[flag] = _read_flag(by_flag[flag], flag, value)
        object.__setattr__(self, "values", read)

    def value(self, flag: str) -> FlagValue | None:
        """What `flag` was given as, read; None when it was not given."""
        return self.values.get(flag)

    @property
    def baselines(self) -> tuple[BaselineSpec, ...]:
        """The `--expected-failures` SPECs given, in order (none given: ())."""
        for value in self.values.values():
            if isinstance(value, tuple):
                return value
        return ()

    def texts(self) -> dict[str, tuple[str, ...]]:
        """Each flag given → its texts as the command line writes them (one per SPEC)."""
        out: dict[str, tuple[str, ...]] = {}
        for flag, value in self.values.items():
            if isinstance(value, tuple):
                out[flag] = tuple(spec.text for spec in value)
            elif isinstance(value, float):
                out[flag] = (repr(value),)
            else:
                out[flag] = (value,)
        return out


def _read_flag(spec: Field, flag: str, value: object) -> FlagValue:
    """`value` of `flag` as the cascade takes it: texts are parsed; values already read kept."""
    if spec.repeat is not None:
        return tuple(_spec(spec.repeat, item, flag) for item in _items(value))
    if isinstance(value, str):
        parsed = _parse(spec, value, flag)
        return parsed if isinstance(parsed, str) else float(parsed)
    if spec.parse is not str and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    msg = f"{flag}: expected text, got {value!r}"
    raise ConfigError(msg)


def _items(value: object) -> list[object]:
    """A repeatable flag's values: one, or a list or tuple of them."""
    return list(value) if isinstance(value, list | tuple) else [value]


def _spec(parse: Callable[[str], Any], item: object, flag: str) -> BaselineSpec:
    if isinstance(item, BaselineSpec):
        return item
    if isinstance(item, str):
        read = _parse_with(parse, item, flag)
        if isinstance(read, BaselineSpec):
            return read
    msg = f"{flag}: expected a SPEC, got {item!r}"
    raise ConfigError(msg)


#: Blocks that replace wholesale when a higher layer sets them (server merges per field).
_WHOLESALE_BLOCKS = ("client",)


@dataclass(frozen=True)
class RevisionConfig:
    """Everything one revision of one SDK runs with, each value with its source."""

    sdk: str
    revision: str
    values: Mapping[str, Sourced[Any]]

    def _get(self, key: str) -> Any:
        return self.values[key].value

    @property
    def build(self) -> str | None:
        """The build command, or None."""
        value: str | None = self._get("build")
        return value

    @property
    def env(self) -> dict[str, str]:
        """Extra environment for build, server and client."""
        return dict(self._get("env"))

    @property
    def pass_env(self) -> tuple[str, ...]:
        """Secret-looking variables the SDK may still receive."""
        return tuple(self._get("pass_env"))

    @property
    def tag_prefix(self) -> str:
        """What the SDK's release tags start with before the version ("" when none is set)."""
        return str(self._get("tag_prefix") or "")

    @property
    def server_command(self) -> str | None:
        """The conformance server command (with `{port}`), or None."""
        value: str | None = self._get("server.command")
        return value

    @property
    def server_url(self) -> str | None:
        """The URL the server answers MCP on (with `{port}`), or None."""
        value: str | None = self._get("server.url")
        return value

    @property
    def ready_timeout(self) -> float:
        """Seconds to wait for the server to become ready."""
        return float(self._get("server.ready_timeout"))

    @property
    def client_commands(self) -> dict[str, str]:
        """The per-scenario-pattern client commands in force ({} when one command serves all).

        They are in force unless a higher layer (the environment, a flag) set client.command.
        """
        commands: Mapping[str, str] = self._get("client.commands") or {}
        if self.values["client.command"].layer > self.values["client.commands"].layer:
            return {}
        return dict(commands)

    @property
    def client_command(self) -> str | None:
        """The conformance client command the harness runs, or None.

        With `client.commands` in force this is one command that dispatches on the scenario
        name (`config.dispatch`); `client.command` then serves the scenarios no pattern matches.
        """
        value: str | None = self._get("client.command")
        commands = self.client_commands
        if commands:
            from tiercheck.config.dispatch import dispatch_command

            return dispatch_command(commands, value)
        return value

    def client_command_for(self, scenario: str) -> str | None:
        """The command the client of `scenario` runs (for show-config and tests)."""
        from tiercheck.config.dispatch import command_for

        value: str | None = self._get("client.command")
        return command_for(scenario, self.client_commands, value)

    @property
    def client_timeout(self) -> float:
        """Seconds one client scenario may take."""
        return float(self._get("client.timeout"))

    def baseline(self, leg: str) -> str | None:
        """The baseline file of `leg` (relative to the checkout unless absolute), or None."""
        value: str | None = self._get(BASELINE_KEYS[leg])
        return value

    def baseline_given(self, leg: str) -> bool:
        """Whether `leg`'s baseline was named on the command line (so it must exist)."""
        return self.values[BASELINE_KEYS[leg]].layer is Layer.COMMAND_LINE

    def to_dict(self) -> dict[str, Any]:
        """`{key: {"value": …, "source": …}}` in cascade field order."""
        out: dict[str, Any] = {}
        for key, sourced in self.values.items():
            value = sourced.value
            if isinstance(value, Mapping):
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = {"value": value, "source": sourced.source}
        return out


def _lookup(block: Mapping[str, Any], key: str) -> tuple[bool, Any]:
    """(present, value) for a dotted key inside a known_sdks.yaml block."""
    head, _, rest = key.partition(".")
    if head not in block:
        return False, None
    value = block[head]
    if not rest:
        return True, value
    if head in _WHOLESALE_BLOCKS:
        # The block is present, so it replaces the lower one as a whole: an absent sub-key
        # falls back to the default rather than to the lower layer's value.
        sub = value or {}
        return True, sub.get(rest)
    if isinstance(value, Mapping) and rest in value:
        return True, value[rest]
    if head == "expected_failures" and isinstance(value, str):
        return True, value  # one FILE for both legs
    return False, None


def resolve(
    entry: SdkEntry | None,
    revision: str,
    *,
    environ: Mapping[str, str],
    flags: ConfigFlags,
) -> RevisionConfig:
    """Resolve the configuration of `entry` at `revision` through the whole cascade.

    `flags` holds what the command line gave (`ConfigFlags`). `entry` may be None for an SDK
    known only by its checkout, in which case flags and environment supply everything.
    """
    values: dict[str, Sourced[Any]] = {}
    name = entry.name if entry else "(unknown sdk)"
    layers: list[tuple[Layer, str, Mapping[str, Any]]] = []
    if entry is not None:
        layers.append((Layer.REGISTRY, f"{entry.source}: {entry.name}", entry.raw))
        override = entry.override_for(revision)
        if override:
            where = f"{entry.source}: {entry.name}.spec_overrides.{revision}"
            layers.append((Layer.SPEC_OVERRIDE, where, override))
    for spec in FIELDS:
        chosen: Sourced[Any] = Sourced(spec.default, Layer.DEFAULT, "default")
        for layer, where, block in layers:
            present, value = _lookup(block, spec.key)
            if present and value is None:
                # A wholesale block (client) without this key resets it to the default; it
                # "replaces" something only when a lower layer had set the key.
                if chosen.layer is not Layer.DEFAULT:
                    chosen = Sourced(spec.default, Layer.DEFAULT, f"default (replaced by {where})")
            elif present:
                chosen = Sourced(value, layer, where)
        if spec.env_var and environ.get(spec.env_var):
            text = environ[spec.env_var]
            chosen = Sourced(_parse(spec, text, spec.env_var), Layer.ENVIRONMENT, spec.env_var)
        given = flags.value(spec.flag) if spec.flag else None
        if spec.flag and given is not None:
            if isinstance(given, tuple):
                found = pick_baseline(given, spec.key.rsplit(".", 1)[-1], revision)
                if found is not None:
                    chosen = Sourced(found.file, Layer.COMMAND_LINE, f"{spec.flag} {found.text}")
            else:
                chosen = Sourced(given, Layer.COMMAND_LINE, spec.flag)
        values[spec.key] = chosen
    return RevisionConfig(sdk=name, revision=revision, values=values)


def _parse_with(parse: Callable[[str], Any], text: str, where: str) -> Any:
    try:
        return parse(text)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _parse(spec: Field, text: str, where: str) -> Any:
    try:
        return spec.parse(text)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
