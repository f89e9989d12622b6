"""`jsonschema.validate`, with each schema checked against its metaschema once per test process.

`jsonschema.validate(instance, schema)` checks the schema itself on every call, which for the
scorecard's schema costs more than validating the document; the tests validate many documents
against a few schemas.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

__all__ = ["conforms"]


@cache
def _validator(schema_json: str) -> Validator:
    schema = json.loads(schema_json)
    cls = validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def conforms(instance: object, schema: dict[str, Any]) -> None:
    """Raise `jsonschema.ValidationError` (the best match, as `jsonschema.validate` does) when
    `instance` breaks `schema`; `jsonschema.SchemaError` when `schema` itself is no schema."""
    from jsonschema.exceptions import best_match

    validator = _validator(json.dumps(schema, sort_keys=True))
    error = best_match(validator.iter_errors(instance))
    if error is not None:
        raise error
