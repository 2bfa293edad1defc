// The game screen: the board, the prompts of a turn (place the tile, put a figure, answer a question about
// scoring), undo, the computer's thinking (polled), and the end of the game.

import { games } from "./api.js";
import { Board } from "./board.js";
import { drawChart } from "./chart.js";
import { gameLayout, highlightOn, renderSidePanels } from "./panels.js";
import { figureIcon, geometryFor, h, main, playerName, showError, state, stopPolling, t, tileSvg } from "./ui.js";

export async function openGame(id) {
  state.screen = "game";
  state.gameId = id;
  state.view = null;
  state.boardFor = null;
  await refreshGame();
}

export async function refreshGame() {
  try {
    await showGame(await games.get(state.gameId, state.lang));
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
    state.board.handlers = { place: placeOn, figure: (action) => send(action) };
    state.boardFor = view.id;
  }
  state.view = view;
  document.body.dataset.revision = String(view.revision);
  document.body.dataset.phase = view.over ? "over" : view.phase;
  const drawnKey = view.drawn ? `${view.id}:${view.moves_count}:${view.drawn.id}` : null;
  if (view.drawn && state.rotationFor !== drawnKey) {
    // A new tile: start at the first rotation that fits somewhere.
    const rotations = new Set(view.drawn.places.map((p) => p.rotation));
    state.rotation = [0, 1, 2, 3].find((r) => rotations.has(r)) ?? 0;
    state.rotationFor = drawnKey;
  }
  renderGame();
  stopPolling();
  if (view.thinking) state.poll = setTimeout(pollGame, 300);
}

async function pollGame() {
  state.poll = null;
  if (state.screen !== "game" || !state.view) return;
  try {
    const status = await games.status(state.gameId);
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
  renderTurnPanel(view);
  renderSidePanels(view);
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
      panel.append(h("p", {}, t("figurePrompt")), figureChoiceRows(view));
    } else if (view.phase === "order") {
      panel.append(h("p", {}, t("orderPrompt")));
      panel.append(choiceButtons(view.choices, (c) => c.label));
    } else if (view.phase === "double") {
      const feature = view.choices[0] ? view.choices[0].feature_words : "";
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
    h("a", { class: "button", href: games.recordUrl(view.id), download: `zamek-${view.id}.json` }, t("export")));
  panel.append(tools, err);
}

// One row per feature of the tile just placed (its part): the follower with the feature's name, then the Sokół
// figures as icon buttons; "No figure" last.
function figureChoiceRows(view) {
  const list = h("div", { class: "choices" });
  const groups = new Map();
  for (const c of view.choices) {
    const key = c.type === "pass" ? "pass" : c.part;
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
      onmouseenter: () => (state.board.highlightSpaces(c.feature.spaces), state.board.showFeature(c.part, true)),
      onmouseleave: () => (state.board.clearHighlight(), state.board.showFeature(c.part, false)),
      onfocus: () => state.board.showFeature(c.part, true),
      onblur: () => state.board.showFeature(c.part, false),
    };
    const row = h("div", { class: "choice-row" });
    for (const option of group) {
      const first = option === group[0];
      row.append(h("button", {
        type: "button", class: first ? "choice-button" : "choice-button piece", "data-action": option.action,
        title: option.label + where, "aria-label": option.label + where, onclick: () => send(option.action), ...hover,
      }, figureIcon(view.current, option.piece), first ? `${option.label}${where}` : null));
    }
    list.append(row);
  }
  return list;
}

function choiceButtons(choices, label) {
  const list = h("div", { class: "choices" });
  for (const c of choices) {
    list.append(h("button", {
      type: "button", class: "choice-button", "data-action": c.action, onclick: () => send(c.action),
      onmouseenter: () => c.feature && state.board.highlightSpaces(c.feature.spaces),
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
    h("tbody", {}, finals.map((i) => h("tr", highlightOn(i.spaces),
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
    h("a", { class: "button", href: games.recordUrl(view.id), download: `zamek-${view.id}.json` }, t("export")),
    h("a", { class: "button", href: "#/" }, t("toLobby"))));
}

// ------------------------------------------------------------------ actions

function rotate(delta) {
  state.rotation = (state.rotation + delta + 4) % 4;
  renderGame();
  const again = document.getElementById(delta > 0 ? "rotate-right" : "rotate-left");
  if (again && document.activeElement === document.body) again.focus();
}

// A click on a highlighted space: the legal placement there as the tile is turned (a Place action from the view).
function placeOn(space) {
  const view = state.view;
  if (!view || !view.drawn) return;
  const places = view.drawn.places.filter((p) => p.space === space);
  if (!places.length) return;
  const place = places.find((p) => p.rotation === state.rotation);
  if (!place) {
    // A faint space: turn the tile so that it fits there; the next click places it.
    state.rotation = places[0].rotation;
    renderGame();
    state.board.preview(space);
    return;
  }
  send(place.action);
}

async function send(action) {
  if (state.busy) return;
  state.busy = true;
  showError(null);
  try {
    const view = await games.act(state.gameId, action, state.view.revision, state.lang);
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
    const view = await games.draw(state.gameId, state.view.revision, state.lang);
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
    const view = await games.undo(state.gameId, state.lang);
    state.busy = false;
    state.error = null;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    await refreshGame();
  }
}

// The game's keys: R / → and Shift+R / ← turn the tile, U undoes.
export function gameKey(ev) {
  const view = state.view;
  if (!view) return;
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
}
