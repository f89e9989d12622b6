"""`safeload.check_values`: values that decode but that no consumer can hold are refused at load.

Each is one ConfigError naming the file and where in it, from JSON (`parse_json`) and from YAML
(`loads_yaml`) alike: an integer beyond 64 bits (`float()` of it overflows), a number that is
not finite, a moment on the calendar's first or last day whose offset takes it out of the
calendar in UTC, and a name with a lone surrogate (UTF-8 cannot write it: a key, a naming field,
any YAML text). The neighbours of each (the largest 64-bit integer, other non-ASCII text, a
message quoting a lone surrogate, the same days in UTC or without an offset) still load.
"""

from __future__ import annotations

import pytest

from tiercheck.config.safeload import MAX_INT, parse_json
from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError

BAD_JSON = [
    ('{"pass_rate": 1' + "0" * 400 + "}", r"f\.json: pass_rate: a number of 401 digits"),
    ('{"tier": -' + "9" * 30 + "}", r"f\.json: tier: a number of 30 digits is too large"),
    ('{"sdk": {"name": "\\ud800"}}', r"f\.json: sdk\.name: '\\ud800' holds a lone surrogate"),
    ('[{"scenario": "a\\udfffb"}]', r"f\.json: \[0\]\.scenario: 'a\\udfffb' holds a lone"),
    ('{"repo": "o/\\ud800"}', r"f\.json: repo: 'o/\\ud800' holds a lone surrogate"),
    ('{"k\\udc00": 1}', r"f\.json: \(top level\): the key 'k\\udc00' holds a lone surrogate"),
    (
        '{"as_of": "9999-12-31T23:59:59-05:00"}',
        r"f\.json: as_of: '9999-12-31T23:59:59-05:00' is outside the calendar once converted",
    ),
    ('["0001-01-01T00:00:00+05:00"]', r"f\.json: \[0\]: '0001-01-01T00:00:00\+05:00' is outside"),
    ('"0001-01-01 00:00:00+01:00"', r"f\.json: \(top level\): '0001-01-01 00:00:00\+01:00'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_JSON)
def test_json_values_no_consumer_can_hold_are_one_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        parse_json(text, "f.json")
    assert "\n" not in str(info.value)


BAD_YAML = [
    ("tier: 1" + "0" * 400 + "\n", r"f\.yaml: tier: a number of 401 digits"),
    ("tier: " + "9" * 5000 + "\n", r"f\.yaml: invalid YAML: Exceeds the limit \(4300 digits\)"),
    ("timeout: .inf\n", r"f\.yaml: timeout: expected a finite number, got inf"),
    ("rows:\n  - sdk: .nan\n", r"f\.yaml: rows\[0\]\.sdk: expected a finite number, got nan"),
    ('name: "sdk\\ud800"\n', r"f\.yaml: name: 'sdk\\ud800' holds a lone surrogate"),
    ('server: ["tools\\ud800"]\n', r"f\.yaml: server\[0\]: 'tools\\ud800' holds a lone"),
    ('"\\udfff": 1\n', r"f\.yaml: \(top level\): the key '\\udfff' holds a lone surrogate"),
    ("at: '9999-12-31T23:59:59-05:00'\n", r"f\.yaml: at: '9999-12-31T23:59:59-05:00' is outside"),
]


@pytest.mark.parametrize(("text", "message"), BAD_YAML)
def test_yaml_values_no_consumer_can_hold_are_one_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        loads_yaml(text, "f.yaml")
    assert "\n" not in str(info.value)
    assert "set_int_max_str_digits" not in str(info.value)


def test_their_neighbours_still_load() -> None:
    text = (
        f'{{"big": {MAX_INT}, "small": {-MAX_INT}, "rate": 1e308, "name": "é😀\\u202e", '
        '"late": "9999-12-31T23:59:59Z", "naive": "9999-12-31T23:59:59", '
        '"east": "9999-12-30T23:59:59-05:00", "early": "0001-01-01T00:00:00-05:00", '
        '"pair": "\\ud83d\\ude00", "not a date": "9999-12-31T99", '
        '"failures": [{"message": "a server said \\ud800"}]}'
    )
    data = parse_json(text, "f.json")
    assert isinstance(data, dict)
    assert data["big"] == MAX_INT
    assert data["pair"] == "😀"
    # Text that names nothing may quote a server's lone surrogate: the writers escape it.
    assert data["failures"][0]["message"] == "a server said \ud800"
    assert loads_yaml(f"big: {MAX_INT}\nname: é😀\nat: '9999-12-31T23:59:59+00:00'\n", "f.yaml")
