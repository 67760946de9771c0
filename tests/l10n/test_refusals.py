"""Every refusal a person can meet is one sentence in their language.

The scan reads the sources: every refusal raised (or sent over HTTP) with a
literal English sentence must be matched back to its catalogue message, and
that message must read as French. A refusal added without its message fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from zanzibar.engine.errors import OptionError
from zanzibar.l10n import Msg, Voice
from zanzibar.l10n.legacy import from_english, say_english
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import RateGate, TokenBuckets, rates, take_tokens
from zanzibar.salon.names import clean_name
from zanzibar.salon.text import clean_free_text
from zanzibar.server.guards import refusal
from zanzibar.server.schemas import ProtocolError, check_incoming

from .scan import french_problems

SRC = Path(__file__).resolve().parents[2] / "src" / "zanzibar"
#: Where refusals a person can meet are raised.
FOLDERS = ("engine", "games", "salon", "server", "cli")
#: Refusal constructors and the position of their message argument.
REFUSERS = {
    "SalonError": 1,
    "ProtocolError": 1,
    "error_response": 1,
    "_Refused": 2,
    "_z_refuse": 3,
    "IllegalActionError": 0,
    "NotYourTurnError": 0,
    "OptionError": 0,
    "ZanzibarError": 0,
}


def _sample(node: ast.expr) -> str | None:
    """A literal or f-string message with sample values in its holes (None otherwise)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                assert isinstance(value, ast.FormattedValue)
                parts.append("'abc'" if value.conversion == ord("r") else "7")
        return "".join(parts)
    return None


def literal_refusals(source: str) -> list[tuple[int, str]]:
    """(line, sample text) of every refusal raised with a literal English message."""
    out = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        index = REFUSERS.get(name)
        if index is None or len(call.args) <= index:
            continue
        text = _sample(call.args[index])
        if text is not None:
            out.append((call.lineno, text))
    return out


def _all_refusals() -> list[tuple[str, int, str]]:
    found = []
    for folder in FOLDERS:
        for path in sorted((SRC / folder).rglob("*.py")):
            if "static" in path.parts:
                continue
            where = str(path.relative_to(SRC))
            found.extend((where, line, text) for line, text in literal_refusals(path.read_text()))
    return found


def test_the_scan_finds_a_refusal_without_message() -> None:
    source = 'raise SalonError("invalid", f"the frobnicator {x!r} is cold")\n'
    assert literal_refusals(source) == [(1, "the frobnicator 'abc' is cold")]
    assert from_english("the frobnicator 'abc' is cold") is None


def test_every_literal_refusal_has_a_french_message() -> None:
    refusals = _all_refusals()
    assert len(refusals) > 150
    voice = Voice("fr")
    bad = []
    for where, line, text in refusals:
        msg = from_english(text)
        if msg is None:
            bad.append((where, line, text, "no message"))
            continue
        french = voice.say(msg)
        problems = french_problems(french)
        if problems:
            bad.append((where, line, french, problems))
    assert bad == []


@pytest.mark.parametrize(
    ("make", "english", "french"),
    [
        (
            lambda: clean_free_text(7, "a name", 32),
            "a name must be text",
            "un nom doit être du texte",
        ),
        (
            lambda: clean_free_text("a\u202eb", "a chat line", 500, strip=False),
            "a chat line may not hold control, bidi or invisible formatting characters",
            "une ligne de discussion ne peut contenir ni caractère de contrôle, ni marque de "
            "direction, ni caractère de mise en forme invisible",
        ),
        (
            lambda: clean_free_text("\u200b", "a chat line", 500),
            "a chat line cannot be empty or only invisible characters",
            "une ligne de discussion ne peut pas être vide ni fait seulement de caractères "
            "invisibles",
        ),
        (
            lambda: clean_name("Bot"),
            None,
            None,
        ),
        (
            lambda: clean_name("!!!"),
            "a name needs at least one letter or digit",
            "un nom doit contenir au moins une lettre ou un chiffre",
        ),
    ],
)
def test_text_and_name_refusals_are_french(make, english, french) -> None:  # type: ignore[no-untyped-def]
    try:
        make()
    except SalonError as exc:
        if english is None:
            assert exc.msg is not None
            assert french_problems(exc.text("fr")) == []
            return
        assert exc.text("en") == english
        assert exc.text("fr") == french
    else:
        assert english is None


def test_rate_limits_say_the_rate_and_the_wait_in_french() -> None:
    gate = RateGate()
    rule = rates("2/minute;10/hour")
    gate.take([(rule, "k")], "new tables")
    gate.take([(rule, "k")], "new tables")
    with pytest.raises(SalonError) as caught:
        gate.take([(rule, "k")], "new tables")
    assert caught.value.code == "rate_limited"
    assert caught.value.text("en") == (
        "too many new tables: at most 2 per minute; try again in 60 seconds"
    )
    assert caught.value.text("fr") == (
        "trop de nouvelles tables\u00a0: au plus 2 par minute\u202f; réessayez dans 60 secondes"
    )
    assert caught.value.to_json("fr")["retry_after"] == 60


def test_message_floods_say_every_window_in_french() -> None:
    buckets = TokenBuckets("1/second;20/10 minutes", clock=lambda: 0.0)
    take_tokens([(buckets, "k")], "messages")
    with pytest.raises(SalonError) as caught:
        take_tokens([(buckets, "k")], "messages")
    assert caught.value.text("fr") == (
        "trop de messages\u00a0: au plus 1 par seconde et 20 toutes les 10 minutes"
        "\u202f; patientez un instant"
    )
    assert caught.value.text("en") == (
        "too many messages: at most 1 per second and 20 per 10 minutes; wait a moment"
    )


@pytest.mark.parametrize(
    ("error", "french"),
    [
        (
            SalonError("unauthenticated", "your session has expired; sign in again"),
            "votre session a expiré\u202f; reconnectez-vous",
        ),
        (
            SalonError("unauthenticated", "unknown, expired or signed-out session; sign in again"),
            "session inconnue, expirée ou fermée\u202f; reconnectez-vous",
        ),
        (
            SalonError(
                "rate_limited", "the salon is busy signing people in; try again in a few seconds"
            ),
            "le salon est occupé à connecter d'autres personnes\u202f; réessayez dans quelques "
            "secondes",
        ),
        (
            SalonError(
                "quota",
                "you already host 3 tables, the most allowed; leave one before opening another",
            ),
            "vous êtes déjà l'hôte de 3 tables, le maximum permis\u202f; quittez-en une avant "
            "d'en ouvrir une autre",
        ),
        (
            SalonError("invalid", "the name Salon is reserved for the salon; choose another"),
            "le nom «\u00a0Salon\u00a0» est réservé au salon\u202f; choisissez-en un autre",
        ),
        (OptionError(Msg("error-game-over")), "la partie est finie"),
    ],
)
def test_salon_refusals_are_french(error: SalonError | OptionError, french: str) -> None:
    assert error.text("fr") == french


def test_protocol_refusals_are_french() -> None:
    with pytest.raises(ProtocolError) as caught:
        check_incoming("{nope")
    assert caught.value.reply("fr")["message"] == "le message n'est pas du JSON valide"
    assert caught.value.reply()["message"] == "the message is not valid JSON"
    with pytest.raises(ProtocolError) as caught:
        check_incoming('{"v": 9, "type": "hello"}')
    assert caught.value.reply("fr")["message"] == (
        "la version 9 du protocole n'est pas prise en charge (utilisez 1)"
    )


def test_transport_refusals_follow_the_browser_language() -> None:
    french = {"headers": [(b"accept-language", b"fr-FR,fr;q=0.9")]}
    assert refusal(french, "too_large", limit="16384") == (
        "La requête est trop grande\u00a0: 16384 octets au plus."
    )
    assert refusal({}, "no_hello", seconds="10") == (
        "No hello within 10 seconds: the connection is closed."
    )
    assert refusal(french, "no_hello", seconds="10") == (
        "Pas de «\u00a0hello\u00a0» en 10 secondes\u00a0: la connexion est fermée."
    )
    assert say_english("the request headers are larger than 8192 bytes", "fr") == (
        "les en-têtes de la requête dépassent 8\u202f192 octets"
    )


def test_alternatives_join_with_or_and_lists_with_and() -> None:
    from zanzibar.l10n import AnyOf

    fr, en = Voice("fr"), Voice("en")
    assert (
        fr.join(["Dame", "Tour", "Fou", "Cavalier"], choice=True) == "Dame, Tour, Fou ou Cavalier"
    )
    assert en.join(["Queen", "Rook"], choice=True) == "Queen or Rook"
    assert fr.join(["Anna", "Bruno", "Chloé"]) == "Anna, Bruno et Chloé"
    msg = Msg("error-ambiguous", text="Nd4", options=AnyOf(["Nbd4", "Nfd4"]))
    assert fr.say(msg) == "«\u00a0Nd4\u00a0» est ambigu\u00a0: Nbd4 ou Nfd4"
    assert Msg.from_json(msg.to_json()) == msg
    assert isinstance(Msg.from_json(msg.to_json()).args["options"], AnyOf)


def test_promotion_choices_are_offered_with_or() -> None:
    from zanzibar.games.chess.help import generic_rules
    from zanzibar.games.chess.variant import load_variant

    variant = load_variant("zanzibar-s")
    said = [Voice("fr").say(m) for m in generic_rules(variant, {})]
    promoting = [s for s in said if "Se promeut en" in s]
    assert promoting
    for sentence in promoting:
        offered = sentence.split("Se promeut en ", 1)[1]
        assert " ou " in offered and " et " not in offered, sentence
