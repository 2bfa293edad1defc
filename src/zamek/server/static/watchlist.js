// The live games anyone may watch (GET /api/live): the lobby's list of the games their creators listed, being
// played with every seat taken, the most highly rated first; one click opens a game as a spectator. And the box of
// a new game with friends that lists it there (without it a game is seen only by those who have its link).

import { games } from "./api.js";
import { dateText, describeGame, h, message, state, t, valueText } from "./ui.js";

// The list follows the server while the lobby is open and seen.
const LIVE_EVERY_MS = 5000;

// The box "list the game among the live games" of a new game's form (`h` and `t` are the form's: the card game's
// panel has its own).
export function listedBox(hh, tt, id, checked) {
  return hh("label", { class: "choice", title: tt("page.watch.listed-hint") },
    hh("input", { type: "checkbox", name: id, id, checked }), " ", tt("page.watch.listed"));
}

// The lobby's panel of live games, asked again every few seconds while it is shown.
export function liveGamesPanel() {
  const panel = h("section", { class: "panel games live-games", id: "live-games" }, h("h2", {}, t("page.watch.title")));
  let shown = null;
  const open = () => state.screen === "lobby" && document.body.contains(panel);
  const tick = async () => {
    if (shown !== null && !open()) return;
    if (!document.hidden) {
      try {
        const live = await games.live();
        const now = JSON.stringify(live.games);
        if (now !== shown) {
          shown = now;
          drawLiveGames(panel, live.games);
        }
      } catch {
        // The next round asks again.
      }
    }
    if (open() || shown === null) setTimeout(tick, LIVE_EVERY_MS);
  };
  tick();
  return panel;
}

function drawLiveGames(panel, lines) {
  panel.querySelectorAll(":scope > :not(h2)").forEach((node) => node.remove());
  if (!lines.length) {
    panel.append(h("p", { class: "muted", id: "no-live-games" }, t("page.watch.none")));
    return;
  }
  const ul = h("ul", { class: "game-list" });
  for (const g of lines) {
    const castle = g.game === "castle";
    const players = g.names.map((name, seat) => (g.computer[seat] ? message("page.watch.computer") : name || message("player.name", { n: seat + 1 })));
    const what = castle ? describeGame({ mode: "friend", level: null, rules: g.rules }).line : t("page.knights.title");
    const progress = castle ? t("page.game.turn", { n: g.turn }) : t("page.knights.round", { n: g.turn, of: 7 });
    ul.append(h("li", { class: "game-item", "data-id": g.id, "data-game": g.game },
      h("div", { class: "game-info" },
        h("span", {}, g.scores.join(" : ")),
        h("span", { class: "live-players" }, valueText(players, { edition: null })),
        h("span", { class: "muted" }, what, ` · ${progress}`, g.clock ? ` · ${t(g.clock === "live" ? "page.watch.clock-live" : "page.watch.clock-days")}` : "",
          ` · ${dateText(g.updated_at)}`),
        g.watching ? h("span", { class: "muted watching" }, t("page.watch.watching", { count: g.watching })) : null),
      h("div", { class: "game-actions" },
        h("a", { class: "button primary watch-game", href: castle ? `#/watch/${g.id}` : `#/knights/${g.id}/watch` }, t("page.watch.watch")))));
  }
  panel.append(ul);
}
