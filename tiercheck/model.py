"""Typed documents: frozen dataclasses ↔ JSON, and the JSON Schema of each (pure).

Why our own ~200 lines rather than pydantic or cattrs: the documents are plain frozen
dataclasses that the pure core builds and the formatters read, `tier-check --help` must not pay
for a model library's import, and the few rules we need fit here:

* a field's JSON key is its name, or `json=` (the official ``notScoredReason``);
* `omit_none=True` leaves the key out when the value is None (official keys that the official
  tool writes only sometimes, such as ``error``);
* `rest=True` on one `Mapping` field gathers every key no other field names (open objects
  whose extra keys another layer owns, such as a governance signal's numbers);
* keys are written in declaration order, so a model that declares the official fields first
  writes them first;
* a class may carry a tag (``json_tag = ("available", True)``), written first and required on
  read, which is how a union of models (`LabelFacts | Unavailable`) is told apart;
* a class may list read-only properties (``json_computed = ("first_label_at",)``), written after
  its fields for readers of the file and ignored when read back;
* datetimes are written as ISO-8601 UTC with a ``Z`` and read back aware;
* `schema=` adds JSON Schema keywords a type cannot say (a pattern, a minimum length);
* `optional=True` lets a file leave the key out (its default is used): every key a model
  writes is otherwise required of a file read back.

`to_json` serialises, `from_json` reads back with a one-line error naming the path of the first
wrong value, and `json_schema` derives the schema that `tiercheck/schemas/` ships.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import PurePath
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

__all__ = [
    "ModelError",
    "doc_field",
    "format_time",
    "from_json",
    "json_schema",
    "parse_time",
    "schema_text",
    "to_json",
]

T = TypeVar("T")

_META = "tiercheck.model"

#: What a written timestamp looks like (ISO-8601, seconds, optional fraction, a zone).
TIME_PATTERN = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"
)


def _literal(value: object) -> str:
    """A JSON value as it reads in a message (`true`, `null`, `"x"`)."""
    import json

    return json.dumps(value)


class ModelError(ValueError):
    """A JSON value that does not fit the model; `path` says where (``checks.triage.status``).

    `tag_mismatch` marks the error of a tagged model whose tag did not match: in a union, the
    other options' errors say more.
    """

    def __init__(self, path: str, message: str, *, tag_mismatch: bool = False) -> None:
        super().__init__(f"{path or '(document)'}: {message}")
        self.path = path
        self.tag_mismatch = tag_mismatch


def parse_time(text: str) -> datetime:
    """An ISO-8601 timestamp (``2025-01-02T03:04:05Z``) as an aware UTC datetime."""
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def format_time(value: datetime) -> str:
    """`value` as ISO-8601 UTC to the second, with a ``Z``."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def doc_field(
    *,
    doc: str = "",
    json: str | None = None,
    omit_none: bool = False,
    rest: bool = False,
    schema: Mapping[str, Any] | None = None,
    optional: bool = False,
    default: Any = dataclasses.MISSING,
    default_factory: Any = dataclasses.MISSING,
) -> Any:
    """A dataclass field with its JSON key, its description and how it is written."""
    meta = {
        _META: {
            "doc": doc,
            "json": json,
            "omit_none": omit_none,
            "rest": rest,
            "schema": dict(schema or {}),
            "optional": optional,
        }
    }
    if default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    key: str
    hint: Any
    doc: str
    omit_none: bool
    rest: bool
    required: bool
    schema: Mapping[str, Any]
    optional: bool


@cache
def _fields(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        meta = f.metadata.get(_META, {})
        no_default = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out.append(
            _Field(
                name=f.name,
                key=meta.get("json") or f.name,
                hint=hints[f.name],
                doc=meta.get("doc", ""),
                omit_none=meta.get("omit_none", False),
                rest=meta.get("rest", False),
                required=no_default,
                schema=meta.get("schema", {}),
                optional=meta.get("optional", False),
            )
        )
    return tuple(out)


def _tag(cls: type) -> tuple[str, Any] | None:
    tag: tuple[str, Any] | None = getattr(cls, "json_tag", None)
    return tag


def _computed(cls: type) -> tuple[str, ...]:
    names: tuple[str, ...] = getattr(cls, "json_computed", ())
    return names


def to_json(value: Any) -> Any:
    """`value` as JSON data: dataclasses by their fields, tuples as lists, paths as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        tag = _tag(type(value))
        if tag is not None:
            out[tag[0]] = tag[1]
        for f in _fields(type(value)):
            item = getattr(value, f.name)
            if f.rest:
                out |= {str(k): to_json(v) for k, v in item.items()}
            elif not (f.omit_none and item is None):
                out[f.key] = to_json(item)
        for name in _computed(type(value)):
            out[name] = to_json(getattr(value, name))
        return out
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, Sequence):
        return [to_json(v) for v in value]
    msg = f"cannot write {type(value).__name__} as JSON"
    raise TypeError(msg)


def _is_optional(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def _read(hint: Any, value: Any, path: str) -> Any:
    """`value` read as the type `hint`; ModelError naming `path` where it is not one."""
    origin = get_origin(hint)
    if hint is Any:
        return value
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return from_json(hint, value, path)
    if origin in (Union, types.UnionType):
        return _read_union(get_args(hint), value, path)
    if origin is Literal:
        if value not in get_args(hint) or isinstance(value, bool) != any(
            isinstance(a, bool) for a in get_args(hint)
        ):
            allowed = ", ".join(repr(a) for a in get_args(hint))
            raise ModelError(path, f"expected one of {allowed}, got {value!r:.60}")
        return value
    if hint in _SCALARS:
        return _SCALARS[hint](value, path)
    if origin is tuple:
        if not isinstance(value, list):
            raise ModelError(path, f"expected a list, got {_describe(value)}")
        (item,) = (a for a in get_args(hint) if a is not Ellipsis)
        return tuple(_read(item, v, _join(path, i)) for i, v in enumerate(value))
    if origin in (Mapping, dict) or hint is dict:
        if not isinstance(value, dict):
            raise ModelError(path, f"expected an object, got {_describe(value)}")
        item = get_args(hint)[1] if get_args(hint) else Any
        return {k: _read(item, v, _join(path, k)) for k, v in value.items()}
    msg = f"no JSON reading for {hint!r}"
    raise TypeError(msg)


def _read_union(options: tuple[Any, ...], value: Any, path: str) -> Any:
    """`value` read as the first of `options` that takes it (None where None is one)."""
    if value is None and type(None) in options:
        return None
    errors = []
    for option in (o for o in options if o is not type(None)):
        try:
            return _read(option, value, path)
        except ModelError as exc:
            errors.append(exc)
    # The option whose tag matched explains best; with no tags, a lone option's error.
    telling = [e for e in errors if not e.tag_mismatch]
    if len(telling) == 1:
        raise telling[0]
    raise errors[0] if len(errors) == 1 else ModelError(path, f"unexpected {_describe(value)}")


def _read_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ModelError(path, f"expected a boolean, got {_describe(value)}")
    return value


def _read_int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(path, f"expected an integer, got {_describe(value)}")
    return value


def _read_float(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelError(path, f"expected a number, got {_describe(value)}")
    return float(value) if isinstance(value, int) else value


def _read_str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ModelError(path, f"expected a string, got {_describe(value)}")
    return value


def _read_datetime(value: Any, path: str) -> datetime:
    if not isinstance(value, str):
        raise ModelError(path, f"expected a timestamp, got {_describe(value)}")
    try:
        return parse_time(value)
    except ValueError:
        raise ModelError(path, f"not an ISO-8601 timestamp: {value!r:.60}") from None


#: The scalar types a JSON value is read as, each with its check (a bool is never a number).
_SCALARS: dict[Any, Callable[[Any, str], Any]] = {
    bool: _read_bool,
    int: _read_int,
    float: _read_float,
    str: _read_str,
    datetime: _read_datetime,
}


def from_json(cls: type[T], data: Any, path: str = "") -> T:
    """An instance of the dataclass `cls` from JSON data; ModelError names the first bad path.

    Unknown keys are refused unless a `rest` field gathers them, so a document that grew a field
    the model lacks is noticed rather than silently dropped.
    """
    if not isinstance(data, dict):
        raise ModelError(path, f"expected an object, got {_describe(data)}")
    fields = _fields(typing.cast(type, cls))
    known = {f.key for f in fields if not f.rest} | set(_computed(typing.cast(type, cls)))
    tag = _tag(typing.cast(type, cls))
    if tag is not None:
        key, expected = tag
        if data.get(key) != expected or type(data.get(key)) is not type(expected):
            message = f"expected {_literal(expected)}, got {_literal(data.get(key))}"
            raise ModelError(_join(path, key), message, tag_mismatch=True)
        known.add(key)
    values: dict[str, Any] = {}
    for f in fields:
        if f.rest:
            values[f.name] = {k: v for k, v in data.items() if k not in known}
        elif f.key in data:
            values[f.name] = _read(f.hint, data[f.key], _join(path, f.key))
        elif f.omit_none and _is_optional(f.hint):
            values[f.name] = None
        elif f.required:
            raise ModelError(_join(path, f.key), "missing")
    if not any(f.rest for f in fields):
        extra = sorted(set(data) - known)
        if extra:
            raise ModelError(_join(path, extra[0]), "not a field of this document")
    return cls(**values)


def _schema_of(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(hint)
    if hint is Any:
        return {}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        _define(hint, defs)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    if origin in (Union, types.UnionType):
        options = [o for o in get_args(hint) if o is not type(None)]
        nullable = type(None) in get_args(hint)
        if len(options) == 1:
            inner = _schema_of(options[0], defs)
            if not nullable:
                return inner
            if set(inner) == {"type"} and isinstance(inner["type"], str):
                return {"type": [inner["type"], "null"]}
            return {"anyOf": [inner, {"type": "null"}]}
        alts = [_schema_of(o, defs) for o in options] + ([{"type": "null"}] if nullable else [])
        return {"anyOf": alts}
    if origin is Literal:
        return {"enum": list(get_args(hint))}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string"}
    if hint in simple:
        return {"type": simple[hint]}
    if hint is datetime:
        return {"type": "string", "pattern": TIME_PATTERN}
    if origin is tuple:
        (item,) = (a for a in get_args(hint) if a is not Ellipsis)
        return {"type": "array", "items": _schema_of(item, defs)}
    if origin in (Mapping, dict) or hint is dict:
        args = get_args(hint)
        if not args or args[1] is Any:
            return {"type": "object"}
        return {"type": "object", "additionalProperties": _schema_of(args[1], defs)}
    msg = f"no JSON Schema for {hint!r}"
    raise TypeError(msg)


def _summary(cls: type) -> str:
    return (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ").strip()


def _define(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    if cls.__name__ in defs:
        return dict(defs[cls.__name__])
    defs[cls.__name__] = {}  # placeholder: a model may refer to itself
    properties: dict[str, Any] = {}
    required = []
    rest = False
    tag = _tag(cls)
    if tag is not None:
        properties[tag[0]] = {"const": tag[1]}
        required.append(tag[0])
    for f in _fields(cls):
        if f.rest:
            rest = True
            continue
        prop = _schema_of(f.hint, defs) | dict(f.schema)
        if f.doc:
            prop = {"description": f.doc, **prop}
        properties[f.key] = prop
        if not (f.omit_none or f.optional):
            required.append(f.key)
    hints = typing.get_type_hints
    for name in _computed(cls):
        getter = getattr(cls, name).fget
        properties[name] = {"readOnly": True, **_schema_of(hints(getter)["return"], defs)}
    schema: dict[str, Any] = {"type": "object"}
    if _summary(cls):
        schema["description"] = _summary(cls)
    schema |= {"required": required, "properties": properties, "additionalProperties": rest}
    defs[cls.__name__] = schema
    return schema


def json_schema(root: type, *, schema_id: str, title: str) -> dict[str, Any]:
    """The JSON Schema (2020-12) of the dataclass `root`, every nested model under `$defs`."""
    defs: dict[str, Any] = {}
    body = _define(root, defs)
    del defs[root.__name__]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id,
        "title": title,
        **body,
        "$defs": dict(sorted(defs.items())),
    }


def schema_text(root: type, *, schema_id: str, title: str) -> str:
    """`json_schema` as a committed schema file holds it: indent 2, a trailing newline."""
    import json

    schema = json_schema(root, schema_id=schema_id, title=title)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
