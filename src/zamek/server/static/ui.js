// What the screens share: the page's state, building elements, words, the castle's geometry, small drawings.

import { games, seats } from "./api.js";
import { guessLanguage, tr } from "./i18n.js";
import { drawFigure, drawTile, el as svgEl } from "./tiles.js";

export const state = {
  lang: guessLanguage(),
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
  meta: null, // what the server offers for a new game (/api/meta: the levels, the rule sets), asked once
};

export const main = document.getElementById("main");
export const t = (key, values) => tr(state.lang, key, values);

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

export function playerName(view, p) {
  if (view.mode === "computer") {
    return p === view.human ? t("you") : `${t("computer")} (${t("level-" + view.level)})`;
  }
  const base = view.terms[`player-${p + 1}`];
  if (view.mode !== "friend") return base;
  const seat = (view.seats || [])[p];
  const name = seat && seat.name ? seat.name : base;
  const held = state.spectator ? [] : seats.held(view.id);
  return held.length === 1 && held[0] === p ? `${name} (${t("youShort")})` : name;
}

// A line of the server's words (a move, a score line) with each player's generic name ("Player 1", the view's
// terms) given as this page names them ("You", "Computer (hard)", a friend's chosen name).
export function named(view, text) {
  let out = text;
  for (const p of [0, 1]) {
    const generic = view.terms[`player-${p + 1}`];
    const personal = playerName(view, p);
    if (generic && personal !== generic) out = out.split(generic).join(`\u0000${p}\u0000`);
  }
  return out.replace(/\u0000(\d)\u0000/g, (_, p) => playerName(view, Number(p)));
}

export function describeGame(g) {
  const who = g.mode === "computer" ? `${t("vsComputer")} (${t("level-" + g.level)})` : g.mode === "friend" ? t("vsFriend") : t("hotseat");
  // The rule set's name is its edition, then the keys of its expansions and variants (zamek+sokol+gate-guard).
  const [edition, ...options] = g.rules.split("+");
  return { who, rules: [t("edition-" + edition), ...options.map((key) => t("short-" + key))].join(" + ") };
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
    } }, t("copy")));
}
