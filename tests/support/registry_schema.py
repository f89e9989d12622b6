"""The known_sdks.yaml schema as agreed for `expected_failures` per leg and `language`.

`init` writes entries in that shape. Until the loader carries it, tests load what `init` wrote
through the real loader with this schema in place of the shipped one: the shipped schema, with
the two agreed additions made only when it lacks them (once it has them, this is the shipped
schema unchanged).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tiercheck.config import validate as validate_module

__all__ = ["agreed_schema", "use_agreed_schema"]

_ORIGINAL = validate_module.load_schema


def agreed_schema() -> dict[str, Any]:
    """known_sdks.schema.json with `expected_failures` as FILE or {server, client}, and
    `language`."""
    schema = copy.deepcopy(_ORIGINAL("known_sdks"))
    defs = schema["$defs"]
    sdk = defs["sdk"]["properties"]
    sdk.setdefault("language", {"type": "string", "minLength": 1})
    file = {"type": "string", "minLength": 1}
    mapping = {
        "oneOf": [
            file,
            {
                "type": "object",
                "additionalProperties": False,
                "minProperties": 1,
                "properties": {"server": file, "client": file},
            },
        ]
    }
    for block in (sdk, defs["override"]["properties"]):
        if block["expected_failures"].get("type") == "string":
            block["expected_failures"] = mapping
    return schema


def use_agreed_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the registry loader validate against `agreed_schema`."""

    def load(name: str) -> dict[str, Any]:
        return agreed_schema() if name == "known_sdks" else _ORIGINAL(name)

    monkeypatch.setattr(validate_module, "load_schema", load)
