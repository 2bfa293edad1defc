// The replay screen: any game, finished or not, move by move (first, previous, next, last, a slider, the list of
// moves in words, and the keys ← → Home End); a finished game's analysis beside it (analysis.js).

import { analyse, analyseButton, drawDecisionMoves, renderAnalysis } from "./analysis.js";
import { games } from "./api.js";
import { Board } from "./board.js";
import { icon } from "./icons.js";
import { gameLayout, renderSidePanels } from "./panels.js";
import { geometryFor, h, lineText, main, state, t, tileSvg } from "./ui.js";

export async function openReplay(id, move) {
  state.screen = "replay";
  state.gameId = id;
  const seq = (state.replaySeq += 1);
  let view;
  try {
    view = await games.replay(id, move, state.lang);
    if (seq !== state.replaySeq || state.screen !== "replay") return; // a later step was asked for meanwhile
  } catch (err) {
    main.innerHTML = "";
    main.append(h("p", { class: "panel error" }, err.status === 404 ? t("page.error.game-missing") : err.message));
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
  renderReplayPanel(view);
  renderSidePanels(view);
  const redraw = () => openReplay(id, state.replayMove);
  if (state.openAnalysis === id) { // the Analyse button of the game's end brought us here
    state.openAnalysis = null;
    analyse(view, redraw);
  } else renderAnalysis(view, redraw, (d) => gotoMove(d.index));
  drawDecisionMoves(view);
}

// A turn begins with its tile drawn: the positions right after each draw.
function turnStarts(view) {
  return view.replay.moves.filter((m) => m.kind === "draw").map((m) => m.n);
}

function gotoTurn(view, direction) {
  const starts = turnStarts(view);
  const here = state.replayMove;
  const target = direction > 0
    ? (starts.find((n) => n > here) ?? view.replay.total)
    : ([...starts].reverse().find((n) => n < here) ?? 0);
  gotoMove(target);
}

// Playing by itself: a move every moment, until the end, another button, a key, or leaving the replay.
export function stopReplayPlay() {
  if (state.replayTimer) clearInterval(state.replayTimer);
  state.replayTimer = null;
  playButtonShows(false);
}

// The play button: a triangle to play, two bars to pause, named for what it does.
function playButtonShows(playing) {
  const button = document.getElementById("replay-play");
  if (!button) return;
  const name = t(playing ? "page.replay.pause" : "page.replay.play");
  button.replaceChildren(icon(playing ? "pause" : "play"));
  button.title = name;
  button.setAttribute("aria-label", name);
}

function togglePlay() {
  if (state.replayTimer) {
    stopReplayPlay();
    return;
  }
  if (state.replayMove >= state.view.replay.total) gotoMove(0);
  state.replayTimer = setInterval(() => {
    if (state.screen !== "replay" || !state.view || state.replayMove >= state.view.replay.total) {
      stopReplayPlay();
      return;
    }
    gotoMove(state.replayMove + 1, true);
  }, 700);
  playButtonShows(true);
}

function gotoMove(n, playing = false) {
  if (!playing) stopReplayPlay();
  const total = state.view.replay.total;
  n = Math.max(0, Math.min(total, n));
  state.replayMove = n;
  history.replaceState(null, "", `#/replay/${state.gameId}/${n}`);
  openReplay(state.gameId, n);
}

function renderReplayPanel(view) {
  const panel = document.getElementById("turn");
  const { move, total, moves } = view.replay;
  // The slider being dragged stays the same element (a new one would end the drag at every step).
  const old = document.getElementById("replay-slider");
  const dragging = old && document.activeElement === old;
  for (const child of [...panel.children]) if (!(dragging && child === old)) child.remove();
  let slider = old;
  if (!dragging) {
    slider = h("input", { type: "range", min: 0, max: total, value: move, id: "replay-slider", "aria-label": t("page.replay.title") });
    slider.addEventListener("input", () => gotoMove(Number(slider.value)));
  }
  const playName = state.replayTimer ? "page.replay.pause" : "page.replay.play";
  const head = [
    h("h2", {}, t("page.replay.title")),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", id: "replay-first", onclick: () => gotoMove(0), title: t("page.replay.first"), "aria-label": t("page.replay.first") }, icon("first")),
      h("button", { type: "button", id: "replay-prev-turn", onclick: () => gotoTurn(view, -1), title: t("page.replay.prev-turn"), "aria-label": t("page.replay.prev-turn") }, icon("prev-turn")),
      h("button", { type: "button", id: "replay-prev", onclick: () => gotoMove(state.replayMove - 1), title: t("page.replay.prev"), "aria-label": t("page.replay.prev") }, icon("prev")),
      h("button", { type: "button", id: "replay-play", onclick: togglePlay, title: t(playName), "aria-label": t(playName) }, icon(state.replayTimer ? "pause" : "play")),
      h("button", { type: "button", id: "replay-next", onclick: () => gotoMove(state.replayMove + 1), title: t("page.replay.next"), "aria-label": t("page.replay.next") }, icon("next")),
      h("button", { type: "button", id: "replay-next-turn", onclick: () => gotoTurn(view, 1), title: t("page.replay.next-turn"), "aria-label": t("page.replay.next-turn") }, icon("next-turn")),
      h("button", { type: "button", id: "replay-last", onclick: () => gotoMove(total), title: t("page.replay.last"), "aria-label": t("page.replay.last") }, icon("last"))),
  ];
  // Nothing is taken out and put back around a slider in the hand: that would drop it.
  if (dragging) slider.before(...head);
  else panel.append(...head, slider);
  panel.append(h("p", { id: "replay-position" }, t("page.replay.move-of", { n: move, total })));
  if (view.drawn) panel.append(h("div", { class: "drawn-row" }, tileSvg(view.drawn.id, view.sokol, 0, 72)));
  const list = h("ol", { class: "move-list", id: "move-list" },
    // The start is move 0, so that each move's number is the one the list shows.
    h("li", { class: move === 0 ? "current" : "", value: 0, "data-n": 0, onclick: () => gotoMove(0) }, t("page.replay.start")),
    moves.map((m) => h("li", { class: `${m.n === move ? "current" : ""}${m.chance ? " chance" : ""}`, "data-n": m.n, value: m.n, onclick: () => gotoMove(m.n) },
      m.player !== null && !m.chance ? h("span", { class: `dot p${m.player}` }) : null, lineText(view, m.words, m.message))));
  panel.append(list);
  const tools = h("div", { class: "tools" });
  tools.append(h("a", { class: "button", href: games.recordUrl(view.id), download: `zamek-${view.id}.json` }, t("page.lobby.export")));
  tools.append(h("a", { class: "button", href: `#/game/${view.id}`, id: "back-to-game" }, t("page.replay.back-to-game")));
  const analyseIt = analyseButton(view, () => openReplay(view.id, state.replayMove));
  if (analyseIt) tools.append(analyseIt);
  panel.append(tools);
  const current = list.querySelector(".current");
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
}

// The replay's keys: ← → one move, Home and End the first and the last.
export function replayKey(ev) {
  const view = state.view;
  if (!view || !view.replay || ev.target instanceof HTMLInputElement) return;
  const n = state.replayMove;
  if (ev.key === "ArrowRight") gotoMove(n + 1);
  else if (ev.key === "ArrowLeft") gotoMove(n - 1);
  else if (ev.key === "Home") gotoMove(0);
  else if (ev.key === "End") gotoMove(view.replay.total);
}
