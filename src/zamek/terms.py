"""Player-facing words, per language and edition. Code identifiers never reach a person."""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "pl")

_TERMS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "road": "road",
        "house": "house",
        "pigsty": "pigsty",
        "meadow": "meadow",
        "chapel": "chapel",
        "shrine": "shrine",
        "stocks": "stocks",
        "fountain": "fountain",
        "family-house": "family house",
        "herald": "herald",
        "squire": "squire",
        "farmer": "farmer",
        "monk": "monk",
        "preacher": "preacher",
        "follower": "follower",
        "player": "Player {n}",
        "nobody": "nobody (tie)",
        "tiles": "tiles",
        "shrines": "shrines",
        "empty-spaces": "empty spaces",
        "points": "points",
        "total": "Total",
        "winner": "Winner: {who}",
        "shared-victory": "Shared victory",
        "breakdown": "Score breakdown",
        "final-scoring": "Final scoring",
        "discarded": "Discarded (no legal placement): {tiles}",
        "token": "special token {kind}",
    },
    "pl": {
        "road": "droga",
        "house": "dom",
        "pigsty": "chlew",
        "meadow": "łąka",
        "chapel": "kaplica",
        "shrine": "kapliczka",
        "stocks": "dyby",
        "fountain": "fontanna",
        "family-house": "siedziba rodu",
        "herald": "herold",
        "squire": "giermek",
        "farmer": "rolnik",
        "monk": "mnich",
        "preacher": "kaznodzieja",
        "follower": "poddany",
        "player": "Gracz {n}",
        "nobody": "nikt (remis)",
        "tiles": "kafelki",
        "shrines": "kapliczki",
        "empty-spaces": "puste pola",
        "points": "pkt",
        "total": "Razem",
        "winner": "Zwycięzca: {who}",
        "shared-victory": "Wspólne zwycięstwo",
        "breakdown": "Punktacja",
        "final-scoring": "Punktacja końcowa",
        "discarded": "Odrzucone (brak miejsca): {tiles}",
        "token": "żeton specjalny {kind}",
    },
}


def term(key: str, lang: str = "en", **values: object) -> str:
    """Return the word for ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    table = _TERMS.get(lang, _TERMS["en"])
    return table[key].format(**values)


def keys(lang: str) -> frozenset[str]:
    return frozenset(_TERMS[lang])
