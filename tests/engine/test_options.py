"""Option schemas: typing, ranges, presets and errors that name the option."""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import OptionError
from zanzibar.engine.options import OptionSchema, OptionSpec, Preset

SCHEMA = OptionSchema(
    specs=(
        OptionSpec("tokens", "int", 21, {"en": "Tokens", "fr": "Jetons"}, minimum=1, maximum=200),
        OptionSpec("dry", "bool", False, {"en": "Dry charge", "fr": "Charge sèche"}),
        OptionSpec(
            "ties", "choice", "later", {"en": "Ties", "fr": "Égalités"}, choices=("later", "rampo")
        ),
    ),
    presets=(
        Preset("salon", {"en": "Salon", "fr": "Salon"}, {}),
        Preset("bar", {"en": "Bar", "fr": "Bar"}, {"dry": True, "ties": "rampo"}),
    ),
    check=lambda v: "dry games need at least 3 tokens" if v["dry"] and v["tokens"] < 3 else None,
)


def test_defaults_come_from_the_first_preset() -> None:
    assert SCHEMA.resolve() == {"tokens": 21, "dry": False, "ties": "later"}


def test_a_preset_then_overrides() -> None:
    assert SCHEMA.resolve("bar", {"tokens": "11"}) == {"tokens": 11, "dry": True, "ties": "rampo"}


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"tokens": 0}, "tokens"),
        ({"tokens": "many"}, "tokens"),
        ({"tokens": True}, "tokens"),
        ({"dry": "maybe"}, "dry"),
        ({"ties": "coin"}, "ties"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_values_are_refused_naming_the_option(overrides: dict, named: str) -> None:
    with pytest.raises(OptionError) as info:
        SCHEMA.resolve(None, overrides)
    assert info.value.details["option"] == named
    assert named in info.value.message


def test_combination_check() -> None:
    with pytest.raises(OptionError, match="at least 3 tokens"):
        SCHEMA.resolve("bar", {"tokens": 2})


def test_unknown_preset() -> None:
    with pytest.raises(OptionError, match="unknown preset 'pub'"):
        SCHEMA.resolve("pub")


def test_command_line_assignments() -> None:
    assert SCHEMA.parse_assignments(["dry=oui", "tokens=41"]) == {"dry": True, "tokens": 41}
    with pytest.raises(OptionError, match="NAME=VALUE"):
        SCHEMA.parse_assignments(["dry"])


def test_matching_preset() -> None:
    assert SCHEMA.matching_preset(SCHEMA.resolve("bar")) == "bar"
    assert SCHEMA.matching_preset(SCHEMA.resolve("bar", {"tokens": 5})) is None


def test_json_form_is_localised() -> None:
    data = SCHEMA.to_json("fr")
    assert data["options"][1]["description"] == "Charge sèche"
    assert data["options"][2]["choices"] == ["later", "rampo"]
    assert data["presets"][1]["values"] == {"dry": True, "ties": "rampo"}
