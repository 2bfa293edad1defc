// Rycerze i zamki: the lobby's panel (new game, list) and the game screen.
// The server sends each seat only what that seat may see; the page asks for a person's hand only after
// the hand-over screen, and shows every reveal step by step. Cards are drawn as cards (a picture, the name,
// the three strengths with each castle kind's mark) and the tiles as tiles (knights-art.js).

import { cardPicture, kindMark, knightsTile } from "./knights-art.js";

let ctx = null; // { h, api, seats, watch, t, main, lang: () => string }
const game = { id: null, view: null, shown: 0, seat: null, selected: [], busy: false, spectator: false, stop: null, connected: [], visit: 0 };

// Each opening of the game screen is a visit, ended by leaving it (the rules page, the lobby) or opening another.
// An answer that comes back after its visit ended draws nothing: it would put the game over the page now shown.
const stillOn = (visit) => visit === game.visit && game.id !== null;

export function initKnights(context) {
  ctx = context;
}

const seenKey = (id) => `zamek-knights-seen-${id}`;
const withLang = (path) => `${path}${path.includes("?") ? "&" : "?"}lang=${ctx.lang()}`;

function seatLabel(view, p) {
  const kind = view.seats[p];
  const name = view.names[p];
  if (kind === "person" || kind === "friend") {
    const mine = !game.spectator && ctx.seats.held(view.id).includes(p);
    const at = (view.players_at || [])[p];
    // A game with friends: every person's seat but this browser's own says whether its page is open.
    const withFriends = view.seats.includes("friend");
    let dot = "";
    if (at && at.player === "open") dot = ` · ${ctx.t("seatOpen")}`;
    else if (withFriends && at && !mine) dot = game.connected.includes(p) ? " ●" : " ○";
    return `${name}${mine && ctx.seats.held(view.id).length === 1 ? ` (${ctx.t("youShort")})` : ""}${dot}`;
  }
  return `${name} · ${ctx.t("k-bot-" + kind)}`;
}

const held = () => (game.spectator ? [] : ctx.seats.held(game.id));
const tokenOf = (seat) => (game.spectator ? null : ctx.seats.token(game.id, seat));

// --------------------------------------------------------------------- lobby

export function knightsLobby() {
  const { h, t, api } = ctx;
  const kinds = ["person", "friend", "random", "heuristic", "mc"];
  const count = h("select", { name: "k-players", id: "k-players" }, [2, 3, 4].map((n) => h("option", { value: n, selected: n === 2 }, n)));
  const seatsBox = h("div", { class: "k-seats" });
  const seatSelects = [];
  for (let i = 0; i < 4; i++) {
    const sel = h("select", { name: `k-seat-${i}`, id: `k-seat-${i}` },
      kinds.map((k) => h("option", { value: k, selected: (i === 0 ? "person" : "heuristic") === k }, t("k-seat-" + k))));
    seatSelects.push(sel);
    seatsBox.append(h("label", { class: "choice k-seat-line", "data-seat": i }, `${t("k-player", { n: i + 1 })}: `, sel));
  }
  const sync = () => {
    seatsBox.querySelectorAll(".k-seat-line").forEach((line, i) => (line.hidden = i >= Number(count.value)));
  };
  count.addEventListener("change", sync);
  sync();
  const error = h("p", { class: "error", hidden: true, role: "alert" });
  const form = h("form", { class: "panel new-game knights-new", id: "knights-new" },
    h("h2", {}, t("k-title")),
    h("p", { class: "muted" }, t("k-intro")),
    h("label", { class: "choice" }, `${t("k-players")}: `, count),
    seatsBox, error,
    h("button", { type: "submit", class: "primary", id: "k-start" }, t("start")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seats = seatSelects.slice(0, Number(count.value)).map((s) => s.value);
    try {
      const view = await api("POST", withLang("/api/knights"), { seats });
      ctx.seats.remember("knights", view.id, view.tokens, view.invite);
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
  if (game.stop) game.stop(); // another game's live events, opened from this screen
  game.stop = null;
  game.visit += 1;
  const visit = game.visit;
  game.id = id;
  game.view = null;
  game.seat = null;
  game.selected = [];
  game.spectator = spectator;
  game.connected = [];
  game.shown = Number(localStorage.getItem(seenKey(id)) || 0);
  await refresh();
  if (!stillOn(visit) || !game.view) return;
  const token = spectator ? null : ctx.seats.any(id);
  game.stop = ctx.watch(`/api/knights/${id}/events`, token, game.view.revision, (type, data) => {
    if (!stillOn(visit)) return;
    if (type === "change" && game.view && data.revision > game.view.revision && !game.busy) refresh();
    else if (type === "presence") {
      game.connected = data.connected;
      if (game.view && game.seat === null) render();
    }
  }, (online) => online && stillOn(visit) && game.view && !game.busy && refresh());
}

// A friend's invitation to a Rycerze i zamki game: take the first free seat.
export async function openKnightsJoin(id, invite) {
  const { h, t, main } = ctx;
  main.innerHTML = "";
  if (ctx.seats.held(id).length) {
    location.replace(`#/knights/${id}`);
    return;
  }
  const error = h("p", { class: "error", id: "error", hidden: true, role: "alert" });
  const name = h("input", { type: "text", name: "name", id: "join-name", maxlength: 24, value: localStorage.getItem("zamek-name") || "" });
  const form = h("form", { class: "panel join", id: "join" },
    h("h2", {}, t("k-title")), h("p", {}, t("joinText", { who: t("aFriend") })),
    h("label", { class: "choice" }, `${t("yourName")}: `, name),
    h("button", { type: "submit", class: "primary", id: "join-game" }, t("joinButton")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    localStorage.setItem("zamek-name", name.value.trim());
    try {
      const view = await ctx.api("POST", withLang(`/api/knights/${id}/join`), { invite, name: name.value.trim() || null });
      ctx.seats.remember("knights", id, view.tokens);
      location.hash = `#/knights/${id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  main.append(form);
}

export function knightsLanguageChanged() {
  if (game.id) refresh();
}

export function leaveKnights() {
  game.visit += 1;
  game.id = null;
  if (game.stop) game.stop();
  game.stop = null;
}

async function refresh() {
  const { api } = ctx;
  const visit = game.visit;
  if (!stillOn(visit)) return;
  let view;
  try {
    view = await api("GET", withLang(`/api/knights/${game.id}`));
  } catch (err) {
    if (!stillOn(visit)) return;
    ctx.main.innerHTML = "";
    ctx.main.append(ctx.h("p", { class: "error" }, err.message));
    return;
  }
  if (!stillOn(visit)) return;
  game.view = view;
  if (game.shown > game.view.events.length) game.shown = 0;
  render();
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

function render() {
  const { h, t, main } = ctx;
  const view = game.view;
  main.innerHTML = "";
  document.body.dataset.revision = `${view.revision}:${game.shown}:${game.seat}`;
  const stage = h("section", { class: "panel k-stage", id: "k-stage", "aria-live": "polite" });
  main.append(h("div", { class: "knights" }, h("h2", {}, t("k-title")), tableView(view), stage));
  while (game.shown < view.events.length && quiet(view.events[game.shown])) game.shown += 1;
  markSeen();
  if (game.shown < view.events.length) return renderStep(stage);
  if (view.over) return renderOver(stage);
  const open = (view.players_at || []).filter((s) => s.player === "open").length;
  if (open) {
    const entry = ctx.seats.of(view.id);
    stage.append(h("div", { class: "invitation", id: "invitation" }, h("strong", {}, t("k-waiting-friends", { n: open })),
      entry && entry.invite ? h("p", {}, t("inviteHint"), " ", h("input", { type: "text", readonly: true, class: "link", id: "invite-link",
        value: `${location.origin}${location.pathname}#/knights-join/${view.id}/${entry.invite}` })) : null));
    return;
  }
  const who = view.person_to_act;
  if (who === null) {
    stage.append(h("p", { class: "muted" }, t("k-waiting")));
    return;
  }
  if (!held().includes(who)) {
    stage.append(h("p", { class: "muted", id: "k-their-turn" }, t("theirTurn", { who: view.names[who] })));
    return;
  }
  const persons = held().length;
  if (game.seat !== who) {
    if (persons > 1) {
      stage.append(h("div", { class: "k-handover", id: "k-handover" },
        h("p", { class: "k-big" }, t("k-pass", { player: view.names[who] })),
        h("p", { class: "muted" }, t("k-pass-hint")),
        h("button", { type: "button", class: "primary", id: "k-show", onclick: () => showHand(who) }, t("k-show", { player: view.names[who] }))));
      return;
    }
    showHand(who);
    return;
  }
}

async function showHand(seat) {
  const visit = game.visit;
  try {
    const mine = await ctx.api("GET", withLang(`/api/knights/${game.id}`), undefined, tokenOf(seat));
    if (!stillOn(visit)) return;
    game.seat = seat;
    game.selected = [];
    renderHand(mine);
  } catch (err) {
    if (stillOn(visit)) alert(err.message);
  }
}

// The table as the reveal has shown it so far: the events not yet stepped through are taken back from the
// view (the castles taken and their points, the sword passed, the next tile turned up), so that the table
// never tells a round's result before its step.
function tableAsShown(view) {
  const hidden = view.events.slice(Math.min(game.shown, view.events.length));
  if (!hidden.length) return view;
  const shown = { ...view, points: [...view.points], castles: view.castles.map((c) => [...c]), revealing: true };
  for (const e of hidden.slice().reverse()) {
    if (e.type === "CastleTaken") {
      shown.points[e.player] -= e.points;
      const at = shown.castles[e.player].lastIndexOf(e.tile_name);
      if (at >= 0) shown.castles[e.player].splice(at, 1);
    } else if (e.type === "SwordPassed") shown.sword = e.previous;
    else if (e.type === "TileRevealed") {
      shown.round = e.round - 1;
      shown.tile = null;
    }
  }
  if (hidden.some((e) => e.type === "GameEnded")) shown.over = false;
  return shown;
}

function tableView(whole) {
  const { h, t } = ctx;
  const view = tableAsShown(whole);
  const tile = view.tile
    ? h("div", { class: `k-tile k-kind-${view.tile.kind || "drum"}`, id: "k-tile" }, knightsTile(view.tile, 56), h("strong", {}, view.tile.name))
    : h("div", { class: "k-tile" }, "—");
  const rows = view.names.map((_, p) =>
    h("tr", { class: p === view.current ? "k-now" : "", "data-seat": p },
      h("td", {}, seatLabel(view, p), p === view.sword ? h("span", { class: "k-sword" }, ` [${t("k-sword")}]`) : null,
        p === view.youngest ? h("span", { class: "muted", title: t("k-youngest") }, " ★") : null),
      h("td", { class: "num k-points" }, view.points[p]),
      h("td", { class: "k-castles" }, view.castles[p].join(", ") || "—"),
      h("td", { class: "num" }, view.hand_sizes[p]),
      h("td", { class: "num" }, view.camp_sizes[p]),
      h("td", {}, view.chosen[p] ? "✓" : "")));
  return h("section", { class: "panel k-table" },
    view.over ? h("p", { id: "k-round" }, t("gameOver")) : h("p", { id: "k-round" }, view.round ? t("k-round", { n: view.round, of: view.rounds }) : "", " ", tile),
    h("div", { class: "k-scroll" }, h("table", { class: "k-players" },
      h("thead", {}, h("tr", {}, [t("k-col-player"), t("k-col-points"), t("k-col-castles"), t("k-col-hand"), t("k-col-camp"), t("k-col-chosen")].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows))),
    h("p", { class: "muted" }, `${t("k-sword")}: ${view.names[view.sword]} · ${t("k-unseen")}: ${view.unseen.join(", ") || "—"}`));
}

function renderStep(stage) {
  const { h, t } = ctx;
  const event = game.view.events[game.shown];
  stage.append(h("h3", {}, t("k-reveal")),
    h("div", { class: `k-event k-ev-${event.type}`, id: "k-event", "data-round": event.round ?? "" }, eventPicture(event), event.lines.map((l) => h("p", {}, l))),
    h("div", { class: "k-step-buttons" },
      h("button", { type: "button", class: "primary", id: "k-next", onclick: () => { game.shown += 1; markSeen(); render(); } }, t("k-next")),
      h("button", { type: "button", id: "k-skip", onclick: () => { game.shown = game.view.events.length; markSeen(); render(); } }, t("k-skip"))));
}

// The pictures of a reveal's step: the tile turned up, or the cards every player laid.
function eventPicture(event) {
  const { h } = ctx;
  if (event.type === "TileRevealed") {
    const [kind, size] = event.tile.split("-");
    const tile = kind === "drum" ? { kind: null, points: 0, name: "" } : { kind, points: size === "big" ? 2 : 1, name: "" };
    return h("div", { class: "k-event-art" }, knightsTile(tile, 64));
  }
  if (event.type === "CardsRevealed") {
    return h("div", { class: "k-event-art k-laid" }, event.choices.map((cards, p) =>
      h("span", { class: "k-laid-seat", "data-seat": p }, h("span", { class: "k-laid-name" }, game.view.names[p]), cards.map((c) => cardPicture(c, 34)))));
  }
  return null;
}

// A card's face: its picture, its name, and its strength against each castle kind (the kind of the castle on
// the table marked), or the shepherd's blank.
function cardFace(c, mine, now) {
  const { h, t } = ctx;
  const kinds = Object.keys(mine.kind_names);
  return [
    cardPicture(c.card),
    h("span", { class: "k-card-name" }, c.name),
    c.strength
      ? h("span", { class: "k-strengths" }, kinds.map((k) => h("span", { class: k === now ? "k-str now" : "k-str", "data-kind": k, title: `${mine.kind_names[k]}: ${c.strength[k]}` },
        kindMark(k), h("span", { class: "sr-only" }, `${mine.kind_names[k]} `), h("b", { class: "k-str-value" }, c.strength[k]))))
      : h("span", { class: "k-strengths muted" }, t("k-blank")),
  ];
}

function renderOver(stage) {
  const { h, t } = ctx;
  const r = game.view.result;
  const rows = r.ranking.map((p, i) => h("tr", { "data-seat": p },
    h("td", {}, i + 1), h("td", {}, seatLabel(game.view, p)), h("td", { class: "num" }, r.points[p]),
    h("td", { class: "num" }, r.hand_sizes[p]), h("td", { class: "num" }, p === game.view.youngest ? "★" : "")));
  const mine = held();
  const place = mine.length === 1 ? r.ranking.indexOf(mine[0]) + 1 : 0;
  stage.append(h("div", { id: "k-over", class: "k-over" },
    h("h3", {}, t("k-winner", { player: seatLabel(game.view, r.ranking[0]) })),
    place ? h("p", { id: "k-place", class: "k-big" }, t("k-you-finished", { place, of: r.ranking.length })) : null,
    h("p", { class: "muted" }, t("k-tiebreaks")),
    h("table", { class: "k-ranking" },
      h("thead", {}, h("tr", {}, ["#", t("k-col-player"), t("k-col-points"), t("k-col-hand"), t("k-youngest")].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows)),
    h("a", { class: "button", href: "#/" }, t("lobby"))));
}

function renderHand(mine) {
  const { h, t } = ctx;
  render();
  const stage = document.getElementById("k-stage");
  stage.innerHTML = "";
  const now = mine.tile && mine.tile.kind;
  const seatName = mine.names[mine.seat];
  document.body.dataset.revision = `${mine.revision}:${game.shown}:${game.seat}`;
  if (mine.phase === "choose") {
    const play = h("button", { type: "button", class: "primary", id: "k-play", disabled: true, onclick: () => send(mine.seat, `play:${game.selected.join("+")}`) }, t("k-play"));
    const cards = [];
    for (const c of mine.hand) {
      for (let i = 0; i < c.count; i++) {
        const button = h("button", { type: "button", class: "k-card", "data-card": c.card, "aria-pressed": "false" }, cardFace(c, mine, now));
        button.addEventListener("click", () => {
          const on = button.getAttribute("aria-pressed") === "true";
          if (!on && game.selected.length >= 2) return;
          button.setAttribute("aria-pressed", on ? "false" : "true");
          button.classList.toggle("selected", !on);
          if (on) game.selected.splice(game.selected.indexOf(c.card), 1);
          else game.selected.push(c.card);
          play.disabled = game.selected.length !== 2;
        });
        cards.push(button);
      }
    }
    stage.append(h("h3", {}, t("k-your-hand", { player: seatName })),
      h("p", { class: "muted" }, t("k-choose-two", { kind: mine.tile ? mine.tile.name : "" })),
      h("div", { class: "k-hand", id: "k-hand" }, cards), play,
      mine.camp.length ? h("p", { class: "muted" }, `${t("k-camp")}: ${mine.camp.map((c) => c.name).join(", ")}`) : "");
  } else {
    stage.append(h("h3", {}, t("k-recruit-title", { player: seatName })),
      h("p", { class: "muted" }, t("k-recruit-hint")),
      h("div", { class: "k-hand" }, mine.camp.map((c) => h("button", { type: "button", class: "k-recruit", "data-card": c.card, onclick: () => send(mine.seat, `recruit:${c.card}`) },
        cardFace(c, mine, null)))),
      h("p", { class: "muted" }, `${t("k-hand")}: ${mine.hand.map((c) => (c.count > 1 ? `${c.name} ×${c.count}` : c.name)).join(", ")}`));
  }
  stage.append(h("p", { class: "error", id: "k-error", hidden: true, role: "alert" }));
}

async function send(seat, action) {
  if (game.busy) return;
  game.busy = true;
  const visit = game.visit;
  try {
    await ctx.api("POST", withLang(`/api/knights/${game.id}/actions`), { seat, action, revision: game.view.revision }, tokenOf(seat));
    if (!stillOn(visit)) return;
    game.seat = null;
    game.selected = [];
    await refresh();
  } catch (err) {
    const box = document.getElementById("k-error");
    if (box) {
      box.textContent = err.message;
      box.hidden = false;
    }
  } finally {
    game.busy = false;
  }
}
