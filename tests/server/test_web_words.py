"""The server speaks through the catalogue (zamek.i18n): every refusal it writes is a message of ``server.toml`` in
every language, with the values it needs; a refusal answers its kind, code, rule, values and the message in the
request's language, in the words of the game's edition; no English sentence is read back anywhere."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import SRC
from tests.web_client import Json, WebClient
from zamek import i18n
from zamek.i18n.messageformat import arguments, parse

WEB_DIR = SRC / "server"
SERVER_FILES = sorted(p for p in WEB_DIR.glob("**/*.py") if "static" not in p.parts)
ANSWER_KEYS = {"error", "code", "rule", "params", "message"}
CODES_FROM_ELSEWHERE = {("sessions.py", "reason")}
"""Refusals whose code a function gives (an undo refused: ``undo_refusal``, whose codes are checked below)."""


def value_of(json: object) -> object:
    """A message's value from its JSON (``{"seat": n}``, ``{"term": key}``, ``{"key", "params"}``, a list)."""
    if isinstance(json, list):
        return [value_of(v) for v in json]
    if isinstance(json, dict):
        if "seat" in json:
            return i18n.Seat(json["seat"])
        if "term" in json:
            return i18n.Term(json["term"])
        return message_of(json)
    return json


def message_of(json: Json) -> i18n.Message:
    return i18n.Message(json["key"], {name: value_of(v) for name, v in json.get("params", {}).items()})


def needed(key: str, lang: str) -> frozenset[str]:
    """The values the message ``key`` names in ``lang`` (in any of its edition forms); ``X_person`` comes with a
    seat ``X``."""
    words = i18n.catalogue(lang)
    texts = [text for k, text in words.own.items() if k == key or k.startswith(f"{key}@")]
    assert texts, f"{lang}: no message {key}"
    names = frozenset().union(*(arguments(parse(text)) for text in texts))
    return frozenset(n.removesuffix("_person") for n in names)


def calls(name: str) -> Iterator[tuple[str, int, str, set[str] | None]]:
    """(file, line, the message's key, its keyword values or None when some are given as ``**``) of every call of
    ``name`` in the server's code with the message's code written out: ``ServiceError(status, kind, "code", ...)``
    and ``InvalidRequest("code", ...)``."""
    position = {"ServiceError": 2, "InvalidRequest": 0}[name]
    for path in SERVER_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if called != name or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.Name) and (path.name, code.id) in CODES_FROM_ELSEWHERE:
                continue
            assert isinstance(code, ast.Constant) and isinstance(code.value, str), (
                f"{path.name}:{node.lineno}: a refusal's code must be written where it is raised")
            given = {k.arg for k in node.keywords if k.arg is not None}
            spread = any(k.arg is None for k in node.keywords)
            yield path.name, node.lineno, f"server.{code.value}", None if spread else given


def returned_codes(path: Path, function: str) -> Iterator[tuple[str, int, str, set[str]]]:
    """The codes a function returns (``undo_refusal``: why a move cannot be taken back)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Constant) and isinstance(
                        ret.value.value, str):
                    yield path.name, ret.lineno, f"server.{ret.value.value}", set()


def messages_built() -> Iterator[tuple[str, int, str, set[str] | None]]:
    """Every ``Message("server....", {...})`` (and ``say("server....", ...)``) of the server's code."""
    for path in SERVER_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            key = node.args[0]
            if called not in ("Message", "say") or not isinstance(key, ast.Constant):
                continue
            if not str(key.value).startswith("server."):
                continue
            given: set[str] | None
            if called == "Message":
                values = node.args[1] if len(node.args) > 1 else None
                given = ({str(k.value) for k in values.keys if isinstance(k, ast.Constant)}
                         if isinstance(values, ast.Dict) else set() if values is None else None)
            else:
                given = {k.arg for k in node.keywords if k.arg is not None}
            yield path.name, node.lineno, str(key.value), given


def every_use() -> list[tuple[str, int, str, set[str] | None]]:
    undo = [*returned_codes(WEB_DIR / "games" / "castle.py", "undo_refusal"),
            *returned_codes(WEB_DIR / "games" / "__init__.py", "undo_refusal")]
    return [*calls("ServiceError"), *calls("InvalidRequest"), *undo, *messages_built()]


def test_every_message_the_server_writes_is_in_every_catalogue_with_the_values_it_needs() -> None:
    """Walks the server's code: every refusal raised (``ServiceError``, ``InvalidRequest``), every reason an undo is
    refused and every message built has its key in each language's catalogue, and is given every value it names."""
    uses = every_use()
    assert len(uses) > 60
    problems = []
    for lang in i18n.languages():
        keys = i18n.catalogue(lang).keys()
        for name, line, key, given in uses:
            if key not in keys:
                problems.append(f"{lang}: {name}:{line}: no {key}")
            elif given is not None and not needed(key, lang) <= given:
                problems.append(f"{lang}: {name}:{line}: {key} needs {sorted(needed(key, lang) - given)}")
    assert not problems, "\n".join(problems)


def test_the_server_catalogue_has_the_same_messages_in_every_language() -> None:
    english = {k for k in i18n.catalogue("en").own if k.startswith("server.")}
    assert len(english) > 80
    for lang in i18n.languages():
        own = {k for k in i18n.catalogue(lang).own if k.startswith("server.")}
        assert own == english, (lang, sorted(own ^ english))
        for key in own:
            assert needed(key, lang) == needed(key, "en"), (lang, key)


def test_no_module_reads_english_back() -> None:
    """The table that turned English into Polish is gone, and nothing in the server matches a message's words."""
    assert not (WEB_DIR / "words.py").exists()
    mentions = [p for p in [*SERVER_FILES, *SRC.parent.parent.glob("tests/**/*.py")]
                if "zamek.server.words" in p.read_text() and p.name != Path(__file__).name]
    assert not mentions
    for path in SERVER_FILES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                if isinstance(target, ast.Name) and target.id == "re" and node.func.attr in (
                        "match", "fullmatch", "search", "sub", "findall", "finditer"):
                    pattern = node.args[0] if node.args else None
                    # the one regular expression of the server reads a header's digits (Last-Event-ID)
                    assert isinstance(pattern, ast.Constant) and pattern.value == "[0-9]{1,11}", (
                        f"{path.name}:{node.lineno}: a regular expression on text")


def test_no_language_is_written_in_the_servers_code() -> None:
    """The languages are the catalogues' (``zamek.i18n.languages()``): no 'pl' nor a list of languages in code."""
    for path in SERVER_FILES:
        tree = ast.parse(path.read_text())
        examples = {id(n) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "examples"
                    for n in ast.walk(k.value)}  # a model's example in the OpenAPI description
        for node in ast.walk(tree):
            assert id(node) in examples or not (isinstance(node, ast.Constant) and node.value in ("pl", "en")), (
                f"{path.name}:{node.lineno}")
            assert not (isinstance(node, ast.Name) and node.id == "LANGUAGES"), f"{path.name}:{node.lineno}"


# ------------------------------------------------------------------------------------------ the answers


def refused_move(client: WebClient, view: Json, headers: dict[str, str] | None = None, query: str = "") -> Json:
    """A placement where no tile may go (a space not next to anything), refused."""
    legal = {p["action"] for p in view["drawn"]["places"]}
    action = next(f"{s}/0" for s in ("a1", "a2", "b1", "k11", "k10") if f"{s}/0" not in legal)
    r = client.post(f"/api/games/{view['id']}/actions{query}", json={"action": action},
                    headers=client.mover(view) | (headers or {}))
    assert r.status_code == 409, r.text
    body: Json = r.json()
    assert set(body) == ANSWER_KEYS and body["error"] == "illegal-move", body
    return body


def test_a_refused_move_answers_its_code_rule_values_and_message_in_the_requests_language(
        client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "hotseat"}).json()
    english = refused_move(client, view)
    assert english["rule"] is not None and english["code"] and isinstance(english["params"], dict)
    said = message_of({"key": f"error.{english['code']}", "params": english["params"] | {"rule": english["rule"]}})
    assert english["message"] == said.text("en")
    polish = refused_move(client, view, query="?lang=pl")
    browser = refused_move(client, view, {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.8"})
    for answer in (polish, browser):
        assert {k: answer[k] for k in ("error", "code", "rule", "params")} == {
            k: english[k] for k in ("error", "code", "rule", "params")}
        assert answer["message"] != english["message"]
        assert answer["message"] == said.text("pl")
    # ?lang= wins over the browser's language; a language there is no catalogue for is the browser's.
    assert refused_move(client, view, {"Accept-Language": "pl"}, "?lang=en")["message"] == english["message"]
    assert refused_move(client, view, {"Accept-Language": "pl"}, "?lang=xx")["message"] == polish["message"]


def test_a_refusal_of_the_web_layer_in_polish(client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "hotseat"}).json()
    place = view["drawn"]["places"][0]["action"]
    url = f"/api/games/{view['id']}/actions"
    no_token = client.post(f"{url}?lang=pl", json={"action": place})
    assert no_token.status_code == 401
    assert no_token.json() == {"error": "not-your-seat", "code": "needs-token", "rule": None, "params": {},
                               "message": i18n.say("server.needs-token", "pl")}
    assert no_token.json()["message"].startswith("To wymaga żetonu")
    other = client.seat(view["id"], 1 - view["current"])
    not_yours = client.post(url, json={"action": place}, headers=other | {"Accept-Language": "pl"}).json()
    mover, seat = view["current"] + 1, 2 - view["current"]
    assert not_yours["code"] == "not-your-turn" and not_yours["params"] == {"mover": mover, "seat": seat}
    assert not_yours["message"] == f"Ruch ma gracz {mover}, nie gracz {seat}."
    english = client.post(url, json={"action": place}).json()["message"]
    assert english == i18n.say("server.needs-token", "en")
    polish_view = client.get(f"/api/games/{view['id']}?lang=pl").json()
    assert polish_view["undo_refusal"] == i18n.say("server.undo-drawn", "pl")  # nothing to take back yet


def test_a_422_and_a_404_in_polish(client: WebClient) -> None:
    invalid = client.post("/api/games?lang=pl", json={"mode": "hotseat", "level": "grandmaster"})
    assert invalid.status_code == 422
    body = invalid.json()
    assert set(body) == ANSWER_KEYS and body["error"] == "invalid" and body["code"] == "invalid-request"
    assert body["params"]["field"] == "level" and body["params"]["detail"]  # Pydantic's own words, as a value
    assert body["message"] == "Nieprawidłowe żądanie: level: niedozwolona wartość."
    missing = client.post("/api/games/x/actions", json={}, headers={"Accept-Language": "pl"}).json()
    assert missing["message"] == "Nieprawidłowe żądanie: action: brak wartości."
    english = client.post("/api/games", json={"mode": "hotseat", "level": "grandmaster"}).json()
    assert english["message"] == "The request is not valid: level: not one of the values it may take."
    # A check of the request's model is answered with its own message.
    clocked = client.post("/api/games?lang=pl", json={"mode": "hotseat", "clock": {"kind": "live"}}).json()
    assert clocked["code"] == "clocks-friend" and clocked["message"] == i18n.say("server.clocks-friend", "pl")
    no_game = client.get("/api/games/nope?lang=pl")
    assert no_game.status_code == 404
    assert no_game.json() == {"error": "not-found", "code": "no-game", "rule": None, "params": {"game": "nope"},
                              "message": "Nie ma gry nope."}
    no_route = client.get("/api/nothing-here", headers={"Accept-Language": "pl"})
    assert no_route.status_code == 404
    assert no_route.json()["message"] == i18n.say("server.not-found", "pl")


def test_the_guards_refuse_in_the_requests_language(client: WebClient) -> None:
    foreign = client.get("/api/meta?lang=pl", headers={"Host": "evil.example"})
    assert foreign.status_code == 400
    assert foreign.json() == {"error": "bad-host", "code": "bad-host", "rule": None,
                              "params": {"host": "evil.example"},
                              "message": "Ten serwer nie działa pod nazwą evil.example."}


def test_a_refused_saved_game_names_its_bad_move_in_polish(client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "hotseat"}).json()
    record = client.get(f"/api/games/{view['id']}/record").json()
    record["moves"] = [*record["moves"][:1], "e5/0"]  # the first tile placed where it touches nothing
    refused = client.post("/api/import?lang=pl", json=record)
    assert refused.status_code == 400
    body = refused.json()
    assert body["error"] == "invalid-record" and body["code"] == "record-move"
    assert body["params"]["number"] == 2 and body["params"]["reason"]["key"].startswith("error.")
    assert body["message"].startswith("ruch 2 (e5/0): ") and "kafel" in body["message"], body["message"]
    assert client.post("/api/import", json=record).json()["message"].startswith("move 2 (e5/0): ")


def test_a_refusal_in_a_game_of_2003_speaks_its_words(client: WebClient) -> None:
    """The page of a game of The Castle 2003 is refused in 2003's words: a road of Zamek is a path there."""
    view = client.post("/api/games", json={"mode": "hotseat", "edition": "castle2003", "seed": 4}).json()
    game = view["id"]
    while True:
        if view["phase"] == "draw":
            view = client.post(f"/api/games/{game}/draw", headers=client.mover(view), json={}).json()
        legal = {p["action"] for p in view["drawn"]["places"]}
        spaces = {a.split("/")[0] for a in legal}
        for action in (f"{s}/{r}" for s in sorted(spaces) for r in (0, 90, 180, 270)):
            if action in legal:
                continue
            answer = client.post(f"/api/games/{game}/actions?lang=pl", headers=client.mover(view),
                                 json={"action": action}).json()
            if answer["code"] == "road-mismatch":
                assert answer["rule"] == "Z7"
                assert "ścieżk" in answer["message"] and "drog" not in answer["message"], answer["message"]
                return
        view = client.post(f"/api/games/{game}/actions", headers=client.mover(view),
                           json={"action": sorted(legal)[0]}).json()
        while view["phase"] not in ("draw", "over"):
            view = client.post(f"/api/games/{game}/actions", headers=client.mover(view),
                               json={"action": view["choices"][-1]["action"]}).json()
        assert view["phase"] != "over", "no refusal about a road in a whole game"


# ------------------------------------------------------------------------------------------ the views


def test_a_views_lines_come_with_their_messages_read_by_the_requests_seat(client: WebClient) -> None:
    view = client.post("/api/games", json={"mode": "computer", "level": "beginner", "seat": "first"}).json()
    game, human, edition = view["id"], view["human"], view["edition"]
    seated = client.get(f"/api/games/{game}?lang=pl", headers=client.seat(game, human)).json()
    public = client.get(f"/api/games/{game}?lang=pl").json()
    draw = seated["recent"][0]
    assert draw["kind"] == "draw" and draw["message"]["params"]["player"] == {"seat": human}
    message = message_of(draw["message"])
    assert draw["words"] == message.text("pl", edition, i18n.Reader(you=frozenset({human})))
    assert public["recent"][0]["message"] == draw["message"]
    assert public["recent"][0]["words"] == message.text("pl", edition) != draw["words"]
    assert f"Gracz {human + 1}" in public["recent"][0]["words"]


def test_meta_names_each_language_in_itself(client: WebClient) -> None:
    meta = client.get("/api/meta", headers={"Accept-Language": "pl"}).json()
    assert meta["languages"][0] == {"code": "en", "name": "English"}
    assert {"code": "pl", "name": "Polski"} in meta["languages"]
    assert [entry["code"] for entry in meta["languages"]] == list(i18n.languages())
    assert meta["lang"] == "pl"


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_words_of_a_language_are_served_and_cached(client: WebClient, lang: str) -> None:
    served = client.get(f"/api/words?lang={lang}")
    assert served.status_code == 200
    words = served.json()
    assert words["lang"] == lang and words["name"] == i18n.catalogue(lang).name
    assert set(words["messages"]) == set(i18n.catalogue(lang).export()["messages"])
    assert set(i18n.catalogue(lang).keys()) <= set(words["messages"])
    again = client.get(f"/api/words?lang={lang}", headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304 and not again.content


def test_the_words_of_an_unknown_language_are_the_browsers_or_english(client: WebClient) -> None:
    assert client.get("/api/words?lang=xx", headers={"Accept-Language": "pl-PL"}).json()["lang"] == "pl"
    assert client.get("/api/words?lang=xx").json()["lang"] == "en"
    assert client.get("/api/words", headers={"Accept-Language": "de, pl;q=0.5"}).json()["lang"] == "pl"
