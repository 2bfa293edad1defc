// A word at the table (either game): a player of a game with friends elsewhere says one of the fixed messages
// (the server's /api/meta `table_messages`, the page's words page.say.<key>; no other text), and every page of the
// game, the spectators' too, shows it for a while as a line with the speaker's colour. Anyone may hide these words:
// the choice is kept in this browser. The page that draws a game hands the words its live events bring to
// `hearWord`, and puts `talkBox` under its seats; the box is drawn again with the page, the words heard stay.

import { sayAtTable } from "./api.js";

const MUTE_KEY = "zamek-talk-muted";
// How long a word stays on the table, and how many are shown at most.
const SHOWN_MS = 10000;
const SHOWN_AT_MOST = 4;

let offered = []; // the keys of the messages, in the server's order
const heard = []; // { game, seat, message, at }
let drawLines = () => {};
let menuOpenFor = null; // the game whose menu is open: it stays open when the page draws the table again

const muted = () => localStorage.getItem(MUTE_KEY) === "1";

// The messages the server offers (its /api/meta `table_messages`), once the page knows them.
export function setTableMessages(keys) {
  offered = Array.isArray(keys) ? keys : [];
}

// A word that a game's live events brought (event `say`): shown unless the words are hidden.
export function hearWord(data) {
  if (muted()) return;
  heard.push({ game: data.game, seat: data.seat, message: data.message, at: Date.now() });
  while (heard.length > 32) heard.shift();
  drawLines();
  setTimeout(() => drawLines(), SHOWN_MS + 50);
}

// The table's box: the words said lately, the menu of messages (for a page that holds a seat: `speaker()` gives its
// seat and token, or null) and the box that hides the words. `nameOf(seat)` is a player's name as the page says it.
export function talkBox({ h, t, gameId, speaker, nameOf, onError }) {
  const lines = h("div", { class: "talk-lines", id: "talk-lines", "aria-live": "polite" });
  drawLines = () => {
    if (!document.body.contains(lines)) return;
    lines.innerHTML = "";
    if (muted()) return;
    const now = Date.now();
    for (const word of heard.filter((w) => w.game === gameId && now - w.at < SHOWN_MS).slice(-SHOWN_AT_MOST)) {
      lines.append(h("p", { class: "talk-line", "data-seat": word.seat, "data-message": word.message },
        h("span", { class: `dot p${word.seat}` }), " ",
        t("page.say.line", { player: nameOf(word.seat), message: t(`page.say.${word.message}`) })));
    }
  };
  const box = h("div", { class: "table-talk", id: "table-talk" }, lines);
  const seat = speaker();
  if (seat && offered.length) {
    const menu = h("details", { class: "talk-menu", id: "talk-menu", open: menuOpenFor === gameId,
      ontoggle: () => (menuOpenFor = menu.open ? gameId : null) },
      h("summary", { title: t("page.say.menu-label") }, t("page.say.menu")),
      h("div", { class: "talk-messages", role: "group", "aria-label": t("page.say.menu-label") },
        offered.map((key) => h("button", {
          type: "button", class: "talk-message", "data-message": key, onclick: async () => {
            menu.open = false;
            menuOpenFor = null;
            const now = speaker();
            if (!now) return;
            try {
              await sayAtTable(gameId, key, now.token);
            } catch (err) {
              onError(err.message);
            }
          },
        }, t(`page.say.${key}`)))));
    box.append(menu);
  }
  box.append(h("label", { class: "choice small talk-mute" },
    h("input", { type: "checkbox", id: "talk-mute", checked: muted(), onchange: (ev) => {
      if (ev.target.checked) localStorage.setItem(MUTE_KEY, "1");
      else localStorage.removeItem(MUTE_KEY);
      drawLines();
    } }), " ", t("page.say.mute")));
  queueMicrotask(() => drawLines());
  return box;
}
