// Finding an opponent in the lobby (issue 39): this browser's player (made here from a name when it has none; the
// player's own page is players.js, #/me), the open
// challenges of everyone (accept one, or withdraw one's own), posting a challenge, and "play now" (quick pairing).
// The lobby's live events (/api/lobby/events) bring the list again when it changes, and tell the poster's page of the
// game made from its challenge: the page goes to it, the player's own token holding the seat.

import { CLOCKS, identity, lobby, players, seats, watch } from "./api.js";
import { describeGame, h, showError, state, t } from "./ui.js";

// The list is asked again now and then besides the events: it also tells the server this page is still here.
const LIST_EVERY_MS = 20000;

let stopStream = null;

// Go to a game made in the lobby: the player's token is the seat's.
function goTo(started) {
  const me = identity.get();
  seats.remember(started.game, started.game_id, [{ seat: started.seat, token: me.token }]);
  location.hash = started.game === "knights" ? `#/knights/${started.game_id}` : `#/game/${started.game_id}`;
}

function clockWords(clock) {
  const key = Object.keys(CLOCKS).find((k) => JSON.stringify(CLOCKS[k]) === JSON.stringify(clock && { kind: clock.kind, ...(clock.kind === "live" ? { minutes: clock.minutes, increment: clock.increment } : { days: clock.days }) }));
  return t(`page.clock.${key || "none"}`);
}

// The panel: who this browser plays as (or the form that makes its player), what to play, the open challenges.
export function meetPanel() {
  const panel = h("section", { class: "panel meet", id: "meet" }, h("h2", {}, t("page.meet.title")));
  const body = h("div", {});
  panel.append(body);
  const draw = () => {
    body.innerHTML = "";
    const me = identity.get();
    if (!me) {
      body.append(newPlayerForm(draw));
      return;
    }
    const list = h("div", { class: "challenge-list", id: "challenge-list" });
    body.append(h("p", { id: "playing-as" }, t("page.players.you-are", { name: me.name })), seekForm(list), list);
    follow(list);
  };
  draw();
  return panel;
}

function newPlayerForm(done) {
  const name = h("input", { type: "text", id: "player-name", maxlength: 20, minlength: 3, required: true, autocomplete: "nickname" });
  const error = h("p", { class: "error", hidden: true, role: "alert", id: "player-error" });
  const form = h("form", { id: "new-player" }, h("p", { class: "muted" }, t("page.meet.who-hint")),
    h("label", { class: "choice" }, t("page.label", { label: t("page.players.name") }), name),
    h("button", { type: "submit", id: "create-player" }, t("page.players.create")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      identity.set(await players.create(name.value.trim()));
      done();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return form;
}

// What to play: the game, the rule set (the castle game), the clock, rated; then post it or play now.
function seekForm(list) {
  const meta = state.meta || { rule_sets: [] };
  const game = h("select", { id: "seek-game" }, ["castle", "knights"].map((g) => h("option", { value: g }, t(`page.players.game-${g}`))));
  const rules = h("select", { id: "seek-rules" }, meta.rule_sets.map((r) => h("option", { value: r }, describeGame({ mode: "friend", level: null, rules: r }).rules)));
  const clock = h("select", { id: "seek-clock" }, Object.keys(CLOCKS).map((k) => h("option", { value: k, selected: k === "live-10-5" }, t(`page.clock.${k}`))));
  const rated = h("input", { type: "checkbox", id: "seek-rated" });
  const waiting = h("p", { id: "pairing-waiting", hidden: true }, t("page.meet.waiting"), " ");
  const error = h("p", { class: "error", hidden: true, role: "alert", id: "seek-error" });
  const seek = () => ({ game: game.value, rules: game.value === "castle" ? rules.value : null, clock: CLOCKS[clock.value], rated: rated.checked });
  const fail = (err) => {
    error.textContent = err.message;
    error.hidden = false;
  };
  let pairing = null;
  const stopWaiting = h("button", { type: "button", id: "stop-waiting", onclick: async () => {
    if (pairing) await lobby.withdraw(pairing).catch(() => null);
    pairing = null;
    waiting.hidden = true;
  } }, t("page.meet.stop-waiting"));
  waiting.append(stopWaiting);
  game.addEventListener("change", () => (rules.disabled = game.value !== "castle"));
  return h("form", { id: "seek", onsubmit: (ev) => ev.preventDefault() },
    h("label", { class: "choice" }, t("page.label", { label: t("page.players.game") }), game),
    h("label", { class: "choice" }, t("page.label", { label: t("page.meet.rules") }), rules),
    h("label", { class: "choice" }, t("page.label", { label: t("page.clock.label") }), clock),
    h("label", { class: "choice" }, rated, " ", t("page.meet.rated")),
    h("div", { class: "tools" },
      h("button", { type: "button", id: "post-challenge", onclick: async () => {
        error.hidden = true;
        try {
          await lobby.post(seek());
          await drawList(list);
        } catch (err) {
          fail(err);
        }
      } }, t("page.meet.post")),
      h("button", { type: "button", class: "primary", id: "play-now", onclick: async () => {
        error.hidden = true;
        try {
          const answer = await lobby.playNow(seek());
          if (answer.started) goTo(answer.started);
          else {
            pairing = answer.id;
            waiting.hidden = false;
          }
        } catch (err) {
          fail(err);
        }
      } }, t("page.meet.play-now"))),
    waiting, error);
}

async function drawList(list) {
  let answer;
  try {
    answer = await lobby.challenges();
  } catch {
    return; // the next round asks again
  }
  if (answer.started.length && state.screen === "lobby") {
    goTo(answer.started[0]);
    return;
  }
  list.innerHTML = "";
  list.append(h("h3", {}, t("page.meet.open")));
  if (!answer.challenges.length) {
    list.append(h("p", { class: "muted", id: "no-challenges" }, t("page.meet.none")));
    return;
  }
  const ul = h("ul", { class: "game-list" });
  for (const c of answer.challenges) {
    const what = c.game === "castle" ? describeGame({ mode: "friend", level: null, rules: c.rules }).rules : t("page.players.game-knights");
    const range = c.min_rating !== null || c.max_rating !== null ? ` · ${t("page.meet.range", { low: c.min_rating ?? "–", high: c.max_rating ?? "–" })}` : "";
    ul.append(h("li", { class: "game-item challenge", "data-id": c.id, "data-poster": c.poster },
      h("div", { class: "game-info" },
        h("span", {}, h("strong", {}, c.poster), " ", c.rating === null ? t("page.meet.new-player") : `(${Math.round(c.rating)})`,
          c.abandons ? h("span", { class: "badge warning abandons", title: t("page.players.abandons-hint") }, t("page.players.abandons")) : null),
        h("span", { class: "muted" }, `${what} · ${clockWords(c.clock)} · ${t(c.rated ? "page.meet.rated-badge" : "page.meet.casual-badge")}${range}`)),
      h("div", { class: "game-actions" }, c.mine
        ? h("button", { type: "button", class: "withdraw", onclick: async () => {
          await lobby.withdraw(c.id).catch((err) => showError(err.message));
          drawList(list);
        } }, t("page.meet.withdraw"))
        : h("button", { type: "button", class: "primary accept", onclick: async () => {
          try {
            goTo(await lobby.accept(c.id));
          } catch (err) {
            showError(err.message);
            drawList(list);
          }
        } }, t("page.meet.accept")))));
  }
  list.append(ul);
}

// The list follows the lobby's events while the lobby is shown (and is asked again now and then).
function follow(list) {
  if (stopStream) stopStream();
  const open = () => state.screen === "lobby" && document.body.contains(list);
  drawList(list);
  stopStream = watch("/api/lobby/events", null, null, (type, data) => {
    if (!open()) {
      stopStream();
      return;
    }
    if (type === "started") goTo(data);
    else if (type === "lobby") drawList(list);
  }, () => {}, lobby.headers());
  const tick = () => {
    if (!open()) {
      if (stopStream) stopStream();
      return;
    }
    if (!document.hidden) drawList(list);
    setTimeout(tick, LIST_EVERY_MS);
  };
  setTimeout(tick, LIST_EVERY_MS);
}
