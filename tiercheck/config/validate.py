"""JSON Schema validation that ends in one clear line: the file, the path inside it, the fix.

Schemas ship as package data (`tiercheck/schemas/*.schema.json`) so editors and other tools can
use the very documents tiercheck applies on every load.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from tiercheck.errors import ConfigError
from tiercheck.revisions import known_revisions, unknown_revision

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

__all__ = ["did_you_mean", "dotted_path", "load_schema", "validate"]


@cache
def _schema_text(name: str) -> str:
    return resources.files("tiercheck.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema `name` (e.g. "known_sdks") shipped with the package.

    A schema's `$defs.revision` is completed on load with the known revisions (an `enum`, from
    `requirements/revisions.yaml`), so a revision added as data is accepted everywhere at once.
    """
    schema: dict[str, Any] = json.loads(_schema_text(name))
    revision = schema.get("$defs", {}).get("revision")
    if isinstance(revision, dict) and revision.get("type") == "string":
        revision["enum"] = list(known_revisions())
    return schema


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest choice, or an empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def dotted_path(parts: Iterable[object]) -> str:
    """`go-sdk.spec_overrides.2026-07-28.server.url`, with list indexes as `[3]`."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            # A key holding a newline or a control character is shown quoted, so the
            # message stays one line.
            text = str(part) if str(part).isprintable() else repr(part)
            out += f".{text}" if out else text
    return out or "(top level)"


_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "null": "nothing",
}


def _describe(value: object) -> str:
    kind = {
        dict: "a mapping",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)
    shown = json.dumps(value, default=str)
    if len(shown) > 40:
        return kind
    return f"{kind} ({shown})"


def _alternatives(error: Any, path: list[object]) -> tuple[Sequence[object], str]:
    """Of a value's alternative forms, the one it was meant as (of its type); else the types."""
    meant = [e for e in error.context if e.validator != "type"]
    if meant:
        return _message(max(meant, key=lambda e: len(e.absolute_path)))
    kinds = [e.schema.get("type") for e in error.context]
    if all(isinstance(k, str) for k in kinds):
        expect = " or ".join(_TYPE_NAMES.get(k, k) for k in dict.fromkeys(kinds))
        return path, f"expected {expect}, got {_describe(error.instance)}"
    return path, str(error.message)


def _pattern(schema: dict[str, Any], instance: object) -> str:
    """A string not of the expected form: the schema's own words for the fix (`x-fix`) when
    it has them, else the pattern."""
    if isinstance(schema.get("x-fix"), str):
        return f"{instance!r:.100} is not accepted: {schema['x-fix']}"
    return f"{instance!r} does not match the expected form ({schema['pattern']})"


def _message(error: Any) -> tuple[Sequence[object], str]:
    """Turn a jsonschema ValidationError into (path, human message)."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        return _alternatives(error, list(error.absolute_path))
    return _plain(error)


def _plain(error: Any) -> tuple[Sequence[object], str]:
    """`_message` for one failed keyword."""
    path = list(error.absolute_path)
    validator = error.validator
    schema = error.schema
    instance = error.instance
    if validator == "additionalProperties" and isinstance(instance, dict):
        allowed = list(schema.get("properties", {}))
        extras = [k for k in instance if k not in allowed]
        key = str(extras[0]) if extras else "?"
        known = ", ".join(allowed)
        hint = did_you_mean(key, allowed)
        return [*path, key], f"unknown key{hint}; known keys: {known}"
    if validator == "propertyNames":
        bad = instance
        # jsonschema reports the offending key as the instance of the failing sub-schema
        for sub in error.context or []:
            bad = sub.instance
        enum = schema.get("propertyNames", {})
        if "$ref" in enum and enum["$ref"].endswith("/revision"):
            return [*path, str(bad)], unknown_revision(bad)
        return [*path, str(bad)], f"{bad!r} is not an allowed name here"
    if validator == "type":
        wanted = schema.get("type")
        names = [wanted] if isinstance(wanted, str) else list(wanted or [])
        expect = " or ".join(_TYPE_NAMES.get(n, n) for n in names)
        message = f"expected {expect}, got {_describe(instance)}"
        if isinstance(instance, str) and len(instance) == 10 and instance[4:5] == "-":
            message += " (a date written without quotes stays a string)"
        return path, message
    if validator == "enum":
        if "propertyNames" in error.absolute_schema_path:
            path = [*path, str(instance)]  # a bad key: point at it, not at its parent
        options = ", ".join(str(o) for o in schema["enum"])
        if set(schema["enum"]) <= set(known_revisions()):
            return path, f"{instance!r} is not a known spec revision; use one of {options}"
        return path, f"{instance!r} is not one of {options}"
    if validator == "required":
        missing = [k for k in schema.get("required", []) if k not in (instance or {})]
        return path, f"missing required key {missing[0]!r}" if missing else error.message
    if validator == "uniqueItems":
        seen: set[str] = set()
        for item in instance:
            key = json.dumps(item, sort_keys=True)
            if key in seen:
                return path, f"{item!r} is listed twice"
            seen.add(key)
    if validator == "minItems" and not instance:
        return path, "must not be empty"
    if validator == "minLength":
        return path, "must not be empty"
    if validator == "pattern":
        return path, _pattern(schema, instance)
    return path, str(error.message)


@cache
def _validator(schema_name: str, revisions: tuple[str, ...]) -> Draft202012Validator:
    """The validator of a shipped schema as completed with `revisions` (the known revisions
    when it is asked for: `TIERCHECK_REQUIREMENTS` may name another folder), made once."""
    del revisions  # the cache's key: load_schema reads the known revisions itself
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(schema_name))


#: Documents a schema accepted, by their canonical JSON text: the same document validated again
#: in one process (the bundled registry, on every command that names an SDK) is not walked again.
#: Only accepted documents are kept, at most `_ACCEPTED_MAX` of up to `_ACCEPTED_TEXT_MAX`
#: characters; the oldest goes first.
_accepted: dict[tuple[str, tuple[str, ...], str], None] = {}
_ACCEPTED_MAX = 32
_ACCEPTED_TEXT_MAX = 256 * 1024


def _accepted_key(
    instance: object, schema_name: str, revisions: tuple[str, ...]
) -> tuple[str, tuple[str, ...], str] | None:
    """The memo's key for `instance`, or None for a document that is not plain JSON data (a date
    a YAML loader made, say) or too large to keep."""
    try:
        text = json.dumps(instance, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return (schema_name, revisions, text) if len(text) <= _ACCEPTED_TEXT_MAX else None


def validate(instance: object, schema_name: str, source: str) -> None:
    """Validate `instance` against a shipped schema; raise one-line ConfigError on the first error.

    The error chosen is the most specific one (deepest path), so a typo inside a nested mapping
    is reported at the typo, not as "the whole entry is invalid".
    """
    revisions = known_revisions()
    key = _accepted_key(instance, schema_name, revisions)
    if key is not None and key in _accepted:
        return
    errors = list(_validator(schema_name, revisions).iter_errors(instance))
    if not errors:
        if key is not None:
            if len(_accepted) >= _ACCEPTED_MAX:
                del _accepted[next(iter(_accepted))]
            _accepted[key] = None
        return
    best = max(errors, key=lambda e: (len(e.absolute_path), e.validator == "additionalProperties"))
    path, message = _message(best)
    msg = f"{source}: {dotted_path(path)}: {message}"
    raise ConfigError(msg)
