// The lobby: a new game (against the computer, at one screen, or a friend elsewhere by a link), the list of this
// browser's games (the games whose seat tokens it holds: resume, replay, export, delete), importing a saved
// game, the Rycerze i zamki panel; and the page a friend's invitation link opens.

import { CLOCKS, games, identity, knights, players, seats } from "./api.js";
import { knightsLobby } from "./knights.js";
import { meetPanel } from "./meet.js";
import { turnOptions } from "./turn.js";
import { dateText, describeGame, h, main, message, ruleWords, showError, state, t, valueText } from "./ui.js";
import { listedBox, liveGamesPanel } from "./watchlist.js";

// The list follows the games while it is open: asked again every few seconds (only while the page is seen), and
// drawn again only when something changed (a move, a result, a friend who joined).
const LOBBY_EVERY_MS = 3000;
// The games listed at first, and how many more each "Show more games" adds.
const LOBBY_PAGE = 30;
const SERVER_PAGE = 200;

// The first ``count`` games of this browser (castle and Rycerze i zamki, the latest changed first), asked a page at a
// time, and whether more follow.
async function lobbyGames(count) {
  const held = { castle: [], knights: [], more: false };
  for (let offset = 0; offset < count; offset += SERVER_PAGE) {
    const page = await games.lobby(offset, Math.min(SERVER_PAGE, count - offset));
    held.castle.push(...page.castle);
    held.knights.push(...page.knights);
    held.more = page.more;
    if (!page.more) break;
  }
  return held;
}

// Both lists, and the button that lists more games when there are more.
function renderLists(list, knightsList, held) {
  renderGameList(list, held.castle);
  renderKnightsList(knightsList, held.knights);
  if (held.more) {
    list.append(h("button", {
      type: "button", class: "more-games", id: "more-games", onclick: async () => {
        state.lobbyCount = (state.lobbyCount || LOBBY_PAGE) + LOBBY_PAGE;
        try {
          const more = await lobbyGames(state.lobbyCount);
          renderLists(list, knightsList, more);
          followLobby(list, knightsList, JSON.stringify(more));
        } catch (err) {
          showError(err.message);
        }
      },
    }, t("page.lobby.more")));
  }
}

function followLobby(list, knightsList, shown) {
  clearTimeout(state.lobbyTimer);
  const open = () => state.screen === "lobby" && document.body.contains(list);
  const tick = async () => {
    state.lobbyTimer = null;
    if (!open()) return;
    if (!document.hidden) {
      try {
        const held = await lobbyGames(state.lobbyCount || LOBBY_PAGE);
        const now = JSON.stringify(held);
        if (open() && now !== shown) {
          shown = now;
          keepFocus(() => renderLists(list, knightsList, held));
        }
      } catch {
        // The next round asks again.
      }
    }
    if (open()) state.lobbyTimer = setTimeout(tick, LOBBY_EVERY_MS);
  };
  state.lobbyTimer = setTimeout(tick, LOBBY_EVERY_MS);
}

// A redrawn list keeps the keyboard where it was: on the same button of the same game.
function keepFocus(redraw) {
  const active = document.activeElement;
  const item = active && active.closest ? active.closest(".game-item") : null;
  const index = item ? [...item.querySelectorAll("a, button")].indexOf(active) : -1;
  redraw();
  if (!item || index < 0) return;
  const again = document.querySelector(`.game-item[data-id="${item.dataset.id}"]`);
  const target = again && again.querySelectorAll("a, button")[index];
  if (target) target.focus({ preventScroll: true });
}

export async function openLobby() {
  state.screen = "lobby";
  state.gameId = null;
  state.view = null;
  clearTimeout(state.lobbyTimer);
  main.innerHTML = "";
  let meta;
  try {
    meta = await offered();
  } catch (err) {
    main.append(h("p", { class: "error" }, err.message));
    return;
  }
  const form = newGameForm(meta);
  const list = h("section", { class: "panel games", id: "games" });
  const importBox = importForm();
  // "Your move": its tone and the notifications (turn.js), switched here as on a game's screen.
  const turnBox = h("div", { class: "tools lobby-options", id: "lobby-options" }, ...turnOptions(h));
  main.append(h("div", { class: "lobby" }, form, h("div", { class: "lobby-right" }, meetPanel(), list, liveGamesPanel(), importBox, turnBox)));
  const knightsList = h("section", { class: "panel games knights-games", id: "knights-games" });
  main.append(h("div", { class: "lobby knights-lobby" }, knightsLobby(), knightsList));
  try {
    await games.adopt().catch(() => null); // games stored before seats: this machine's browser takes them once
    await players.sync().catch(() => null); // the player's games made or joined on another device
    state.lobbyCount = LOBBY_PAGE;
    const held = await lobbyGames(state.lobbyCount);
    renderLists(list, knightsList, held);
    followLobby(list, knightsList, JSON.stringify(held));
  } catch (err) {
    list.append(h("p", { class: "error" }, err.message));
  }
}

function radio(name, value, label, checked) {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), " ", label);
}

// What the server offers for a new game (/api/meta, asked once a page, at its start): the computer's levels,
// weakest first, and the registry of rule sets (the editions, the expansions and variants, every rule set's name).
async function offered() {
  state.meta = state.meta || (await games.meta());
  return state.meta;
}

// An expansion's or variant's box is named by its key as the older protocol's field is (gate-guard: gate_guard).
const boxName = (option) => option.key.replaceAll("-", "_");

// The edition and the options a rule set's name is made of (an unknown or missing name: the default edition).
function ruleSetParts(meta, name) {
  const parts = typeof name === "string" ? name.split("+") : [];
  const editions = meta.edition_options.map((e) => e.key);
  const edition = editions.includes(parts[0]) ? parts[0] : editions[0];
  return { edition, keys: new Set(parts.filter((p) => meta.options.some((o) => o.key === p))) };
}

// The rule set a player chose before: its name, or the fields older pages kept (edition, sokol, gate_guard).
function savedRuleSet(meta, saved) {
  if (saved.rules) return ruleSetParts(meta, saved.rules);
  const chosen = ruleSetParts(meta, saved.edition);
  for (const o of meta.options) if (saved[boxName(o)]) chosen.keys.add(o.key);
  return chosen;
}

// The editions as radios, then a box for each expansion and variant, labelled by the page's words for them; an
// option that needs another says so beside its box.
function rulesFieldset(meta, saved) {
  const chosen = savedRuleSet(meta, saved);
  const needs = (o) => ` ${t("page.rules.needs", { options: o.requires.map((k) => message(`page.rules.short.${k}`)) })}`;
  return h("fieldset", {}, h("legend", {}, t("page.lobby.edition")),
    meta.edition_options.map((e) => radio("edition", e.key, t(ruleWords(e)), chosen.edition === e.key)),
    meta.options.map((o) => h("label", { class: "choice" },
      h("input", { type: "checkbox", name: boxName(o), "data-option": o.key, checked: chosen.keys.has(o.key) }), " ", t(ruleWords(o)),
      o.requires.length ? h("span", { class: "muted small", id: `${o.key}-needs` }, needs(o)) : null)));
}

// A box is open only while what its option needs is chosen (else it is unchecked, and says what it needs).
function syncOptions(meta, form) {
  const box = (key) => form.querySelector(`input[data-option="${key}"]`);
  for (let changed = true; changed;) { // again until nothing changes: an option may need one that needs another
    changed = false;
    for (const o of meta.options) {
      const missing = o.requires.some((k) => !box(k) || !box(k).checked);
      const input = box(o.key);
      if (input.disabled !== missing || (missing && input.checked)) changed = true;
      input.disabled = missing;
      if (missing) input.checked = false;
      const note = form.querySelector(`#${o.key}-needs`);
      if (note) note.hidden = !missing;
    }
  }
}

// The name of the rule set the form chooses: the one of the server's names made of the edition and the boxes ticked.
function chosenRuleSet(meta, form) {
  const data = new FormData(form);
  const parts = [data.get("edition"), ...meta.options.filter((o) => data.get(boxName(o)) === "on").map((o) => o.key)];
  const same = (name) => name.split("+").length === parts.length && parts.every((p) => name.split("+").includes(p));
  return meta.rule_sets.find(same) || null;
}

function newGameForm(meta) {
  const levels = meta.levels;
  const saved = JSON.parse(localStorage.getItem("zamek-new-game") || "{}");
  const opt = (key, fallback) => (saved[key] !== undefined ? saved[key] : fallback);
  const level = levels.includes(saved.level) ? saved.level : levels[0]; // a level no longer offered: the weakest
  const form = h(
    "form",
    { class: "panel new-game", id: "new-game" },
    h("h2", {}, t("page.lobby.new-game")),
    h("fieldset", {}, h("legend", {}, t("page.lobby.opponent")),
      radio("mode", "computer", t("page.lobby.vs-computer"), opt("mode", "computer") === "computer"),
      radio("mode", "hotseat", t("page.lobby.hotseat"), opt("mode", "computer") === "hotseat"),
      radio("mode", "friend", t("page.lobby.vs-friend-link"), opt("mode", "computer") === "friend")),
    h("fieldset", { class: "computer-only" }, h("legend", {}, t("page.lobby.level")),
      levels.map((l) => radio("level", l, t(`page.level.${l}`), level === l))),
    h("fieldset", { class: "seat-choice" }, h("legend", {}, t("page.lobby.seat")),
      ["first", "second", "random"].map((s) => radio("seat", s, t(`page.seat.${s}`), opt("seat", "first") === s))),
    h("fieldset", { class: "friend-only" }, h("legend", {}, t("page.lobby.friend-options")),
      h("label", { class: "choice", for: "clock" }, t("page.label", { label: t("page.clock.label") })),
      h("select", { name: "clock", id: "clock" }, Object.keys(CLOCKS).map((k) => h("option", { value: k, selected: opt("clock", "none") === k }, t(`page.clock.${k}`)))),
      h("label", { class: "choice" }, t("page.label", { label: t("page.lobby.your-name") }), h("input", { type: "text", name: "name", id: "your-name", maxlength: 24, value: opt("name", "") })),
      h("label", { class: "choice", title: t("page.lobby.allow-hints-hint") }, h("input", { type: "checkbox", name: "hints", id: "allow-hints", checked: opt("hints", false) }), " ", t("page.lobby.allow-hints")),
      listedBox(h, t, "listed", opt("listed", false)),
      identity.get() ? h("label", { class: "choice", title: t("page.players.rated-hint") }, h("input", { type: "checkbox", name: "rated", id: "rated" }), " ", t("page.players.rated")) : null),
    rulesFieldset(meta, saved),
    h("p", { class: "error", id: "error", hidden: true, role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "start-game" }, t("page.lobby.start")),
  );
  const sync = () => {
    const data = new FormData(form);
    form.querySelectorAll(".computer-only").forEach((f) => (f.hidden = data.get("mode") !== "computer"));
    form.querySelectorAll(".friend-only").forEach((f) => (f.hidden = data.get("mode") !== "friend"));
    form.querySelectorAll(".seat-choice").forEach((f) => (f.hidden = data.get("mode") === "hotseat"));
    syncOptions(meta, form);
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const rules = chosenRuleSet(meta, form);
    if (!rules) { // the boxes allow only the server's rule sets: this is not reached
      showError(t("page.error.error"));
      return;
    }
    const options = {
      mode: data.get("mode"),
      level: data.get("level") || "beginner",
      seat: data.get("seat") || "first",
      rules,
    };
    localStorage.setItem("zamek-new-game", JSON.stringify({ ...options, clock: data.get("clock"), name: data.get("name"), hints: data.get("hints") === "on", listed: data.get("listed") === "on" }));
    if (options.mode === "friend") {
      options.clock = CLOCKS[data.get("clock")] || null;
      options.name = (data.get("name") || "").trim() || null;
      options.hints = data.get("hints") === "on"; // the friend sees it before joining
      options.listed = data.get("listed") === "on";
      options.rated = data.get("rated") === "on"; // a rated game has no hints
      if (options.rated) options.hints = false;
    }
    try {
      const view = await games.create(options, state.lang);
      location.hash = `#/game/${view.id}`;
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

function renderGameList(container, lines) {
  container.innerHTML = "";
  const groups = [["playing", t("page.lobby.in-progress")], ["over", t("page.lobby.finished")]];
  for (const [status, title] of groups) {
    const mine = lines.filter((g) => g.status === status);
    container.append(h("h2", {}, title));
    if (!mine.length) {
      container.append(h("p", { class: "muted" }, t("page.lobby.no-games")));
      continue;
    }
    const ul = h("ul", { class: "game-list", "data-status": status });
    for (const g of mine) {
      const d = describeGame(g);
      const when = dateText(g.updated_at);
      const shared = g.mode === "friend" && !g.waiting;
      ul.append(h("li", { class: "game-item", "data-id": g.id },
        h("div", { class: "game-info" },
          h("span", { class: "score-pair" },
            h("span", { class: "dot p0" }), g.scores[0], " : ", g.scores[1], h("span", { class: "dot p1" })),
          h("span", {}, g.mode === "friend" ? opponent(g) : d.who,
            g.your_move ? h("span", { class: "badge your-move" }, t("page.lobby.your-move")) : null,
            g.waiting ? h("span", { class: "badge" }, t("page.lobby.waiting-badge")) : null,
            g.imported ? h("span", { class: "badge imported", title: t("page.lobby.import-title") }, t("page.lobby.imported")) : null),
          status === "over" ? outcome(g) : null,
          h("span", { class: "muted" }, d.line, ` · ${t("page.game.turn", { n: g.turn })} · ${when}`)),
        h("div", { class: "game-actions" },
          status === "playing" ? h("a", { class: "button primary", href: `#/game/${g.id}` }, t("page.lobby.resume")) : null,
          h("a", { class: "button", href: `#/replay/${g.id}/` }, t("page.lobby.replay")),
          h("a", { class: "button", href: games.recordUrl(g.id), download: `zamek-${g.id}.json` }, t("page.lobby.export")),
          h("button", { type: "button", class: "danger", onclick: async () => {
            // A game a friend has joined stays on the server for them: this browser only forgets it.
            if (!confirm(t(shared ? "page.lobby.confirm-forget" : "page.lobby.confirm-delete"))) return;
            if (shared) seats.forget(g.id);
            else await games.remove(g.id);
            openLobby();
          } }, t(shared ? "page.lobby.forget" : "page.lobby.delete")))));
    }
    container.append(ul);
  }
}

// A game against a friend: "against Ola" (the other seat's name, once they chose one).
function opponent(g) {
  const other = g.seats.length === 1 ? (g.names || [])[1 - g.seats[0]] : null;
  return other ? t("page.lobby.against", { name: other }) : t("page.lobby.vs-friend");
}

// A finished game's line: who won, and which side this browser played.
function outcome(g) {
  const mine = g.mode === "computer" ? [g.human] : g.seats;
  const winners = g.winners || [];
  let words;
  if (winners.length === 0) words = message("page.result.no-result"); // aborted: nobody won, nobody shared
  else if (winners.length !== 1) words = message("page.result.shared");
  else if (mine.length === 1) words = message(mine[0] === winners[0] ? "page.result.you-win" : g.mode === "computer" ? "page.result.computer-wins" : "page.result.you-lost");
  else words = message("page.result.wins", { player: { seat: winners[0] } });
  const text = g.ended ? t("page.result.ended-how", { result: words, how: message(`page.how.${g.ended}`) }) : t(words.key, words.params);
  return h("span", { class: "outcome", "data-winners": winners.join(",") },
    mine.length === 1 ? h("span", { class: `dot p${mine[0]}`, title: t("page.lobby.your-side") }) : null, text);
}

function importForm() {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "import-file" });
  const message = h("p", { class: "error", hidden: true, role: "alert", id: "import-error" });
  const form = h("form", { class: "panel import" }, h("h2", {}, t("page.lobby.import-title")), h("p", { class: "muted" }, t("page.lobby.import-hint")),
    input, h("button", { type: "submit" }, t("page.lobby.import-button")), message);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.hidden = true;
    const file = input.files && input.files[0];
    if (!file) {
      message.textContent = t("page.lobby.import-no-file");
      message.hidden = false;
      return;
    }
    try {
      const view = await games.importRecord(await file.text(), state.lang);
      location.hash = view.over ? `#/replay/${view.id}/` : `#/game/${view.id}`;
    } catch (err) {
      message.textContent = err.message;
      message.hidden = false;
    }
  });
  return form;
}

function renderKnightsList(container, lines) {
  container.innerHTML = "";
  container.append(h("h2", {}, t("page.knights.games")));
  if (!lines.length) {
    container.append(h("p", { class: "muted" }, t("page.lobby.no-games")));
    return;
  }
  const ul = h("ul", { class: "game-list" });
  for (const g of lines) {
    const who = valueText(g.seats.map((s, i) => (s === "person" || s === "friend" ? message("player.name", { n: i + 1 }) : message(`page.knights.bot.${s}`))));
    const shared = g.seats.includes("friend");
    const finished = message("page.lobby.finished");
    const progress = g.status === "over" ? (g.ended ? t("page.result.ended-how", { result: finished, how: message(`page.how.${g.ended}`) }) : t(finished.key))
      : t("page.knights.round", { n: g.round, of: 7 });
    ul.append(h("li", { class: "game-item", "data-id": g.id },
      h("div", { class: "game-info" },
        h("span", {}, g.points.join(" : ")),
        h("span", {}, who, g.your_move ? h("span", { class: "badge your-move" }, t("page.lobby.your-move")) : null,
          g.waiting ? h("span", { class: "badge" }, t("page.lobby.waiting-badge")) : null),
        h("span", { class: "muted", "data-ended": g.ended || "" }, progress)),
      h("div", { class: "game-actions" },
        h("a", { class: "button primary", href: `#/knights/${g.id}` }, g.status === "over" ? t("page.knights.show-end") : t("page.lobby.resume")),
        g.status === "over" ? h("a", { class: "button", href: knights.recordUrl(g.id), download: `rycerze-${g.id}.json` }, t("page.lobby.export")) : null,
        h("button", { type: "button", class: "danger", onclick: async () => {
          if (!confirm(t(shared ? "page.lobby.confirm-forget" : "page.lobby.confirm-delete"))) return;
          try {
            if (!shared) await knights.remove(g.id);
          } catch (err) {
            if (err.code !== "shared-game") throw err;
          }
          seats.forget(g.id);
          openLobby();
        } }, t(shared ? "page.lobby.forget" : "page.lobby.delete")))));
  }
  container.append(ul);
}

// A friend's invitation link: choose a name and take the free seat (or, when this browser already holds a seat of
// the game, go straight to it).
export async function openJoin(id, invite) {
  state.screen = "join";
  main.innerHTML = "";
  if (seats.held(id).length) {
    location.replace(`#/game/${id}`);
    return;
  }
  let view;
  try {
    view = await games.get(id, state.lang);
  } catch (err) {
    main.append(h("p", { class: "panel error" }, err.status === 404 ? t("page.error.game-missing") : err.message));
    return;
  }
  const host = view.seats.find((s) => s.player === "person");
  const error = h("p", { class: "error", id: "error", hidden: true, role: "alert" });
  const name = h("input", { type: "text", name: "name", id: "join-name", maxlength: 24, value: localStorage.getItem("zamek-name") || "" });
  const form = h("form", { class: "panel join", id: "join" },
    h("h2", {}, t("page.join.title")),
    h("p", {}, host && host.name ? t("page.join.text", { name: host.name }) : t("page.join.text-friend")),
    h("p", { class: "muted" }, describeGame(view).line),
    // Joining agrees to the game's rules, hints included: the friend reads it first.
    h("p", { id: "join-hints", "data-hints": String(view.hints) }, t(view.hints ? "page.join.hints" : "page.join.no-hints")),
    h("label", { class: "choice" }, t("page.label", { label: t("page.lobby.your-name") }), name),
    h("button", { type: "submit", class: "primary", id: "join-game" }, t("page.join.button")), error,
    h("p", {}, h("a", { href: `#/watch/${id}` }, t("page.join.just-watch"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    localStorage.setItem("zamek-name", name.value.trim());
    try {
      await games.join(id, invite, name.value.trim(), state.lang);
      location.hash = `#/game/${id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  main.append(form);
  if (view.seats.every((s) => s.player !== "open")) {
    error.textContent = t("page.join.seat-taken");
    error.hidden = false;
  }
}
