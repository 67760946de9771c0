"""Game options: a typed schema, bilingual descriptions and named presets.

Every rule that sources disagree on is an option. A preset is a named set of
option values (``salon`` and ``bar`` for 421, say); a table picks a preset and
may change single options. Validation names the offending option so a person
knows what to fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from zanzibar.engine.errors import OptionError
from zanzibar.l10n.msg import texts

OptionType = Literal["int", "bool", "choice"]

_TRUE = {"1", "true", "yes", "on", "oui", "vrai"}
_FALSE = {"0", "false", "no", "off", "non", "faux"}


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, type, allowed values, default and meaning.

    ``description`` maps a language code ("en", "fr") to one sentence.
    ``source`` says where the rule comes from (a seed or a cited source).

    >>> spec = OptionSpec("tokens", "int", 21, {"en": "Tokens", "fr": "Jetons"},
    ...                   minimum=1, maximum=200)
    >>> spec.coerce("11")
    11
    >>> spec.coerce(0)
    Traceback (most recent call last):
    ...
    zanzibar.engine.errors.OptionError: option 'tokens': 0 is below the minimum 1
    """

    name: str
    type: OptionType
    default: Any
    #: A text per language, or a catalogue message (``Msg("options-…")``, seen as texts).
    description: Mapping[str, str]
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    source: str = ""
    choice_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "description", texts(self.description))
        labels = {k: texts(v) for k, v in self.choice_labels.items()}
        object.__setattr__(self, "choice_labels", labels)

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this option's type, or raise :class:`OptionError`.

        Strings are parsed (so ``NAME=VALUE`` from a command line works).
        """
        if self.type == "bool":
            return self._coerce_bool(value)
        if self.type == "int":
            return self._coerce_int(value)
        return self._coerce_choice(value)

    def _fail(self, why: str) -> OptionError:
        return OptionError(f"option '{self.name}': {why}", option=self.name)

    def _coerce_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE:
            return True
        if isinstance(value, str) and value.strip().lower() in _FALSE:
            return False
        raise self._fail(f"{value!r} is not true or false")

    def _coerce_int(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self._fail(f"{value!r} is not a whole number")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise self._fail(f"{value!r} is not a whole number") from None
        if not isinstance(value, int):
            raise self._fail(f"{value!r} is not a whole number")
        if self.minimum is not None and value < self.minimum:
            raise self._fail(f"{value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise self._fail(f"{value} is above the maximum {self.maximum}")
        return value

    def _coerce_choice(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.choices:
            allowed = ", ".join(self.choices)
            raise self._fail(f"{value!r} is not one of: {allowed}")
        return value

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """The schema entry as the protocol and the web form use it."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": dict(self.description)
            if lang is None
            else self.description.get(lang, self.description.get("en", "")),
            "source": self.source,
        }
        if self.choices:
            out["choices"] = list(self.choices)
            if self.choice_labels:
                out["choice_labels"] = {k: dict(v) for k, v in self.choice_labels.items()}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class Preset:
    """A named set of option values (the others keep their defaults)."""

    name: str
    description: Mapping[str, str]
    values: Mapping[str, Any]
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "description", texts(self.description))


@dataclass(frozen=True)
class OptionSchema:
    """All options of a game, and its presets; the first preset is the default.

    ``check`` lets a game refuse combinations that are each valid alone
    (it returns an error message or ``None``).
    """

    specs: tuple[OptionSpec, ...]
    presets: tuple[Preset, ...] = ()
    check: Any = None  # Callable[[dict[str, Any]], str | None]

    def spec(self, name: str) -> OptionSpec:
        """The spec of one option, or :class:`OptionError` naming it."""
        for spec in self.specs:
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in self.specs)
        raise OptionError(f"unknown option '{name}' (known: {known})", option=name)

    def preset(self, name: str) -> Preset:
        """A preset by name."""
        for preset in self.presets:
            if preset.name == name:
                return preset
        known = ", ".join(p.name for p in self.presets)
        raise OptionError(f"unknown preset '{name}' (known: {known})", option="preset")

    @property
    def default_preset(self) -> str | None:
        """The name of the default preset, if the game has presets."""
        return self.presets[0].name if self.presets else None

    def defaults(self) -> dict[str, Any]:
        """Every option at its default value."""
        return {spec.name: spec.default for spec in self.specs}

    def resolve(
        self, preset: str | None = None, overrides: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Defaults, then the preset, then single overrides; all validated."""
        values = self.defaults()
        chosen = preset if preset is not None else self.default_preset
        if chosen is not None:
            values.update(self.preset(chosen).values)
        for name, raw in (overrides or {}).items():
            values[name] = self.spec(name).coerce(raw)
        return self.validate(values)

    def validate(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Check a complete set of values (as loaded from storage, say)."""
        out: dict[str, Any] = {}
        for name in values:
            self.spec(name)
        for spec in self.specs:
            out[spec.name] = spec.coerce(values[spec.name]) if spec.name in values else spec.default
        if self.check is not None:
            problem = self.check(out)
            if problem:
                raise OptionError(problem)
        return out

    def parse_assignments(self, assignments: list[str]) -> dict[str, Any]:
        """Parse ``NAME=VALUE`` strings from a command line."""
        out: dict[str, Any] = {}
        for item in assignments:
            name, sep, raw = item.partition("=")
            if not sep:
                raise OptionError(f"'{item}' is not of the form NAME=VALUE", option=item)
            out[name.strip()] = self.spec(name.strip()).coerce(raw)
        return out

    def matching_preset(self, values: Mapping[str, Any]) -> str | None:
        """The preset whose values these are exactly, if any."""
        for preset in self.presets:
            if self.resolve(preset.name) == dict(values):
                return preset.name
        return None

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """The schema as the protocol sends it."""
        return {
            "options": [spec.to_json(lang) for spec in self.specs],
            "presets": [
                {
                    "name": p.name,
                    "description": dict(p.description)
                    if lang is None
                    else p.description.get(lang, p.description.get("en", "")),
                    "values": dict(p.values),
                    "source": p.source,
                }
                for p in self.presets
            ],
        }
