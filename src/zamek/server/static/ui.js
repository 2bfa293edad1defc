// What the screens share: the page's state, building elements, words, the castle's geometry, small drawings.

import { games, seats } from "./api.js";
import { currentWords, tr } from "./i18n.js";
import { icon } from "./icons.js";
import { drawFigure, drawTile, el as svgEl } from "./tiles.js";
import { NOBODY } from "./words.js";

export const state = {
  lang: null, // chosen at the start among the server's languages (app.js), with its words loaded
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
  replaySeq: 0,
  replayMove: 0,
  meta: null, // what the server offers (/api/meta: the languages, the levels, the rule sets, the rates), asked once
};

export const main = document.getElementById("main");

// A message of the catalogue, in the page's language. In a castle game (the game, the replay) a message speaks in
// the words of the game's edition and as the page's player reads it (reader: "You", a friend's name); `options`
// may say other ones ({ edition, reader }).
export function t(key, params = {}, options = {}) {
  const view = state.view;
  const edition = "edition" in options ? options.edition : view ? view.edition : null;
  const reader = options.reader || readerOf(view);
  return tr(key, params, edition, reader);
}

// A message sent by the server ({key, params}), in the page's words.
export function say(message, options = {}) {
  return t(message.key, message.params || {}, options);
}

// A value as a message shows it: a list joined, a {seat} as the reader knows the player, a {term}, a {key, params}.
export function valueText(value, options = {}) {
  const view = state.view;
  const edition = "edition" in options ? options.edition : view ? view.edition : null;
  return currentWords().value(value, edition, options.reader || readerOf(view));
}

// A word of the game (term.road, term.family-house...), in the words of the game's edition.
export const term = (key, options = {}) => t(`term.${key}`, {}, options);
// The same as a value of a message (said in the edition of the message it goes in).
export const termValue = (key) => ({ term: `term.${key}` });
// A player as a value of a message: said as the reader knows them ("You", "Player 2", a friend's name).
export const seatValue = (seat) => ({ seat });
// A message as a value of another.
export const message = (key, params = {}) => ({ key, params });

// A text with its first letter capitalised (a word that begins a line), in the language's way.
export function upperFirst(text) {
  if (!text) return text;
  const locale = currentWords() ? currentWords().locale : undefined;
  const first = String.fromCodePoint(text.codePointAt(0));
  return first.toLocaleUpperCase(locale) + text.slice(first.length);
}

// A date and a time (local), in the language's way of writing them (day, month, year, hours and minutes, in digits).
export function dateText(date) {
  const d = new Date(date);
  const two = (n) => String(n).padStart(2, "0");
  return t("page.date", { day: two(d.getDate()), month: two(d.getMonth() + 1), year: String(d.getFullYear()), hour: two(d.getHours()), minute: two(d.getMinutes()) });
}

export function h(tag, attrs = {}, ...children) {
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

// The castle a game was played on: its rule set and its board (games saved before board 2 keep board 1).
export async function geometryFor(view) {
  const key = `${view.sokol}:${view.board}`;
  if (!state.geometry.has(key)) {
    const geo = await games.geometry(view.sokol, view.board);
    state.geometry.set(key, geo);
    state.tileDefs.set(view.sokol, geo.tiles);
  }
  return state.geometry.get(key);
}

export function showError(message) {
  state.error = message;
  const box = document.getElementById("error");
  if (box) {
    box.textContent = message || "";
    box.hidden = !message;
  }
}

export function stopPolling() {
  if (state.poll) clearTimeout(state.poll);
  state.poll = null;
}

// Leaving a screen: no more polling, no more live events of its game (nor of the rematch a spectator waits for).
export function stopWatching() {
  stopPolling();
  if (state.stopStream) state.stopStream();
  state.stopStream = null;
  if (state.stopFollow) state.stopFollow();
  state.stopFollow = null;
  state.following = null;
}

// The seats this page plays in a castle game, as its messages say "you": the human's against the computer, the
// one seat held in a game with a friend; none at one screen (two people) or when watching.
export function yourSeats(view) {
  if (!view || state.spectator) return [];
  if (view.mode === "computer") return view.human === null || view.human === undefined ? [] : [view.human];
  if (view.mode !== "friend") return [];
  const held = seats.held(view.id);
  return held.length === 1 ? held : [];
}

// The name a seat goes by on this page, where the catalogue's "Player N" is not it: the computer (and its level), a
// friend's chosen name.
function seatName(view, p) {
  if (view.mode === "computer" && p !== view.human) return t("page.player.computer", { level: message(`page.level.${view.level}`) }, { reader: NOBODY });
  if (view.mode !== "friend") return null;
  const seat = (view.seats || [])[p];
  return seat && seat.name ? seat.name : null;
}

// How the page's player reads a castle game's messages: their own seat is "you", the others by their names.
export function readerOf(view) {
  if (!view || !view.mode) return NOBODY;
  return { you: yourSeats(view), name: (p) => seatName(view, p) };
}

// A player's name as the panels show it: "You", "Computer (hard)", "Player 2", a friend's name ("Ola (you)" for the
// page's own seat in a game with a friend).
export function playerName(view, p) {
  if (view.mode === "friend") {
    const name = seatName(view, p) || t("player.name", { n: p + 1 }, { reader: NOBODY });
    const held = state.spectator ? [] : seats.held(view.id);
    return held.length === 1 && held[0] === p ? t("page.player.you-marked", { name }) : name;
  }
  return currentWords().value(seatValue(p), view.edition, readerOf(view));
}

// A text the server sends: its words, or a message ({key, params}) to say in the page's words.
export const textOf = (x) => (x === null || x === undefined ? "" : typeof x === "string" ? x : say(x));

// The choices' words, from what the view says of each (its feature's kind, its figure, its token).
// A figure on a feature of the tile just placed: "herald — road", "prince (herald) — road".
export function figureLabel(c) {
  const figure = c.piece === "follower" ? termValue(c.role) : message("server.view.special-figure", { piece: termValue(c.piece), role: termValue(c.role) });
  return t("server.view.figure", { figure, feature: termValue(c.kind) });
}

// A feature with its size: "road: 3 tiles".
export const featureWords = (kind, tiles) => t("server.view.feature-size", { feature: termValue(kind), tiles: message("count.tiles", { n: tiles }) });

// A token by its kind (Zamek's numbering) and the number printed on it in the edition played (C4).
export const tokenWords = (kind, number) => t("token.named", { number, name: { term: `token.${kind}` } });
// Its effect alone: "house x2".
export const tokenEffect = (kind) => t(`token.${kind}`);

// Several moves in words (a hint's, a decision's: a placement and a figure), joined: their messages in the page's
// words, or the server's words where it sends no message.
export function movesText(view, messages, words) {
  const texts = messages && messages.length ? messages.map((m) => lineText(view, null, m)) : words || [];
  // Told one after another as the catalogue joins clauses (list.clauses: "a; b" in English and Polish).
  return texts.reduceRight((rest, first) => (rest === null ? first : t("list.clauses", { first, rest })), null) ?? "";
}

// A line the server sends (a move, a score line): its message in the page's words, as the page's player reads it
// (in the words of the game's edition); where the server sends no message, its words.
export function lineText(view, words, message) {
  if (message) return t(message.key, message.params || {}, { edition: view.edition, reader: readerOf(view) });
  return words || "";
}

// The key of a rule set's part in the page's words: an edition, an expansion or a variant (/api/meta's options).
export const ruleWords = (option) => (currentWords().has(option.words) ? option.words : `page.rules.${option.key}`);

export function describeGame(g) {
  const level = message(`page.level.${g.level}`);
  const who = g.mode === "computer" ? t("page.lobby.vs-computer-level", { level }) : g.mode === "friend" ? t("page.lobby.vs-friend") : t("page.lobby.hotseat");
  // The rule set's name is its edition, then the keys of its expansions and variants (zamek+sokol+gate-guard).
  const [edition, ...options] = g.rules.split("+");
  const parts = [t(`page.rules.${edition}`), ...options.map((key) => t(`page.rules.short.${key}`))];
  // The same as words and signs: the gate guard's shield drawn beside its name.
  const line = h("span", { class: "rules" }, parts.flatMap((part, i) => [i ? " + " : null,
    options[i - 1] === "gate-guard" ? h("span", { class: "rule-sign", "data-rule": "gate-guard" }, icon("shield"), part) : part]));
  return { who, rules: parts.join(" + "), line };
}

export function tileSvg(tileId, sokol, rotation = 0, size = 120, cls = "tile-svg") {
  const tile = state.tileDefs.get(sokol).find((x) => x.id === tileId);
  const svg = svgEl("svg", { viewBox: "-0.02 -0.02 1.04 1.04", width: size, height: size, class: cls, role: "img", "aria-label": tileId });
  const g = svgEl("g", { transform: `rotate(${90 * rotation},0.5,0.5)` }, svg);
  drawTile(g, tile);
  return svg;
}

export function figureIcon(player, piece) {
  const svg = svgEl("svg", { viewBox: "-0.5 -0.8 1 1.3", width: 18, height: 22, class: "figure-icon", "aria-hidden": "true" });
  drawFigure(svg, [0, 0], player, { piece, size: 1 });
  return svg;
}

// The address of one of the page's screens (a hash), as a link to send or to keep.
export const pageUrl = (hash) => `${location.origin}${location.pathname}${hash}`;

// A link to hand on (an invitation, a watch link, a seat's link) with its Copy button.
export function copyBox(id, label, url) {
  // A text area, not a line: the whole link shows (its secret part is at its end).
  const input = h("textarea", { readonly: true, rows: 3, id, class: "link", spellcheck: "false", onfocus: (ev) => ev.target.select() }, url);
  return h("div", { class: "link-row" }, h("label", { for: id }, label), input,
    h("button", { type: "button", class: "copy", "data-for": id, onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        document.execCommand("copy");
      }
    } }, t("page.copy")));
}
