"""Everything said in French is written French: no English word, no unformatted
placeholder, no internal tag ("seed 000", "[graine 001]"), no grammar error."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from fluent.syntax import ast, visitor

from zanzibar.engine.errors import IllegalActionError, OptionError
from zanzibar.l10n import Msg, Voice, default_catalogue
from zanzibar.salon.errors import SalonError

from .corpus import NAMES, game_events, sentences
from .scan import french_problems

MARKERS = ("Anna", "Éric", "Bruno", "Hugo")
#: Variables that hold the names of players, games or lists of names.
NAME_VARIABLES = frozenset(
    {"name", "winner", "winners", "trigger", "names", "queue", "game", "players", "seats"}
)


def test_the_scan_catches_each_kind_of_defect() -> None:
    assert french_problems("Au tour d'Anna\u00a0: 2 lancers au plus.", MARKERS) == []
    assert "English words ['rolled']" in french_problems("Anna rolled 4 2 1", MARKERS)
    assert "unformatted placeholder" in french_problems("vous avez { $n } jetons", ())
    assert "internal tag" in french_problems("Jetons\u00a0: 21 [graine 001]", ())
    assert "plural after 0 or 1" in french_problems("vous avez 0 jetons", ())
    assert "plural after 0 or 1" in french_problems("vous lancez 1 dés", ())
    assert "(s) instead of a real plural" in french_problems("2 manche(s) perdue(s)", ())
    assert "'de' before a vowel: elide to d'" in french_problems("au tour de Anna", ())
    assert "'vous' takes the 'proposez' form" in french_problems("Vous propose la nulle.", ())
    assert any("space" in p for p in french_problems("Erreur : non", ()))
    assert "decimal point instead of a decimal comma" in french_problems("Matériel 39.5", ())


def test_every_event_of_every_game_reads_as_french() -> None:
    bad = [
        (where, text, problems)
        for where, text in sentences("fr")
        if (problems := french_problems(text, NAMES)) or not text.strip()
    ]
    assert bad[:10] == []


@pytest.mark.parametrize("game", ["421", "zilch"])
def test_the_corpus_reaches_every_event_kind(game: str) -> None:
    from zanzibar.games.dice421.messages import EVENT_KINDS as KINDS_421
    from zanzibar.games.zilch.messages import EVENT_KINDS as KINDS_ZILCH

    events, _ = game_events(game)
    wanted = KINDS_421 if game == "421" else KINDS_ZILCH
    assert {e.kind for e in events} == set(wanted)


def _selectors(node: ast.BaseNode) -> dict[str, list[Any]]:
    """Each selected variable with values reaching each of its variants."""
    found: dict[str, list[Any]] = {}

    class Walk(visitor.Visitor):
        def visit_SelectExpression(self, select: ast.SelectExpression) -> None:
            sel = select.selector
            if isinstance(sel, ast.VariableReference):
                values = found.setdefault(sel.id.name, [])
                for variant in select.variants:
                    key = variant.key
                    if isinstance(key, ast.NumberLiteral):
                        values.append(int(float(key.value)))
                    elif key.name in ("one", "other", "few", "many", "zero", "two"):
                        values.extend([0, 1, 2, 5])
                    else:
                        values.append(key.name)
            self.generic_visit(select)

    Walk().visit(node)
    return found


def _variables(node: ast.BaseNode) -> set[str]:
    found: set[str] = set()

    class Walk(visitor.Visitor):
        def visit_VariableReference(self, ref: ast.VariableReference) -> None:
            found.add(ref.id.name)

    Walk().visit(node)
    return found


def test_every_french_message_in_every_variant_reads_as_french() -> None:
    """Each message with every variant of its selectors, names as markers and numbers 0, 1, 2, 5."""
    voice = Voice("fr", strict=True)
    bad = []
    checked = 0
    for file, message in default_catalogue().languages["fr"].messages():
        if file == "web" or message.value is None:
            continue
        selectors = _selectors(message)
        plain = sorted(_variables(message) - set(selectors))
        names = list(selectors)
        for combo in itertools.product(*(dict.fromkeys(selectors[n]) for n in names)):
            for marker in ("Anna", "Bruno"):
                args: dict[str, Any] = dict(zip(names, combo, strict=True))
                # names get a vowel and a consonant (elision); other words a consonant
                args.update({v: marker if v in NAME_VARIABLES else "Bruno" for v in plain})
                text = voice.say(Msg(message.id.name, **args))
                checked += 1
                problems = french_problems(text, MARKERS)
                if problems:
                    bad.append((message.id.name, args, text, problems))
    assert checked > 500
    assert bad[:10] == []


@pytest.mark.parametrize(
    ("error", "french"),
    [
        (
            IllegalActionError(
                "banking needs at least 500 points in the turn for a first bank; you would have 50"
            ),
            "pour marquer une première fois il faut au moins 500 points dans le tour\u202f; "
            "vous auriez 50",
        ),
        (SalonError("conflict", "seat 3 is taken"), "la place 3 est prise"),
        (SalonError("forbidden", "only the host may do that"), "seul l'hôte peut faire cela"),
        (
            OptionError("option 'target': 12 is below the minimum 500"),
            "option «\u00a0target\u00a0»\u00a0: 12 est sous le minimum 500",
        ),
        (IllegalActionError(Msg("error-table-full")), "la table est complète"),
    ],
)
def test_refusals_are_said_in_french(error: Exception, french: str) -> None:
    assert isinstance(error, IllegalActionError | SalonError | OptionError)
    assert error.text("fr") == french
    assert error.to_json("fr")["message"] == french
    assert error.msg is not None
