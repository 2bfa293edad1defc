"""The cost of one request without a queue: friend games played in-process through the test client, a move and
then a view at a time; prints the median milliseconds of each. Usage: ``python request_cost.py DB_FILE``."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from zamek.server.app import create_app
from zamek.server.service import WebConfig


def legal(view: dict[str, Any]) -> list[str]:
    if view.get("phase") == "place" and view.get("drawn"):
        return [p["action"] for p in view["drawn"]["places"]]
    return [c["action"] for c in view.get("choices", [])]


def main(db: Path) -> None:
    db.unlink(missing_ok=True)
    rng = random.Random(1)
    moves: list[float] = []
    views: list[float] = []
    with TestClient(create_app(WebConfig(db_url=f"sqlite:///{db}", bot_delay=0.0))) as client:
        for _ in range(6):
            game = client.post("/api/games", json={"mode": "friend", "seat": "first"}).json()
            view = client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"]}).json()
            tokens = {t["seat"]: t["token"] for t in [*game["tokens"], *view["tokens"]]}
            for _ in range(60):
                if view["over"]:
                    break
                start = time.perf_counter()
                view = client.post(f"/api/games/{game['id']}/actions",
                                   json={"action": rng.choice(legal(view)), "revision": view["revision"]},
                                   headers={"Authorization": f"Bearer {tokens[view['current']]}"}).json()
                moves.append(time.perf_counter() - start)
                start = time.perf_counter()
                client.get(f"/api/games/{game['id']}")
                views.append(time.perf_counter() - start)
    print(f"move median {statistics.median(moves) * 1000:.2f} ms, view median {statistics.median(views) * 1000:.2f} ms "
          f"({len(moves)} moves)")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
