"""The server's refusals in both languages: every message the web layer writes has its Polish, every message of
the rules engines that a player can meet has its Polish template, and a Polish page gets its refusals in Polish
(``?lang=pl`` or ``Accept-Language``)."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import SRC
from tests.web_client import WebClient
from zamek.castle.rules.actions import Piece
from zamek.castle.rules.geometry import Side
from zamek.castle.rules.tiles import FeatureKind
from zamek.knights.rules.cards import Card
from zamek.server.words import (
    CARDS,
    CHOICES,
    ENGINE,
    KINDS,
    LEADS,
    PIECES,
    POLISH,
    ROAD,
    WAITING,
    WEB,
    Template,
    engine_polish,
    in_language,
    skeleton,
    web_polish,
)

WEB_DIR = SRC / "server"
ENGINE_ERRORS = {"IllegalActionError", "MalformedActionError", "RecordError"}
ENGINE_FILES = sorted([*SRC.glob("castle/rules/*.py"), *SRC.glob("kit/*.py"), *SRC.glob("knights/**/*.py"),
                       SRC / "castle" / "record.py"])
SETUP_FILES = [SRC / "castle" / "rules" / name for name in ("setup.py", "editions.py", "rulesets.py")]
"""A saved game's setup is checked by these (ValueError), and a record names the reason ("setup: ...")."""


def raised_messages() -> Iterator[tuple[str, str, str]]:
    """(file, code, message) of every refusal raised with a message written out whole."""
    for path in sorted(WEB_DIR.glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or len(node.args) < 3:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            code, message = node.args[1], node.args[2]
            written = isinstance(code, ast.Constant) and isinstance(message, ast.Constant)
            if name in ("ServiceError", "fail") and written:
                assert isinstance(code, ast.Constant) and isinstance(message, ast.Constant)
                yield path.name, str(code.value), str(message.value)


def test_every_message_written_out_has_its_polish() -> None:
    messages = list(raised_messages())
    assert len(messages) > 20
    missing = [(f, m) for f, code, m in messages if m not in POLISH and code not in LEADS]
    assert not missing, missing


def test_undo_refusals_have_their_polish() -> None:
    source = (WEB_DIR / "games" / "castle.py").read_text()
    tree = ast.parse(source)
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "undo_refusal")
    returned = [n.value.value for n in ast.walk(function) if isinstance(n, ast.Return)
                and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)]
    assert len(returned) >= 4 and all(text in POLISH for text in returned)


@pytest.mark.parametrize(("message", "polish"), [
    ("player 1 is to move, not player 2", "Ruch ma gracz 1, nie gracz 2."),
    ("e10/90: the computer is to move", "e10/90: teraz ruch komputera."),
    ("there is no game 'abc'", "Nie ma gry 'abc'."),
])
def test_messages_with_values(message: str, polish: str) -> None:
    assert in_language("x", message, "pl") == polish
    assert in_language("x", message, "en") == message
    assert any(t.pattern.fullmatch(message) for t in WEB)


# ------------------------------------------------------------------------ the engines' messages


def template_of(node: ast.expr) -> str | None:
    """A message written in the source as a template: its text with each value as ``{}`` (None: not written out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}") if "{" in node.value else node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def raised(paths: list[Path], errors: set[str]) -> Iterator[tuple[str, int, str]]:
    """(file, line, template) of every error of ``errors`` raised in ``paths`` with a message written out."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in errors and node.args:
                template = template_of(node.args[0])
                assert template is not None, f"{path.name}:{node.lineno}: a message not written out where raised"
                yield path.name, node.lineno, template


def knights_setup_checks() -> Iterator[tuple[str, int, str]]:
    """The ValueErrors of Rycerze i zamki's setup (its record's "setup: ..." names them)."""
    tree = ast.parse((SRC / "knights" / "rules" / "engine.py").read_text())
    setup = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "KnightsSetup")
    for node in ast.walk(setup):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ValueError":
            template = template_of(node.args[0])
            assert template is not None
            yield "engine.py", node.lineno, template


def engine_messages() -> list[tuple[str, int, str]]:
    return [*raised(ENGINE_FILES, ENGINE_ERRORS), *raised(SETUP_FILES, {"ValueError"}), *knights_setup_checks()]


def test_every_message_of_the_engines_has_its_polish_template() -> None:
    """Walks the engines' sources: every illegal move, unreadable move and refused record they can raise (and every
    setup check a record's setup meets) has a template here, with the same words and values."""
    messages = engine_messages()
    assert len(messages) > 60
    known = {skeleton(t.english) for t in ENGINE}
    missing = [f"{name}:{line}: {text}" for name, line, text in messages if text not in known]
    assert not missing, "no Polish for:\n" + "\n".join(missing)


def test_every_message_with_values_of_the_web_layer_has_its_polish_template() -> None:
    messages = []
    for path in sorted(WEB_DIR.glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or len(node.args) < 3:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("ServiceError", "fail") and isinstance(node.args[2], ast.JoinedStr):
                messages.append((path.name, node.lineno, template_of(node.args[2])))
    assert len(messages) > 15
    known = {skeleton(t.english) for t in WEB}
    missing = [f"{name}:{line}: {text}" for name, line, text in messages if text not in known]
    assert not missing, "no Polish for:\n" + "\n".join(missing)


def constants_in(path: Path, function: str) -> set[str]:
    tree = ast.parse(path.read_text())
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def chosen_words(path: Path, function: str, name: str) -> set[str]:
    """The words a variable of ``function`` is given: ``name = "a" if ... else "b"``."""
    tree = ast.parse(path.read_text())
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    words: set[str] = set()
    for assign in ast.walk(node):
        if isinstance(assign, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in assign.targets):
            words |= {n.value for n in ast.walk(assign.value)
                      if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert words, f"{function} gives {name} no words"
    return words


def test_every_word_a_message_is_given_has_its_polish() -> None:
    """The values an engine's message takes from a fixed set (what the game waits for, a side, a figure, a card...)
    are each known here."""
    legality, knights = SRC / "castle" / "rules" / "legality.py", SRC / "knights" / "rules" / "engine.py"
    assert constants_in(legality, "_waiting_for") | constants_in(knights, "_waiting_for") == set(WAITING)
    assert chosen_words(legality, "check", "what") == set(CHOICES["chance"])
    assert chosen_words(legality, "_check_place", "mine") == set(ROAD)
    assert chosen_words(legality, "_check_place", "theirs") == set(ROAD)
    assert chosen_words(knights, "check", "where") == set(CHOICES["where"])
    assert {s.name for s in Side} == set(CHOICES["side"])
    assert {p.key for p in Piece} == set(PIECES)
    assert {k.key for k in FeatureKind} == set(KINDS)
    assert {c.key for c in Card} == set(CARDS)


SAMPLES = {"action": "e10/90", "n": "7", "id": "Z15", "text": "'X'", "list": "Q1, Q2", "cards": "dragon, hog"}
ENGLISH = re.compile(r"\b(the|is|are|an|must|not|has|have|your|you|no|of|or|and|with|only|first|be|this|that|"
                     r"tile|tiles|game|move|card|cards|holds|already|cannot|record|space|feature|now)\b")


def samples(template: Template) -> Iterator[str]:
    """The template's message with every value of a fixed set in turn (and a sample of the others)."""
    names = re.findall(r"\{([a-z]+[0-9]?)\}", template.english)
    options: list[list[str]] = []
    for name in names:
        kind = name.rstrip("0123456789")
        if kind in CHOICES:
            options.append(list(CHOICES[kind]))
        elif kind == "road":
            options.append(list(ROAD))
        elif kind in ("piece", "kind", "card"):
            options.append(list({"piece": PIECES, "kind": KINDS, "card": CARDS}[kind]))
        elif kind == "message":
            options.append(["the game is over", "e10/90: b3 already holds a tile"])
        else:
            options.append([SAMPLES[kind]])
    for values in itertools.product(*options):
        text = template.english
        for name, value in zip(names, values, strict=True):
            text = text.replace("{" + name + "}", value, 1)
        yield text


@pytest.mark.parametrize("template", [*ENGINE, *WEB], ids=lambda t: t.english[:50])
def test_every_template_reads_in_polish(template: Template) -> None:
    """Each template, filled with each of its words, comes out in Polish in both editions: no English word is left
    but the notation ('e10/90', 'play:dragon+shepherd') and the saved game's field names."""
    polish = web_polish if template in WEB else engine_polish
    for message in samples(template):
        for edition in ("zamek", "castle2003"):
            said = polish(message, edition)
            assert said is not None, message
            prose = re.sub(r"'[^']*'", "", said)
            assert not ENGLISH.search(prose), (message, said)


@pytest.mark.parametrize(("message", "edition", "polish"), [
    ("follower:0: that pigsty already holds a follower (Z10)", "zamek",
     "Niedozwolony ruch: follower:0: na tym obszarze (chlew) stoi już poddany (Z10)."),
    ("follower:0: that pigsty already holds a follower (Z10)", "castle2003",
     "Niedozwolony ruch: follower:0: na tym obszarze (wieża) stoi już poddany (Z10)."),
    ("b3/90: the tile's E side has no road where its neighbour has a road; roads must meet roads (Z7)", "castle2003",
     "Niedozwolony ruch: b3/90: wschodni bok kafelka: brak ścieżki, a u sąsiada: ścieżka; ścieżka musi trafiać na "
     "ścieżkę (Z7)."),
    ("play:dragon+hog: your mounted-knight is in your camp (K4: play cards from your hand)", "zamek",
     "Niedozwolony ruch: play:dragon+hog: karta „rycerz na koniu” leży w twoim obozie (K4: zagrywa się karty z ręki)."),
])
def test_an_illegal_move_in_polish(message: str, edition: str, polish: str) -> None:
    assert in_language("illegal", message, "pl", edition) == polish
    assert in_language("illegal", message, "en", edition) == message


def test_a_record_refused_names_its_bad_move_in_polish() -> None:
    message = "move 12 (e10/90): e10/90: a tile must touch a placed tile or a start space with a side (Z7)"
    assert in_language("invalid-record", message, "pl") == (
        "Zapisana gra odrzucona: ruch 12 (e10/90): e10/90: kafelek musi stykać się bokiem z położonym kafelkiem "
        "albo z polem startowym (Z7).")
    nested = "setup: unknown edition 'x' (known: zamek, castle2003)"
    assert in_language("invalid-record", nested, "pl") == (
        "Zapisana gra odrzucona: setup: nieznane wydanie 'x' (znane: zamek, castle2003).")


def test_a_message_no_template_knows_still_reaches_the_player() -> None:
    assert in_language("illegal", "something the engine says one day", "pl") == (
        "Niedozwolony ruch: something the engine says one day")
    # A known move around an unknown reason: the Polish around it, the reason as it is.
    assert in_language("invalid-record", "move 3 (pass): a new reason", "pl") == (
        "Zapisana gra odrzucona: ruch 3 (pass): a new reason.")


def test_a_polish_page_gets_its_refusals_in_polish(client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "hotseat"}).json()
    place = view["drawn"]["places"][0]["action"]
    url = f"/api/games/{view['id']}/actions"
    no_token = client.post(f"{url}?lang=pl", json={"action": place})
    assert no_token.status_code == 401 and no_token.json()["message"].startswith("To wymaga żetonu")
    other = client.seat(view["id"], 1 - view["current"])
    not_yours = client.post(url, json={"action": place}, headers=other | {"Accept-Language": "pl-PL,pl;q=0.9"})
    assert not_yours.json()["message"] == f"Ruch ma gracz {view['current'] + 1}, nie gracz {2 - view['current']}."
    illegal = client.post(f"{url}?lang=pl", json={"action": "a1/0"}, headers=client.mover(view))
    assert illegal.status_code == 409 and illegal.json()["message"].startswith("Niedozwolony ruch: ")
    assert not ENGLISH.search(re.sub(r"'[^']*'", "", illegal.json()["message"])), illegal.json()["message"]
    english_illegal = client.post(url, json={"action": "a1/0"}, headers=client.mover(view)).json()["message"]
    assert engine_polish(english_illegal) is not None, english_illegal
    assert illegal.json()["message"] == in_language("illegal", english_illegal, "pl")
    english = client.post(url, json={"action": place})
    assert english.json()["message"].startswith("this needs your seat's token")
    polish_view = client.get(f"/api/games/{view['id']}?lang=pl").json()
    assert polish_view["undo_refusal"] in POLISH.values()  # the first tile is drawn: nothing to take back


def test_a_polish_page_gets_an_imported_games_bad_move_in_polish(client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "hotseat"}).json()
    record = client.get(f"/api/games/{view['id']}/record").json()
    # The first tile drawn, then placed where no tile may go: on a space it cannot touch anything from.
    record["moves"] = [*record["moves"][:1], "e5/0"]
    refused = client.post("/api/import?lang=pl", json=record)
    assert refused.status_code == 400
    message = refused.json()["message"]
    assert message.startswith("Zapisana gra odrzucona: ruch 2 (e5/0): e5/0: "), message
    assert not ENGLISH.search(re.sub(r"'[^']*'", "", message)), message
    english = client.post("/api/import", json=record).json()["message"]
    assert english.startswith("move 2 (e5/0): e5/0: ")


def test_a_refusal_in_a_game_of_2003_speaks_its_words(client: WebClient) -> None:
    """The page of a game of The Castle 2003 is refused in 2003's words: a road of Zamek is a path there."""
    view = client.post("/api/games", json={"mode": "hotseat", "edition": "castle2003", "seed": 4}).json()
    while True:
        if view["phase"] == "draw":
            view = client.post(f"/api/games/{view['id']}/draw", headers=client.mover(view), json={}).json()
        legal = {p["action"] for p in view["drawn"]["places"]}
        spaces = {a.split("/")[0] for a in legal}
        tried = [f"{s}/{r}" for s in sorted(spaces) for r in (0, 90, 180, 270) if f"{s}/{r}" not in legal]
        for action in tried:
            english = client.post(f"/api/games/{view['id']}/actions", headers=client.mover(view),
                                  json={"action": action}).json()["message"]
            if "road" in english:
                polish = client.post(f"/api/games/{view['id']}/actions?lang=pl", headers=client.mover(view),
                                     json={"action": action}).json()["message"]
                assert "ścieżk" in polish and "drog" not in polish, polish
                return
        view = client.post(f"/api/games/{view['id']}/actions", headers=client.mover(view),
                           json={"action": sorted(legal)[0]}).json()
        while view["phase"] not in ("draw", "over"):
            view = client.post(f"/api/games/{view['id']}/actions", headers=client.mover(view),
                               json={"action": view["choices"][-1]["action"]}).json()
        assert view["phase"] != "over", "no refusal about a road in a whole game"
