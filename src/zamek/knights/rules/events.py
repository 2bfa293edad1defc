"""What happens in a game of Rycerze i zamki, step by step, as a state records it in ``events`` for display: a tile
turned up, K4's reveal and its five steps, K5's recruitment, the final ranking (K6). A card a player recruits is
``None`` in the other players' views (their camps are face down)."""

from __future__ import annotations

from dataclasses import dataclass

from zamek.knights.rules.cards import Card


@dataclass(frozen=True, slots=True)
class TileRevealed:
    """A round begins: its tile is turned face up."""

    round: int
    tile: str


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """Everyone turns their two cards face up (K4)."""

    round: int
    choices: tuple[tuple[Card, Card], ...]
    """Per seat."""


@dataclass(frozen=True, slots=True)
class ShepherdsReturn:
    """Step 1: shepherds go back to their owners' hands."""

    round: int
    shepherds: tuple[int, ...]
    """Per seat, how many shepherds went back."""


@dataclass(frozen=True, slots=True)
class DuplicatesCancelled:
    """Step 2: every army card played by more than one player goes, all its copies, to the camps."""

    round: int
    cards: tuple[tuple[Card, tuple[int, ...]], ...]
    """Each cancelled card with the seats that played it."""


@dataclass(frozen=True, slots=True)
class CastleTaken:
    """Step 3: the strongest card left takes the castle; with none left, the sword holder does."""

    round: int
    tile: str
    player: int
    card: Card | None
    """The winning card, or None when the sword holder takes it."""
    strength: int = 0


@dataclass(frozen=True, slots=True)
class CardsToCamp:
    """Step 4: the cards left on the table go to their owners' camps."""

    round: int
    cards: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class SwordPassed:
    """Step 5: the player with the fewest castle points takes the sword (a tie: the youngest of them)."""

    round: int
    player: int
    previous: int
    tied: tuple[int, ...]
    """Everyone with the fewest points."""


@dataclass(frozen=True, slots=True)
class Recruited:
    """K5: a player took a card back from the camp. ``card`` is None in the other players' views."""

    round: int
    player: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class EmptyCamp:
    """K5: a player's camp was empty, so recruitment brings them nothing."""

    round: int
    player: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """K6: the final ranking: castle points, then more cards in hand, then the youngest."""

    points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ranking: tuple[int, ...]


Event = (
    TileRevealed | CardsRevealed | ShepherdsReturn | DuplicatesCancelled | CastleTaken | CardsToCamp | SwordPassed
    | Recruited | EmptyCamp | GameEnded
)
