"""The server's refusals in the page's language: every message the web layer writes, in Polish too, and every
message of the rules engines that a player can meet.

A refusal is written in English where it is raised (``ServiceError``, and the engines' ``ZamekError``: the logs,
the command line and the tests read it so); the app answers it in the language of the request (``?lang=pl``,
else the browser's ``Accept-Language``). A message of the web layer has its Polish here, whole or as a
template. One that carries the rules engine's own words (an illegal move's reason, a corrupt record's first
bad entry) gets a Polish lead before them, and the engine's words are put into Polish by the engine's message
templates below (``ENGINE``): the engines stay free of languages, and a message this table does not know
still reaches the player, in English after its Polish lead.

A template is the English message with its values as ``{type}`` or ``{type2}`` (a second value of one type):
the type says what the value is and how it reads in Polish (kept as it is, a word from a fixed set, or a
message of the engine put into Polish in its turn).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from zamek.castle.terms import term
from zamek.knights.terms import TERMS as KNIGHTS_TERMS

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
    "every player has moved: the game can no longer be aborted (resign instead)":
        "Każdy gracz już wykonał ruch: gry nie można już przerwać (możesz się poddać).",
    "the game has changed meanwhile; ask again": "Gra w międzyczasie się zmieniła; spróbuj jeszcze raz.",
    "replays, hints and analyses are the castle game's": "Powtórki, podpowiedzi i analizy są tylko w grze Zamek.",
    "tiles are drawn by a person in the castle game only": "Kafelki dobiera gracz tylko w grze Zamek.",
    "no seat of this game waits for an invitation": "Żadne miejsce w tej grze nie czeka na zaproszenie.",
    "the computer is to move": "Teraz ruch komputera.",
    "this game belongs to every player: it stays on the server (remove it from your list instead)":
        "Ta gra należy do wszystkich graczy: zostaje na serwerze (usuń ją tylko ze swojej listy).",
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
    "hints are off in this game: its players did not agree to them when it was created":
        "Podpowiedzi są w tej grze wyłączone: gracze nie zgodzili się na nie przy jej zakładaniu.",
    "hints are for the player to move, in their own decision":
        "Podpowiedzi są dla gracza, który ma ruch, przy jego własnej decyzji.",
    "a game is analysed once it is over: until then its analysis would tell the players what is hidden from them":
        "Grę można przeanalizować dopiero po jej końcu: wcześniej analiza zdradziłaby graczom to, co przed nimi "
        "ukryte.",
    "the saved game is not over: only a finished game is analysed":
        "Zapisana gra się nie skończyła: analizuje się tylko skończone gry.",
}
"""Every fixed message of the web layer, in Polish."""


# ------------------------------------------------------------------------------------------ templates

Edition = str

KEEP: Final[dict[str, str]] = {
    "action": r"[^\s()]+",
    "n": r"-?\d+",
    "id": r"\S+",
    "text": r".+?",
    "list": r".*?",
}
"""Values kept as they are (notation, numbers, ids, a program's own text), with what they look like."""

WAITING: Final[dict[str, str]] = {
    # The castle game (zamek.castle.rules.legality).
    "place the drawn tile first": "najpierw połóż dobrany kafelek",
    "the tile is placed already; place a follower or pass": "kafelek już leży; postaw poddanego albo spasuj",
    "choose which completed feature is scored next (order:N)":
        "wybierz, który ukończony obszar punktuje się teraz (order:N)",
    "decide whether to use your x2 token on this feature (use:N or decline)":
        "zdecyduj, czy użyć żetonu x2 na tym obszarze (use:N albo decline)",
    "decide whether to use your extra-turn token (use:1 or decline)":
        "zdecyduj, czy użyć żetonu dodatkowej tury (use:1 albo decline)",
    "that is not possible now": "teraz to niemożliwe",
    # Rycerze i zamki (zamek.knights.rules.engine).
    "the next tile must be turned up": "najpierw trzeba odkryć następny kafelek",
    "a castle is on the table: choose two cards (play:CARD+CARD)":
        "na stole leży zamek: wybierz dwie karty (play:KARTA+KARTA)",
    "recruitment: take a card back from your camp (recruit:CARD)":
        "rekrutacja: weź jedną kartę z obozu z powrotem (recruit:KARTA)",
}
"""What the game waits for, as the engines say it after a move that does not fit the moment."""

CHOICES: Final[dict[str, dict[str, str]]] = {
    "waiting": WAITING,
    "chance": {"a tile to be drawn": "dobranie kafelka", "a token to be revealed": "odkrycie żetonu"},
    "side": {"N": "północny", "E": "wschodni", "S": "południowy", "W": "zachodni"},
    "where": {"in your camp": "leży w twoim obozie", "not in your hand": "nie ma jej w twojej ręce"},
}
"""Values from a fixed set of English words, and their Polish."""

ROAD: Final[dict[str, dict[Edition, str]]] = {
    "a road": {"zamek": "droga", "castle2003": "ścieżka"},
    "no road": {"zamek": "brak drogi", "castle2003": "brak ścieżki"},
}
"""What a side of a tile shows (Z7), in the words of the edition."""

PIECES: Final = ("follower", "prince", "falconer")
KINDS: Final = ("road", "house", "pigsty", "meadow", "chapel")
CARDS: Final = ("dragon", "mounted-knight", "knight", "foot-soldier", "peasant", "hog", "shepherd")


def _card(key: str) -> str:
    return KNIGHTS_TERMS["pl"][f"card:{key}"]


def _cards(text: str) -> str:
    return ", ".join(_card(key) for key in text.split(", ")) if text else "—"


WORDS: Final[dict[str, tuple[str, Callable[[str, Edition], str]]]] = {
    "piece": ("|".join(PIECES), lambda key, edition: term(key, "pl", edition)),
    "kind": ("|".join(KINDS), lambda key, edition: term(key, "pl", edition)),
    "road": ("|".join(ROAD), lambda key, edition: ROAD[key].get(edition, ROAD[key]["zamek"])),
    "card": ("|".join(CARDS), lambda key, edition: _card(key)),
    "cards": (rf"(?:(?:{'|'.join(CARDS)})(?:, (?:{'|'.join(CARDS)}))*)?", lambda text, edition: _cards(text)),
}
"""Values that are words of the game (a figure, a feature's kind, a card), said in Polish by the game's tables."""


@dataclass(frozen=True)
class Template:
    """A message with values in it, in English (as raised) and in Polish (one text, or one per edition)."""

    english: str
    polish: str | Mapping[Edition, str]
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        regex = []
        for literal, name in _parts(self.english):
            regex.append(re.escape(literal))
            if name is not None:
                regex.append(f"(?P<{name}>{_value_regex(name.rstrip('0123456789'))})")
        object.__setattr__(self, "pattern", re.compile("".join(regex), re.DOTALL))

    def polish_for(self, edition: Edition) -> str:
        if isinstance(self.polish, str):
            return self.polish
        return self.polish.get(edition, self.polish["zamek"])


_PLACEHOLDER: Final = re.compile(r"\{([a-z]+[0-9]?)\}")


def _parts(text: str) -> list[tuple[str, str | None]]:
    """The template cut into (literal, placeholder name or None) pieces."""
    parts: list[tuple[str, str | None]] = []
    at = 0
    for m in _PLACEHOLDER.finditer(text):
        parts.append((text[at:m.start()], m.group(1)))
        at = m.end()
    parts.append((text[at:], None))
    return parts


def _value_regex(kind: str) -> str:
    if kind in KEEP:
        return KEEP[kind]
    if kind in CHOICES:
        return "|".join(re.escape(k) for k in sorted(CHOICES[kind], key=len, reverse=True))
    if kind in WORDS:
        return WORDS[kind][0]
    if kind == "message":
        return r".+"
    raise ValueError(f"a template names an unknown kind of value {{{kind}}}")


def skeleton(text: str) -> str:
    """A template with every value as ``{}``: what the test compares with the engine's f-strings."""
    return _PLACEHOLDER.sub("{}", text)


ENGINE: Final[tuple[Template, ...]] = (
    # --- a saved game's entry that holds the engine's reason (first: any message may follow them)
    Template("move {n}: {message}", "ruch {n}: {message}"),
    Template("move {n} ({action}): {message}", "ruch {n} ({action}): {message}"),
    Template("setup: {message}", "setup: {message}"),
    # --- the castle game's moves (zamek.castle.rules.actions, zamek.castle.rules.legality, zamek.castle.rules.tokens)
    Template("{text} is not an action; examples: 'e10/90' (place on e10 turned 90 degrees), 'follower:2' "
             "(follower on the tile's feature 2), 'pass'",
             "{text} to nie jest ruch; przykłady: 'e10/90' (kafelek na polu e10, obrócony o 90 stopni), "
             "'follower:2' (poddany na obszarze 2 kafelka), 'pass' (bez figury)"),
    Template("{n} is not an action index", "{n} to nie jest numer ruchu"),
    Template("an action must be text, not {id}", "ruch musi być tekstem, nie: {id}"),
    Template("{text}: no such space", "{text}: nie ma takiego pola"),
    Template("{text} is not an action", "{text} to nie jest ruch"),
    Template("{action}: the game is waiting for {chance}", "{action}: gra czeka na {chance}"),
    Template("{action}: not a possible outcome now", "{action}: to nie może teraz wypaść"),
    Template("{action}: no chance event is due; the player to move must act",
             "{action}: teraz nic się nie losuje; ruch ma gracz"),
    Template("{action}: rotation must be 0, 90, 180 or 270", "{action}: obrót to 0, 90, 180 albo 270"),
    Template("{action}: that space is not inside the castle", "{action}: tego pola nie ma w zamku"),
    Template("{action}: {id} is not a space inside the castle", "{action}: {id} nie jest polem wewnątrz zamku"),
    Template("{action}: {id} already holds a tile", "{action}: na polu {id} leży już kafelek"),
    Template("{action}: a tile must touch a placed tile or a start space with a side (Z7)",
             "{action}: kafelek musi stykać się bokiem z położonym kafelkiem albo z polem startowym (Z7)"),
    Template("{action}: the tile's {side} side has {road} where its neighbour has {road2}; roads must meet roads (Z7)",
             {"zamek": "{action}: {side} bok kafelka: {road}, a u sąsiada: {road2}; droga musi trafiać na drogę (Z7)",
              "castle2003": "{action}: {side} bok kafelka: {road}, a u sąsiada: {road2}; ścieżka musi trafiać "
                            "na ścieżkę (Z7)"}),
    Template("{action}: tile {id} has features 0 to {n}", "{action}: kafelek {id} ma obszary od 0 do {n}"),
    Template("{action}: princes and falconers come with the Sokół expansion only",
             "{action}: książę i sokolnik są tylko w dodatku Sokół"),
    Template("{action}: you have no {piece} left in your supply",
             "{action}: w twoim zapasie nie ma już figury: {piece}"),
    Template("{action}: that {kind} already holds a follower (Z10)",
             "{action}: na tym obszarze ({kind}) stoi już poddany (Z10)"),
    Template("{action}: that part joins another feature of this tile; choose that one",
             "{action}: ta część łączy się z innym obszarem tego kafelka; wybierz tamten"),
    Template("{action}: a {piece} may not go on a feature this tile completes (F3)",
             "{action}: figura {piece} nie może stanąć na obszarze, który ten kafelek ukończa (F3)"),
    Template("no usable token {n} to spend", "nie masz żetonu {n}, którego można teraz użyć"),
    Template("the game is over", "gra się skończyła"),
    # --- Rycerze i zamki's moves (zamek.knights.rules.actions, zamek.knights.rules.engine)
    Template("{text} is not an action; examples: 'play:dragon+shepherd' (lay two cards), 'recruit:knight' "
             "(take a card back from the camp), 'draw:brick-big'",
             "{text} to nie jest ruch; przykłady: 'play:dragon+shepherd' (wyłóż dwie karty), 'recruit:knight' "
             "(weź kartę z obozu z powrotem), 'draw:brick-big'"),
    Template("{n} is not an action index (0 to {n2})", "{n} to nie jest numer ruchu (od 0 do {n2})"),
    Template("{text} is not a card (cards: {list})", "{text} to nie jest karta (karty: {list})"),
    Template("{text}: a set holds one {card}; only the shepherd comes twice",
             "{text}: w zestawie jest jedna karta „{card}”; tylko pasterz jest dwa razy"),
    Template("{text}: shepherds never go to the camp; recruit an army card",
             "{text}: pasterze nigdy nie trafiają do obozu; zwerbuj kartę wojska"),
    Template("{text}: no such tile (tiles: {list})", "{text}: nie ma takiego kafelka (kafelki: {list})"),
    Template("{action}: the game is over", "{action}: gra się skończyła"),
    Template("{action}: the next tile must be turned up first", "{action}: najpierw trzeba odkryć następny kafelek"),
    Template("{action}: no tile is due; {waiting}", "{action}: teraz nie odkrywa się kafelka; {waiting}"),
    Template("{action}: that tile cannot come now (not turned up yet: {list})",
             "{action}: ten kafelek nie może teraz wypaść (jeszcze nieodkryte: {list})"),
    Template("{action}: your {card} is {where} (K4: play cards from your hand)",
             "{action}: karta „{card}” {where} (K4: zagrywa się karty z ręki)"),
    Template("{action}: your camp holds no {card} (it holds: {cards}) (K5)",
             "{action}: w twoim obozie nie ma karty „{card}” (są w nim: {cards}) (K5)"),
    Template("{action}: {waiting}", "{action}: {waiting}"),
    # --- saved games (zamek.kit.records, zamek.castle.record, zamek.knights.record)
    Template("cannot read {text}: {text2}", "nie można odczytać {text}: {text2}"),
    Template("{text} is not valid JSON: {text2}", "{text} to nie jest poprawny JSON: {text2}"),
    Template("a saved game must be a JSON object", "zapisana gra musi być obiektem JSON"),
    Template("format: expected {text}, found {text2}", "format: oczekiwano {text}, jest {text2}"),
    Template("version: {text} is not a version this program reads (1 to {n})",
             "version: {text} to nie jest wersja, którą ten program czyta (od 1 do {n})"),
    Template("moves: must be a list", "moves: to musi być lista"),
    Template("the record has {n} moves; there is no move {text}", "zapis ma {n} ruchów; nie ma ruchu {text}"),
    Template("result: the record claims a result but its moves do not finish the game",
             "result: zapis podaje wynik, ale jego ruchy nie kończą gry"),
    Template("result: the record says scores {text}, the moves give {text2}",
             "result: zapis podaje punkty {text}, a z ruchów wychodzi {text2}"),
    Template("result: the record says {text}, the moves give {text2}",
             "result: zapis podaje {text}, a z ruchów wychodzi {text2}"),
    Template("setup: must be an object", "setup: to musi być obiekt"),
    Template("setup.draw_order: must be a list of tile ids or null",
             "setup.draw_order: to musi być lista identyfikatorów kafelków albo null"),
    Template("setup.tile_order: must be a list of tile ids or null",
             "setup.tile_order: to musi być lista identyfikatorów kafelków albo null"),
    Template("setup: 'expansions' and 'variants' must be lists of names",
             "setup: 'expansions' i 'variants' muszą być listami nazw"),
    Template("setup.{id}: unknown name(s) {list}", "setup.{id}: nieznane nazwy {list}"),
    Template("setup.{id}: {list} named twice", "setup.{id}: {list} podane dwa razy"),
    Template("setup: unknown field(s) {list}", "setup: nieznane pola {list}"),
    Template("setup.board: a version 1 record was played on board 1",
             "setup.board: zapis w wersji 1 był grany na planszy 1"),
    Template("setup.board: missing (records of version 2 and later name their board)",
             "setup.board: brak (zapisy od wersji 2 podają swoją planszę)"),
    Template("setup.{id}: must be a whole number", "setup.{id}: to musi być liczba całkowita"),
    # --- a setup's own checks, in a record's "setup: ..." (zamek.castle.rules.setup, zamek.castle.rules.editions,
    # zamek.knights.rules.engine.KnightsSetup)
    Template("the gate-guard variant needs the Sokół expansion", "wariant „Stój! Kto idzie?” wymaga dodatku Sokół"),
    Template("first_player must be 0 or 1", "first_player musi być 0 albo 1"),
    Template("the option {text} needs {text2}", "opcja {text} wymaga {text2}"),
    Template("a rule set is a name such as 'zamek+sokol', not {text}",
             "zestaw zasad to nazwa taka jak 'zamek+sokol', nie {text}"),
    Template("{text}: one edition only, written first", "{text}: tylko jedno wydanie, podane na początku"),
    Template("{text}: unknown part {text2} (known: {list})", "{text}: nieznana część {text2} (znane: {list})"),
    Template("{text}: {text2} twice", "{text}: {text2} dwa razy"),
    Template("unknown board {text} (known: {list})", "nieznana plansza {text} (znane: {list})"),
    Template("unknown edition {text} (known: {list})", "nieznane wydanie {text} (znane: {list})"),
    Template("Rycerze i zamki is for {n} to {n2} players, not {n3}",
             "w Rycerzy i zamki gra od {n} do {n2} graczy, nie {n3}"),
    Template("{id} must be a seat from 0 to {n}, not {n2}", "{id} musi być miejscem od 0 do {n}, nie {n2}"),
    Template("tile_order must name {n} or {n2} tiles, not {n3}",
             "tile_order musi wymieniać {n} albo {n2} kafelków, nie {n3}"),
    Template("tile_order: {text} is not a tile or is named too often (tiles: {list})",
             "tile_order: {text} to nie kafelek albo pada zbyt wiele razy (kafelki: {list})"),
)
"""The messages of the rules engines that reach a player: an illegal or unreadable move, a saved game refused."""

WEB: Final[tuple[Template, ...]] = (
    Template("player {n} is to move, not player {n2}", "Ruch ma gracz {n}, nie gracz {n2}."),
    Template("{action}: the computer is to move", "{action}: teraz ruch komputera."),
    Template("{action}: draw a tile first", "{action}: najpierw dobierz kafelek."),
    Template("{action}: tiles and tokens are drawn by the game, not chosen",
             "{action}: kafelki i żetony losuje gra, nie gracz."),
    Template("there is no game {text}", "Nie ma gry {text}."),
    Template("game {id} is of a game this program does not know: {text}",
             "Gra {id} jest grą, której ten program nie zna: {text}."),
    Template("game {id} has been deleted", "Gra {id} została usunięta."),
    Template("this token holds seat {n}, not seat {n2}", "Ten żeton należy do miejsca {n}, nie {n2}."),
    Template("seat {n} is not to choose now (seat {n2} is)", "Miejsce {n} nie wybiera teraz (wybiera {n2})."),
    Template("the game has {n} moves; there is no position after move {text}",
             "Gra ma {n} ruchów; nie ma pozycji po ruchu {text}."),
    Template("no seat {n} in a {n2}-player game", "W grze {n2} graczy nie ma miejsca {n}."),
    Template("seat {n} is a computer player: its cards and choices are not shown",
             "Miejsce {n} zajmuje komputer: jego karty i wybory są ukryte."),
    Template("board {n}: the castle has boards {list}", "Plansza {n}: zamek ma plansze {list}."),
    Template("rules {text} and {id} contradict each other: send the rule set alone",
             "zestaw zasad {text} i {id} przeczą sobie: wyślij sam zestaw zasad"),
    Template("rules: {message}", "rules: {message}"),
    Template("a saved game is at most {n} kB", "Zapisana gra może mieć najwyżej {n} kB."),
    Template("unknown level {text}; choose from {list}", "Nieznany poziom {text}; wybierz spośród: {list}."),
    Template("the file nests deeper than {n} levels", "plik jest zagnieżdżony głębiej niż na {n} poziomów"),
    Template("the file is not valid JSON: {text}", "plik nie jest poprawnym JSON-em: {text}"),
    Template("moves: more than {n} moves", "moves: więcej niż {n} ruchów"),
    Template("setup.draw_order: must name each of the set's {n} tiles once",
             "setup.draw_order: musi wymienić każdy z {n} kafelków zestawu raz"),
    Template("setup.draw_order: {n} tiles, but the moves draw {n2}",
             "setup.draw_order: {n} kafelków, a ruchy dobierają {n2}"),
    Template("the saved game cannot be replayed ({id})", "zapisanej gry nie da się odtworzyć ({id})"),
    Template("the stored game cannot be replayed: {message}", "zapisanej gry nie da się odtworzyć: {message}"),
    Template("game {id} cannot be replayed: {message}", "gry {id} nie da się odtworzyć: {message}"),
    Template("game {id}: its clock cannot be read ({text})", "gra {id}: nie da się odczytać jej zegara ({text})"),
)
"""The web layer's messages with values in them. Those that stand alone are whole sentences; those after a
lead (a record refused, a corrupt game) go on after it, as the engine's words do."""


def _fill(template: Template, match: re.Match[str], edition: Edition, strict: bool) -> str | None:
    """The template's Polish with the match's values said in Polish; None (when ``strict``) if a message in it
    has no Polish."""
    values: dict[str, str] = {}
    for name, value in match.groupdict().items():
        kind = name.rstrip("0123456789")
        if kind in CHOICES:
            values[name] = CHOICES[kind][value]
        elif kind in WORDS:
            values[name] = WORDS[kind][1](value, edition)
        elif kind == "message":
            inner = engine_polish(value, edition, strict=strict)
            if inner is None:
                if strict:
                    return None
                inner = value
            values[name] = inner
        else:
            values[name] = value
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template.polish_for(edition))


def _polish(message: str, templates: tuple[Template, ...], edition: Edition, strict: bool) -> str | None:
    for template in templates:
        match = template.pattern.fullmatch(message)
        if match is not None:
            filled = _fill(template, match, edition, strict)
            if filled is not None:
                return filled
    return None


def engine_polish(message: str, edition: Edition = "zamek", *, strict: bool = True) -> str | None:
    """A message of the rules engines in Polish (the edition's words); None if no template knows it.

    A message that holds another (a record's bad move and the engine's reason) is put into Polish whole; with
    ``strict`` off, an inner message that no template knows stays in English inside the Polish.
    """
    polish = _polish(message, ENGINE, edition, strict=True)
    if polish is None and not strict:
        polish = _polish(message, ENGINE, edition, strict=False)
    return polish


def web_polish(message: str, edition: Edition = "zamek") -> str | None:
    """A message of the web layer with values in it, in Polish; None if no template knows it."""
    return _polish(message, WEB, edition, strict=True) or _polish(message, WEB, edition, strict=False)


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


def in_language(code: str, message: str, lang: str, edition: Edition = "zamek") -> str:
    """A refusal's message in ``lang`` ('en' or 'pl'); the engine's words in the terms of ``edition``."""
    if lang != "pl":
        return message
    if message in POLISH:
        return POLISH[message]
    lead = LEADS.get(code)
    polish = web_polish(message, edition)
    if polish is not None and (lead is None or polish.endswith(".")):
        return polish  # a whole sentence of the web layer
    if polish is None:
        polish = engine_polish(message, edition, strict=False)
    if polish is None:
        return f"{lead}: {message}" if lead else message
    return f"{lead}: {polish}." if lead else f"{polish[:1].upper()}{polish[1:]}."
