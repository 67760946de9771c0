"""Free text at the salon's edge, names and limits: properties over any input."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zanzibar.salon.chat import clean_text
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Limits, limits_from
from zanzibar.salon.names import (
    RESERVED_NAMES,
    clean_name,
    is_reserved,
    name_skeleton,
    name_skeletons,
)
from zanzibar.salon.text import BIDI_CONTROLS, clean_free_text

# any code point, lone surrogates included
any_text = st.text(alphabet=st.characters(codec=None, min_codepoint=0), max_size=60)


def _visible_only(text: str) -> bool:
    return all(
        ch not in BIDI_CONTROLS and unicodedata.category(ch)[0] != "C" for ch in text
    ) and bool(text.strip())


@given(any_text)
def test_clean_text_is_well_formed_and_visible_or_refused(raw: str) -> None:
    try:
        text = clean_free_text(raw, "a chat line", 500, single_line=False)
    except SalonError as refusal:
        assert refusal.code in {"invalid", "too_long"}
        return
    text.encode("utf-8")  # never raises: no surrogate left
    assert _visible_only(text)
    assert text == unicodedata.normalize("NFC", text)


@given(any_text)
def test_chat_lines_and_names_never_hold_invisible_characters(raw: str) -> None:
    for clean in (lambda r: clean_text(r)[0], clean_name):
        try:
            text = clean(raw)
        except SalonError:
            continue
        text.encode("utf-8")
        assert _visible_only(text)


@pytest.mark.parametrize(
    "raw",
    ["\ud800", "a\udfffb", "Anna\u202e", "\u2066Anna", "An\u200bna", "An\u00adna", "A\x00nna"],
)
def test_names_with_surrogates_or_invisible_characters_are_refused(raw: str) -> None:
    with pytest.raises(SalonError) as info:
        clean_name(raw)
    assert info.value.code == "invalid"


def test_reserved_names_and_look_alikes() -> None:
    for name in RESERVED_NAMES:
        assert is_reserved(name) and is_reserved(name.upper())
    for name in ("Bot 2 (random)", "Robot 4 (expert)", "ＳＹＳＴＥＭ", "\u0405ystem", "B0T 1"):
        assert is_reserved(name), name
    for name in ("Botticelli", "Roberta", "Anna", "Systematic Sam", "Abbot"):
        assert not is_reserved(name), name
    assert name_skeleton("Anna") == name_skeleton("ＡＮＮＡ") == name_skeleton("\u0410nna")
    assert name_skeleton("Anna") != name_skeleton("Anne")
    # a capital I passes for an l, and case never separates two names
    assert name_skeletons("Iris") & name_skeletons("iris")
    assert name_skeletons("Lily") & name_skeletons("LiIy")
    assert not name_skeletons("Lily") & name_skeletons("Lila")


def test_limits_from_flags_and_environment() -> None:
    limits = limits_from(
        ["tables_per_user=2", "message_rate_user=3/second", "exempt_addresses="],
        {"ZANZIBAR_LIMIT_TABLES_PER_USER": "9", "ZANZIBAR_LIMIT_SESSION_IDLE": "60"},
    )
    assert limits.tables_per_user == 2  # the flag wins over the environment
    assert limits.session_idle == 60.0 and limits.message_rate_user == "3/second"
    assert limits.exempt_addresses == () and not limits.exempt("127.0.0.1")
    assert Limits().exempt("127.0.0.1") and Limits().exempt(None)
    for bad in (["nope=1"], ["tables_per_user=0"], ["message_rate_user=often"], ["x"]):
        with pytest.raises(ValueError):
            limits_from(bad, {})
