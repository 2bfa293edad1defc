// The game screen: the board, the prompts of a turn (place the tile, put a figure, answer a question about
// scoring), undo, the seats (who plays, who is connected, the clocks), the invitation of a friend, resigning,
// the end of the game and the rematch, hints (the best moves, when the game allows them). The page follows the game's live events (moves of the computer, of the
// friend elsewhere, of another tab) and acts only for the seats whose tokens this browser holds. Those who hold none
// (spectators) see the tile the player to move is placing, how many are watching, and follow the players to their
// rematch.

import { leadText } from "./analysis.js";
import { games, seats, watch } from "./api.js";
import { Board, coarsePointer, touching } from "./board.js";
import { drawChart } from "./chart.js";
import { icon } from "./icons.js";
import { gameLayout, highlightOn, renderSidePanels } from "./panels.js";
import { showTakeback } from "./takeback.js";
import { hearWord, talkBox } from "./talk.js";
import { tone, turnOptions, turnShown } from "./turn.js";
import { copyBox, featureWords, figureIcon, figureLabel, geometryFor, h, lineText, main, message, movesText, pageUrl, playerName, seatValue, showError, state, stopPolling, t, termValue, textOf, tileSvg, tokenWords } from "./ui.js";

export async function openGame(id, { spectator = false } = {}) {
  state.screen = "game";
  state.gameId = id;
  state.view = null;
  heardRevision = 0;
  heardView = null;
  state.boardFor = null;
  state.spectator = spectator;
  state.presenceHeard = false;
  state.watching = 0;
  await refreshGame();
  if (state.screen !== "game" || state.gameId !== id || !state.view) return;
  const token = spectator ? null : seats.any(id);
  // The stream brings each change's view (in the page's language, as this page's token reads it): no read of its own.
  const lang = encodeURIComponent(state.lang);
  state.stopStream = watch(`/api/games/${id}/events?view=true&lang=${lang}`, token, state.view.revision, (type, data) => {
    if (state.screen !== "game" || state.gameId !== id) return;
    if (type === "change" && state.view && data.revision > state.view.revision) refreshSoon(data.revision, data.view);
    else if (type === "presence") {
      state.connected = data.connected;
      state.watching = data.watching ?? 0;
      state.presenceHeard = true; // the stream knows better than a view fetched a moment before
      renderSeats();
      renderWatching();
    } else if (type === "say") hearWord(data);
    else if (type === "gone") {
      main.innerHTML = "";
      main.append(h("p", { class: "panel error" }, t("page.error.game-missing")));
    }
  }, (online) => {
    state.online = online;
    if (online) refreshSoon();
  });
}

// The seats this page acts for: the tokens held (none for a spectator).
export const heldSeats = (view) => (state.spectator ? [] : seats.held(view.id));
// What a page's choices (hints, a move waiting for confirmation, the figure menu) belong to: the position, which a
// takeback asked or declined leaves as it was while the revision goes on.
const positionKey = (view) => `${view.id}:${view.position}`;
const myTurn = (view) => view.human_to_act && heldSeats(view).includes(view.current);
// "Your move" (the tab's title, the tone, the notification): in a game with a friend elsewhere, the page's seat is to
// act (against the computer the reply comes at once, and at one screen nobody waits for the page).
const yourMove = (view) => view.mode === "friend" && !view.over && myTurn(view) && !view.seats.some((s) => s.player === "open")
  && heldSeats(view).length < view.players.length;
// A page that acts for no seat: the watch link, or a game whose link was passed on without its seats' tokens.
const spectating = (view) => !heldSeats(view).length;
const tokenFor = (seat) => (state.spectator ? null : seats.token(state.gameId, seat));

// Many events at once (a computer's turn, a resumed stream) bring one refresh; an event that comes while a
// refresh is under way brings one more after it. A change event's refresh first waits a moment for the page's own
// request under way (a move): its answer brings the view, and the event of that very move then needs no read of its
// own. An answer slower than that does not hold the position back. The view an event brought is shown when it is as
// new as the newest change heard, in the page's language; else the page reads it.
const OWN_ANSWER_GRACE_MS = 1000;
let refreshing = false;
let again = false;
let heardRevision = 0; // the newest revision a change event told of
let heardView = null; // the newest view a change event brought
let readAnyway = false; // a refresh asked for without an event (back online, a clock run out)
function refreshSoon(revision, view) {
  if (revision === undefined) readAnyway = true;
  else heardRevision = Math.max(heardRevision, revision);
  if (view && (!heardView || view.revision > heardView.revision)) heardView = view;
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  setTimeout(async () => {
    do {
      again = false;
      const until = Date.now() + OWN_ANSWER_GRACE_MS;
      while (state.busy && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
      const needed = readAnyway || !state.view || heardRevision > state.view.revision;
      const brought = heardView;
      const usable = !readAnyway && brought && brought.id === state.gameId && brought.lang === state.lang
        && brought.revision >= heardRevision;
      readAnyway = false;
      heardView = null;
      if (needed && usable) await showGame(brought);
      else if (needed) await refreshGame();
    } while (again);
    refreshing = false;
  }, 30);
}

export async function refreshGame() {
  const id = state.gameId;
  if (state.screen !== "game" || !id) return; // a refresh that came due after the page left the game
  try {
    await showGame(await games.get(id, state.lang));
  } catch (err) {
    if (state.screen !== "game" || state.gameId !== id) return;
    if (err.status === 404) {
      main.innerHTML = "";
      main.append(h("p", { class: "panel error" }, t("page.error.game-missing")));
    } else showError(err.message);
  }
}

async function showGame(view) {
  if (state.screen !== "game" || view.id !== state.gameId) return;
  const shown = state.view;
  if (shown && shown.id === view.id && shown.lang === view.lang && view.revision < shown.revision) { // an answer overtaken by a newer one
    offerHeldBackPlaces();
    return;
  }
  // The same position again (a live event that the move's own answer already brought, or the answer to a move whose
  // position a live event brought first): keep the page as it is, focus included, but for what waited for the answer.
  const same = shown && shown.id === view.id && shown.lang === view.lang && view.revision === shown.revision
      && view.thinking === shown.thinking && view.bot_error === shown.bot_error && !state.error && document.getElementById("board");
  if (same) {
    state.view = view;
    schedulePoll(view);
    offerHeldBackPlaces();
    offerFigure(view);
    return;
  }
  const geo = await geometryFor(view);
  if (state.boardFor !== view.id || !document.getElementById("board")) {
    const svg = gameLayout(false);
    state.board = new Board(svg, geo, { zoom: true });
    state.board.handlers = { place: placeOn, figure: chooseFigure, menu: () => openFigureMenu({ focus: true }) };
    state.boardFor = view.id;
  }
  const before = shown && shown.id === view.id ? shown : null;
  state.view = view;
  document.body.dataset.revision = String(view.revision);
  document.body.dataset.phase = view.over ? "over" : view.phase;
  turnShown("castle", view.id, yourMove(view));
  announce(before, view);
  // What the others did moves on the board (their tile slides in, their figure drops, the markers go along the
  // track), with a tone if sounds are on.
  if (before) playSounds(state.board.noteMotion(before, view, [0, 1].filter((p) => !heldSeats(view).includes(p))));
  else state.board.noteMotion(null, view, []);
  const drawnKey = view.drawn ? `${view.id}:${view.moves_count}:${view.drawn.id}` : null;
  if (view.drawn && state.rotationFor !== drawnKey) {
    // A new tile: start at the first rotation that fits somewhere.
    const rotations = new Set(view.drawn.places.map((p) => p.rotation));
    state.rotation = [0, 1, 2, 3].find((r) => rotations.has(r)) ?? 0;
    state.rotationFor = drawnKey;
  }
  if (!state.presenceHeard) {
    state.connected = view.seats.filter((s) => s.connected).map((s) => s.seat);
    state.watching = view.watching ?? 0;
  }
  state.clockAt = performance.now();
  renderGame();
  schedulePoll(view);
  // What was just scored flashes with its points (the new lines of the score log that name a feature).
  if (before && view.log.length > before.log.length) {
    for (const item of view.log.slice(before.log.length)) {
      if (item.spaces.length && item.points > 0) state.board.flashScored(item.spaces, item.points, item.player ?? 0);
    }
  }
  if (before && before.phase === "place" && view.phase === "follower" && myTurn(view)) state.figureOffer = positionKey(view);
  offerFigure(view);
  focusTurn(view);
  offerSkipLink();
  followRematch(view);
}

// When it becomes the player's turn the keyboard's focus goes to what the turn asks for: the first space where the
// tile fits, or the first answer to a question (the figure question has its own: offerFigure). Only from nowhere
// (the page's body, where a redrawn panel leaves it): never out of a text field, a menu or a dialog; and not on a
// touch screen, where a focus brings nothing but a ring.
function focusTurn(view) {
  const key = positionKey(view);
  if (state.turnFocused === key || !myTurn(view) || view.phase === "follower" || state.busy || touching()) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return;
  const target = document.querySelector(view.phase === "place" ? ".legal.now" : "#turn .choice-button");
  if (!target) return;
  state.turnFocused = key;
  target.focus({ preventScroll: true });
}

// The page's first stop for the keyboard on the game screen: "Skip to the board", to what the turn asks for there
// (a space, the move to confirm, a figure) or else to the board itself.
const skipLink = () => document.getElementById("skip-to-board");
window.addEventListener("hashchange", () => {
  const link = skipLink();
  if (link) link.hidden = true; // another screen: the game screen shows it again
});

function offerSkipLink() {
  const link = skipLink();
  if (!link) return;
  link.textContent = t("page.board.skip");
  link.hidden = false;
  link.onclick = (ev) => {
    ev.preventDefault();
    const board = document.getElementById("board");
    const target = document.querySelector("#confirm-move .primary, .legal.now, #figure-menu .menu-entry, #turn .choice-button") || board;
    if (target === board) board.setAttribute("tabindex", "-1");
    target.focus();
  };
}

// After a placement the figure question has the focus: the keyboard goes on from there. On a touch screen the
// tile's features are offered beside it, in large buttons, once for the position: while the placement's own answer
// is still on its way (a live event brought the position first), the menu waits for that answer, which shows the
// same position again (until then the page takes no answer).
function offerFigure(view) {
  if (state.figureOffer !== positionKey(view)) return;
  const coarse = window.matchMedia("(pointer: coarse)").matches;
  if (coarse && view.choices.some((c) => c.type === "figure")) {
    if (state.busy) return;
    state.figureOffer = null;
    openFigureMenu({ focus: true });
  } else {
    state.figureOffer = null;
    const placed = view.placements[view.placements.length - 1];
    const hinted = state.hintFigure && placed && placed.space === state.hintFigure.space ? state.hintFigure.action : null;
    const first = (hinted && document.querySelector(`#turn .choice-button[data-action="${hinted}"]`)) || document.querySelector(".choice-button");
    if (first) first.focus();
  }
  state.hintFigure = null;
}

// Each new move in words, for screen readers (a polite live region; draws are left out, the placement says it).
function announce(before, view) {
  const region = document.getElementById("announce");
  if (!region || !before || view.moves_count <= before.moves_count) return;
  const added = view.recent.slice(-(view.moves_count - before.moves_count)).filter((m) => m.kind !== "draw");
  if (added.length) region.textContent = added.map((m) => lineText(view, m.words, m.message)).join(" · ");
}

// The live events bring the computer's reply; a slow poll covers a stream that a proxy has cut.
function schedulePoll(view) {
  stopPolling();
  if (view.thinking) state.poll = setTimeout(pollGame, 1500);
}

async function pollGame() {
  state.poll = null;
  if (state.screen !== "game" || !state.view) return;
  try {
    const status = await games.status(state.gameId);
    if (status.revision !== state.view.revision || !status.thinking) await refreshGame();
    else state.poll = setTimeout(pollGame, 1500);
  } catch (err) {
    showError(err.message);
    state.poll = setTimeout(pollGame, 3000);
  }
}

function renderGame() {
  const view = state.view;
  const waiting = view.seats.some((s) => s.player === "open");
  const mine = myTurn(view) && !waiting;
  const placing = mine && view.phase === "place" && !state.busy;
  state.placesHeldBack = mine && view.phase === "place" && state.busy;
  const figureChoices = mine && view.phase === "follower" ? view.choices.filter((c) => c.type === "figure" && c.piece === "follower") : [];
  state.board.render(view, { placing, rotation: state.rotation, figureChoices, pending: pendingHere(view) });
  if (placing) drawHints(view);
  if (othersPlacing(view) && state.showFits) state.board.shadeFits(view.drawn);
  if (state.menuFor !== positionKey(view) || !figureChoices.length) closeFigureMenu();
  renderTurnPanel(view);
  renderConfirm(view);
  renderSidePanels(view);
  renderWatching();
  passWhenNothingElse(view, mine);
  drawWhenDue(view);
}

// While the page's own move is on its way it offers no place for a tile; a live event may show the next position to
// place on before that move's answer, which is then the same position or an older one: once it is in, the spaces come.
function offerHeldBackPlaces() {
  if (state.placesHeldBack && !state.busy) renderGame();
}

// Options that save clicks, each on unless the player turned it off (kept in this browser):
// - autoDraw: at one screen the next player's tile is drawn as soon as it is due (a move is then taken back only
//   before the next tile is drawn, i.e. within one's own turn);
// - autoPass: when "No figure" is the only answer (no figure left, or no free feature), the page gives it.
// - sound: short tones when the other player moves and when points are scored (off unless turned on).
// - confirm: a tile's place and its figure are sent only once confirmed (off unless turned on).
const OPTIONS = { autoDraw: "zamek-auto-draw", autoPass: "zamek-auto-pass", sound: "zamek-sound", confirm: "zamek-confirm" };
const OFF_BY_DEFAULT = new Set(["sound", "confirm"]);
const optionOn = (name) => {
  const stored = localStorage.getItem(OPTIONS[name]);
  return OFF_BY_DEFAULT.has(name) ? stored === "on" : stored !== "off";
};

function optionBox(name, id, changed = () => {}) {
  return h("label", { class: "option", title: t(`page.option.${OPTIONS[name].slice(6)}-hint`) },
    h("input", { type: "checkbox", id, checked: optionOn(name), onchange: (ev) => {
      localStorage.setItem(OPTIONS[name], ev.target.checked ? "on" : "off");
      changed(ev.target.checked);
    } }),
    " ", t(`page.option.${OPTIONS[name].slice(6)}`));
}

// ------------------------------------------------------------------ sounds

// The tones are turn.js's (made on the spot, WebAudio).
// A tile put down knocks, a figure taps, points ring (two notes up).
function playSounds(moved) {
  if (!moved || !optionOn("sound")) return;
  if (moved.tiles) tone(150, 0, 0.08, "square", 0.05);
  if (moved.figures) tone(330, 0.45, 0.07);
  if (moved.scored) {
    tone(660, 0.55, 0.12, "sine", 0.06);
    tone(990, 0.68, 0.16, "sine", 0.06);
  }
}

// Act for the player a moment after `view` is drawn, once, and only if it is still the position shown. A live event
// may show the position while the page's own move that led to it is still on its way (the page takes no move then):
// it acts once that move's answer is in.
function actSoon(view, mark, delay, act) {
  const key = positionKey(view);
  if (state[mark] === key) return;
  state[mark] = key;
  const attempt = () => {
    if (!state.view || positionKey(state.view) !== key) return;
    if (state.busy) setTimeout(attempt, 100);
    else act();
  };
  setTimeout(attempt, delay);
}

function drawWhenDue(view) {
  if (view.over || view.mode !== "hotseat" || view.phase !== "draw" || !optionOn("autoDraw")) return;
  if (heldSeats(view).includes(view.current)) actSoon(view, "autoDrawn", 300, drawTileAction);
}

function passWhenNothingElse(view, mine) {
  const only = view.choices.length === 1 && view.choices[0].type === "pass";
  if (mine && view.phase === "follower" && only && optionOn("autoPass")) {
    actSoon(view, "autoPassed", 400, () => send(view.choices[0].action));
  }
}

function renderTurnPanel(view) {
  const panel = document.getElementById("turn");
  panel.innerHTML = "";
  const who = seatValue(view.current);
  const err = h("p", { class: "error", id: "error", role: "alert", hidden: !state.error }, state.error || "");
  if (view.over) {
    renderGameOver(panel, view);
    if (view.mode === "friend") panel.append(tableTalk(view));
    panel.append(err);
    return;
  }
  const head = h("div", { class: "turn-head" }, h("span", { class: `dot p${view.current}` }), h("strong", {}, t("page.game.to-move", { player: who })));
  const waiting = view.seats.some((s) => s.player === "open");
  if (view.mode === "friend") panel.append(seatsBar(view), tableTalk(view));
  if (waiting) panel.append(invitation(view));
  else panel.append(head);
  if (view.bot_error) panel.append(h("p", { class: "error" }, textOf(view.bot_error)));
  if (waiting) {
    // Nothing to do until the friend comes.
  } else if (view.thinking) {
    panel.append(h("p", { class: "thinking", id: "thinking" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("page.game.thinking")));
  } else if (view.phase === "draw" && view.mode === "hotseat" && heldSeats(view).includes(view.current)) {
    panel.append(h("p", {}, t("page.game.draw-prompt", { player: who })),
      h("button", { class: "primary", id: "draw", type: "button", onclick: drawTileAction }, t("page.game.draw")));
  } else if (view.human_to_act && !myTurn(view)) {
    if (spectating(view)) panel.append(h("p", { class: "muted", id: "spectating" }, t("page.game.watching")));
    if (othersPlacing(view)) panel.append(...theirTile(view, who));
    else if (!spectating(view)) panel.append(h("p", { class: "muted", id: "their-turn" }, t("page.game.their-turn", { player: who })));
  } else if (myTurn(view) && !waiting) {
    if (view.phase === "place" && view.drawn) {
      panel.append(h("p", {}, t("page.game.place-prompt", { tile: view.drawn.id })));
      const rotated = tileSvg(view.drawn.id, view.sokol, state.rotation, 132, "tile-svg drawn");
      rotated.id = "drawn-tile";
      panel.append(h("div", { class: "drawn-row" },
        h("button", { type: "button", class: "rotate", id: "rotate-left", "aria-label": t("page.game.rotate-left"), title: t("page.game.rotate-left"), onclick: () => rotate(-1) }, icon("rotate-left")),
        rotated,
        h("button", { type: "button", class: "rotate", id: "rotate-right", "aria-label": t("page.game.rotate-right"), title: t("page.game.rotate-right"), onclick: () => rotate(1) }, icon("rotate-right"))),
        h("p", { class: "muted small" }, `${90 * state.rotation}° · ${t(touching() ? "page.game.rotate-hint-touch" : "page.game.rotate-hint")}`));
      if (view.hints && !state.spectator) panel.append(hintPanel(view));
    } else if (view.phase === "follower") {
      panel.append(h("p", {}, t("page.game.figure-prompt")), figureChoiceRows(view));
    } else if (view.phase === "order") {
      panel.append(h("p", {}, t("page.game.order-prompt")));
      panel.append(choiceButtons(view.choices, (c) => orderWords(view, c)));
    } else if (view.phase === "double") {
      const about = view.choices[0] && view.choices[0].feature;
      panel.append(h("p", {}, t("page.game.double-prompt", { feature: about ? featureWords(about.kind, about.tiles) : "" })));
      // What the token is worth here: the points it adds to this feature.
      panel.append(choiceButtons(view.choices, (c) => (c.type === "use"
        ? (c.gain !== null && c.gain !== undefined ? t("page.game.use-gain", { token: tokenOf(view, c), n: c.gain }) : t("page.game.use", { token: tokenOf(view, c) }))
        : t("page.game.keep"))));
    } else if (view.phase === "extra_turn") {
      panel.append(h("p", {}, t("page.game.extra-prompt")));
      panel.append(choiceButtons(view.choices, (c) => (c.type === "use" ? t("page.game.use", { token: tokenOf(view, c) }) : t("page.game.keep"))));
    }
  }
  const tools = h("div", { class: "tools" });
  if (view.can_undo && heldSeats(view).includes(lastMover(view))) tools.append(h("button", { type: "button", id: "undo", onclick: undo, title: t("page.game.undo-key") }, icon("undo"), t("page.game.undo")));
  tools.append(h("a", { class: "button", href: `#/replay/${view.id}/`, id: "to-replay" }, t("page.lobby.replay")),
    h("a", { class: "button", href: games.recordUrl(view.id), download: `zamek-${view.id}.json` }, t("page.lobby.export")));
  // A spectator's page draws no tile and answers no question: the options that do are for the players.
  if (view.mode === "hotseat" && !spectating(view)) tools.append(optionBox("autoDraw", "auto-draw"));
  if (!spectating(view)) tools.append(optionBox("autoPass", "auto-pass"), optionBox("confirm", "confirm-moves", cancelPending));
  tools.append(optionBox("sound", "sound", (on) => on && tone(660, 0, 0.1, "sine", 0.05)));
  if (!spectating(view)) tools.append(...turnOptions(h));
  const resignAs = resigningSeat(view);
  // Until both players have made a first move (the clocks wait for them), the game may end with no result.
  if (resignAs !== null && view.can_abort) tools.append(h("button", { type: "button", id: "abort", title: t("page.game.abort-hint"), onclick: () => abort(resignAs) }, t("page.game.abort")));
  if (resignAs !== null && !waiting) tools.append(h("button", { type: "button", class: "danger", id: "resign", onclick: () => resign(resignAs) }, t("page.game.resign")));
  showTakeback(panel, view, refreshGame);
  panel.append(tools, err);
  if (view.mode === "friend" && heldSeats(view).length) panel.append(seatLinks(view));
}

// A token a choice uses, by the number printed on it in the player's supply.
function tokenOf(view, c) {
  const held = view.players[view.current].tokens.find((tk) => tk.kind === c.token);
  return tokenWords(c.token, held ? held.number : c.token);
}

// Another player is placing the tile drawn: the tile is public, as at a real table (what comes after it is not).
const othersPlacing = (view) => !view.over && view.human_to_act && !myTurn(view) && view.phase === "place" && !!view.drawn;

// The tile another player is placing, named and drawn as it came out of the bag; pointing at it shades where it fits,
// and a toggle keeps those spaces shaded (only shown: the board offers nothing to click).
function theirTile(view, who) {
  const spaces = [...new Set(view.drawn.places.map((p) => p.space))];
  const tile = tileSvg(view.drawn.id, view.sokol, 0, 96, "tile-svg drawn");
  tile.id = "their-tile";
  const toggle = h("button", {
    type: "button", id: "show-fits", "aria-pressed": String(!!state.showFits), title: t("page.game.show-fits-hint"),
    onclick: () => {
      state.showFits = !state.showFits;
      renderGame();
    },
  }, t(state.showFits ? "page.game.hide-fits" : "page.game.show-fits"));
  return [
    h("p", { class: "muted", id: "their-turn", "data-tile": view.drawn.id }, t("page.game.they-place", { player: who, tile: view.drawn.id })),
    h("div", { class: "drawn-row their", tabindex: 0, ...highlightOn(spaces, "fits") }, tile),
    h("div", { class: "tools" }, toggle),
  ];
}

// How many are watching (spectators' pages), beside the game's title; the live events keep it up to date.
function renderWatching() {
  const title = document.getElementById("game-title");
  if (!title || !state.view) return;
  const n = state.watching || 0;
  let note = document.getElementById("watching");
  if (!note) {
    note = h("span", { class: "muted", id: "watching" });
    title.append(note);
  }
  note.hidden = !n;
  note.dataset.count = String(n);
  note.textContent = n ? ` · ${t("page.game.watching-n", { n })}` : "";
}

// A spectator follows the players to their rematch once both have taken their seats there: the new game's own live
// events tell when the second player comes.
function followRematch(view) {
  if (!spectating(view) || !view.over || !view.rematch || state.following === view.rematch) return;
  const from = view.id;
  const next = view.rematch;
  if (state.stopFollow) state.stopFollow();
  state.following = next;
  const look = async () => {
    let game;
    try {
      game = await games.get(next, state.lang);
    } catch {
      return; // gone or offline: its stream says when to look again
    }
    if (state.screen === "game" && state.gameId === from && game.seats.every((s) => s.player !== "open")) {
      location.hash = `#/watch/${next}`;
    }
  };
  state.stopFollow = watch(`/api/games/${next}/events`, null, null, (type) => {
    if (type === "change" || type === "presence") look();
  });
}

const lastMover = (view) => (view.recent.length ? view.recent[view.recent.length - 1].player : null);

// The seat that resigns from this page: the only one held, or (two at one screen) the player to move.
function resigningSeat(view) {
  if (view.over || view.mode === "hotseat") return null;
  const held = heldSeats(view);
  if (held.length === 1) return held[0];
  return null;
}

// The words said at the table (talk.js): this page speaks for the one seat it holds.
function tableTalk(view) {
  const speaker = () => {
    const held = heldSeats(view);
    return held.length === 1 ? { seat: held[0], token: tokenFor(held[0]) } : null;
  };
  return talkBox({ h, t, gameId: view.id, speaker, nameOf: (seat) => playerName(view, seat), onError: showError });
}

// Who sits where: each seat's name and colour, whether their page is open (a friend's game), their clock.
function seatsBar(view) {
  const bar = h("div", { class: "seats", id: "seats" });
  for (const seat of view.seats) {
    const online = view.mode === "friend" && seat.player === "person" && !heldSeats(view).includes(seat.seat);
    const connected = (state.connected || []).includes(seat.seat);
    bar.append(h("div", { class: `seat${view.current === seat.seat && !view.over ? " now" : ""}`, "data-seat": seat.seat },
      h("span", { class: `dot p${seat.seat}` }),
      h("span", { class: "seat-name" }, playerName(view, seat.seat)),
      online ? h("span", { class: `presence ${connected ? "on" : "off"}`, "data-connected": String(connected), title: t(connected ? "page.seat.connected" : "page.seat.disconnected") }, connected ? "●" : "○") : null,
      seat.player === "open" ? h("span", { class: "muted" }, t("page.seat.open")) : null,
      view.clock ? h("span", { class: "clock", "data-seat": seat.seat }, clockText(view, seat.seat)) : null));
  }
  if (view.rated) bar.append(h("span", { class: "badge", id: "rated-badge" }, t("page.players.rated"))); // no hints, no takebacks
  return bar;
}

function renderSeats() {
  const bar = document.getElementById("seats");
  if (bar && state.view) bar.replaceWith(seatsBar(state.view));
}

function clockLeft(view, seat) {
  const clock = view.clock;
  let left = clock.left_ms[seat];
  if (clock.running === seat && !view.over) left -= performance.now() - state.clockAt;
  return Math.max(0, left);
}

function clockText(view, seat) {
  const ms = clockLeft(view, seat);
  const s = Math.ceil(ms / 1000);
  if (s >= 86400) return t("page.clock.days-left", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clocks tick on the page; the server keeps the time that counts.
setInterval(() => {
  const view = state.view;
  if (state.screen !== "game" || !view || !view.clock) return;
  for (const node of document.querySelectorAll(".clock[data-seat]")) {
    const seat = Number(node.dataset.seat);
    node.textContent = clockText(view, seat);
    node.classList.toggle("low", clockLeft(view, seat) < 30000);
    node.classList.toggle("running", view.clock.running === seat && !view.over);
  }
  if (view.clock.running !== null && clockLeft(view, view.clock.running) <= 0 && !view.over) refreshSoon();
}, 250);



// The game waits for the friend: the link to send (it holds the invitation code, never a seat's token).
function invitation(view) {
  if (spectating(view)) return h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.game.waiting-seats")));
  const entry = seats.of(view.id);
  const open = view.seats.find((s) => s.player === "open");
  if (!(entry && entry.invite) && open && open.name) {
    // A rematch: the seat waits for the other player of the last game, who takes it from there.
    return h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.game.rematch-waiting", { names: [open.name] })));
  }
  const box = h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.game.waiting-friend")));
  if (entry && entry.invite) box.append(h("p", {}, t("page.game.invite-hint")), copyBox("invite-link", t("page.game.invite-link"), pageUrl(`#/join/${view.id}/${entry.invite}`)));
  return box;
}

// Links that stay: to watch the game, and to reopen this seat on another device (it holds the seat's token).
function seatLinks(view) {
  const held = heldSeats(view);
  const box = h("details", { class: "seat-links" }, h("summary", {}, t("page.game.links")),
    copyBox("watch-link", t("page.game.watch-link"), pageUrl(`#/watch/${view.id}`)));
  if (held.length === 1) box.append(h("p", { class: "muted small" }, t("page.game.seat-link-hint")),
    copyBox("seat-link", t("page.game.seat-link"), pageUrl(`#/seat/${view.id}/${held[0]}/${tokenFor(held[0])}`)));
  return box;
}

// One row per feature of the tile just placed (its part): the follower with the feature's name, then the Sokół
// figures as icon buttons; "No figure" last.
function figureChoiceRows(view) {
  const list = arrowsThrough(h("div", { class: "choices" }));
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
      list.append(h("button", { type: "button", class: "choice-button pass", "data-action": c.action, onclick: () => chooseFigure(c.action) }, t("page.game.pass")));
      continue;
    }
    const twin = firstLabels.filter((l) => l === c.role + c.kind).length > 1;
    const labelOf = (o) => (twin ? sidesLabel(o) : figureLabel(o));
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
        title: labelOf(option), "aria-label": labelOf(option), onclick: () => chooseFigure(option.action), ...hover,
      }, figureIcon(view.current, option.piece), first ? labelOf(option) : null));
    }
    list.append(row);
  }
  return list;
}

// An order choice with what it does that the others do not: the points, where the marker ends, and the wall tower
// whose token it takes there (or that it takes none, or stops at a gate).
function orderWords(view, c) {
  const label = featureWords(c.kind, c.feature.tiles);
  if (c.owner === null || c.owner === undefined || c.marker === null || c.marker === undefined) return label;
  let what;
  if (c.gate) what = message("page.order.gate");
  else if (c.tower !== null && c.tower !== undefined) {
    const tower = state.board.geo.wall.towers.find((tw) => tw.index === c.tower);
    what = message("page.order.tower", { token: termValue("special-token"), tower: tower ? tower.track.join("·") : c.tower });
  } else what = message("page.order.no-token");
  return t("page.order.choice", { label, player: seatValue(c.owner), points: c.points, marker: state.board.trackNumber(c.marker), what });
}

// ------------------------------------------------------------------ the figure menu

// The features of the tile just placed, named, in large buttons beside it (a touch screen opens it by itself
// after a placement; a click on the tile opens it anywhere). Pointing at or focusing an entry outlines its
// feature on the board.
function openFigureMenu({ focus = false } = {}) {
  const view = state.view;
  closeFigureMenu();
  if (!view || view.phase !== "follower" || !myTurn(view) || state.busy) return;
  const wrap = document.querySelector(".board-wrap");
  const placed = view.placements[view.placements.length - 1];
  const space = placed && state.board.screenRect(placed.space);
  if (!wrap || !space) return;
  // The tile as drawn (its art may reach past its space): the menu goes beside all of it.
  const drawn = document.querySelector(`.layer-tiles .placed-wrap[data-space="${placed.space}"]`);
  const art = drawn ? drawn.getBoundingClientRect() : space;
  const rect = { left: Math.min(space.left, art.left), top: Math.min(space.top, art.top),
    right: Math.max(space.right, art.right), bottom: Math.max(space.bottom, art.bottom) };
  state.menuFor = positionKey(view);
  const menu = h("div", { class: "figure-menu", id: "figure-menu", role: "dialog", "aria-label": t("page.game.figure-menu") },
    h("div", { class: "menu-head" }, h("strong", {}, t("page.game.figure-menu")),
      h("button", { type: "button", class: "menu-close", id: "figure-menu-close", "aria-label": t("page.close"), title: t("page.close"), onclick: () => closeFigureMenu(true) }, "×")));
  const groups = new Map();
  for (const c of view.choices) {
    const key = c.type === "pass" ? "pass" : c.part;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  const where = twinSides(view);
  for (const group of groups.values()) {
    const c = group[0];
    if (c.type === "pass") continue;
    const show = (on) => {
      if (on) state.board.highlightSpaces(c.feature.spaces);
      else state.board.clearHighlight();
      state.board.showFeature(c.part, on);
    };
    const point = { onmouseenter: () => show(true), onmouseleave: () => show(false), onfocus: () => show(true), onblur: () => show(false) };
    const row = h("div", { class: "menu-row", "data-part": c.part });
    group.forEach((option, i) => {
      row.append(h("button", {
        type: "button", class: i === 0 ? "menu-entry" : "menu-entry piece", "data-action": option.action, "data-part": option.part,
        "aria-label": where(option), title: where(option), onclick: () => chooseFigure(option.action), ...point,
      }, figureIcon(view.current, option.piece), i === 0 ? h("span", {}, where(option)) : null));
    });
    menu.append(row);
  }
  const pass = view.choices.find((c) => c.type === "pass");
  if (pass) menu.append(h("button", { type: "button", class: "menu-entry pass", "data-action": pass.action, onclick: () => chooseFigure(pass.action) }, t("page.game.pass")));
  menu.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      ev.preventDefault();
      closeFigureMenu(true);
    } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      // Up and down go through the entries.
      ev.preventDefault();
      const entries = [...menu.querySelectorAll("button")];
      const i = entries.indexOf(document.activeElement);
      entries[(i + (ev.key === "ArrowDown" ? 1 : entries.length - 1)) % entries.length].focus();
    }
  });
  wrap.append(menu);
  placeMenu(menu, wrap, rect);
  if (focus) {
    const first = menu.querySelector(".menu-entry");
    if (first) first.focus({ preventScroll: true });
  }
}

// Beside the tile, right or left, within the board's frame; where the board is not twice as wide as the menu (a
// phone), right under the board, covering nothing of it.
function placeMenu(menu, wrap, rect) {
  const box = wrap.getBoundingClientRect();
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  const gap = 8;
  let left = rect.right - box.left + gap;
  if (left + width > box.width) left = rect.left - box.left - gap - width;
  if (left < 0 || height > box.height || box.width < 2 * width) {
    menu.classList.add("docked");
    return;
  }
  const top = Math.min(Math.max(0, rect.top - box.top), Math.max(0, box.height - height));
  menu.style.left = `${Math.round(left)}px`;
  menu.style.top = `${Math.round(top)}px`;
}

function closeFigureMenu(refocus = false) {
  const menu = document.getElementById("figure-menu");
  state.menuFor = null;
  if (!menu) return;
  menu.remove();
  if (state.board) state.board.clearHighlight();
  if (refocus) {
    const first = document.querySelector(".choice-button");
    if (first) first.focus();
  }
}

// Two features of one kind and role on the tile are told apart by their sides ("north, east").
function twinSides(view) {
  const firsts = [];
  const seen = new Set();
  for (const c of view.choices) {
    if (c.type === "pass" || seen.has(c.part)) continue;
    seen.add(c.part);
    firsts.push(c.role + c.kind);
  }
  return (c) => (firsts.filter((l) => l === c.role + c.kind).length > 1 ? sidesLabel(c) : figureLabel(c));
}

// A figure's choice told from its twin by the sides of the tile its feature touches: "herald — road (north, east)".
const SIDES = ["north", "east", "south", "west"];
function sidesLabel(c) {
  return t("page.game.figure-sides", { label: figureLabel(c), sides: c.sides.map((k) => message(`page.side.${SIDES[k]}`)) });
}

// Up and down go from one answer of a list to the next (from the first up to the last: "No figure").
function arrowsThrough(list) {
  list.addEventListener("keydown", (ev) => {
    if ((ev.key !== "ArrowDown" && ev.key !== "ArrowUp") || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const buttons = [...list.querySelectorAll("button")];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    ev.preventDefault();
    buttons[(i + (ev.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length].focus();
  });
  return list;
}

function choiceButtons(choices, label) {
  const list = arrowsThrough(h("div", { class: "choices" }));
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
  const held = heldSeats(view);
  if (winners.length === 0) headline = t("page.result.no-result"); // aborted before both players had moved
  else if (winners.length === 2) headline = t("page.result.shared");
  else if (view.mode === "computer") headline = winners[0] === view.human ? t("page.result.you-win") : t("page.result.computer-wins");
  else if (view.mode === "friend" && held.length === 1) headline = winners[0] === held[0] ? t("page.result.you-win") : t("page.result.wins", { player: seatValue(winners[0]) });
  else headline = t("page.result.wins", { player: seatValue(winners[0]) });
  panel.append(h("h2", { id: "game-over" }, t("page.result.game-over", { result: headline })));
  if (view.ended) panel.append(h("p", { id: "ended", "data-reason": view.ended.reason }, endedWords(view.ended)));
  panel.append(h("p", { class: "final-scores" },
    [0, 1].map((p) => h("span", { class: "final-score" }, h("span", { class: `dot p${p}` }), t("page.label", { label: playerName(view, p) }), h("strong", {}, view.players[p].score)))));
  const finals = view.log.filter((i) => i.final);
  const table = h("table", { class: "breakdown" }, h("caption", {}, t("page.game.final")),
    h("tbody", {}, finals.map((i) => h("tr", highlightOn(i.spaces),
      h("td", {}, i.player === null ? "" : h("span", { class: `dot p${i.player}` })), h("td", {}, lineText(view, i.line, i.message)), h("td", { class: "num" }, i.points)))));
  const during = [0, 1].map((p) => view.log.filter((i) => !i.final && i.player === p).reduce((a, i) => a + i.points, 0));
  const finalPts = [0, 1].map((p) => finals.filter((i) => i.player === p).reduce((a, i) => a + i.points, 0));
  const sums = h("table", { class: "totals" }, h("tbody", {},
    [0, 1].map((p) => h("tr", {}, h("td", {}, h("span", { class: `dot p${p}` }), playerName(view, p)),
      h("td", { class: "num" }, `${during[p]} + ${finalPts[p]} = `), h("td", { class: "num" }, h("strong", {}, view.players[p].score))))));
  const chart = h("div", { class: "chart-wrap", id: "chart" });
  panel.append(table, sums, h("h3", {}, t("page.game.chart")), chart);
  drawChart(chart, view.log, view.turn, [playerName(view, 0), playerName(view, 1)], t("page.game.final"));
  panel.append(h("div", { class: "tools" },
    view.mode === "friend" && held.length === 1
      ? h("button", { type: "button", class: "primary", id: "rematch", onclick: () => rematch(held[0]) }, view.rematch ? t("page.game.rematch-accept") : t("page.game.rematch"))
      : null,
    h("a", { class: "button primary", href: `#/replay/${view.id}/` }, t("page.lobby.replay")),
    h("a", { class: "button", id: "analyse", href: `#/replay/${view.id}/`, onclick: () => (state.openAnalysis = view.id) }, t("page.analysis.analyse")),
    h("a", { class: "button", href: games.recordUrl(view.id), download: `zamek-${view.id}.json` }, t("page.lobby.export")),
    h("a", { class: "button", href: "#/" }, t("page.header.games"))));
}

// How a game ended before its rules ended it: who resigned or ran out of time, or that it was aborted.
export function endedWords(ended) {
  const params = ended.loser === null || ended.loser === undefined ? {} : { player: seatValue(ended.loser) };
  return t(`page.ended.${ended.reason}`, params);
}

// ------------------------------------------------------------------ hints

// The three best moves for the player to move (the server judges them by the expert's estimate of the final lead,
// and gives them only to the seat to move, in a game that allows hints): numbered on the board, faint, and listed
// beside it; a click on one turns the tile as it says and shows it there (placing it is still the player's click).
const hintsHere = (view) => (state.hints && state.hints.key === positionKey(view) ? state.hints : null);

async function askHints() {
  const view = state.view;
  if (!view || state.hintsBusy) return;
  state.hintsBusy = true;
  try {
    const answer = await games.hints(view.id, state.lang, tokenFor(view.current));
    state.hints = { key: `${view.id}:${answer.position}`, list: answer.hints, player: answer.player };
    state.error = null;
  } catch (err) {
    state.error = err.message;
  } finally {
    state.hintsBusy = false;
  }
  if (state.screen === "game" && state.view && state.view.id === view.id) {
    renderGame();
    // Asked from the keyboard (the H key, or the button the redrawn panel took away): on to the first hint.
    const first = document.querySelector("#hint-list .hint-item");
    if (first && document.activeElement === document.body && !touching()) first.focus({ preventScroll: true });
  }
}

function drawHints(view) {
  const hints = hintsHere(view);
  if (!hints || !view.drawn) return;
  state.board.drawHints(view.drawn.id, hints.list, hints.player, (hint) => leadText(hint.lead));
  if (hints.picked) state.board.showHint(hints.picked);
}

// Each hint in the list: pointing at it or focusing it shows it on the board as it would be played (its feature
// outlined: a tile may hold two houses); picking it keeps it shown.
function hintPanel(view) {
  const box = h("div", { class: "hints", id: "hints" },
    h("button", { type: "button", id: "hint", title: t("page.hints.title"), onclick: askHints, disabled: state.hintsBusy }, t("page.hints.hint")));
  const hints = hintsHere(view);
  if (!hints) return box;
  if (!hints.list.length) {
    box.append(h("p", { class: "muted small" }, t("page.hints.none")));
    return box;
  }
  const show = (n) => state.board.showHint(n ?? hints.picked);
  box.append(h("ol", { class: "hint-list", id: "hint-list" }, hints.list.map((hint, i) => h("li", { "data-n": i + 1, "data-action": hint.move[0], class: hints.picked === i + 1 ? "picked" : "" },
    h("button", {
      type: "button", class: "hint-item", title: t("page.hints.pick"), onclick: () => pickHint(hint, i + 1),
      onmouseenter: () => show(i + 1), onmouseleave: () => show(null), onfocus: () => show(i + 1), onblur: () => show(null),
    }, h("span", { class: "hint-n" }, String(i + 1)), h("strong", { class: "hint-lead" }, leadText(hint.lead)), " ",
    movesText(view, hint.messages, hint.words))))),
    h("p", { class: "muted small" }, t("page.hints.lead-hint")));
  return box;
}

// A hint picked turns the tile as it says and keeps it shown on the board, its space in view (on a phone the board
// may be scrolled away, or show another part of the castle). With the keyboard the focus goes on to that space
// (Enter places the tile there), and after the placement to the hint's figure.
function pickHint(hint, n) {
  const hints = hintsHere(state.view);
  if (!hints || hint.space === null || hint.rotation === null) return;
  state.rotation = hint.rotation;
  hints.picked = n;
  state.hintFigure = { space: hint.space, action: hint.move[1] || null };
  renderGame();
  if (touching()) state.board.reveal(hint.space);
  else {
    const space = document.querySelector(`.legal.now[data-space="${hint.space}"]`);
    if (space) space.focus({ preventScroll: true });
  }
}

// ------------------------------------------------------------------ confirming a move (an option)

// With the option on, a tile's place and its figure (or none) are sent only once the player confirms them: the board
// shows the tile there (or the figure on its feature), and a bar under the board asks (Enter confirms, Escape cancels).
const pendingHere = (view) => (state.pending && state.pending.key === positionKey(view) ? state.pending : null);

function choose(action, what) {
  if (!optionOn("confirm")) {
    send(action);
    return;
  }
  closeFigureMenu();
  state.pending = { ...what, action, key: positionKey(state.view), asked: false };
  renderGame();
}

// A figure (or "No figure") chosen on the board, in the panel or in the figure menu.
function chooseFigure(action) {
  const view = state.view;
  const c = view && view.choices.find((x) => x.action === action);
  if (!c) return;
  const words = c.type === "pass" ? t("page.game.pass") : twinSides(view)(c);
  choose(action, { kind: "figure", part: c.type === "pass" ? null : c.part, piece: c.piece, words });
}

function renderConfirm(view) {
  const old = document.getElementById("confirm-move");
  const pending = pendingHere(view);
  if (!pending || !myTurn(view)) {
    if (old) old.remove();
    return;
  }
  const bar = h("div", { class: "confirm-move", id: "confirm-move", role: "group", "aria-label": t("page.game.confirm-title") },
    h("span", { class: "confirm-what" }, t("page.game.confirm-question", { move: pending.words })),
    h("span", { class: "confirm-buttons" },
      h("button", { type: "button", class: "primary", id: "confirm-yes", onclick: confirmPending }, t("page.game.confirm")),
      h("button", { type: "button", id: "confirm-no", onclick: cancelPending }, t("page.game.cancel"))));
  if (old) old.replaceWith(bar);
  else (document.querySelector(".board-wrap .zoom-steps") || document.getElementById("board")).after(bar);
  if (!pending.asked) {
    pending.asked = true;
    document.getElementById("confirm-yes").focus({ preventScroll: !touching() });
  }
}

function confirmPending() {
  const pending = state.view && pendingHere(state.view);
  state.pending = null;
  const bar = document.getElementById("confirm-move");
  if (bar) bar.remove(); // answered: not to be answered twice while the move is on its way
  if (pending) send(pending.action);
}

// Back to choosing: the focus (or the figure menu, on a touch screen) where the choice was made.
function cancelPending() {
  const pending = state.pending;
  state.pending = null;
  if (!pending || !state.view) return;
  renderGame();
  if (pending.kind === "place") {
    const space = document.querySelector(`.legal[data-space="${pending.space}"]`);
    if (space && !touching()) space.focus({ preventScroll: true });
  } else if (coarsePointer()) openFigureMenu({ focus: true });
  else {
    const button = document.querySelector(`#turn .choice-button[data-action="${pending.action}"]`);
    if (button) button.focus();
  }
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
  choose(place.action, { kind: "place", space, rotation: place.rotation,
    words: t("page.game.confirm-place", { tile: view.drawn.id, space, degrees: 90 * place.rotation }) });
}

async function send(action) {
  if (state.busy) return;
  state.busy = true;
  showError(null);
  try {
    const view = await games.act(state.gameId, action, state.view.revision, state.lang, tokenFor(state.view.current));
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
    const view = await games.draw(state.gameId, state.view.revision, state.lang, tokenFor(state.view.current));
    state.busy = false;
    state.error = null;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    showError(err.message);
    offerHeldBackPlaces();
  }
}

async function undo() {
  if (state.busy) return;
  state.busy = true;
  try {
    const view = await games.undo(state.gameId, state.view.revision, state.lang, tokenFor(lastMover(state.view)));
    state.busy = false;
    state.error = null;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    await refreshGame();
  }
}

// Resigning (the opponent wins) and aborting (no result) end the game once the player confirms.
const resign = (seat) => endGame(seat, "page.game.confirm-resign", games.resign);
const abort = (seat) => endGame(seat, "page.game.confirm-abort", games.abort);

async function endGame(seat, question, request) {
  if (state.busy || !confirm(t(question))) return;
  state.busy = true;
  try {
    const view = await request(state.gameId, state.view.revision, state.lang, tokenFor(seat));
    state.busy = false;
    await showGame(view);
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    await refreshGame();
  }
}

async function rematch(seat) {
  try {
    const view = await games.rematch(state.gameId, state.lang, tokenFor(seat));
    location.hash = `#/game/${view.id}`;
  } catch (err) {
    showError(err.message);
  }
}

// The game's keys: R / → and Shift+R / ← turn the tile, U undoes, H asks for hints and 1, 2, 3 picks one, Escape
// takes back a move not yet confirmed.
export function gameKey(ev) {
  const view = state.view;
  if (!view) return;
  const placing = myTurn(view) && view.phase === "place";
  const hints = placing && view.hints && !state.spectator ? hintsHere(view) : null;
  if (ev.key === "Escape" && pendingHere(view)) {
    ev.preventDefault();
    cancelPending();
  } else if (placing && view.hints && !state.spectator && (ev.key === "h" || ev.key === "H")) {
    ev.preventDefault();
    askHints();
  } else if (hints && /^[1-9]$/.test(ev.key) && hints.list[Number(ev.key) - 1]) {
    ev.preventDefault();
    pickHint(hints.list[Number(ev.key) - 1], Number(ev.key));
  } else if (placing && (ev.key === "r" || ev.key === "ArrowRight")) {
    ev.preventDefault();
    rotate(1);
  } else if (placing && (ev.key === "R" || ev.key === "ArrowLeft")) {
    ev.preventDefault();
    rotate(-1);
  } else if ((ev.key === "u" || ev.key === "U") && view.can_undo && heldSeats(view).includes(lastMover(view))) {
    ev.preventDefault();
    undo();
  }
}
