"""Player-facing words of Rycerze i zamki, per language (English, Polish), and the text of each event.

Code identifiers (``mounted-knight``, ``brick-big``) never reach a person: every word shown comes
from the tables below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from zamek.knights.rules.cards import ROUNDS, Card
from zamek.knights.rules.engine import (
    CardsRevealed,
    CardsToCamp,
    CastleTaken,
    DuplicatesCancelled,
    EmptyCamp,
    Event,
    GameEnded,
    Recruited,
    ShepherdsReturn,
    SwordPassed,
    TileRevealed,
)

LANGUAGES: Final = ("en", "pl")

TERMS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "card:dragon": "dragon",
        "card:mounted-knight": "mounted knight",
        "card:knight": "knight",
        "card:foot-soldier": "foot soldier",
        "card:peasant": "peasant",
        "card:hog": "hog",
        "card:shepherd": "shepherd",
        "kind:stone": "stone",
        "kind:brick": "brick",
        "kind:wood": "wood",
        "tile:stone-small": "small stone castle (1 point)",
        "tile:stone-big": "big stone castle (2 points)",
        "tile:brick-small": "small brick castle (1 point)",
        "tile:brick-big": "big brick castle (2 points)",
        "tile:wood-small": "small wooden castle (1 point)",
        "tile:wood-big": "big wooden castle (2 points)",
        "tile:drum": "drum: recruitment",
        "player": "Player {n}",
        "player-you": "Player {n} (you)",
        "none": "none",
        "title": "Rycerze i zamki (Knights and Castles)",
        "seat-line": "You are player {n}. The youngest is {youngest}; {sword} starts with the sword.",
        "round": "Round {round} of {rounds}: {tile}",
        "status": "{player}: {points} points{castles}, {hand} cards in hand, {camp} in the camp",
        "sword-holder": "The sword: {player}",
        "tiles-unseen": "Not seen yet (one stays in the box): {tiles}",
        "your-hand": "Your hand (strength against {kind} in brackets):",
        "your-hand-plain": "Your hand:",
        "your-camp": "Your camp: {cards}",
        "hand-line": "  {n}. {card}",
        "hand-line-strength": "  {n}. {card} ({strength})",
        "shepherds-line": "  {n}. shepherd (x{count}: blank, always comes back)",
        "knowledge": "  {player}: surely in hand: {hand}; surely in the camp: {camp}; either: {either}",
        "knowledge-title": "What the others can hold (deduced from the cards played):",
        "prompt-choose": "Lay two cards face down: two numbers or names (e.g. 1 7)",
        "prompt-recruit": "Take a card back from your camp: a number or a name",
        "camp-line": "  {n}. {card}",
        "bad-choose": "Name two cards from your hand, e.g. '1 7'.",
        "bad-card": "'{text}' is not a card you can choose here.",
        "bad-twice": "You have only one {card}; only the shepherd can be laid twice.",
        "your-choice": "You lay: {cards}.",
        "your-recruit": "You take back: {card}.",
        "others-choose": "The others choose in secret...",
        "revealed": "Cards revealed:",
        "revealed-line": "  {player}: {cards}",
        "step1": "1. Shepherds go back to the hands: {who}.",
        "step1-none": "1. No shepherds were laid.",
        "step2": "2. Laid more than once, so to the camps: {cards}.",
        "step2-none": "2. No card was laid twice.",
        "step2-item": "{card} ({who})",
        "step3": "3. {player} takes the {tile} with the {card} (strength {strength}).",
        "step3-sword": "3. No card is left: {player} takes the {tile} with the sword.",
        "step4": "4. To the camps: {cards}.",
        "step4-none": "4. No cards are left on the table.",
        "step4-item": "{card} of {player}",
        "step5": "5. {player} has the fewest points and takes the sword.",
        "step5-keeps": "5. {player} has the fewest points and keeps the sword.",
        "step5-tie": "5. Fewest points: {tied}; the youngest of them, {player}, takes the sword.",
        "recruited": "{player} takes the {card} back from the camp.",
        "recruited-hidden": "{player} takes a card back from the camp.",
        "empty-camp": "{player}'s camp is empty: recruitment brings nothing.",
        "game-over": "Game over. Final ranking (points, then cards in hand, then the youngest):",
        "ranking-line": "  {place}. {player}: {points} points, {cards} cards in hand",
        "winner": "Winner: {player}",
        "match-game": "Game {game} of {games} (the sword starts with {player})",
        "match-totals": "Match totals: {totals}",
        "match-winner": "Match winner: {player}",
        "seed-end": "Seed: {seed} (with --seed {seed} the tiles come again in the same order).",
    },
    "pl": {
        "card:dragon": "smok",
        "card:mounted-knight": "rycerz na koniu",
        "card:knight": "rycerz",
        "card:foot-soldier": "piechur",
        "card:peasant": "chłop",
        "card:hog": "tucznik",
        "card:shepherd": "pasterz",
        "kind:stone": "kamienny",
        "kind:brick": "ceglany",
        "kind:wood": "drewniany",
        "tile:stone-small": "mały kamienny zamek (1 pkt)",
        "tile:stone-big": "duży kamienny zamek (2 pkt)",
        "tile:brick-small": "mały ceglany zamek (1 pkt)",
        "tile:brick-big": "duży ceglany zamek (2 pkt)",
        "tile:wood-small": "mały drewniany zamek (1 pkt)",
        "tile:wood-big": "duży drewniany zamek (2 pkt)",
        "tile:drum": "bębenek: rekrutacja",
        "player": "Gracz {n}",
        "player-you": "Gracz {n} (ty)",
        "none": "brak",
        "title": "Rycerze i zamki",
        "seat-line": "Jesteś graczem {n}. Najmłodszy jest {youngest}; miecz ma na początek {sword}.",
        "round": "Runda {round} z {rounds}: {tile}",
        "status": "{player}: {points} pkt{castles}, kart w ręku: {hand}, w obozie: {camp}",
        "sword-holder": "Miecz: {player}",
        "tiles-unseen": "Jeszcze nieodkryte (jeden zostaje w pudełku): {tiles}",
        "your-hand": "Twoja ręka (w nawiasie siła przeciw zamkowi: {kind}):",
        "your-hand-plain": "Twoja ręka:",
        "your-camp": "Twój obóz: {cards}",
        "hand-line": "  {n}. {card}",
        "hand-line-strength": "  {n}. {card} ({strength})",
        "shepherds-line": "  {n}. pasterz (x{count}: pusta karta, zawsze wraca)",
        "knowledge": "  {player}: na pewno w ręku: {hand}; na pewno w obozie: {camp}; w ręku lub w obozie: {either}",
        "knowledge-title": "Co mogą mieć inni (wiadomo z zagranych kart):",
        "prompt-choose": "Wyłóż dwie karty zakryte: dwa numery lub nazwy (np. 1 7)",
        "prompt-recruit": "Odzyskaj kartę z obozu: numer lub nazwa",
        "camp-line": "  {n}. {card}",
        "bad-choose": "Podaj dwie karty ze swojej ręki, np. „1 7”.",
        "bad-card": "„{text}” to nie karta, którą możesz tu wybrać.",
        "bad-twice": "Masz tylko jedną kartę: {card}; dwa razy można wyłożyć tylko pasterza.",
        "your-choice": "Wykładasz: {cards}.",
        "your-recruit": "Odzyskujesz: {card}.",
        "others-choose": "Pozostali wybierają w tajemnicy...",
        "revealed": "Odkryte karty:",
        "revealed-line": "  {player}: {cards}",
        "step1": "1. Pasterze wracają do rąk: {who}.",
        "step1-none": "1. Nikt nie wyłożył pasterza.",
        "step2": "2. Powtórzone karty idą do obozów: {cards}.",
        "step2-none": "2. Żadna karta się nie powtórzyła.",
        "step2-item": "{card} ({who})",
        "step3": "3. {player} zdobywa: {tile}; karta: {card} (siła {strength}).",
        "step3-sword": "3. Na stole nie została żadna karta: {player} zdobywa {tile}, bo ma miecz.",
        "step4": "4. Do obozów: {cards}.",
        "step4-none": "4. Na stole nie zostały żadne karty.",
        "step4-item": "{card} ({player})",
        "step5": "5. Najmniej punktów ma {player} i bierze miecz.",
        "step5-keeps": "5. Najmniej punktów ma {player} i zatrzymuje miecz.",
        "step5-tie": "5. Najmniej punktów mają: {tied}; miecz bierze najmłodszy z nich: {player}.",
        "recruited": "{player} odzyskuje z obozu: {card}.",
        "recruited-hidden": "{player} odzyskuje jedną kartę z obozu.",
        "empty-camp": "{player} ma pusty obóz: rekrutacja nic nie daje.",
        "game-over": "Koniec gry. Kolejność (punkty, potem więcej kart w ręku, potem najmłodszy):",
        "ranking-line": "  {place}. {player}: {points} pkt, kart w ręku: {cards}",
        "winner": "Wygrywa: {player}",
        "match-game": "Partia {game} z {games} (miecz ma na początek {player})",
        "match-totals": "Suma punktów: {totals}",
        "match-winner": "Rozgrywkę wygrywa: {player}",
        "seed-end": "Ziarno losowania: {seed} (z opcją --seed {seed} płytki przyjdą znów w tej samej kolejności).",
    },
}


def term(key: str, lang: str, **values: object) -> str:
    """Return a phrase in ``lang`` with its blanks filled in."""
    return TERMS[lang][key].format(**values)


def card_name(card: Card, lang: str) -> str:
    return term(f"card:{card.key}", lang)


def cards_text(cards: Sequence[Card], lang: str) -> str:
    """Return cards as a list for people ("dragon, shepherd")."""
    return ", ".join(card_name(c, lang) for c in cards) or term("none", lang)


def tile_name(tile: str, lang: str) -> str:
    return term(f"tile:{tile}", lang)


def player_name(seat: int, lang: str, you: int | None = None) -> str:
    """Return a player's name; the person playing is marked."""
    return term("player-you" if seat == you else "player", lang, n=seat + 1)


def event_lines(event: Event, lang: str, you: int | None = None) -> list[str]:
    """Return the lines that show an event to a person (``you``: the seat of the person reading)."""

    def who(seat: int) -> str:
        return player_name(seat, lang, you)

    if isinstance(event, TileRevealed):
        return [term("round", lang, round=event.round, rounds=ROUNDS, tile=tile_name(event.tile, lang))]
    if isinstance(event, CardsRevealed):
        return [term("revealed", lang)] + [
            term("revealed-line", lang, player=who(p), cards=cards_text(cards, lang))
            for p, cards in enumerate(event.choices)
        ]
    if isinstance(event, ShepherdsReturn):
        back = [f"{who(p)} x{n}" if n > 1 else who(p) for p, n in enumerate(event.shepherds) if n]
        return [term("step1", lang, who=", ".join(back)) if back else term("step1-none", lang)]
    if isinstance(event, DuplicatesCancelled):
        if not event.cards:
            return [term("step2-none", lang)]
        items = [
            term("step2-item", lang, card=card_name(c, lang), who=", ".join(who(p) for p in seats))
            for c, seats in event.cards
        ]
        return [term("step2", lang, cards="; ".join(items))]
    if isinstance(event, CastleTaken):
        tile = tile_name(event.tile, lang)
        if event.card is None:
            return [term("step3-sword", lang, player=who(event.player), tile=tile)]
        return [term("step3", lang, player=who(event.player), tile=tile, card=card_name(event.card, lang),
                     strength=event.strength)]
    if isinstance(event, CardsToCamp):
        if not event.cards:
            return [term("step4-none", lang)]
        items = [term("step4-item", lang, card=card_name(c, lang), player=who(p)) for p, c in event.cards]
        return [term("step4", lang, cards="; ".join(items))]
    if isinstance(event, SwordPassed):
        if len(event.tied) > 1:
            return [term("step5-tie", lang, tied=", ".join(who(p) for p in event.tied), player=who(event.player))]
        key = "step5-keeps" if event.player == event.previous else "step5"
        return [term(key, lang, player=who(event.player))]
    if isinstance(event, Recruited):
        if event.card is None:
            return [term("recruited-hidden", lang, player=who(event.player))]
        return [term("recruited", lang, player=who(event.player), card=card_name(event.card, lang))]
    if isinstance(event, EmptyCamp):
        return [term("empty-camp", lang, player=who(event.player))]
    assert isinstance(event, GameEnded)
    lines = [term("game-over", lang)]
    for place, seat in enumerate(event.ranking, start=1):
        lines.append(term("ranking-line", lang, place=place, player=who(seat), points=event.points[seat],
                          cards=event.hand_sizes[seat]))
    lines.append(term("winner", lang, player=who(event.ranking[0])))
    return lines
