"""The server's refusals in the page's language: every message the web layer writes, in Polish too.

A refusal is written in English where it is raised (``ServiceError``: the logs and the tests read it so); the
app answers it in the language of the request (``?lang=pl``, else the browser's ``Accept-Language``). A message
of the web layer has its Polish here, whole or as a pattern; one that carries the rules engine's own words (an
illegal move's reason, a corrupt record's first bad entry) gets a Polish lead before them.
"""

from __future__ import annotations

import re
from typing import Final

POLISH: Final[dict[str, str]] = {
    "this needs your seat's token (Authorization: Bearer <token>), given when you created or joined the game":
        "To wymaga żetonu twojego miejsca (Authorization: Bearer <token>), danego przy założeniu gry lub "
        "dołączeniu do niej.",
    "this token holds no seat of this game": "Ten żeton nie należy do żadnego miejsca w tej grze.",
    "only the player who made a move may take it back": "Ruch może cofnąć tylko ten, kto go wykonał.",
    "the game is over": "Gra się skończyła.",
    "nobody has joined this game yet: delete it instead": "Nikt jeszcze nie dołączył do tej gry: usuń ją.",
    "a rematch is offered once the game is over": "Rewanż można zaproponować po końcu gry.",
    "a rematch is for games against a friend; start a new game":
        "Rewanż jest dla gier z przyjacielem; zacznij nową grę.",
    "the time of the player to move has run out: the game is over":
        "Graczowi, który ma ruch, skończył się czas: gra się skończyła.",
    "the game starts when your friend has opened the invitation":
        "Gra zacznie się, gdy przyjaciel otworzy zaproszenie.",
    "the game starts when every friend has opened the invitation":
        "Gra zacznie się, gdy wszyscy przyjaciele otworzą zaproszenie.",
    "tiles are drawn automatically in this game": "W tej grze kafelki są dobierane same.",
    "no tile is to be drawn now": "Teraz nie dobiera się kafelka.",
    "both seats of this game are taken": "Oba miejsca w tej grze są zajęte.",
    "every seat of this game is taken": "Wszystkie miejsca w tej grze są zajęte.",
    "this invitation is not this game's": "To zaproszenie nie jest do tej gry.",
    "someone else has just taken this seat": "Ktoś właśnie zajął to miejsce.",
    "this seat has just been taken": "To miejsce zostało właśnie zajęte.",
    "this game belongs to both players: it stays on the server (remove it from your list instead)":
        "Ta gra należy do obu graczy: zostaje na serwerze (usuń ją tylko ze swojej listy).",
    "friends have joined this game: it stays on the server (remove it from your list instead)":
        "Przyjaciele dołączyli do tej gry: zostaje na serwerze (usuń ją tylko ze swojej listy).",
    "the game has changed since this page was drawn (another tab, the computer or your opponent); it has been "
    "brought up to date":
        "Gra zmieniła się, odkąd ta strona została narysowana (inna karta, komputer lub przeciwnik); strona jest "
        "już aktualna.",
    "the game has changed meanwhile; it has been brought up to date":
        "Gra w międzyczasie się zmieniła; strona jest już aktualna.",
    "the server turns up the tiles; play or recruit": "Kafelki odkrywa serwer; zagraj albo zwerbuj.",
    "the record holds every secret choice: it is given after the game":
        "Zapis zawiera wszystkie tajne wybory: jest dostępny po grze.",
    "this game has too many pages open; close one": "Ta gra jest otwarta na zbyt wielu stronach; zamknij którąś.",
    "clocks are for games against a friend": "Zegary są dla gier z przyjacielem.",
    "there is no move to take back": "Nie ma ruchu do cofnięcia.",
    "a token has been revealed since your move; it cannot be taken back":
        "Od twojego ruchu odkryto żeton; nie można go cofnąć.",
    "a tile has been drawn since the last move; it cannot be taken back":
        "Od ostatniego ruchu dobrano kafelek; nie można go cofnąć.",
    "the computer has replied; its move cannot be taken back": "Komputer odpowiedział; jego ruchu nie można cofnąć.",
}
"""Every fixed message of the web layer, in Polish."""

PATTERNS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"player (\d) is to move, not player (\d)"), r"Ruch ma gracz \1, nie gracz \2."),
    (re.compile(r"(.+): the computer is to move"), r"\1: teraz ruch komputera."),
    (re.compile(r"(.+): draw a tile first"), r"\1: najpierw dobierz kafelek."),
    (re.compile(r"(.+): tiles and tokens are drawn by the game, not chosen"),
     r"\1: kafelki i żetony losuje gra, nie gracz."),
    (re.compile(r"there is no game (.+)"), r"Nie ma gry \1."),
    (re.compile(r"game (\S+) has been deleted"), r"Gra \1 została usunięta."),
    (re.compile(r"this token holds seat (\d), not seat (\d)"), r"Ten żeton należy do miejsca \1, nie \2."),
    (re.compile(r"seat (\d) is not to choose now \(seat (\d) is\)"), r"Miejsce \1 nie wybiera teraz (wybiera \2)."),
    (re.compile(r"the game has (\d+) moves; there is no position after move (.+)"),
     r"Gra ma \1 ruchów; nie ma pozycji po ruchu \2."),
)
"""Messages with values in them."""

LEADS: Final[dict[str, str]] = {
    "illegal": "Niedozwolony ruch",
    "malformed": "Nieczytelny ruch",
    "invalid-record": "Zapisana gra odrzucona",
    "invalid": "Nieprawidłowe żądanie",
    "cannot-undo": "Nie można cofnąć",
    "corrupt": "Zapisana gra jest uszkodzona",
    "corrupt-game": "Zapisana gra jest uszkodzona",
    "too-large": "Za duże",
    "bad-seat": "Nie ma takiego miejsca",
    "not-a-person": "To miejsce komputera",
    "bad-board": "Nie ma takiej planszy",
    "internal": "Błąd serwera",
}
"""The Polish lead of a message that carries the engine's (English) words, by the refusal's code."""


def in_language(code: str, message: str, lang: str) -> str:
    """A refusal's message in ``lang`` ('en' or 'pl')."""
    if lang != "pl":
        return message
    if message in POLISH:
        return POLISH[message]
    for pattern, polish in PATTERNS:
        if pattern.fullmatch(message):
            return pattern.sub(polish, message)
    lead = LEADS.get(code)
    return f"{lead}: {message}" if lead else message
