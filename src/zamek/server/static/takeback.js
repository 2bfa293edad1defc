// Taking back one's last turn in a castle game with a friend, when the other player agrees (the server's
// /takeback, /takeback/accept, /takeback/decline, /takeback/withdraw): the button that asks, the note while the request
// waits with its Withdraw, the other player's Accept / Decline, and the note that a request was declined or withdrawn. What may be asked, and what a takeback takes
// back (the asking player's last turn and the other player's reply, if any), is the server's: the view's `takeback`.
// The other page learns of a request, and of its answer, through the game's live events.

import { call, seats } from "./api.js";
import { h, seatValue, state, t } from "./ui.js";

// The seat this page plays in a game with a friend: the one seat it holds (none for a spectator).
function ownSeat(view) {
  if (state.spectator || view.mode !== "friend") return null;
  const held = seats.held(view.id);
  return held.length === 1 ? held[0] : null;
}

async function send(view, seat, route, refresh) {
  if (state.busy) return;
  state.busy = true;
  try {
    await call("POST", `/api/games/${view.id}/takeback${route}?lang=${encodeURIComponent(state.lang)}`, { revision: view.position }, seats.token(view.id, seat));
    state.error = null;
  } catch (err) {
    state.error = err.message;
  } finally {
    state.busy = false;
  }
  await refresh();
}

// Add to the turn panel what this page's player may do about takebacks now; `refresh` draws the game again.
export function showTakeback(panel, view, refresh) {
  const takeback = view.takeback;
  const seat = ownSeat(view);
  if (!takeback || seat === null) return;
  const other = 1 - seat;
  if (takeback.asked_by === other) {
    panel.append(h("div", { class: "invitation", id: "takeback-prompt", role: "group", "aria-labelledby": "takeback-asked" },
      h("p", { id: "takeback-asked" }, h("strong", {}, t("page.game.takeback-asked", { player: seatValue(other) }))),
      takeback.moves[seat] ? h("p", { class: "muted small" }, t("page.game.takeback-your-reply")) : null,
      h("div", { class: "tools" },
        h("button", { type: "button", class: "primary", id: "takeback-accept", onclick: () => send(view, seat, "/accept", refresh) }, t("page.game.takeback-accept")),
        h("button", { type: "button", id: "takeback-decline", onclick: () => send(view, seat, "/decline", refresh) }, t("page.game.takeback-decline")))));
  } else if (takeback.asked_by === seat) {
    panel.append(h("div", { class: "invitation", role: "group" },
      h("p", { class: "muted", id: "takeback-waiting" }, t("page.game.takeback-waiting", { player: seatValue(other) })),
      h("div", { class: "tools" },
        h("button", { type: "button", id: "takeback-withdraw", onclick: () => send(view, seat, "/withdraw", refresh) }, t("page.game.takeback-withdraw")))));
  } else if (takeback.can_ask[seat]) {
    panel.append(h("div", { class: "tools" },
      h("button", { type: "button", id: "takeback", title: t("page.game.takeback-hint"), onclick: () => send(view, seat, "", refresh) }, t("page.game.takeback"))));
  } else if (takeback.declined.includes(seat)) {
    panel.append(h("p", { class: "muted small", id: "takeback-declined" }, t("page.game.takeback-declined")));
  } else if (takeback.withdrawn.includes(seat)) {
    panel.append(h("p", { class: "muted small", id: "takeback-withdrawn" }, t("page.game.takeback-withdrawn")));
  }
}
