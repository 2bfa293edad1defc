"""The server's refusals in both languages: every message the web layer writes has its Polish, and a Polish
page gets its refusals in Polish (``?lang=pl`` or ``Accept-Language``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from zamek.web.words import LEADS, PATTERNS, POLISH, in_language

from .web_client import WebClient, client_for

WEB = Path(__file__).resolve().parent.parent / "src" / "zamek" / "web"


def raised_messages() -> Iterator[tuple[str, str, str]]:
    """(file, code, message) of every refusal raised with a message written out whole."""
    for path in sorted(WEB.glob("*.py")):
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
    source = (WEB / "sessions.py").read_text()
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
    assert any(p.fullmatch(message) for p, _ in PATTERNS)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[WebClient]:
    with client_for(tmp_path / "games.sqlite3") as c:
        yield c


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
    english = client.post(url, json={"action": place})
    assert english.json()["message"].startswith("this needs your seat's token")
    polish_view = client.get(f"/api/games/{view['id']}?lang=pl").json()
    assert polish_view["undo_refusal"] in POLISH.values()  # the first tile is drawn: nothing to take back
