"""Player-facing words, per language and edition. Code identifiers never reach a person.

``term(key, lang, edition)`` looks in the edition's own table first (The Castle 2003
names things differently, C1), then in the language's common table.
"""

from __future__ import annotations

from typing import Final

from zamek.castle.rules.editions import EDITIONS
from zamek.castle.rules.tokens import TokenKind, printed_number

LANGUAGES: Final = ("en", "pl")

_COMMON: Final[dict[str, dict[str, str]]] = {
    "en": {
        "chapel": "chapel",
        "preacher": "preacher",
        "prince": "prince",
        "falconer": "falconer",
        "nest": "falcon nest",
        "nests": "falcon nests",
        "gate": "gate",
        "follower": "follower",
        "score-marker": "score marker",
        "player": "Player {n}",
        "nobody": "nobody (tie)",
        "tiles": "tiles",
        "empty-spaces": "empty spaces",
        "points": "points",
        "total": "Total",
        "winner": "Winner: {who}",
        "shared-victory": "Shared victory",
        "breakdown": "Score breakdown",
        "final-scoring": "Final scoring",
        "discarded": "Discarded (no legal placement): {tiles}",
        "unfinished": "unfinished",
        "move-place": "{player}: {tile} on {space}, turned {degrees}°",
        "move-figure": "{player}: {figure} on the {feature}",
        "move-pass": "{player}: no follower",
        "move-order": "{player}: scores the {feature} first",
        "move-use": "{player}: uses {token}",
        "move-decline": "{player}: keeps the token",
        "move-draw": "Turn {turn}: {player} draws {tile}",
        "move-reveal": "{player} takes {token}",
        "chapel-size": "{points} points for {tiles} tiles",
        "gate-lost": "{lost} lost at a gate",
        "nests-taken": "+{n} falcon nests",
        "most-nests": "most falcon nests",
        "analysis-title": "Analysis by the expert's estimate (a lead is {first}'s expected final lead in points)",
        "analysis-summary": "{player}: {decisions} decisions, mean loss {mean_loss} points; "
                            "{inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders",
        "analysis-line": "move {number}, {flag} (loses {loss} points; lead {before} -> {after})",
        "analysis-played": "played: {move}",
        "analysis-best": "best: {move}",
        "analysis-thresholds": "Flags: inaccuracy from {inaccuracy}, mistake from {mistake}, blunder from {blunder} "
                               "points lost",
        "flag:inaccuracy": "inaccuracy",
        "flag:mistake": "mistake",
        "flag:blunder": "blunder",
    },
    "pl": {
        "chapel": "kaplica",
        "preacher": "kaznodzieja",
        "prince": "książę",
        "falconer": "sokolnik",
        "nest": "sokole gniazdo",
        "nests": "sokole gniazda",
        "gate": "brama",
        "follower": "poddany",
        "score-marker": "znacznik punktów",
        "player": "Gracz {n}",
        "nobody": "nikt (remis)",
        "tiles": "kafelki",
        "empty-spaces": "puste pola",
        "points": "pkt",
        "total": "Razem",
        "winner": "Zwycięzca: {who}",
        "shared-victory": "Wspólne zwycięstwo",
        "breakdown": "Punktacja",
        "final-scoring": "Punktacja końcowa",
        "discarded": "Odrzucone (brak miejsca): {tiles}",
        "unfinished": "nieukończony obszar",
        "move-place": "{player}: {tile} na {space}, obrót {degrees}°",
        "move-figure": "{player}: {figure} na obszarze: {feature}",
        "move-pass": "{player}: bez poddanego",
        "move-order": "{player}: najpierw punktuje obszar: {feature}",
        "move-use": "{player}: używa: {token}",
        "move-decline": "{player}: zachowuje żeton",
        "move-draw": "Tura {turn}: {player} dobiera {tile}",
        "move-reveal": "{player} zdobywa: {token}",
        "chapel-size": "{points} pkt za {tiles} kafelków",
        "gate-lost": "{lost} pkt przepadło przy bramie",
        "nests-taken": "+{n} sokolich gniazd",
        "most-nests": "najwięcej sokolich gniazd",
        "analysis-title": "Analiza według oceny eksperta (przewaga: oczekiwana różnica punktów na koniec gry, "
                          "dodatnia na korzyść: {first})",
        "analysis-summary": "{player}: {decisions} decyzji, średnia strata {mean_loss} pkt; niedokładności: "
                            "{inaccuracies}, błędy: {mistakes}, poważne błędy: {blunders}",
        "analysis-line": "ruch {number}, {flag} (strata {loss} pkt; przewaga {before} -> {after})",
        "analysis-played": "zagrano: {move}",
        "analysis-best": "najlepszy: {move}",
        "analysis-thresholds": "Oznaczenia: niedokładność od {inaccuracy}, błąd od {mistake}, poważny błąd od "
                               "{blunder} pkt straty",
        "flag:inaccuracy": "niedokładność",
        "flag:mistake": "błąd",
        "flag:blunder": "poważny błąd",
    },
}

# Names that differ between the editions (C1), with the token names per kind (Z19, C4).
_EDITION: Final[dict[tuple[str, str], dict[str, str]]] = {
    ("en", "zamek"): {
        "road": "road", "house": "house", "pigsty": "pigsty", "meadow": "meadow", "shrine": "shrine",
        "shrines": "shrines", "stocks": "stocks", "fountain": "fountain", "family-house": "family house",
        "herald": "herald", "squire": "squire", "farmer": "farmer", "monk": "monk",
        "special-token": "special token", "token": "special token {n} ({name})",
        "token:1": "extra turn", "token:2": "house x2", "token:3": "pigsty x2",
        "token:4": "meadow: 4 per shrine", "token:5": "family house +2 tiles", "token:6": "5 points",
        "token:7": "unfinished house", "token:8": "unfinished pigsty", "token:9": "unfinished road",
    },
    ("pl", "zamek"): {
        "road": "droga", "house": "dom", "pigsty": "chlew", "meadow": "łąka", "shrine": "kapliczka",
        "shrines": "kapliczki", "stocks": "dyby", "fountain": "fontanna", "family-house": "siedziba rodu",
        "herald": "herold", "squire": "giermek", "farmer": "rolnik", "monk": "mnich",
        "special-token": "żeton specjalny", "token": "żeton specjalny {n} ({name})",
        "token:1": "dodatkowa tura", "token:2": "dom x2", "token:3": "chlew x2",
        "token:4": "łąka: 4 pkt za kapliczkę", "token:5": "siedziba rodu +2 kafelki", "token:6": "5 punktów",
        "token:7": "nieukończony dom", "token:8": "nieukończony chlew", "token:9": "nieukończona droga",
    },
    ("en", "castle2003"): {
        "road": "path", "house": "house", "pigsty": "tower", "meadow": "courtyard", "shrine": "market stall",
        "shrines": "market stalls", "stocks": "fountain", "fountain": "square", "family-house": "keep",
        "herald": "herald", "squire": "squire", "farmer": "knight", "monk": "merchant",
        "special-token": "wall tile", "token": "wall tile {n} ({name})",
        "token:1": "extra turn", "token:2": "house x2", "token:3": "tower x2",
        "token:4": "courtyard: 4 per market stall", "token:5": "keep +2 tiles", "token:6": "5 points",
        "token:7": "unfinished house", "token:8": "unfinished tower", "token:9": "unfinished path",
    },
    ("pl", "castle2003"): {
        "road": "ścieżka", "house": "domostwo", "pigsty": "wieża", "meadow": "dziedziniec", "shrine": "stragan",
        "shrines": "stragany", "stocks": "fontanna", "fountain": "plac", "family-house": "donżon",
        "herald": "herold", "squire": "dziedzic", "farmer": "rycerz", "monk": "kupiec",
        "special-token": "żeton murów", "token": "żeton murów {n} ({name})",
        "token:1": "dodatkowa tura", "token:2": "domostwo x2", "token:3": "wieża x2",
        "token:4": "dziedziniec: 4 pkt za stragan", "token:5": "donżon +2 kafelki", "token:6": "5 punktów",
        "token:7": "nieukończone domostwo", "token:8": "nieukończona wieża", "token:9": "nieukończona ścieżka",
    },
}


# Plural forms: English (one, many); Polish (one, 2-4, many).
_FORMS: Final[dict[tuple[str, str], dict[str, tuple[str, ...]]]] = {
    ("en", "zamek"): {"tiles": ("tile", "tiles"), "shrines": ("shrine", "shrines"),
                      "empty-spaces": ("empty space", "empty spaces"), "points": ("point", "points")},
    ("en", "castle2003"): {"tiles": ("tile", "tiles"), "shrines": ("market stall", "market stalls"),
                           "empty-spaces": ("empty space", "empty spaces"), "points": ("point", "points")},
    ("pl", "zamek"): {"tiles": ("kafelek", "kafelki", "kafelków"),
                      "shrines": ("kapliczka", "kapliczki", "kapliczek"),
                      "empty-spaces": ("puste pole", "puste pola", "pustych pól"), "points": ("pkt", "pkt", "pkt")},
    ("pl", "castle2003"): {"tiles": ("kafelek", "kafelki", "kafelków"),
                           "shrines": ("stragan", "stragany", "straganów"),
                           "empty-spaces": ("puste pole", "puste pola", "pustych pól"),
                           "points": ("pkt", "pkt", "pkt")},
}


def counted(n: int, key: str, lang: str = "en", edition: str = "zamek") -> str:
    """Return ``n`` with the right plural form of ``key`` ('1 tile', '5 kafelków')."""
    forms = _FORMS[(lang if lang in LANGUAGES else "en", edition if edition in EDITIONS else "zamek")][key]
    if len(forms) == 2:
        return f"{n} {forms[0] if n == 1 else forms[1]}"
    if n == 1:
        return f"{n} {forms[0]}"
    few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
    return f"{n} {forms[1] if few else forms[2]}"


def term(key: str, lang: str = "en", edition: str = "zamek", **values: object) -> str:
    """Return the word for ``key`` in ``lang`` and ``edition``, with ``{placeholders}`` filled in."""
    lang = lang if lang in LANGUAGES else "en"
    edition = edition if edition in EDITIONS else "zamek"
    text = _EDITION[(lang, edition)].get(key)
    if text is None:
        text = _COMMON[lang][key]
    return text.format(**values)


def token_name(kind: int, lang: str = "en", edition: str = "zamek") -> str:
    """Return a token's full name with the number printed on it in ``edition`` (C4)."""
    token = TokenKind(kind)
    name = term(f"token:{int(token)}", lang, edition)
    return term("token", lang, edition, n=printed_number(token, edition), name=name)


def keys(lang: str, edition: str) -> frozenset[str]:
    """Return every key the tables define for a language and edition."""
    return frozenset(_COMMON[lang]) | frozenset(_EDITION[(lang, edition)])
