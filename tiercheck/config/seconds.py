"""Durations in seconds, as every layer of the configuration gives them: one rule for all.

A timeout of NaN never ends (every comparison with it is false), infinity cannot be written to
JSON, and zero or a negative number ends before anything starts; so each is refused where it
is given: a flag, a TIERCHECK_* variable or known_sdks.yaml.
"""

from __future__ import annotations

import math

__all__ = ["MAX_SECONDS", "parse_seconds", "seconds_problem"]

#: The longest duration accepted: a day. Anything longer is a typo (milliseconds?), and a
#: bound keeps arithmetic on deadlines far from overflow.
MAX_SECONDS = 86_400.0


def seconds_problem(value: object) -> str | None:
    """Why `value` is not a usable number of seconds, or None if it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number of seconds, got {value!r}"
    if math.isnan(value) or math.isinf(value):
        return f"expected a finite number of seconds, got {value}"
    if value <= 0:
        return f"expected a positive number of seconds, got {value}"
    if value > MAX_SECONDS:
        return f"{value} s is more than a day ({MAX_SECONDS:.0f} s); give seconds"
    return None


def parse_seconds(text: str) -> float:
    """`text` as a positive, finite number of seconds; ValueError (with the reason) otherwise."""
    try:
        value = float(text)
    except ValueError:
        msg = f"expected a positive number of seconds, got {text!r}"
        raise ValueError(msg) from None
    problem = seconds_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value
