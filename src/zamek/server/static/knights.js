// Rycerze i zamki: the lobby's panel (new game, list) and the game screen.
// The server sends each seat only what that seat may see; the page asks for a person's hand only after
// the hand-over screen. A round's reveal plays by itself, step by step with a pause between (Pause holds it, Next
// and "Skip to the result" go on at once), and the round's steps stay on the screen until the next round's. Cards
// are drawn as cards (a picture, the name, the three strengths with each castle kind's mark) and the tiles as tiles
// (knights-art.js).
// Online play as the castle game has it (protocol 4, /api/games): friends elsewhere by an invitation link, a clock,
// resigning, aborting before everyone has moved, a rematch, spectators (the public view: no hand) and how many
// watch. Computer seats choose as jobs of the server: a view that says `thinking` is followed by a live `change`.

import { CLOCKS, identity, knights as api } from "./api.js";
import { cardPicture, kindMark, knightsTile } from "./knights-art.js";
import { hearWord, talkBox } from "./talk.js";
import { turnOptions, turnShown } from "./turn.js";
import { listedBox } from "./watchlist.js";

let ctx = null; // { h, seats, watch, t, main, copyBox, pageUrl, lang: () => string }

// A message of the catalogue, as this page's players read it: the seat this page plays is "you" (one seat held; at
// one screen every player is named), a seat whose person chose a name goes by it.
function t(key, params = {}) {
  return ctx.t(key, params, { edition: null, reader: readerOf(game.view) });
}

const message = (key, params = {}) => ({ key, params });

function readerOf(view) {
  const mine = held();
  return { you: mine.length === 1 ? mine : [], name: (p) => (view ? chosenName(view, p) : null) };
}

// A seat whose person chose a name: "Player 2 (Ola)".
function chosenName(view, p) {
  const at = (view.players_at || [])[p];
  return at && at.name ? ctx.t("server.view.named-player", { player: message("player.name", { n: p + 1 }), name: at.name }) : null;
}

// A seat's name: "Player 2", or with the name its person chose.
const nameOf = (view, p) => chosenName(view, p) || ctx.t("player.name", { n: p + 1 });

// A text the server sends: its words, or a message ({key, params}).
const textOf = (x) => (x === null || x === undefined ? "" : typeof x === "string" ? x : t(x.key, x.params || {}));
const game = {
  id: null, view: null, hand: null, shown: 0, seat: null, selected: [], busy: false, spectator: false, stop: null,
  connected: [], watching: 0, presenceHeard: false, visit: 0, clockAt: 0, poll: null, error: null, noAbort: false,
  refreshedAt: 0, linksOpen: false, revealTimer: null, revealAt: -1, appeared: -1, stepping: false,
};

// Whether the reveal waits for "Next" (the person held it): kept for the next rounds and games, as the other
// options of the page are, until "Continue".
const REVEAL_KEY = "zamek-knights-reveal";
const revealHeld = () => localStorage.getItem(REVEAL_KEY) === "hold";
// How long a step of the reveal stays before the next: the cards every player laid take longer to read.
const STEP_MS = 1500;
const CARDS_MS = 2500;
// The reveal's buttons: when one goes with the step it moved past, the keyboard goes on from the stage.
const REVEAL_CONTROLS = ["k-hold", "k-next", "k-skip"];

// Each opening of the game screen is a visit, ended by leaving it (the rules page, the lobby) or opening another.
// An answer that comes back after its visit ended draws nothing: it would put the game over the page now shown.
const stillOn = (visit) => visit === game.visit && game.id !== null;

export function initKnights(context) {
  ctx = context;
}

const seenKey = (id) => `zamek-knights-seen-${id}`;
const PEOPLE = ["person", "friend"];

function seatLabel(view, p) {
  const kind = view.seats[p];
  const name = nameOf(view, p);
  if (PEOPLE.includes(kind)) {
    const mine = held().includes(p);
    const at = (view.players_at || [])[p];
    // A game with friends: every person's seat but this browser's own says whether its page is open.
    const withFriends = view.seats.includes("friend");
    let dot = "";
    if (at && at.player === "open") dot = ` · ${t("page.seat.open")}`;
    else if (withFriends && at && !mine) dot = game.connected.includes(p) ? " ●" : " ○";
    return `${mine && held().length === 1 ? t("page.player.you-marked", { name }) : name}${dot}`;
  }
  return t("page.knights.seat-bot", { name, bot: message(`page.knights.bot.${kind}`) });
}

// The seats this page acts for: the tokens held (none on the watch link).
const held = () => (game.spectator || game.id === null ? [] : ctx.seats.held(game.id));
const tokenOf = (seat) => (game.spectator ? null : ctx.seats.token(game.id, seat));
const withFriends = (view) => view.seats.includes("friend");

// --------------------------------------------------------------------- lobby

export function knightsLobby() {
  const { h } = ctx;
  const kinds = ["person", "friend", "random", "heuristic", "mc"];
  const count = h("select", { name: "k-players", id: "k-players" }, [2, 3, 4].map((n) => h("option", { value: n, selected: n === 2 }, n)));
  const seatsBox = h("div", { class: "k-seats" });
  const seatSelects = [];
  for (let i = 0; i < 4; i++) {
    const sel = h("select", { name: `k-seat-${i}`, id: `k-seat-${i}` },
      kinds.map((k) => h("option", { value: k, selected: (i === 0 ? "person" : "heuristic") === k }, t(`page.knights.seat.${k}`))));
    seatSelects.push(sel);
    seatsBox.append(h("label", { class: "choice k-seat-line", "data-seat": i }, t("page.label", { label: message("player.name", { n: i + 1 }) }), sel));
  }
  // With friends elsewhere: a clock (as the castle game's) and the name they see on the invitation.
  const clock = h("select", { name: "k-clock", id: "k-clock" }, Object.keys(CLOCKS).map((k) => h("option", { value: k, selected: k === "none" }, t(`page.clock.${k}`))));
  const name = h("input", { type: "text", name: "k-name", id: "k-name", maxlength: 24, value: localStorage.getItem("zamek-name") || "" });
  // A player may make a game against one friend rated (issue 39: both must be players).
  const rated = h("input", { type: "checkbox", name: "k-rated", id: "k-rated" });
  const ratedBox = h("label", { class: "choice", title: t("page.players.rated-hint") }, rated, " ", t("page.players.rated"));
  const friendBox = h("fieldset", { class: "k-friend-only", id: "k-friend-options" }, h("legend", {}, t("page.lobby.friend-options")),
    h("label", { class: "choice" }, t("page.label", { label: message("page.clock.label") }), clock),
    h("label", { class: "choice" }, t("page.label", { label: message("page.lobby.your-name") }), name),
    listedBox(h, t, "k-listed", false),
    identity.get() ? ratedBox : null);
  const chosen = () => seatSelects.slice(0, Number(count.value)).map((s) => s.value);
  const oneFriend = () => chosen().length === 2 && chosen().includes("person") && chosen().includes("friend");
  const sync = () => {
    seatsBox.querySelectorAll(".k-seat-line").forEach((line, i) => (line.hidden = i >= Number(count.value)));
    friendBox.hidden = !chosen().includes("friend");
    ratedBox.hidden = !oneFriend();
  };
  count.addEventListener("change", sync);
  seatSelects.forEach((s) => s.addEventListener("change", sync));
  sync();
  const error = h("p", { class: "error", hidden: true, role: "alert" });
  const form = h("form", { class: "panel new-game knights-new", id: "knights-new" },
    h("h2", {}, t("page.knights.title")),
    h("p", { class: "muted" }, t("page.knights.intro")),
    h("label", { class: "choice" }, t("page.label", { label: message("page.knights.players") }), count),
    seatsBox, friendBox, error,
    h("button", { type: "submit", class: "primary", id: "k-start" }, t("page.lobby.start")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seats = chosen();
    const options = { seats };
    if (seats.includes("friend")) {
      options.clock = CLOCKS[clock.value] || null;
      options.name = name.value.trim() || null;
      options.listed = friendBox.querySelector("#k-listed").checked;
      localStorage.setItem("zamek-name", name.value.trim());
      if (oneFriend() && rated.checked) options.rated = true;
    }
    try {
      const view = await api.create(options, ctx.lang());
      location.hash = `#/knights/${view.id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return form;
}

// ---------------------------------------------------------------------- game

export async function openKnights(id, { spectator = false } = {}) {
  stopLive(); // another game's live events, opened from this screen
  game.visit += 1;
  const visit = game.visit;
  Object.assign(game, {
    id, view: null, hand: null, seat: null, selected: [], spectator, connected: [], watching: 0, presenceHeard: false,
    error: null, noAbort: false, busy: false, linksOpen: false, appeared: -1, stepping: false,
  });
  game.shown = Number(localStorage.getItem(seenKey(id)) || 0);
  await refresh();
  if (!stillOn(visit) || !game.view) return;
  const token = spectator ? null : ctx.seats.any(id);
  game.stop = ctx.watch(api.eventsPath(id), token, game.view.revision, (type, data) => {
    if (!stillOn(visit)) return;
    if (type === "change" && game.view && data.revision > game.view.revision) refreshSoon();
    else if (type === "presence") {
      game.connected = data.connected;
      game.watching = data.watching ?? 0;
      game.presenceHeard = true; // the stream knows better than a view fetched a moment before
      showWatching();
      redrawTable();
    } else if (type === "say") hearWord(data);
    else if (type === "gone") {
      ctx.main.innerHTML = "";
      ctx.main.append(ctx.h("p", { class: "panel error" }, t("page.error.game-missing")));
    }
  }, (online) => online && stillOn(visit) && game.view && refreshSoon());
}

function stopLive() {
  if (game.stop) game.stop();
  game.stop = null;
  clearTimeout(game.poll);
  game.poll = null;
  stopReveal();
}

// A friend's invitation to a Rycerze i zamki game: who invites, to what; a name, then the first free seat.
export async function openKnightsJoin(id, invite) {
  const { h, main } = ctx;
  main.innerHTML = "";
  if (ctx.seats.held(id).length) {
    location.replace(`#/knights/${id}`);
    return;
  }
  const here = location.hash;
  let view;
  try {
    view = await api.get(id, ctx.lang());
  } catch (err) {
    if (location.hash === here) main.append(h("p", { class: "panel error" }, err.status === 404 ? t("page.error.game-missing") : err.message));
    return;
  }
  if (location.hash !== here) return;
  const at = view.players_at || [];
  const host = at.find((s) => s.player === "person" && s.name);
  const error = h("p", { class: "error", id: "error", hidden: true, role: "alert" });
  const name = h("input", { type: "text", name: "name", id: "join-name", maxlength: 24, value: localStorage.getItem("zamek-name") || "" });
  const about = [t("page.knights.join-about", { n: view.players }), view.clock ? t("page.clock.with", { clock: clockWords(view.clock) }) : t("page.clock.none")];
  const form = h("form", { class: "panel join", id: "join" },
    h("h2", {}, t("page.knights.title")),
    h("p", { id: "join-text" }, host ? t("page.join.text", { name: host.name }) : t("page.join.text-friend")),
    h("p", { class: "muted", id: "join-about" }, about.join(" · ")),
    h("label", { class: "choice" }, t("page.label", { label: message("page.lobby.your-name") }), name),
    h("button", { type: "submit", class: "primary", id: "join-game" }, t("page.join.button")), error,
    h("p", {}, h("a", { href: `#/knights/${id}/watch`, id: "just-watch" }, t("page.join.just-watch"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    localStorage.setItem("zamek-name", name.value.trim());
    try {
      await api.join(id, invite, name.value.trim(), ctx.lang());
      location.hash = `#/knights/${id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  main.append(form);
  if (!at.some((s) => s.player === "open")) {
    error.textContent = t("page.knights.seats-taken");
    error.hidden = false;
  }
}

// A clock in words: the lobby's name for it when it is one of those offered.
function clockWords(clock) {
  const key = Object.keys(CLOCKS).find((k) => {
    const c = CLOCKS[k];
    return c && c.kind === clock.kind && (c.kind === "live" ? c.minutes === clock.minutes && c.increment === clock.increment : c.days === clock.days);
  });
  if (key) return t(`page.clock.${key}`);
  return clock.kind === "live" ? t("page.clock.live", { minutes: clock.minutes, seconds: clock.increment }) : t("page.clock.days", { days: clock.days });
}

export function knightsLanguageChanged() {
  if (!game.id) return;
  game.hand = null; // its cards' names in the other language: asked again
  refresh();
}

export function leaveKnights() {
  game.visit += 1;
  game.id = null;
  stopLive();
}

// Many events at once (the computer's choices, a resumed stream) bring one refresh; an event that comes while a
// refresh is under way brings one more after it.
let refreshing = false;
let again = false;
function refreshSoon() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  setTimeout(async () => {
    try {
      do {
        again = false;
        await refresh();
      } while (again);
    } finally {
      refreshing = false;
    }
  }, 30);
}

// The public view (the table, the reveal's steps, the clocks); a seat's hand is asked for on its own (showHand).
async function refresh() {
  const visit = game.visit;
  if (!stillOn(visit)) return;
  game.refreshedAt = performance.now();
  let view;
  try {
    view = await api.get(game.id, ctx.lang());
  } catch (err) {
    if (!stillOn(visit)) return;
    ctx.main.innerHTML = "";
    ctx.main.append(ctx.h("p", { class: "panel error" }, err.status === 404 ? t("page.error.game-missing") : err.message));
    return;
  }
  if (!stillOn(visit) || view.id !== game.id) return;
  const before = game.view;
  if (before && view.revision < before.revision) return; // an answer overtaken by a newer one
  game.view = view;
  game.clockAt = performance.now();
  if (!game.presenceHeard) {
    game.connected = (view.players_at || []).filter((s) => s.connected).map((s) => s.seat);
    game.watching = view.watching ?? 0;
  }
  if (game.shown > view.events.length) game.shown = 0;
  render();
  schedulePoll(view);
}

// While the computer chooses, its `change` event brings the next position; should the stream be cut, the status is
// asked now and then as well.
function schedulePoll(view) {
  clearTimeout(game.poll);
  game.poll = null;
  if (!view.thinking || view.over) return;
  const visit = game.visit;
  game.poll = setTimeout(async function poll() {
    game.poll = null;
    if (!stillOn(visit) || !game.view) return;
    try {
      const status = await api.status(game.id);
      if (!stillOn(visit)) return;
      if (status.revision !== game.view.revision || !status.thinking) refreshSoon();
      else game.poll = setTimeout(poll, 3000);
    } catch {
      if (stillOn(visit)) game.poll = setTimeout(poll, 5000);
    }
  }, 3000);
}

// A step that tells nothing new is not shown: an empty camp, no shepherds, no card laid twice, nothing to the
// camps, the sword staying where it was.
function quiet(event) {
  switch (event.type) {
    case "EmptyCamp": return true;
    case "ShepherdsReturn": return event.shepherds.every((n) => n === 0);
    case "DuplicatesCancelled": return event.cards.length === 0;
    case "CardsToCamp": return event.cards.length === 0;
    case "SwordPassed": return event.player === event.previous;
    default: return false;
  }
}

function markSeen() {
  localStorage.setItem(seenKey(game.id), String(game.shown));
}

function skipQuiet() {
  const events = game.view.events;
  while (game.shown < events.length && quiet(events[game.shown])) game.shown += 1;
  markSeen();
}

// What the tests wait for: the position, the step shown, the hand asked for.
function showRevision() {
  document.body.dataset.revision = `${game.view.revision}:${game.shown}:${game.seat}`;
}

function render() {
  const { h, main } = ctx;
  const view = game.view;
  // The page is drawn again (a step, a live event): the keyboard stays on the button it was on.
  const focused = main.contains(document.activeElement) ? document.activeElement.id : "";
  main.innerHTML = "";
  // A game ended by a resignation, a clock or an abort: its end at once, not the steps of a round no one plays out.
  if (view.ended) game.shown = view.events.length;
  skipQuiet();
  showRevision();
  // The steps are told by the page's live region (#announce), one by one as they come: not the whole stage again.
  const stage = h("section", { class: "panel k-stage", id: "k-stage", tabindex: "-1" });
  const title = h("h2", { id: "k-game-title" }, t("page.knights.title"));
  // A page that acts for no seat (the watch link): the public view, with no hand and no player's button.
  const watching = held().length ? null : h("p", { class: "muted", id: "k-spectating" }, t("page.game.watching"));
  main.append(h("div", { class: "knights" }, title, watching, tableView(view), withFriends(view) ? tableTalk(view) : null, stage));
  showWatching();
  const open = (view.players_at || []).filter((s) => s.player === "open");
  // "Your move" (the tab's title, the tone, the notification): in a game with friends elsewhere, a seat of this page
  // is to act (the computer's seats reply by themselves, and at one screen nobody waits for the page).
  const person = view.person_to_act;
  turnShown("knights", view.id, withFriends(view) && !view.over && !open.length && person !== null && person !== undefined
    && held().includes(person) && held().length < view.seats.length);
  // Seats free for friends: the invitation first (the game starts when they come, its first tile with it).
  game.stepping = false;
  if (open.length && !view.over) stage.append(invitation(view, open));
  else if (game.shown < view.events.length) renderStep(stage);
  else if (view.over) renderOver(stage);
  else {
    renderTurn(stage, view);
    stage.append(lastRound(view.events.length));
  }
  // The computer seats choose as jobs of the server (while the reveal is stepped through, too): their `change` follows.
  if (view.thinking && !view.over && !open.length) {
    stage.append(h("p", { class: "thinking", id: "k-thinking" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("page.knights.thinking")));
  }
  if (view.bot_error && !view.over) stage.append(h("p", { class: "error", id: "k-bot-error" }, textOf(view.bot_error)));
  if (!view.over) stage.after(toolsRow(view));
  if (withFriends(view) && held().length) stage.parentNode.append(seatLinks(view));
  if (focused) {
    const again = document.getElementById(focused) || (REVEAL_CONTROLS.includes(focused) ? stage : null);
    if (again) again.focus({ preventScroll: true });
  }
  scheduleReveal();
}

// What the stage shows between the reveals: whose turn it is, the hand.
function renderTurn(stage, view) {
  const { h } = ctx;
  const who = view.person_to_act;
  if (who === null) {
    if (!view.thinking) stage.append(h("p", { class: "muted" }, t("page.knights.waiting")));
    return;
  }
  if (!held().includes(who)) {
    stage.append(h("p", { class: "muted", id: "k-their-turn" }, t("page.game.their-turn", { player: { seat: who } })));
    return;
  }
  if (game.seat === who) {
    // The hand shown: drawn again from the seat's view while it is the position's, asked again when not.
    if (game.hand && game.hand.revision === view.revision && game.hand.seat === who) drawHand(stage, game.hand);
    else showHand(who);
    return;
  }
  if (held().length > 1) {
    stage.append(h("div", { class: "k-handover", id: "k-handover" },
      h("p", { class: "k-big" }, t("page.knights.pass", { name: nameOf(view, who) })),
      h("p", { class: "muted" }, t("page.knights.pass-hint")),
      h("button", { type: "button", class: "primary", id: "k-show", onclick: () => showHand(who) }, t("page.knights.show", { name: nameOf(view, who) }))));
    return;
  }
  showHand(who);
}

async function showHand(seat) {
  const visit = game.visit;
  try {
    const mine = await api.get(game.id, ctx.lang(), seat, tokenOf(seat));
    if (!stillOn(visit)) return;
    if (game.seat !== seat || !game.hand || game.hand.phase !== mine.phase) game.selected = [];
    game.seat = seat;
    game.hand = mine;
    if (mine.revision > game.view.revision) {
      refreshSoon(); // the table is behind the hand: it follows, and draws the hand
      return;
    }
    render();
  } catch (err) {
    if (stillOn(visit)) showKError(err.message);
  }
}

// The presence dots (and the clocks) of the table, drawn again without touching the rest of the page.
function redrawTable() {
  const table = document.getElementById("k-table");
  if (table && game.view) table.replaceWith(tableView(game.view));
}

// How many are watching (spectators' pages), beside the game's title; the live events keep it up to date.
function showWatching() {
  const title = document.getElementById("k-game-title");
  if (!title || !game.view) return;
  const n = game.watching || 0;
  let note = document.getElementById("watching");
  if (!note) {
    note = ctx.h("span", { class: "muted", id: "watching" });
    title.append(note);
  }
  note.hidden = !n;
  note.dataset.count = String(n);
  note.textContent = n ? ` · ${t("page.game.watching-n", { n })}` : "";
}

// The words said at the table (talk.js): this page speaks for the seat it holds (of several at one screen, the one to
// act, else the first).
function tableTalk(view) {
  const speaker = () => {
    const mine = held();
    const seat = mine.includes(view.person_to_act) ? view.person_to_act : mine[0];
    return seat === undefined ? null : { seat, token: ctx.seats.token(view.id, seat) };
  };
  return talkBox({ h: ctx.h, t, gameId: view.id, speaker, nameOf: (seat) => nameOf(view, seat), onError: showKError });
}

function showKError(message) {
  game.error = message;
  const box = document.getElementById("k-error");
  if (box) {
    box.textContent = message || "";
    box.hidden = !message;
  }
}

// ------------------------------------------------------------------ clocks

function clockLeft(view, seat) {
  let left = view.clock.left_ms[seat];
  if (view.clock.running === seat && !view.over) left -= performance.now() - game.clockAt;
  return Math.max(0, left);
}

function clockText(view, seat) {
  const s = Math.ceil(clockLeft(view, seat) / 1000);
  if (s >= 86400) return t("page.clock.days-left", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockBadge(view, p) {
  const running = view.clock.running === p && !view.over;
  const low = clockLeft(view, p) < 30000;
  return ctx.h("span", { class: `clock${running ? " running" : ""}${low ? " low" : ""}`, "data-seat": p }, clockText(view, p));
}

// The clocks tick on the page; the server keeps the time that counts (a clock run out: the view says who lost).
setInterval(() => {
  const view = game.view;
  if (game.id === null || !view || !view.clock) return;
  for (const node of document.querySelectorAll(".knights .clock[data-seat]")) {
    const seat = Number(node.dataset.seat);
    node.textContent = clockText(view, seat);
    node.classList.toggle("low", clockLeft(view, seat) < 30000);
    node.classList.toggle("running", view.clock.running === seat && !view.over);
  }
  const out = view.clock.running !== null && !view.over && clockLeft(view, view.clock.running) <= 0;
  if (out && performance.now() - game.refreshedAt > 2000) refreshSoon();
}, 250);

// The table as the reveal has shown it so far (the step on the screen included): the events not yet come to are
// taken back from the view (the castles taken and their points, the sword passed, the next tile turned up), so
// that the table never tells a round's result before its step; the castle at stake stays until the next is
// turned up.
function tableAsShown(view) {
  const upTo = Math.min(game.shown + 1, view.events.length);
  const hidden = view.events.slice(upTo);
  if (!hidden.length) return view;
  const turnedUp = view.events.slice(0, upTo).reverse().find((e) => e.type === "TileRevealed");
  const shown = {
    ...view, points: [...view.points], castles: view.castles.map((c) => [...c]), revealing: true,
    tile: turnedUp ? tileOf(turnedUp.tile) : null,
  };
  for (const e of hidden.slice().reverse()) {
    if (e.type === "CastleTaken") {
      shown.points[e.player] -= e.points;
      const at = shown.castles[e.player].lastIndexOf(e.tile_name);
      if (at >= 0) shown.castles[e.player].splice(at, 1);
    } else if (e.type === "SwordPassed") shown.sword = e.previous;
    else if (e.type === "TileRevealed") shown.round = e.round - 1;
  }
  if (hidden.some((e) => e.type === "GameEnded")) shown.over = false;
  return shown;
}

function tableView(whole) {
  const { h } = ctx;
  const view = tableAsShown(whole);
  const tile = view.tile
    ? h("div", { class: `k-tile k-kind-${view.tile.kind || "drum"}`, id: "k-tile" },
      knightsTile({ ...view.tile, name: t(`card-tile.${view.tile.id}`) }, 56), h("strong", {}, t(`card-tile.${view.tile.id}`)))
    : h("div", { class: "k-tile" }, "—");
  // On a phone each seat's row is a block of its own, each number with its column's name (data-label, cards.css);
  // the roles keep it a table for screen readers.
  const cell = (column, attrs, ...content) => h("td", { role: "cell", "data-label": t(`page.knights.column.${column}`), ...attrs }, ...content);
  const rows = view.names.map((_, p) =>
    h("tr", { role: "row", class: p === view.current && !whole.over && !view.revealing ? "k-now" : "", "data-seat": p },
      h("td", { role: "cell", class: "k-seat" }, seatLabel(view, p), p === view.sword ? h("span", { class: "k-sword" }, ` [${t("page.knights.sword")}]`) : null,
        p === view.youngest ? h("span", { class: "muted", title: t("page.knights.youngest") }, " ★") : null,
        whole.clock && PEOPLE.includes(whole.seats[p]) ? [" ", clockBadge(whole, p)] : null),
      cell("points", { class: "num k-points" }, view.points[p]),
      cell("castles", { class: "k-castles" }, view.castles[p].length ? view.castles[p].map(textOf).join(t("list.separator")) : "—"),
      cell("hand", { class: "num" }, view.hand_sizes[p]),
      cell("camp", { class: "num" }, view.camp_sizes[p]),
      cell("chosen", { class: "k-chosen" }, view.chosen[p] ? "✓" : "")));
  return h("section", { class: "panel k-table", id: "k-table" },
    view.over ? h("p", { id: "k-round" }, t("page.result.over")) : h("p", { id: "k-round" }, view.round ? t("page.knights.round", { n: view.round, of: view.rounds }) : "", " ", tile),
    h("div", { class: "k-scroll" }, h("table", { class: "k-players", role: "table" },
      h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, ["player", "points", "castles", "hand", "camp", "chosen"].map((c) => h("th", { role: "columnheader" }, t(`page.knights.column.${c}`))))),
      h("tbody", { role: "rowgroup" }, rows))),
    h("p", { class: "muted" }, t("page.knights.table-note", { player: { seat: view.sword }, tiles: view.unseen.length ? view.unseen.map(textOf).join(t("list.separator")) : "—" })));
}

// A step of the reveal. A round's steps (the cards laid, then K4's steps 1 to 5, or the recruitment) gather on the
// screen one after another; the tile turned up and the game's end are shown on their own, the round before them
// below. Each step's effect is on the table with it.
function renderStep(stage) {
  const { h } = ctx;
  const at = game.shown;
  const event = game.view.events[at];
  game.stepping = true;
  if (logged(event)) {
    stage.append(h("h3", {}, t("page.knights.reveal-round", { n: event.round })), roundLog(event.round, at), revealControls());
  } else {
    stage.append(h("h3", {}, t("page.knights.reveal")),
      h("div", { class: `k-event k-ev-${event.type} current${appears(at) ? " fresh" : ""}`, id: "k-event", "data-round": event.round ?? "" },
        eventPicture(event), stepLines(event, null).map((l) => h("p", {}, l))),
      revealControls(), lastRound(at));
  }
}

// A round's step that goes in its list: not the tile turned up, not the game's end, not one that tells nothing.
const logged = (event) => event.type !== "TileRevealed" && event.type !== "GameEnded" && !quiet(event);
const NUMBERED = ["ShepherdsReturn", "DuplicatesCancelled", "CastleTaken", "CardsToCamp", "SwordPassed"];

// An event's lines; a numbered step (K4's 1 to 5) says its number among the steps shown, as some are left out.
function stepLines(event, n) {
  if (!(event.messages && event.messages.length)) return event.lines;
  return event.messages.map((m) => t(m.key, n === null ? m.params || {} : { ...(m.params || {}), n }));
}

// The numbers of the steps of a round shown up to the event at `upTo`, by event index.
function stepNumbers(round, upTo) {
  const numbers = new Map();
  let n = 0;
  game.view.events.forEach((e, i) => {
    if (i <= upTo && e.round === round && logged(e) && NUMBERED.includes(e.type)) numbers.set(i, ++n);
  });
  return numbers;
}

// Whether the step at `at` comes onto the screen now (it moves in, and screen readers are told it), not drawn
// again for another reason.
function appears(at) {
  if (at <= game.appeared) return false;
  game.appeared = at;
  const event = game.view.events[at];
  announce(stepLines(event, stepNumbers(event.round, at).get(at) ?? null).join(" "));
  return true;
}

function logItem(event, at, n) {
  const { h } = ctx;
  const now = at === game.shown;
  return h("li", { class: `k-event k-ev-${event.type}${now ? " current" : ""}${now && appears(at) ? " fresh" : ""}`, id: now ? "k-event" : null, "data-round": event.round ?? "" },
    eventPicture(event), stepLines(event, n ?? null).map((l) => h("p", {}, l)));
}

// The steps of a round so far, to the event at `upTo`.
function roundLog(round, upTo) {
  const numbers = stepNumbers(round, upTo);
  const items = [];
  game.view.events.forEach((e, i) => {
    if (i <= upTo && e.round === round && logged(e)) items.push(logItem(e, i, numbers.get(i)));
  });
  return ctx.h("ol", { class: "k-log", id: "k-log", "data-round": round }, items);
}

// The last round whose steps were all shown before the event at `before`: its result stays on the screen with
// the next round's tile and hand (or the game's end).
function lastRound(before) {
  const { h } = ctx;
  const last = game.view.events.slice(0, before).reverse().find(logged);
  if (!last) return "";
  return h("section", { class: "k-last-round", id: "k-last-round" },
    h("h3", {}, t("page.knights.last-round", { n: last.round })), roundLog(last.round, before - 1));
}

function revealControls() {
  const { h } = ctx;
  const held = revealHeld();
  return h("div", { class: "k-step-buttons" },
    h("button", { type: "button", id: "k-hold", "data-held": String(held), onclick: () => holdReveal(!revealHeld()) },
      t(held ? "page.knights.resume" : "page.knights.hold")),
    h("button", { type: "button", class: "primary", id: "k-next", onclick: () => nextStep() }, t("page.knights.next")),
    h("button", { type: "button", id: "k-skip", onclick: skipReveal }, t("page.knights.skip")));
}

// The reveal goes on by itself while the stage shows a step and the person has not held it; a drawing of the page
// for another reason (a live event) leaves the step's time as it was.
function scheduleReveal() {
  if (!game.stepping || revealHeld()) {
    stopReveal();
    return;
  }
  if (game.revealTimer !== null && game.revealAt === game.shown) return;
  stopReveal();
  const visit = game.visit;
  const at = game.shown;
  game.revealAt = at;
  game.revealTimer = setTimeout(() => {
    game.revealTimer = null;
    if (stillOn(visit) && game.view && game.shown === at) nextStep();
  }, game.view.events[at].type === "CardsRevealed" ? CARDS_MS : STEP_MS);
}

function stopReveal() {
  clearTimeout(game.revealTimer);
  game.revealTimer = null;
  game.revealAt = -1;
}

// The next step: added to the round's list where it belongs there (the buttons stay, with the keyboard on them),
// else the page drawn again.
function nextStep() {
  const view = game.view;
  if (!view || game.shown >= view.events.length) return;
  game.shown += 1;
  skipQuiet();
  const at = game.shown;
  const event = view.events[at];
  const log = document.getElementById("k-log");
  if (event && logged(event) && log && game.stepping && Number(log.dataset.round) === event.round) {
    showRevision();
    const before = document.getElementById("k-event");
    if (before) {
      before.removeAttribute("id");
      before.classList.remove("current", "fresh");
    }
    log.append(logItem(event, at, stepNumbers(event.round, at).get(at)));
    redrawTable();
    scheduleReveal();
  } else {
    render();
  }
}

function skipReveal() {
  game.shown = game.view.events.length;
  markSeen();
  render();
}

// Pause (kept for the next rounds) or Continue: the button says which it does next, and keeps the keyboard.
function holdReveal(hold) {
  localStorage.setItem(REVEAL_KEY, hold ? "hold" : "play");
  const button = document.getElementById("k-hold");
  if (button) {
    button.textContent = t(hold ? "page.knights.resume" : "page.knights.hold");
    button.dataset.held = String(hold);
  }
  if (hold) stopReveal();
  else nextStep(); // the step held was read: the next one now
}

function announce(text) {
  const region = document.getElementById("announce");
  if (region) region.textContent = text;
}

// A tile of the table from its id ("stone-big", "drum"), as the view gives the one at stake.
function tileOf(id) {
  const [kind, size] = id.split("-");
  return kind === "drum" ? { id, kind: null, points: 0 } : { id, kind, points: size === "big" ? 2 : 1 };
}

// The pictures of a reveal's step: the tile turned up, or the cards every player laid.
function eventPicture(event) {
  const { h } = ctx;
  if (event.type === "TileRevealed") return h("div", { class: "k-event-art" }, knightsTile({ ...tileOf(event.tile), name: "" }, 64));
  if (event.type === "CardsRevealed") {
    return h("div", { class: "k-event-art k-laid" }, event.choices.map((cards, p) =>
      h("span", { class: "k-laid-seat", "data-seat": p }, h("span", { class: "k-laid-name" }, nameOf(game.view, p)), cards.map((c) => cardPicture(c, 34)))));
  }
  return null;
}

// A card's face: its picture, its name, and its strength against each castle kind (the kind of the castle on
// the table marked), or the shepherd's blank.
function cardFace(c, mine, now) {
  const { h } = ctx;
  const kinds = Object.keys(mine.kind_names);
  return [
    cardPicture(c.card),
    h("span", { class: "k-card-name" }, t(`card.${c.card}`)),
    c.strength
      ? h("span", { class: "k-strengths" }, kinds.map((k) => h("span", { class: k === now ? "k-str now" : "k-str", "data-kind": k, title: t("page.knights.strength", { kind: message(`castle-kind.${k}`), n: c.strength[k] }) },
        kindMark(k), h("span", { class: "sr-only" }, `${t(`castle-kind.${k}`)} `), h("b", { class: "k-str-value" }, c.strength[k]))))
      : h("span", { class: "k-strengths muted" }, t("page.knights.blank")),
  ];
}

// The end: how it ended (by its rules: the ranking; by a resignation, a clock or an abort: that), then a rematch for
// a game with friends, the record and the lobby.
function renderOver(stage) {
  const { h } = ctx;
  const view = game.view;
  const mine = held();
  const box = h("div", { id: "k-over", class: "k-over" });
  if (view.result) {
    const r = view.result;
    const rows = r.ranking.map((p, i) => h("tr", { "data-seat": p },
      h("td", {}, i + 1), h("td", {}, seatLabel(view, p)), h("td", { class: "num" }, r.points[p]),
      h("td", { class: "num" }, r.hand_sizes[p]), h("td", { class: "num" }, p === view.youngest ? "★" : "")));
    const place = mine.length === 1 ? r.ranking.indexOf(mine[0]) + 1 : 0;
    box.append(h("h3", {}, t("page.knights.winner", { name: seatLabel(view, r.ranking[0]) })),
      place ? h("p", { id: "k-place", class: "k-big" }, t("page.knights.you-finished", { place, of: r.ranking.length })) : null,
      h("p", { class: "muted" }, t("page.knights.tiebreaks")),
      h("table", { class: "k-ranking" },
        h("thead", {}, h("tr", {}, ["#", t("page.knights.column.player"), t("page.knights.column.points"), t("page.knights.column.hand"), t("page.knights.youngest")].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows)));
  }
  const ended = view.ended;
  if (ended && ended.reason !== "abort" && ended.loser !== null) {
    // Who resigned or ran out of time loses; the others win.
    const winners = view.names.map((_, p) => p).filter((p) => p !== ended.loser);
    let headline = winners.length === 1 ? t("page.knights.winner", { name: seatLabel(view, winners[0]) })
      : t("page.knights.winners", { names: winners.map((p) => seatLabel(view, p)) });
    if (mine.length === 1) headline = mine[0] === ended.loser ? t("page.result.you-lost") : t("page.result.you-win");
    if (!view.result) box.append(h("h3", { id: "k-headline" }, headline));
  }
  if (ended) box.append(h("p", { id: "k-ended", class: "k-big", "data-reason": ended.reason },
    t(`page.ended.${ended.reason}`, ended.loser === null ? {} : { player: { seat: ended.loser } })));
  const tools = h("div", { class: "tools" });
  if (withFriends(view) && mine.length) {
    const taken = view.rematch && ctx.seats.held(view.rematch).length;
    tools.append(h("button", { type: "button", class: "primary", id: "k-rematch", onclick: rematch },
      view.rematch ? t("page.game.rematch-accept") : t("page.game.rematch")));
    if (taken) tools.lastChild.dataset.taken = "true";
  } else if (view.rematch && !mine.length) {
    tools.append(h("a", { class: "button", id: "k-watch-rematch", href: `#/knights/${view.rematch}/watch` }, t("page.knights.watch-rematch")));
  }
  tools.append(h("a", { class: "button", href: api.recordUrl(view.id), download: `rycerze-${view.id}.json` }, t("page.lobby.export")),
    h("a", { class: "button", href: "#/" }, t("page.header.games")));
  box.append(tools, h("p", { class: "error", id: "k-error", role: "alert", hidden: !game.error }, game.error || ""));
  stage.append(box, lastRound(view.events.length));
}

// Seats wait for friends: the link to send (it holds the invitation code, never a seat's token), or, for a rematch,
// the names of those who are to take their seats.
function invitation(view, open) {
  const { h } = ctx;
  if (!held().length) return h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.game.waiting-seats")));
  const entry = ctx.seats.of(view.id);
  const invite = entry && entry.invite;
  if (!invite && open.every((s) => s.name)) {
    return h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.game.rematch-waiting", { names: open.map((s) => s.name) })));
  }
  const box = h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("page.knights.waiting-friends", { n: open.length })));
  if (invite) box.append(h("p", {}, t("page.game.invite-hint")), ctx.copyBox("invite-link", t("page.game.invite-link"), ctx.pageUrl(`#/knights-join/${view.id}/${invite}`)));
  else {
    // The code is not kept here (the seat opened on another device): the old one stops working, a new one is sent.
    box.append(h("button", { type: "button", id: "k-new-invite", onclick: async () => {
      try {
        await api.invite(view.id, tokenOf(held()[0]));
        render();
      } catch (err) {
        showKError(err.message);
      }
    } }, t("page.knights.new-invite")));
  }
  return box;
}


// Links that stay: to watch the game, and to reopen this seat on another device (it holds the seat's token).
function seatLinks(view) {
  const { h } = ctx;
  const mine = held();
  const box = h("details", { class: "panel seat-links", open: game.linksOpen, ontoggle: (ev) => (game.linksOpen = ev.target.open) },
    h("summary", {}, t("page.game.links")),
    ctx.copyBox("watch-link", t("page.game.watch-link"), ctx.pageUrl(`#/knights/${view.id}/watch`)));
  if (mine.length === 1) box.append(h("p", { class: "muted small" }, t("page.game.seat-link-hint")),
    ctx.copyBox("seat-link", t("page.game.seat-link"), ctx.pageUrl(`#/seat/${view.id}/${mine[0]}/${tokenOf(mine[0])}/knights`)));
  return box;
}

// Resign (one seat held: the others win) and, in a game with friends, abort while not every person has moved.
function toolsRow(view) {
  const { h } = ctx;
  const tools = h("div", { class: "tools k-tools", id: "k-tools" });
  const mine = held();
  const waiting = (view.players_at || []).some((s) => s.player === "open");
  if (mine.length === 1 && !waiting) tools.append(h("button", { type: "button", class: "danger", id: "k-resign", onclick: () => resign(mine[0]) }, t("page.game.resign")));
  if (mine.length && abortable(view)) {
    tools.append(h("button", { type: "button", id: "k-abort", title: t("page.knights.abort-hint"), onclick: () => abort(mine[0]) }, t("page.game.abort")));
  }
  if (mine.length) tools.append(...turnOptions(h));
  tools.append(h("p", { class: "error", id: "k-error", role: "alert", hidden: !game.error }, game.error || ""));
  return tools;
}

// The view says whether the game may still end with no result (a game with friends before every person has made a
// first move); a 409 "started" (this page had not heard of the moves) hides the button too.
const abortable = (view) => !!view.can_abort && !game.noAbort && !view.over;

function drawHand(stage, mine) {
  const { h } = ctx;
  const now = mine.tile && mine.tile.kind;
  const seatName = nameOf(mine, mine.seat);
  if (mine.phase === "choose") {
    const play = h("button", { type: "button", class: "primary", id: "k-play", disabled: true, onclick: () => send(mine.seat, `play:${game.selected.join("+")}`) }, t("page.knights.play"));
    const cards = [];
    const wanted = [...game.selected]; // the cards chosen before the page was drawn again
    game.selected = [];
    const mark = (button, card, on) => {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.classList.toggle("selected", on);
      if (on) game.selected.push(card);
      else game.selected.splice(game.selected.indexOf(card), 1);
      play.disabled = game.selected.length !== 2;
    };
    for (const c of mine.hand) {
      for (let i = 0; i < c.count; i++) {
        const button = h("button", { type: "button", class: "k-card", "data-card": c.card, "aria-pressed": "false" }, cardFace(c, mine, now));
        button.addEventListener("click", () => {
          const on = button.getAttribute("aria-pressed") === "true";
          if (!on && game.selected.length >= 2) return;
          mark(button, c.card, !on);
        });
        const at = wanted.indexOf(c.card);
        if (at >= 0 && game.selected.length < 2) {
          wanted.splice(at, 1);
          mark(button, c.card, true);
        }
        cards.push(button);
      }
    }
    stage.append(h("h3", {}, t("page.knights.your-hand", { name: seatName })),
      h("p", { class: "muted" }, t("page.knights.choose-two", { tile: mine.tile ? message(`card-tile.${mine.tile.id}`) : "" })),
      h("div", { class: "k-hand", id: "k-hand" }, cards), play,
      mine.camp.length ? h("p", { class: "muted" }, t("page.knights.camp-list", { cards: mine.camp.map((c) => message(`card.${c.card}`)) })) : "");
  } else {
    stage.append(h("h3", {}, t("page.knights.recruit-title", { name: seatName })),
      h("p", { class: "muted" }, t("page.knights.recruit-hint")),
      h("div", { class: "k-hand" }, mine.camp.map((c) => h("button", { type: "button", class: "k-recruit", "data-card": c.card, onclick: () => send(mine.seat, `recruit:${c.card}`) },
        cardFace(c, mine, null)))),
      h("p", { class: "muted" }, t("page.knights.hand-list", { cards: mine.hand.map((c) => (c.count > 1 ? message("page.knights.cards-times", { card: message(`card.${c.card}`), n: c.count }) : message(`card.${c.card}`))) })));
  }
}

// ------------------------------------------------------------------ actions

async function send(seat, action) {
  if (game.busy) return;
  game.busy = true;
  const visit = game.visit;
  try {
    const revision = game.hand ? game.hand.revision : game.view.revision;
    await api.act(game.id, seat, action, revision, ctx.lang(), tokenOf(seat));
    if (!stillOn(visit)) return;
    game.seat = null;
    game.hand = null;
    game.selected = [];
    game.error = null;
    game.busy = false;
    // The table after the move: when the computer is to choose, it says so (thinking), and its `change` follows.
    await refresh();
  } catch (err) {
    game.busy = false;
    if (!stillOn(visit)) return;
    showKError(err.message);
    if (err.status === 409) refreshSoon();
  } finally {
    game.busy = false;
  }
}

// After a resignation or an abort: the game's end as the server says it.
async function ending(call) {
  if (game.busy) return;
  game.busy = true;
  const visit = game.visit;
  try {
    await call();
    if (!stillOn(visit)) return;
    game.seat = null;
    game.hand = null;
    game.error = null;
    game.busy = false;
    await refresh();
  } catch (err) {
    game.busy = false;
    if (!stillOn(visit)) return;
    // Every person has moved meanwhile (this page had not heard of it): no abort any more, and it says why.
    if (err.code === "started") game.noAbort = true;
    game.error = err.code === "started" ? t("page.knights.abort-started") : err.message;
    refreshSoon();
  } finally {
    game.busy = false;
  }
}

function resign(seat) {
  if (!confirm(t("page.knights.confirm-resign"))) return;
  ending(() => api.resign(game.id, game.view.revision, ctx.lang(), tokenOf(seat)));
}

function abort(seat) {
  if (!confirm(t("page.game.confirm-abort"))) return;
  // No revision: whatever happened since this page was drawn, the server's own rule decides (409 "started").
  ending(() => api.abort(game.id, null, ctx.lang(), tokenOf(seat)));
}

// Offer the rematch, or take the seats this page held in the one offered (each with its old seat's token); the new
// game's tokens are kept as any game's are.
async function rematch() {
  const view = game.view;
  let next = view.rematch;
  try {
    if (!(next && ctx.seats.held(next).length)) {
      for (const seat of held()) next = (await api.rematch(view.id, ctx.lang(), tokenOf(seat))).id;
    }
    if (next) location.hash = `#/knights/${next}`;
  } catch (err) {
    showKError(err.message);
  }
}
