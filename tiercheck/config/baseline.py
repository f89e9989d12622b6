"""Loading expected-failures baselines (the official harness's `--expected-failures` YAML).

```yaml
server:
  - tools-call-image                 # the whole scenario is known to fail
client:
  - auth/scope-step-up:scope-check   # one check of it (split at the first colon)
```

Everything the official loader rejects is rejected here, with the entry's path (`client[3]`)
and the fix. We also reject what it silently accepts: unknown top-level keys (a typo'd `sever:`
would otherwise disable the whole server baseline) and duplicate entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.validate import did_you_mean, validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError
from tiercheck.revisions import LEGS, Leg

__all__ = ["Baseline", "BaselineEntry", "load_baseline", "parse_baseline"]

_FORM = "'scenario' or 'scenario:check-id'"


@dataclass(frozen=True)
class BaselineEntry:
    """One line of a baseline: a whole scenario (check is None) or one check of it."""

    leg: Leg
    scenario: str
    check: str | None
    index: int

    @property
    def text(self) -> str:
        """The entry as written: `scenario` or `scenario:check-id`."""
        return self.scenario if self.check is None else f"{self.scenario}:{self.check}"

    @property
    def where(self) -> str:
        """Its position in the file, e.g. `client[3]`."""
        return f"{self.leg}[{self.index}]"


@dataclass(frozen=True)
class Baseline:
    """A validated baseline; `source` names the file it came from."""

    source: str
    entries: tuple[BaselineEntry, ...] = ()
    #: The legs the file has a key for (`server:`, `client:`), listed or empty.
    keys: frozenset[str] = frozenset()

    def on(self, leg: Leg) -> tuple[BaselineEntry, ...]:
        """The entries of one leg, in file order."""
        return tuple(e for e in self.entries if e.leg == leg)

    def misfit(self, leg: Leg) -> str | None:
        """Why this file cannot be one leg's baseline, or None.

        A file given to `leg` alone that has no key for it but lists the other leg's entries was
        written for the other leg: applied, its entries would be silently ignored.
        """
        other: Leg = "client" if leg == "server" else "server"
        listed = self.on(other)
        if leg in self.keys or not listed:
            return None
        return (
            f"{self.source}: given to the {leg} leg, but it has no '{leg}:' list and its "
            f"'{other}:' list has {len(listed)} entr{'y' if len(listed) == 1 else 'ies'}; "
            f"give it to the {other} leg ({other}=FILE, or `{other}: FILE` under "
            "expected_failures in known_sdks.yaml) or to both"
        )


def _fail(source: str, where: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {where}: {message}")


def _kind(value: object) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    return type(value).__name__


def _entry(source: str, leg: Leg, index: int, raw: object) -> BaselineEntry:
    where = f"{leg}[{index}]"
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise _fail(source, where, f"empty entry; write {_FORM} or delete the line")
    if isinstance(raw, Mapping):
        # `- tools-call-image: check-id` parses as a one-key mapping, not a string.
        if len(raw) == 1:
            ((key, value),) = raw.items()
            if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value):
                msg = (
                    f"'{key}: {value}' is read as a mapping; write '{key}:{value}' "
                    "(remove the space after the colon)"
                )
                raise _fail(source, where, msg)
            if value is None:
                msg = (
                    f"'{key}:' is read as a mapping; write '{key}' for the whole scenario "
                    f"or '{key}:check-id' for one check"
                )
                raise _fail(source, where, msg)
        raise _fail(source, where, f"expected {_FORM}, got a mapping")
    if not isinstance(raw, str):
        raise _fail(source, where, f"expected {_FORM}, got {_kind(raw)}; quote it")
    scenario, colon, check = raw.partition(":")
    if colon and (not scenario or not check):
        side = "scenario" if not scenario else "check id"
        raise _fail(source, where, f"{raw!r} has an empty {side}; write 'scenario:check-id'")
    return BaselineEntry(leg=leg, scenario=scenario, check=check if colon else None, index=index)


def _section(source: str, leg: Leg, section: object) -> tuple[BaselineEntry, ...]:
    if section is None:  # `server:` with every entry commented out
        return ()
    if not isinstance(section, list):
        msg = f"expected a list of {_FORM} entries, got {_kind(section)}"
        raise _fail(source, leg, msg)
    entries = [_entry(source, leg, i, raw) for i, raw in enumerate(section)]
    seen: dict[str, BaselineEntry] = {}
    whole: dict[str, BaselineEntry] = {}
    per_check: dict[str, BaselineEntry] = {}
    for e in entries:
        first = seen.setdefault(e.text, e)
        if first is not e:
            msg = f"{e.text!r} is listed twice (first at {first.where}); delete one"
            raise _fail(source, e.where, msg)
        (whole if e.check is None else per_check).setdefault(e.scenario, e)
        if e.scenario in whole and e.scenario in per_check:
            other = per_check[e.scenario] if e.check is None else whole[e.scenario]
            msg = (
                f"{e.scenario!r} is listed both as a whole scenario and per check "
                f"(also at {other.where}); keep one form"
            )
            raise _fail(source, e.where, msg)
    return tuple(entries)


def parse_baseline(data: object, source: str) -> Baseline:
    """Validate decoded baseline YAML (None: an empty file) into a Baseline.

    Raises ConfigError "<source>: <path>: <what is wrong; the fix>".
    """
    if data is None:
        return Baseline(source)
    if not isinstance(data, Mapping):
        msg = f"expected a mapping with 'server:' and/or 'client:' lists, got {_kind(data)}"
        raise _fail(source, "(top level)", msg)
    for key in data:
        if key not in LEGS:
            hint = did_you_mean(str(key), LEGS)
            msg = f"unknown key {key!r}{hint}; a baseline has only 'server' and 'client' lists"
            raise _fail(source, str(key), msg)
    entries = tuple(e for leg in LEGS for e in _section(source, leg, data.get(leg)))
    # The shipped schema is what editors see; checking it too keeps the two from drifting.
    validate(data, "expected_failures", source)
    return Baseline(source, entries, frozenset(str(key) for key in data))


def load_baseline(path: Path) -> Baseline:
    """Read and validate a baseline file."""
    return parse_baseline(load_yaml(path), str(path))
