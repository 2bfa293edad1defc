"""Rycerze i zamki's events as messages of the catalogue (zamek.i18n: ``knights.*``, ``card.*``,
``card-tile.*``, ``castle-kind.*``), and the words of its cards and tiles.

Code identifiers (``mounted-knight``, ``brick-big``) never reach a person: every word shown is the catalogue's.
"""

from __future__ import annotations

from collections.abc import Sequence

from zamek.i18n import NOBODY, Message, Reader, Seat, Term, catalogue, clauses, say
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


def card(card: Card) -> Term:
    return Term(f"card.{card.key}")


def tile(key: str) -> Term:
    return Term(f"card-tile.{key}")


def card_name(card: Card, lang: str) -> str:
    return say(f"card.{card.key}", lang)


def cards_words(cards: Sequence[Card]) -> list[Term] | Term:
    """Cards as a list for people ("dragon, shepherd"), or the word for none."""
    return [card(c) for c in cards] or Term("knights.none")


def cards_text(cards: Sequence[Card], lang: str) -> str:
    """Return cards as a list for people ("dragon, shepherd")."""
    return catalogue(lang).value(cards_words(cards))


def tile_name(key: str, lang: str) -> str:
    return say(f"card-tile.{key}", lang)


def player_name(seat: int, lang: str, you: int | None = None) -> str:
    """Return a player's name as the person at seat ``you`` reads it ("You", "Player 2")."""
    return catalogue(lang).value(Seat(seat), reader=reader_of(you))


def reader_of(you: int | None) -> Reader:
    """The reader at seat ``you`` (None: someone with no seat)."""
    return NOBODY if you is None else Reader(you=frozenset({you}))


def event_messages(event: Event) -> list[Message]:
    """Return the messages that tell an event, one per line; players are Seats."""

    def m(key: str, **params: object) -> Message:
        return Message(f"knights.{key}", params)

    if isinstance(event, TileRevealed):
        return [m("round", round=event.round, rounds=ROUNDS, tile=tile(event.tile))]
    if isinstance(event, CardsRevealed):
        return [m("revealed")] + [m("revealed-line", player=Seat(p), cards=cards_words(cards))
                                  for p, cards in enumerate(event.choices)]
    if isinstance(event, ShepherdsReturn):
        back = [m("shepherds-of", player=Seat(p), count=n) for p, n in enumerate(event.shepherds) if n]
        return [m("step1", n=1, who=back) if back else m("step1-none", n=1)]
    if isinstance(event, DuplicatesCancelled):
        if not event.cards:
            return [m("step2-none", n=2)]
        items = [m("step2-item", card=card(c), who=[Seat(p) for p in seats]) for c, seats in event.cards]
        return [m("step2", n=2, cards=clauses(items))]
    if isinstance(event, CastleTaken):
        if event.card is None:
            return [m("step3-sword", n=3, player=Seat(event.player), tile=tile(event.tile))]
        return [m("step3", n=3, player=Seat(event.player), tile=tile(event.tile), card=card(event.card),
                  strength=event.strength)]
    if isinstance(event, CardsToCamp):
        if not event.cards:
            return [m("step4-none", n=4)]
        items = [m("step4-item", card=card(c), player=Seat(p)) for p, c in event.cards]
        return [m("step4", n=4, cards=clauses(items))]
    if isinstance(event, SwordPassed):
        if len(event.tied) > 1:
            return [m("step5-tie", n=5, tied=[Seat(p) for p in event.tied], player=Seat(event.player))]
        return [m("step5-keeps" if event.player == event.previous else "step5", n=5, player=Seat(event.player))]
    if isinstance(event, Recruited):
        if event.card is None:
            return [m("recruited-hidden", player=Seat(event.player))]
        return [m("recruited", player=Seat(event.player), card=card(event.card))]
    if isinstance(event, EmptyCamp):
        return [m("empty-camp", player=Seat(event.player))]
    assert isinstance(event, GameEnded)
    lines = [m("game-over")]
    for place, seat in enumerate(event.ranking, start=1):
        lines.append(m("ranking-line", place=place, player=Seat(seat), points=event.points[seat],
                       cards=event.hand_sizes[seat]))
    lines.append(m("winner", player=Seat(event.ranking[0])))
    return lines


def event_lines(event: Event, lang: str, you: int | None = None) -> list[str]:
    """Return the lines that show an event to a person (``you``: the seat of the person reading)."""
    reader = reader_of(you)
    return [message.text(lang, None, reader) for message in event_messages(event)]
