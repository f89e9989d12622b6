"""The JUnit XSD Jenkins' xunit plugin validates a report against (schemas/junit-10.xsd, from
jenkinsci/xunit-plugin), read by xmlschema: the errors a junit.xml has against it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import xmlschema

__all__ = ["XSD", "junit_schema_errors"]

XSD = Path(__file__).resolve().parent / "schemas" / "junit-10.xsd"


@cache
def _schema() -> xmlschema.XMLSchema10:
    return xmlschema.XMLSchema10(str(XSD))


def junit_schema_errors(text: str) -> list[str]:
    """Each way `text` breaks the xunit plugin's JUnit schema (none: it is valid)."""
    return [str(error) for error in _schema().iter_errors(text)]
