"""What a French sentence must never contain: English, placeholders, internal tags, bad grammar."""

from __future__ import annotations

import re

#: English words that are not also French words (no "pot", "points", "score", "options",
#: "table", "message", "total", "action", "position", "type", "simple", "expert", "Rampo").
ENGLISH_WORDS = frozenset(
    [
        "the",
        "you",
        "your",
        "and",
        "or",
        "of",
        "to",
        "is",
        "are",
        "was",
        "with",
        "for",
        "from",
        "not",
        "no",
        "yes",
        "it",
        "this",
        "that",
        "these",
        "roll",
        "rolled",
        "rolls",
        "rolling",
        "turn",
        "turns",
        "dice",
        "die",
        "token",
        "tokens",
        "bank",
        "banks",
        "banked",
        "wins",
        "win",
        "won",
        "takes",
        "take",
        "lose",
        "loses",
        "lost",
        "player",
        "players",
        "game",
        "games",
        "seat",
        "seats",
        "move",
        "moves",
        "moved",
        "round",
        "rounds",
        "left",
        "out",
        "safe",
        "starts",
        "start",
        "stop",
        "stops",
        "chooses",
        "choose",
        "set",
        "aside",
        "hot",
        "again",
        "last",
        "first",
        "next",
        "each",
        "every",
        "all",
        "someone",
        "nobody",
        "everyone",
        "between",
        "after",
        "before",
        "at",
        "in",
        "board",
        "square",
        "rank",
        "file",
        "check",
        "checkmate",
        "stalemate",
        "draw",
        "resign",
        "resigns",
        "offers",
        "offer",
        "white",
        "black",
        "king",
        "queen",
        "rook",
        "bishop",
        "knight",
        "pawn",
        "eagle",
        "camel",
        "elephant",
        "giraffe",
        "buffalo",
        "host",
        "bot",
        "bots",
        "easy",
        "medium",
        "hard",
        "random",
        "expected",
        "casual",
        "waiting",
        "playing",
        "paused",
        "error",
        "unknown",
        "must",
        "needs",
        "needed",
        "cannot",
        "may",
        "only",
        "be",
        "has",
        "have",
        "had",
        "will",
        "would",
        "seconds",
        "clock",
        "help",
        "rules",
        "key",
        "keys",
        "press",
    ]
)

#: Text that only our sources and tests use.
INTERNAL_TAGS = re.compile(r"\b(seed|seeds|graine|graines)\b|\[|\]", re.IGNORECASE)
UNFORMATTED = re.compile(r"\{\s*\$|\{\s*[a-z_]+\s*\}|\$[a-z_]+")
GRAMMAR = (
    (
        re.compile(r"\b[01] (jetons|lancers|dés|points|secondes|joueurs|manches|coups|pièces)\b"),
        "plural after 0 or 1",
    ),
    (re.compile(r"\(s\)|\(e\)|\(es\)"), "(s) instead of a real plural"),
    (
        re.compile(r"\b[dD]e [AEIOUYÉÈÊHaeiouyéèê][a-zé]+\b(?! des\b)"),
        "'de' before a vowel: elide to d'",
    ),
    (re.compile(r"(?<![Oo]n )\b[Vv]ous propose\b"), "'vous' takes the 'proposez' form"),
    (re.compile(r"\b1 (dice|tokens|rolls|seconds)\b"), "English plural after 1"),
    (re.compile(r"(?<=\S) [:;!?](?=\s|$)"), "ordinary space before : ; ! ? (use a no-break one)"),
    (re.compile(r"(?<=\w)[;!?]"), "no space before ; ! ?"),
    (re.compile(r"« |(?<=\S) »"), "ordinary space inside « »"),
    (re.compile(r"\d\.\d"), "decimal point instead of a decimal comma"),
)

#: Quoted literals (typed commands, values the player gave) are not words of the sentence.
QUOTED = re.compile(r"«[^»]*»|'[^']*'")


def french_problems(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """Why ``text`` is not written French (empty when it is)."""
    problems = []
    if UNFORMATTED.search(text):
        problems.append("unformatted placeholder")
    if INTERNAL_TAGS.search(QUOTED.sub(" ", text)):
        problems.append("internal tag")
    for regex, why in GRAMMAR:
        if regex.search(text):
            problems.append(why)
    plain = QUOTED.sub(" ", text)
    for name in names:
        plain = plain.replace(name, " ")
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", plain)}
    english = sorted(words & ENGLISH_WORDS)
    if english:
        problems.append(f"English words {english}")
    return problems
