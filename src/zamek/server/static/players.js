// Players (issue 39): your player (#/me: create one, rename it, the link that moves it to another device), a link
// that brings a player to this device (#/me/<token>), a player's page (#/player/<name>: ratings with their history
// chart, rated games to watch or replay, results against each opponent) and the leaderboard
// (#/leaderboard/<game>/<clock>). The player's token lives in localStorage (api.js `identity`).

import { identity, players } from "./api.js";
import { drawRatingChart } from "./chart.js";
import { copyBox, dateText, h, main, pageUrl, showError, state, t } from "./ui.js";

const GAMES = ["castle", "knights"];
const CLOCKS = ["live", "correspondence"];

// The screen drawn again with the header, whose link names the player (app.js draws both on every route).
const redraw = () => window.dispatchEvent(new HashChangeEvent("hashchange"));
const playerLink = (name) => h("a", { href: `#/player/${encodeURIComponent(name)}`, class: "player-link" }, name);
const ratingText = (value) => String(Math.round(value));

function screen(name) {
  state.screen = name;
  state.gameId = null;
  state.view = null;
  main.innerHTML = "";
  const error = h("p", { class: "error", id: "error", hidden: true, role: "alert" });
  return error;
}

// ------------------------------------------------------------ your player

export async function openMe() {
  const error = screen("me");
  const panel = h("section", { class: "panel players", id: "me" }, h("h2", {}, t("page.players.title")));
  main.append(panel);
  const me = identity.get();
  if (!me) {
    panel.append(h("p", {}, t("page.players.about")), nameForm("create-player", t("page.players.create"), "", async (name) => {
      const created = await players.create(name);
      identity.set(created);
      await players.sync();
      redraw();
    }), error);
    return;
  }
  panel.append(
    h("p", { id: "you-are" }, t("page.players.you-are", { name: me.name }), " ",
      h("a", { href: `#/player/${encodeURIComponent(me.name)}`, id: "your-page" }, t("page.players.your-page"))),
    nameForm("rename-player", t("page.players.rename"), me.name, async (name) => {
      const renamed = await players.rename(name);
      identity.set({ token: me.token, name: renamed.name });
      redraw();
    }),
    error,
    copyBox("player-link", t("page.players.move-link", { name: me.name }), pageUrl(`#/me/${me.token}`)),
    h("p", {}, h("button", { type: "button", id: "forget-player", onclick: () => {
      identity.set(null);
      redraw();
    } }, t("page.players.forget"))),
  );
}

function nameForm(id, label, value, send) {
  const input = h("input", { type: "text", name: "player-name", id: `${id}-name`, required: true, maxlength: 20, value, autocomplete: "nickname" });
  const form = h("form", { class: "tools", id },
    h("label", { for: `${id}-name` }, t("page.label", { label: t("page.players.name") })), input,
    h("button", { type: "submit", class: "primary", id: `${id}-send` }, label),
    h("p", { class: "muted small" }, t("page.players.name-rules")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await send(input.value.trim());
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

// A player's link from another device: keep its token here (once the server knows it), then forget the link (it is
// a secret).
export async function adoptPlayer(token) {
  screen("me");
  try {
    const me = await players.me(token);
    identity.set({ token, name: me.name });
    await players.sync();
  } catch (err) {
    history.replaceState(null, "", "#/me");
    await openMe();
    showError(err.message);
    return;
  }
  history.replaceState(null, "", "#/me");
  redraw();
}

// ---------------------------------------------------------- a player's page

export async function openPlayer(name) {
  const error = screen("player");
  main.append(error);
  let data;
  try {
    data = await players.page(name);
  } catch (err) {
    showError(err.message);
    return;
  }
  const head = h("h2", { id: "player-name" }, data.name);
  if (data.abandons) head.append(" ", h("span", { class: "badge warning", id: "abandons", title: t("page.players.abandons-hint") }, t("page.players.abandons")));
  const panel = h("section", { class: "panel players", id: "player" }, head);
  main.append(panel);
  panel.append(h("h3", {}, t("page.players.ratings")));
  if (!data.ratings.length) panel.append(h("p", { class: "muted", id: "no-ratings" }, t("page.players.no-ratings")));
  for (const r of data.ratings) {
    const chart = h("div", { class: "chart-box", "data-rating": `${r.game}-${r.clock}` });
    panel.append(h("div", { class: "rating", "data-rating": `${r.game}-${r.clock}` },
      h("p", {}, h("strong", {}, t("page.players.rating-line", { game: t(`page.players.game-${r.game}`), clock: t(`page.players.clock-${r.clock}`), rating: ratingText(r.rating), rd: ratingText(r.rd) })),
        " · ", t("page.players.games-count", { n: r.games }),
        r.provisional ? h("span", { class: "muted" }, ` · ${t("page.players.provisional")}`) : null),
      chart));
    if (r.history.length) drawRatingChart(chart, r.history, t("page.players.chart", { name: data.name }));
  }
  panel.append(h("h3", {}, t("page.players.games")));
  if (!data.games.length) panel.append(h("p", { class: "muted" }, t("page.players.no-ratings")));
  else panel.append(h("ul", { class: "game-list", id: "player-games" }, data.games.map(gameLine)));
  if (data.opponents.length) {
    panel.append(h("h3", {}, t("page.players.opponents")),
      h("ul", { class: "game-list", id: "opponents" }, data.opponents.map((o) =>
        h("li", {}, playerLink(o.name), ": ", t("page.players.record", { wins: o.wins, draws: o.draws, losses: o.losses })))));
  }
}

function gameLine(g) {
  const result = g.status === "playing" ? "in-progress" : g.score === null ? "aborted" : g.score === 1 ? "won" : g.score === 0 ? "lost" : "drawn";
  const link = g.status === "playing"
    ? h("a", { class: "button", href: g.kind === "knights" ? `#/knights/${g.id}/watch` : `#/watch/${g.id}` }, t("page.players.watch"))
    : g.kind === "castle" ? h("a", { class: "button", href: `#/replay/${g.id}/` }, t("page.players.replay")) : null;
  return h("li", { "data-game": g.id, "data-result": result },
    `${t(`page.players.game-${g.kind}`)} (${t(`page.players.clock-${g.clock}`)}), `,
    g.opponent ? [t("page.label", { label: t("page.players.opponent") }), playerLink(g.opponent)] : null,
    ` · ${t(`page.players.${result}`)} · ${dateText(g.updated_at)} `, link);
}

// -------------------------------------------------------------- leaderboard

export async function openLeaderboard(game = "castle", clock = "live") {
  game = GAMES.includes(game) ? game : "castle";
  clock = CLOCKS.includes(clock) ? clock : "live";
  const error = screen("leaderboard");
  const go = (g, c) => (location.hash = `#/leaderboard/${g}/${c}`);
  const choose = (id, values, chosen, words, change) => h("select", { id, onchange: (ev) => change(ev.target.value) },
    values.map((v) => h("option", { value: v, selected: v === chosen }, t(`${words}${v}`))));
  const panel = h("section", { class: "panel players", id: "leaderboard" }, h("h2", {}, t("page.players.leaderboard")),
    h("div", { class: "tools" },
      h("label", { for: "board-game" }, t("page.label", { label: t("page.players.game") })),
      choose("board-game", GAMES, game, "page.players.game-", (g) => go(g, clock)),
      h("label", { for: "board-clock" }, t("page.label", { label: t("page.players.clock") })),
      choose("board-clock", CLOCKS, clock, "page.players.clock-", (c) => go(game, c))),
    error);
  main.append(panel);
  let board;
  try {
    board = await players.leaderboard(game, clock);
  } catch (err) {
    showError(err.message);
    return;
  }
  if (!board.players.length) panel.append(h("p", { class: "muted", id: "no-players" }, t("page.players.no-players")));
  else {
    panel.append(h("table", { class: "leaderboard", id: "leaders" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, t("page.players.player")), h("th", {}, t("page.players.rating"))),
      board.players.map((p, i) => h("tr", { "data-player": p.name },
        h("td", {}, String(i + 1)),
        h("td", {}, playerLink(p.name), p.abandons ? h("span", { class: "badge warning", title: t("page.players.abandons-hint") }, ` ${t("page.players.abandons")}`) : null),
        h("td", {}, `${ratingText(p.rating)} ± ${ratingText(p.rd)}`, p.provisional ? h("span", { class: "muted" }, ` ${t("page.players.provisional")}`) : null)))));
  }
  if (board.computer.length) {
    panel.append(h("h3", {}, t("page.players.computer")),
      h("table", { class: "leaderboard", id: "levels" }, board.computer.map((c) =>
        h("tr", { "data-level": c.level }, h("td", {}, t(`page.level.${c.level}`)), h("td", {}, ratingText(c.rating))))));
  }
}
