// The page: lobby, game and replay screens. Plain ES modules, no build step.

import { Board } from "./board.js";
import { drawChart } from "./chart.js";
import { guessLanguage, tr } from "./i18n.js";
import { initKnights, knightsLanguageChanged, knightsLobby, leaveKnights, openKnights } from "./knights.js";
import { COLORS, drawFigure, drawTile, el as svgEl } from "./tiles.js";

const state = {
  lang: guessLanguage(),
  geometry: new Map(),
  tileDefs: new Map(),
  view: null,
  board: null,
  boardFor: null,
  rotation: 0,
  rotationFor: null,
  screen: null,
  gameId: null,
  poll: null,
  busy: false,
  error: null,
};

const main = document.getElementById("main");
const t = (key, values) => tr(state.lang, key, values);

// ------------------------------------------------------------------- helpers

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, t("offline"));
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.message) || `${response.status}`);
  return data;
}

initKnights({ h, api: (...args) => api(...args), t: (key, values) => t(key, values), main, lang: () => state.lang });

const withLang = (path) => `${path}${path.includes("?") ? "&" : "?"}lang=${state.lang}`;

// The castle a game was played on: its rule set and its board (games saved before board 2 keep board 1).
async function geometryFor(view) {
  const key = `${view.sokol}:${view.board}`;
  if (!state.geometry.has(key)) {
    const geo = await api("GET", `/api/geometry?sokol=${view.sokol}&board=${view.board}`);
    state.geometry.set(key, geo);
    state.tileDefs.set(view.sokol, geo.tiles);
  }
  return state.geometry.get(key);
}

function showError(message) {
  state.error = message;
  const box = document.getElementById("error");
  if (box) {
    box.textContent = message || "";
    box.hidden = !message;
  }
}

function playerName(view, p) {
  if (view.mode === "computer") {
    return p === view.human ? t("you") : `${t("computer")} (${t("level-" + view.level)})`;
  }
  return view.terms[`player-${p + 1}`];
}

function stopPolling() {
  if (state.poll) clearTimeout(state.poll);
  state.poll = null;
}

// ------------------------------------------------------------------- routing

function route() {
  stopPolling();
  showError(null);
  if (!location.hash.startsWith("#/replay/") || state.screen !== "replay") window.scrollTo(0, 0);
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/");
  if (parts[0] !== "knights") leaveKnights();
  if (parts[0] === "knights" && parts[1]) {
    state.screen = "knights";
    header();
    openKnights(parts[1]);
  } else if (parts[0] === "game" && parts[1]) openGame(parts[1]);
  else if (parts[0] === "replay" && parts[1]) openReplay(parts[1], parts[2] === undefined || parts[2] === "" ? null : Number(parts[2]));
  else openLobby();
}

function header() {
  const nav = document.getElementById("nav");
  nav.innerHTML = "";
  nav.append(
    h("a", { href: "#/", class: "nav-link" }, t("lobby")),
    h("button", { class: "lang", id: "lang-switch", type: "button", onclick: switchLanguage, "aria-label": "language" }, t("language")),
  );
  document.getElementById("tagline").textContent = t("tagline");
  document.documentElement.lang = state.lang;
}

function switchLanguage() {
  state.lang = state.lang === "pl" ? "en" : "pl";
  localStorage.setItem("zamek-lang", state.lang);
  header();
  if (state.screen === "knights") knightsLanguageChanged();
  else if (state.screen === "game" && state.gameId) refreshGame();
  else if (state.screen === "replay" && state.view) openReplay(state.gameId, state.view.replay.move);
  else openLobby();
}

// --------------------------------------------------------------------- lobby

async function openLobby() {
  state.screen = "lobby";
  state.gameId = null;
  state.view = null;
  header();
  main.innerHTML = "";
  const form = newGameForm();
  const list = h("section", { class: "panel games", id: "games" });
  const importBox = importForm();
  main.append(h("div", { class: "lobby" }, form, h("div", { class: "lobby-right" }, list, importBox)));
  main.append(h("div", { class: "lobby knights-lobby" }, ...knightsLobby(openLobby)));
  try {
    const games = await api("GET", "/api/games");
    renderGameList(list, games);
  } catch (err) {
    list.append(h("p", { class: "error" }, err.message));
  }
}

function radio(name, value, label, checked) {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), " ", label);
}

function newGameForm() {
  const saved = JSON.parse(localStorage.getItem("zamek-new-game") || "{}");
  const opt = (key, fallback) => (saved[key] !== undefined ? saved[key] : fallback);
  const levels = ["beginner", "easy", "medium", "hard"];
  const form = h(
    "form",
    { class: "panel new-game", id: "new-game" },
    h("h2", {}, t("newGame")),
    h("fieldset", {}, h("legend", {}, t("opponent")),
      radio("mode", "computer", t("vsComputer"), opt("mode", "computer") === "computer"),
      radio("mode", "hotseat", t("hotseat"), opt("mode", "computer") === "hotseat")),
    h("fieldset", { class: "computer-only" }, h("legend", {}, t("level")),
      levels.map((l) => radio("level", l, t("level-" + l), opt("level", "beginner") === l))),
    h("fieldset", { class: "computer-only" }, h("legend", {}, t("seat")),
      ["first", "second", "random"].map((s) => radio("seat", s, t("seat-" + s), opt("seat", "first") === s))),
    h("fieldset", {}, h("legend", {}, t("edition")),
      ["zamek", "castle2003"].map((e) => radio("edition", e, t("edition-" + e), opt("edition", "zamek") === e)),
      h("label", { class: "choice" }, h("input", { type: "checkbox", name: "sokol", checked: opt("sokol", false) }), " ", t("sokol")),
      h("label", { class: "choice" }, h("input", { type: "checkbox", name: "gate_guard", checked: opt("gate_guard", false) }), " ", t("gateGuard"))),
    h("p", { class: "error", id: "error", hidden: true, role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "start-game" }, t("start")),
  );
  const sync = () => {
    const data = new FormData(form);
    form.querySelectorAll(".computer-only").forEach((f) => (f.hidden = data.get("mode") !== "computer"));
    const gate = form.querySelector("input[name=gate_guard]");
    gate.disabled = !data.get("sokol");
    if (gate.disabled) gate.checked = false;
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const body = {
      mode: data.get("mode"),
      level: data.get("level") || "beginner",
      seat: data.get("seat") || "first",
      edition: data.get("edition"),
      sokol: data.get("sokol") === "on",
      gate_guard: data.get("gate_guard") === "on",
    };
    localStorage.setItem("zamek-new-game", JSON.stringify(body));
    try {
      const view = await api("POST", withLang("/api/games"), body);
      location.hash = `#/game/${view.id}`;
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

function describeGame(g) {
  const who = g.mode === "computer" ? `${t("vsComputer")} (${t("level-" + g.level)})` : t("hotseat");
  const rules = [t("edition-" + g.edition)];
  if (g.sokol) rules.push("Sokół");
  if (g.gate_guard) rules.push("🛡");
  return { who, rules: rules.join(" + ") };
}

function renderGameList(container, games) {
  container.innerHTML = "";
  const groups = [["playing", t("inProgress")], ["over", t("finished")]];
  for (const [status, title] of groups) {
    const mine = games.filter((g) => g.status === status);
    container.append(h("h2", {}, title));
    if (!mine.length) {
      container.append(h("p", { class: "muted" }, t("noGames")));
      continue;
    }
    const ul = h("ul", { class: "game-list", "data-status": status });
    for (const g of mine) {
      const d = describeGame(g);
      const when = new Date(g.updated_at).toLocaleString(state.lang === "pl" ? "pl-PL" : "en-GB", { dateStyle: "short", timeStyle: "short" });
      ul.append(h("li", { class: "game-item", "data-id": g.id },
        h("div", { class: "game-info" },
          h("span", { class: "score-pair" },
            h("span", { class: "dot p0" }), g.scores[0], " : ", g.scores[1], h("span", { class: "dot p1" })),
          h("span", {}, d.who), h("span", { class: "muted" }, `${d.rules} · ${t("turn", { n: g.turn })} · ${when}`)),
        h("div", { class: "game-actions" },
          status === "playing" ? h("a", { class: "button primary", href: `#/game/${g.id}` }, t("resume")) : null,
          h("a", { class: "button", href: `#/replay/${g.id}/` }, t("replay")),
          h("a", { class: "button", href: `/api/games/${g.id}/record`, download: `zamek-${g.id}.json` }, t("export")),
          h("button", { type: "button", class: "danger", onclick: async () => {
            if (!confirm(t("confirmDelete"))) return;
            await api("DELETE", `/api/games/${g.id}`);
            openLobby();
          } }, t("delete")))));
    }
    container.append(ul);
  }
}

function importForm() {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "import-file" });
  const message = h("p", { class: "error", hidden: true, role: "alert", id: "import-error" });
  const form = h("form", { class: "panel import" }, h("h2", {}, t("importTitle")), h("p", { class: "muted" }, t("importHint")),
    input, h("button", { type: "submit" }, t("importButton")), message);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.hidden = true;
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const view = await api("POST", withLang("/api/import"), await file.text());
      location.hash = view.over ? `#/replay/${view.id}/` : `#/game/${view.id}`;
    } catch (err) {
      message.textContent = err.message;
      message.hidden = false;
    }
  });
  return form;
}

// ---------------------------------------------------------------------- game

function gameLayout(replay) {
  main.innerHTML = "";
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "board";
  const layout = h("div", { class: replay ? "game replay" : "game" },
    h("section", { class: "board-wrap" }, h("div", { class: "game-title", id: "game-title" }), svg),
    h("aside", { class: "side" },
      h("section", { class: "panel turn", id: "turn", "aria-live": "polite" }),
      h("section", { class: "panel players", id: "players" }),
      h("section", { class: "panel recent", id: "recent" }),
      h("details", { class: "panel log", id: "log", open: true }, h("summary", {}, t("scores")), h("ol", { id: "log-list" })),
      h("details", { class: "panel remaining", id: "remaining" }, h("summary", { id: "remaining-title" }), h("div", { class: "tile-grid", id: "remaining-grid" })),
      h("details", { class: "panel legend", id: "legend" }, h("summary", {}, t("legend")), h("div", { id: "legend-body" })),
      h("p", { class: "muted keys" }, t("keyboard"))));
  main.append(layout);
  return svg;
}

async function openGame(id) {
  state.screen = "game";
  state.gameId = id;
  state.view = null;
  state.boardFor = null;
  header();
  await refreshGame();
}

async function refreshGame() {
  try {
    const view = await api("GET", withLang(`/api/games/${state.gameId}`));
    await showGame(view);
  } catch (err) {
    if (err.status === 404) {
      main.innerHTML = "";
      main.append(h("p", { class: "panel error" }, t("gameMissing")));
    } else showError(err.message);
  }
}

async function showGame(view) {
  if (state.screen !== "game" || view.id !== state.gameId) return;
  const shown = state.view;
  if (shown && shown.id === view.id && shown.lang === view.lang && view.revision < shown.revision) return; // an answer overtaken by a newer one
  const geo = await geometryFor(view);
  if (state.boardFor !== view.id || !document.getElementById("board")) {
    const svg = gameLayout(false);
    state.board = new Board(svg, geo);
    state.board.handlers = { place: placeAt, figure: (action) => send(action) };
    state.boardFor = view.id;
  }
  state.view = view;
  document.body.dataset.revision = String(view.revision);
  document.body.dataset.phase = view.over ? "over" : view.phase;
  if (view.drawn && state.rotationFor !== `${view.id}:${view.moves_count}:${view.drawn.id}`) {
    // A new tile: start at the first rotation that fits somewhere.
    const rotations = new Set(view.drawn.options.map((o) => o[2]));
    state.rotation = [0, 1, 2, 3].find((r) => rotations.has(r)) ?? 0;
    state.rotationFor = `${view.id}:${view.moves_count}:${view.drawn.id}`;
  }
  renderGame();
  stopPolling();
  if (view.thinking) state.poll = setTimeout(pollGame, 300);
}

async function pollGame() {
  state.poll = null;
  if (state.screen !== "game" || !state.view) return;
  try {
    const status = await api("GET", `/api/games/${state.gameId}/status`);
    if (status.revision !== state.view.revision || !status.thinking) await refreshGame();
    else state.poll = setTimeout(pollGame, 300);
  } catch (err) {
    showError(err.message);
    state.poll = setTimeout(pollGame, 1500);
  }
}

function renderGame() {
  const view = state.view;
  const placing = view.human_to_act && view.phase === "place" && !state.busy;
  const figureChoices = view.human_to_act && view.phase === "follower" ? view.choices.filter((c) => c.type === "figure" && c.piece === "follower") : [];
  state.board.render(view, { placing, rotation: state.rotation, figureChoices });
  renderTitle(view);
  renderTurnPanel(view);
  renderPlayers(view);
  renderRecent(view);
  renderLog(view);
  renderRemaining(view);
  renderLegend(view);
}

function renderTitle(view) {
  const title = document.getElementById("game-title");
  const rules = describeGame({ ...view, edition: view.edition }).rules;
  title.innerHTML = "";
  title.append(
    h("span", { class: "names" }, h("span", { class: "dot p0" }), playerName(view, 0), ` ${t("vs")} `, h("span", { class: "dot p1" }), playerName(view, 1)),
    h("span", { class: "muted" }, ` · ${rules} · ${t("turn", { n: view.turn })}`),
  );
}

function tileSvg(tileId, sokol, rotation = 0, size = 120, cls = "tile-svg") {
  const tile = state.tileDefs.get(sokol).find((x) => x.id === tileId);
  const svg = svgEl("svg", { viewBox: "-0.02 -0.02 1.04 1.04", width: size, height: size, class: cls, role: "img", "aria-label": tileId });
  const g = svgEl("g", { transform: `rotate(${90 * rotation},0.5,0.5)` }, svg);
  drawTile(g, tile);
  return svg;
}

function renderTurnPanel(view) {
  const panel = document.getElementById("turn");
  panel.innerHTML = "";
  const who = playerName(view, view.current);
  const err = h("p", { class: "error", id: "error", role: "alert", hidden: !state.error }, state.error || "");
  if (view.over) {
    renderGameOver(panel, view);
    panel.append(err);
    return;
  }
  const head = h("div", { class: "turn-head" }, h("span", { class: `dot p${view.current}` }), h("strong", {}, t("toMove", { who })));
  panel.append(head);
  if (view.bot_error) panel.append(h("p", { class: "error" }, view.bot_error));
  if (view.thinking) {
    panel.append(h("p", { class: "thinking", id: "thinking" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("thinking")));
  } else if (view.phase === "draw" && view.mode === "hotseat") {
    panel.append(h("p", {}, t("drawPrompt", { who })),
      h("button", { class: "primary", id: "draw", type: "button", onclick: drawTileAction }, t("draw")));
  } else if (view.human_to_act) {
    if (view.phase === "place" && view.drawn) {
      panel.append(h("p", {}, t("placePrompt", { tile: view.drawn.id })));
      const rotated = tileSvg(view.drawn.id, view.sokol, state.rotation, 132, "tile-svg drawn");
      rotated.id = "drawn-tile";
      panel.append(h("div", { class: "drawn-row" },
        h("button", { type: "button", class: "rotate", id: "rotate-left", "aria-label": t("rotateLeft"), title: t("rotateLeft"), onclick: () => rotate(-1) }, "⟲"),
        rotated,
        h("button", { type: "button", class: "rotate", id: "rotate-right", "aria-label": t("rotateRight"), title: t("rotateRight"), onclick: () => rotate(1) }, "⟳")),
        h("p", { class: "muted small" }, `${90 * state.rotation}° · ${t("rotateHint")}`));
    } else if (view.phase === "follower") {
      panel.append(h("p", {}, t("figurePrompt")));
      // One row per feature: the follower with the feature's name, then the Sokół figures as icon buttons.
      const list = h("div", { class: "choices" });
      const groups = new Map();
      for (const c of view.choices) {
        const key = c.type === "pass" ? "pass" : c.feature;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(c);
      }
      const firstLabels = [...groups.values()].filter((g) => g[0].type !== "pass").map((g) => g[0].role + g[0].kind);
      for (const group of groups.values()) {
        const c = group[0];
        if (c.type === "pass") {
          list.append(h("button", { type: "button", class: "choice-button pass", "data-action": c.action, onclick: () => send(c.action) }, t("pass")));
          continue;
        }
        const twin = firstLabels.filter((l) => l === c.role + c.kind).length > 1;
        const where = twin ? ` (${c.sides.map((k) => t("side-" + k)).join(", ")})` : "";
        const hover = {
          onmouseenter: () => (state.board.highlightCells(c.cells), state.board.showFeature(c.feature, true)),
          onmouseleave: () => (state.board.clearHighlight(), state.board.showFeature(c.feature, false)),
          onfocus: () => state.board.showFeature(c.feature, true),
          onblur: () => state.board.showFeature(c.feature, false),
        };
        const row = h("div", { class: "choice-row" });
        for (const option of group) {
          const main = option === group[0];
          row.append(h("button", {
            type: "button", class: main ? "choice-button" : "choice-button piece", "data-action": option.action,
            title: option.label + where, "aria-label": option.label + where, onclick: () => send(option.action), ...hover,
          }, figureIcon(view.current, option.piece), main ? `${option.piece === "follower" ? option.label : option.label}${where}` : null));
        }
        list.append(row);
      }
      panel.append(list);
    } else if (view.phase === "order") {
      panel.append(h("p", {}, t("orderPrompt")));
      panel.append(choiceButtons(view.choices, (c) => c.label));
    } else if (view.phase === "double") {
      const feature = view.choices[0] ? view.choices[0].feature : "";
      panel.append(h("p", {}, t("doublePrompt", { feature })));
      panel.append(choiceButtons(view.choices, (c) => (c.type === "use" ? t("use", { token: c.label }) : t("keep"))));
    } else if (view.phase === "extra_turn") {
      panel.append(h("p", {}, t("extraPrompt")));
      panel.append(choiceButtons(view.choices, (c) => (c.type === "use" ? t("use", { token: c.label }) : t("keep"))));
    }
  }
  const tools = h("div", { class: "tools" });
  if (view.can_undo) tools.append(h("button", { type: "button", id: "undo", onclick: undo, title: "U" }, "↶ ", t("undo")));
  tools.append(h("a", { class: "button", href: `#/replay/${view.id}/`, id: "to-replay" }, t("replay")),
    h("a", { class: "button", href: `/api/games/${view.id}/record`, download: `zamek-${view.id}.json` }, t("export")));
  panel.append(tools, err);
}

function figureIcon(player, piece) {
  const svg = svgEl("svg", { viewBox: "-0.5 -0.8 1 1.3", width: 18, height: 22, class: "figure-icon", "aria-hidden": "true" });
  drawFigure(svg, [0, 0], player, { piece, size: 1 });
  return svg;
}

function choiceButtons(choices, label) {
  const list = h("div", { class: "choices" });
  for (const c of choices) {
    list.append(h("button", {
      type: "button", class: "choice-button", "data-action": c.action, onclick: () => send(c.action),
      onmouseenter: () => c.cells && state.board.highlightCells(c.cells),
      onmouseleave: () => state.board.clearHighlight(),
    }, label(c)));
  }
  return list;
}

function renderGameOver(panel, view) {
  const winners = view.result.winners;
  let headline;
  if (winners.length === 2) headline = t("shared");
  else if (view.mode === "computer") headline = winners[0] === view.human ? t("youWin") : t("computerWins");
  else headline = t("wins", { who: playerName(view, winners[0]) });
  panel.append(h("h2", { id: "game-over" }, t("gameOver"), ": ", headline));
  panel.append(h("p", { class: "final-scores" },
    [0, 1].map((p) => h("span", { class: "final-score" }, h("span", { class: `dot p${p}` }), `${playerName(view, p)}: `, h("strong", {}, view.players[p].score)))));
  const finals = view.log.filter((i) => i.final);
  const table = h("table", { class: "breakdown" }, h("caption", {}, t("final")),
    h("tbody", {}, finals.map((i) => h("tr", { onmouseenter: () => state.board.highlightCells(i.cells), onmouseleave: () => state.board.clearHighlight() },
      h("td", {}, i.player === null ? "" : h("span", { class: `dot p${i.player}` })), h("td", {}, i.line), h("td", { class: "num" }, i.points)))));
  const during = [0, 1].map((p) => view.log.filter((i) => !i.final && i.player === p).reduce((a, i) => a + i.points, 0));
  const finalPts = [0, 1].map((p) => finals.filter((i) => i.player === p).reduce((a, i) => a + i.points, 0));
  const sums = h("table", { class: "totals" }, h("tbody", {},
    [0, 1].map((p) => h("tr", {}, h("td", {}, h("span", { class: `dot p${p}` }), playerName(view, p)),
      h("td", { class: "num" }, `${during[p]} + ${finalPts[p]} = `), h("td", { class: "num" }, h("strong", {}, view.players[p].score))))));
  const chart = h("div", { class: "chart-wrap", id: "chart" });
  panel.append(table, sums, h("h3", {}, t("chart")), chart);
  drawChart(chart, view.log, view.turn, [playerName(view, 0), playerName(view, 1)], t("final"));
  panel.append(h("div", { class: "tools" },
    h("a", { class: "button primary", href: `#/replay/${view.id}/` }, t("replay")),
    h("a", { class: "button", href: `/api/games/${view.id}/record`, download: `zamek-${view.id}.json` }, t("export")),
    h("a", { class: "button", href: "#/" }, t("toLobby"))));
}

function renderPlayers(view) {
  const panel = document.getElementById("players");
  panel.innerHTML = "";
  view.players.forEach((p, i) => {
    const stats = h("div", { class: "stats" },
      h("span", { class: "stat", title: view.terms.follower }, figureIcon(i, "follower"), `× ${p.supply}`));
    if (view.sokol) {
      stats.append(h("span", { class: "stat", title: view.terms.prince }, figureIcon(i, "prince"), `× ${p.princes}`),
        h("span", { class: "stat", title: view.terms.falconer }, figureIcon(i, "falconer"), `× ${p.falconers}`),
        h("span", { class: "stat" }, `${t("nests")}: ${p.nests}`));
    }
    const family = h("span", {
      class: "stat family", tabindex: p.family_size ? 0 : -1,
      onmouseenter: () => state.board.highlightCells(p.family_cells, "family"),
      onmouseleave: () => state.board.clearHighlight(),
      onfocus: () => state.board.highlightCells(p.family_cells, "family"),
      onblur: () => state.board.clearHighlight(),
    }, `${view.terms["family-house"]}: ${p.family_size}`);
    stats.append(family);
    const tokens = h("div", { class: "tokens" },
      p.tokens.length ? p.tokens.map((tk) => h("span", { class: tk.usable ? "token" : "token later", title: tk.usable ? tk.name : `${tk.name} — ${t("usableLater")}` }, h("b", {}, tk.number), " ", tk.name.replace(/^.*\((.*)\)$/, "$1")))
        : h("span", { class: "muted" }, t("noTokens")));
    panel.append(h("div", { class: `player p${i}${view.current === i && !view.over ? " current" : ""}`, "data-player": i },
      h("div", { class: "player-head" }, h("span", { class: `dot p${i}` }), h("span", { class: "name" }, playerName(view, i)),
        h("span", { class: "score", "data-score": p.score }, p.score)),
      stats, tokens));
  });
}

function renderRecent(view) {
  const panel = document.getElementById("recent");
  panel.innerHTML = "";
  const moves = view.recent.filter((m) => !m.text.startsWith("draw")).slice(-5);
  if (!moves.length) return;
  panel.append(h("h3", {}, t("lastMoves")), h("ul", { class: "recent-list" },
    moves.map((m) => h("li", {}, m.player !== null ? h("span", { class: `dot p${m.player}` }) : null, m.words))));
}

function renderLog(view) {
  const list = document.getElementById("log-list");
  list.innerHTML = "";
  const items = view.log.slice().reverse();
  if (!items.length) list.append(h("li", { class: "muted" }, t("noScores")));
  for (const item of items) {
    const li = h("li", {
      tabindex: 0, class: item.final ? "final" : "",
      onmouseenter: () => state.board.highlightCells(item.cells),
      onmouseleave: () => state.board.clearHighlight(),
      onfocus: () => state.board.highlightCells(item.cells),
      onblur: () => state.board.clearHighlight(),
    },
    h("span", { class: "turn-no" }, item.final ? "★" : `#${item.turn}`),
    item.player !== null ? h("span", { class: `dot p${item.player}` }) : h("span", { class: "dot none" }),
    h("span", { class: "line" }, item.line),
    h("span", { class: "pts" }, item.points ? `+${item.points}` : "0"));
    list.append(li);
  }
}

function renderRemaining(view) {
  document.getElementById("remaining-title").textContent = t("remaining", { n: view.remaining.length });
  const grid = document.getElementById("remaining-grid");
  const details = document.getElementById("remaining");
  const fill = () => {
    grid.innerHTML = "";
    for (const id of view.remaining) grid.append(h("span", { class: "mini", title: id }, tileSvg(id, view.sokol, 0, 40, "tile-svg mini")));
    if (view.discarded.length) grid.append(h("p", { class: "muted" }, `${t("discarded")}: ${view.discarded.join(", ")}`));
  };
  grid.innerHTML = "";
  if (details.open) fill();
  details.ontoggle = () => details.open && fill();
}

function legendSwatch(draw) {
  const svg = svgEl("svg", { viewBox: "0 0 1 1", width: 26, height: 26, class: "swatch", "aria-hidden": "true" });
  draw(svg);
  return svg;
}

function renderLegend(view) {
  const body = document.getElementById("legend-body");
  body.innerHTML = "";
  const w = view.terms;
  const fakeTile = (features, fountain = false) => ({ id: "", fountain, features });
  const entries = [
    [w.road, (s) => drawTile(s, fakeTile([{ kind: "road", segments: [1, 7] }, { kind: "meadow", segments: [2, 3, 4, 5, 6] }, { kind: "meadow", segments: [8, 9, 10, 11, 0] }]), { extras: false })],
    [w.house, (s) => drawTile(s, fakeTile([{ kind: "house", segments: [0, 1, 2] }, { kind: "meadow", segments: [3, 4, 5, 6, 7, 8, 9, 10, 11] }]))],
    [w.pigsty, (s) => drawTile(s, fakeTile([{ kind: "pigsty", segments: [0, 1, 2] }, { kind: "meadow", segments: [3, 4, 5, 6, 7, 8, 9, 10, 11] }]))],
    [w.meadow, (s) => drawTile(s, fakeTile([{ kind: "meadow", segments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }]))],
    [w.shrine, (s) => drawTile(s, fakeTile([{ kind: "meadow", segments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], shrines: 1 }]))],
    [w.stocks, (s) => drawTile(s, fakeTile([{ kind: "road", segments: [1, 7], stocks: 1 }, { kind: "meadow", segments: [2, 3, 4, 5, 6] }, { kind: "meadow", segments: [8, 9, 10, 11, 0] }]))],
    [w.fountain, (s) => drawTile(s, fakeTile([{ kind: "road", segments: [1] }, { kind: "road", segments: [4] }, { kind: "road", segments: [7] }, { kind: "meadow", segments: [2, 3] }, { kind: "meadow", segments: [5, 6] }, { kind: "meadow", segments: [8, 9, 10, 11, 0] }], true))],
  ];
  if (view.sokol) {
    entries.push([w.chapel, (s) => drawTile(s, fakeTile([{ kind: "chapel", segments: [0, 1, 2] }, { kind: "meadow", segments: [3, 4, 5, 6, 7, 8, 9, 10, 11] }]))]);
    entries.push([w.nest, (s) => drawTile(s, fakeTile([{ kind: "house", segments: [0, 1, 2], nests: 1 }, { kind: "meadow", segments: [3, 4, 5, 6, 7, 8, 9, 10, 11] }]))]);
  }
  const roles = [["herald", w.road], ["squire", w.house], ["farmer", w.pigsty], ["monk", w.meadow]];
  if (view.sokol) roles.push(["preacher", w.chapel]);
  body.append(h("ul", { class: "legend-list" }, entries.map(([name, draw]) => h("li", {}, legendSwatch(draw), name))));
  body.append(h("ul", { class: "legend-list roles" }, roles.map(([role, kind]) => h("li", {}, figureIcon(view.current, role === "monk" ? "follower" : "follower"), `${w[role]} — ${kind}`))));
  if (view.sokol) {
    body.append(h("ul", { class: "legend-list roles" },
      h("li", {}, figureIcon(0, "prince"), w.prince), h("li", {}, figureIcon(0, "falconer"), w.falconer)));
  }
}

// ------------------------------------------------------------------ actions

function rotate(delta) {
  state.rotation = (state.rotation + delta + 4) % 4;
  renderGame();
  const again = document.getElementById(delta > 0 ? "rotate-right" : "rotate-left");
  if (again && document.activeElement === document.body) again.focus();
}

function placeAt(x, y) {
  const view = state.view;
  if (!view || !view.drawn) return;
  const rotations = view.drawn.options.filter((o) => o[0] === x && o[1] === y).map((o) => o[2]);
  if (!rotations.length) return;
  if (!rotations.includes(state.rotation)) {
    // A faint space: turn the tile so that it fits there; the next click places it.
    state.rotation = rotations[0];
    renderGame();
    state.board.preview(x, y);
    return;
  }
  send(`${String.fromCharCode(97 + x)}${y + 1}/${90 * state.rotation}`);
}

async function send(action) {
  if (state.busy) return;
  state.busy = true;
  showError(null);
  try {
    const view = await api("POST", withLang(`/api/games/${state.gameId}/actions`), { action, revision: state.view.revision });
    state.busy = false;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    if (err.status === 409) await refreshGame();
    else renderGame();
  }
}

async function drawTileAction() {
  if (state.busy) return;
  state.busy = true;
  try {
    const view = await api("POST", withLang(`/api/games/${state.gameId}/draw`), { revision: state.view.revision });
    state.busy = false;
    state.error = null;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    showError(err.message);
  }
}

async function undo() {
  if (state.busy) return;
  state.busy = true;
  try {
    const view = await api("POST", withLang(`/api/games/${state.gameId}/undo`), {});
    state.busy = false;
    state.error = null;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    await refreshGame();
  }
}

// -------------------------------------------------------------------- replay

async function openReplay(id, move) {
  state.screen = "replay";
  state.gameId = id;
  header();
  const seq = (state.replaySeq = (state.replaySeq || 0) + 1);
  let view;
  try {
    view = await api("GET", withLang(`/api/games/${id}/replay${move === null ? "" : `?move=${move}`}`));
    if (seq !== state.replaySeq || state.screen !== "replay") return; // a later step was asked for meanwhile
  } catch (err) {
    main.innerHTML = "";
    main.append(h("p", { class: "panel error" }, err.status === 404 ? t("gameMissing") : err.message));
    return;
  }
  const geo = await geometryFor(view);
  if (state.boardFor !== `replay:${id}` || !document.getElementById("board")) {
    const svg = gameLayout(true);
    state.board = new Board(svg, geo);
    state.boardFor = `replay:${id}`;
  }
  state.view = view;
  state.replayMove = view.replay.move;
  state.board.render(view, {});
  renderTitle(view);
  renderReplayPanel(view);
  renderPlayers(view);
  renderRecent(view);
  renderLog(view);
  renderRemaining(view);
  renderLegend(view);
}

function gotoMove(n) {
  const total = state.view.replay.total;
  n = Math.max(0, Math.min(total, n));
  state.replayMove = n;
  history.replaceState(null, "", `#/replay/${state.gameId}/${n}`);
  openReplay(state.gameId, n);
}

function renderReplayPanel(view) {
  const panel = document.getElementById("turn");
  panel.innerHTML = "";
  const { move, total, moves } = view.replay;
  const slider = h("input", { type: "range", min: 0, max: total, value: move, id: "replay-slider", "aria-label": t("replayTitle") });
  slider.addEventListener("input", () => gotoMove(Number(slider.value)));
  panel.append(
    h("h2", {}, t("replayTitle")),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", id: "replay-first", onclick: () => gotoMove(0), title: t("first"), "aria-label": t("first") }, "«"),
      h("button", { type: "button", id: "replay-prev", onclick: () => gotoMove(state.replayMove - 1), title: t("prev"), "aria-label": t("prev") }, "‹"),
      h("button", { type: "button", id: "replay-next", onclick: () => gotoMove(state.replayMove + 1), title: t("next"), "aria-label": t("next") }, "›"),
      h("button", { type: "button", id: "replay-last", onclick: () => gotoMove(total), title: t("last"), "aria-label": t("last") }, "»")),
    slider,
    h("p", { id: "replay-position" }, t("moveOf", { n: move, total })),
  );
  if (view.drawn) panel.append(h("div", { class: "drawn-row" }, tileSvg(view.drawn.id, view.sokol, 0, 72)));
  const list = h("ol", { class: "move-list", id: "move-list" },
    h("li", { class: move === 0 ? "current" : "", onclick: () => gotoMove(0) }, t("startPosition")),
    moves.map((m) => h("li", { class: `${m.n === move ? "current" : ""}${m.chance ? " chance" : ""}`, "data-n": m.n, onclick: () => gotoMove(m.n) },
      m.player !== null && !m.chance ? h("span", { class: `dot p${m.player}` }) : null, m.words)));
  panel.append(list);
  const tools = h("div", { class: "tools" });
  tools.append(h("a", { class: "button", href: `/api/games/${view.id}/record`, download: `zamek-${view.id}.json` }, t("export")));
  tools.append(h("a", { class: "button", href: `#/game/${view.id}`, id: "back-to-game" }, t("backToGame")));
  panel.append(tools);
  const current = list.querySelector(".current");
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
}

// ---------------------------------------------------------------- keyboard

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const view = state.view;
  if (state.screen === "game" && view) {
    const placing = view.human_to_act && view.phase === "place";
    if (placing && (ev.key === "r" || ev.key === "ArrowRight")) {
      ev.preventDefault();
      rotate(1);
    } else if (placing && (ev.key === "R" || ev.key === "ArrowLeft")) {
      ev.preventDefault();
      rotate(-1);
    } else if ((ev.key === "u" || ev.key === "U") && view.can_undo) {
      ev.preventDefault();
      undo();
    }
  } else if (state.screen === "replay" && view && view.replay) {
    if (ev.target instanceof HTMLInputElement) return;
    const n = state.replayMove;
    if (ev.key === "ArrowRight") gotoMove(n + 1);
    else if (ev.key === "ArrowLeft") gotoMove(n - 1);
    else if (ev.key === "Home") gotoMove(0);
    else if (ev.key === "End") gotoMove(view.replay.total);
  }
});

window.addEventListener("hashchange", route);
route();
