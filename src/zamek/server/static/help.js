// The rules page (#/help, #/help/<section>): the game's rules in short, in English or Polish and in the words of
// either edition (Zamek 2020 or The Castle 2003), with pictures drawn by the board's own renderer (tiles.js) and
// Rycerze i zamki's (knights-art.js); and the switch of the first-game guide (guide.js).
//
// The texts are written for this project from its rules reference (the rule ids in the comments); they are the
// catalogue's (help.toml: page.help.*), the game's words its terms (terms.toml), and every rate of scoring they
// state the server's (/api/meta's `rates`: the engine states each once).

import { games } from "./api.js";
import { guideOn, restartGuide, setGuide } from "./guide.js";
import { icon } from "./icons.js";
import { cardPicture, kindMark, knightsTile } from "./knights-art.js";
import { drawFigure, drawSwatch, drawTile, drawToken, el, tileAnchors } from "./tiles.js";
import { h, main, message, state, t, upperFirst } from "./ui.js";

const EDITIONS = ["zamek", "castle2003"];
const EDITION_KEY = "zamek-help-edition";
const SECTIONS = ["goal", "tiles", "features", "figures", "scoring", "tokens", "end", "sokol", "knights", "guide"];

export function helpEdition() {
  const stored = localStorage.getItem(EDITION_KEY);
  if (EDITIONS.includes(stored)) return stored;
  const played = state.view && state.view.edition;
  return EDITIONS.includes(played) ? played : "zamek";
}

// ------------------------------------------------------------------------------------------- pictures

const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const rest = (...used) => ALL.filter((s) => !used.flat().includes(s));
const feature = (kind, segments, extra = {}) => ({ kind, segments, ...extra });
const tileOf = (id, features, fountain = false) => ({ id, features, fountain });

// Sample tiles, the board's way: a feature's kind, its segments of the edge (0-11, clockwise from the north-west).
const SAMPLES = {
  road: tileOf("help-road", [feature("road", [1, 7]), feature("meadow", [2, 3, 4, 5, 6]), feature("meadow", [8, 9, 10, 11, 0])]),
  house: tileOf("help-house", [feature("house", [11, 0, 1, 2, 3]), feature("meadow", rest([11, 0, 1, 2, 3]))]),
  pigsty: tileOf("help-pigsty", [feature("pigsty", [8, 9, 10, 11, 0, 1, 2]), feature("meadow", rest([8, 9, 10, 11, 0, 1, 2]))]),
  meadow: tileOf("help-meadow", [feature("meadow", ALL)]),
  shrine: tileOf("help-shrine", [feature("road", [4, 7]), feature("meadow", [5, 6]), feature("meadow", [8, 9, 10, 11, 0, 1, 2, 3], { shrines: 1 })]),
  stocks: tileOf("help-stocks", [feature("road", [1, 7], { stocks: 1 }), feature("meadow", [2, 3, 4, 5, 6]), feature("meadow", [8, 9, 10, 11, 0])]),
  fountain: tileOf("help-fountain", [feature("road", [1]), feature("road", [4]), feature("road", [7]), feature("meadow", [2, 3]), feature("meadow", [5, 6]), feature("meadow", [8, 9, 10, 11, 0])], true),
  chapel: tileOf("help-chapel", [feature("chapel", [10, 11, 0, 1, 2, 3, 4]), feature("meadow", rest([10, 11, 0, 1, 2, 3, 4]))]),
  nest: tileOf("help-nest", [feature("house", [6, 7, 8], { nests: 1 }), feature("road", [1]), feature("meadow", rest([6, 7, 8], [1]))]),
};

// An SVG picture `w` by `h` tiles, drawn by `draw(svg)`; `label` says what it shows.
function picture(w, hgt, draw, label, cls = "help-picture", scale = 72) {
  const svg = el("svg", { viewBox: `-0.05 -0.05 ${w + 0.1} ${hgt + 0.1}`, width: Math.round(scale * (w + 0.1)), height: Math.round(scale * (hgt + 0.1)), class: cls, role: "img", "aria-label": label });
  draw(svg);
  return svg;
}

function tileAt(svg, tile, x, y = 0) {
  drawTile(el("g", { transform: `translate(${x},${y})` }, svg), tile);
}

function figureOn(svg, tile, index, x, y = 0, { player = 0, piece = "follower", lying = false } = {}) {
  const at = tileAnchors(tile)[index];
  drawFigure(svg, [x + at[0], y + at[1]], player, { piece, lying, size: 0.32 });
}

// The points of `count` tiles (or spaces) at the server's rate `rate` (/api/meta's rates): the page states none.
function points(count, rate) {
  const rates = state.meta && state.meta.rates;
  return rates ? String(count * rates[rate]) : "";
}

// The number printed on each token, by its kind (Zamek's number): The Castle 2003 numbers them its own way (C4).
// The server's (/api/meta `token_numbers`, from zamek.castle.rules.tokens.printed_number).
const printedNumbers = (edition) => state.meta.token_numbers[edition];

// The knight, the one card the rules print (K2): its strength against each castle kind (/api/meta, from the
// card game's data).
const knight = () => state.meta.knight_strengths;

// The game's words every text of the rules may name (in the words of the edition read): {road}, {family_house}...
// as the word stands, {Road}, {Family_house}... with a capital; and the server's rates ({rate_road}, {rate_pigsty}...).
const TERMS = ["road", "house", "pigsty", "meadow", "shrine", "stocks", "fountain", "family-house", "herald", "squire",
  "farmer", "monk", "special-token", "chapel", "preacher", "prince", "falconer", "nest", "gate", "follower"];

function helpParams(edition) {
  const params = {};
  for (const key of TERMS) {
    const name = key.replace("-", "_");
    params[name] = { term: `term.${key}` };
    params[name[0].toUpperCase() + name.slice(1)] = upperFirst(t(`term.${key}`, {}, { edition }));
  }
  const rates = (state.meta && state.meta.rates) || {};
  for (const [key, value] of Object.entries(rates)) if (typeof value === "number") params[`rate_${key}`] = value;
  params.rate_house_doubled = rates.house * rates.token_factor;
  params.rate_pigsty_doubled = rates.pigsty * rates.token_factor;
  const chapel = rates.chapel || [];
  params.chapel_scale = chapel.slice(1, -1); // a complete chapel's points for 1 tile, 2 tiles...
  params.chapel_tiles = chapel.length - 2; // ...up to this many tiles
  params.chapel_most = chapel[chapel.length - 1]; // and for more
  params.chapel_from = chapel.length - 1;
  return params;
}

function pointsBadge(svg, [x, y], text) {
  el("circle", { cx: x, cy: y, r: 0.2, fill: "#fff6d8", stroke: "#7a5a08", "stroke-width": 0.03 }, svg);
  const label = el("text", { x, y: y + 0.075, "text-anchor": "middle", "font-size": 0.2, "font-weight": 800, fill: "#5b3a08" }, svg);
  label.textContent = text;
}

function mark(svg, [x, y], ok) {
  el("circle", { cx: x, cy: y, r: 0.16, fill: ok ? "#1d6b2f" : "#a33a2a", stroke: "#fff", "stroke-width": 0.03 }, svg);
  el("path", { d: ok ? `M${x - 0.08},${y} l0.05,0.06 l0.1,-0.12` : `M${x - 0.06},${y - 0.06} l0.12,0.12 M${x + 0.06},${y - 0.06} l-0.12,0.12`, stroke: "#fff", "stroke-width": 0.04, fill: "none", "stroke-linecap": "round" }, svg);
}

// Two tiles side by side: where they touch, a road meets a road (fits) or a house (does not fit) (Z7).
function placingPicture(label, ok) {
  const left = tileOf("help-left", [feature("road", [4, 10]), feature("meadow", [11, 0, 1, 2, 3]), feature("meadow", [5, 6, 7, 8, 9])]);
  const right = ok
    ? tileOf("help-right", [feature("road", [10, 7]), feature("meadow", [11, 0, 1, 2, 3, 4, 5, 6]), feature("meadow", [8, 9])])
    : tileOf("help-wrong", [feature("house", [9, 10, 11]), feature("meadow", rest([9, 10, 11]))]);
  return picture(2, 1, (svg) => {
    tileAt(svg, left, 0);
    tileAt(svg, right, 1);
    mark(svg, [1, 0.5], ok);
  }, label, "help-picture", 96);
}

// A complete feature across tiles, a figure on it and its points.
function scoringPicture(kind, label) {
  if (kind === "road") {
    const a = tileOf("help-r1", [feature("road", [4]), feature("meadow", rest([4]))], true);
    const b = tileOf("help-r2", [feature("road", [10, 4]), feature("meadow", [11, 0, 1, 2, 3]), feature("meadow", [5, 6, 7, 8, 9])]);
    const c = tileOf("help-r3", [feature("road", [10]), feature("house", [3, 4, 5]), feature("meadow", rest([10], [3, 4, 5]))]);
    return picture(3, 1, (svg) => {
      [a, b, c].forEach((t, i) => tileAt(svg, t, i));
      figureOn(svg, b, 0, 1);
      pointsBadge(svg, [2.75, 0.22], points(3, "road"));
    }, label, "help-picture", 96);
  }
  const a = tileOf(`help-${kind}1`, [feature(kind, [2, 3, 4, 5, 6]), feature("meadow", rest([2, 3, 4, 5, 6]))]);
  const b = tileOf(`help-${kind}2`, [feature(kind, [8, 9, 10, 11, 0]), feature("meadow", rest([8, 9, 10, 11, 0]))]);
  return picture(2, 1, (svg) => {
    tileAt(svg, a, 0);
    tileAt(svg, b, 1);
    figureOn(svg, a, 0, 0);
    pointsBadge(svg, [1.75, 0.22], points(2, kind));
  }, label, "help-picture", 96);
}

// Five spaces by three, some with tiles: the largest group of empty spaces joined by their sides (Z20).
function emptyAreaPicture(label) {
  const placed = ["11100", "10001", "11011"];
  const area = new Set(["1,1", "2,1", "3,1", "3,0", "4,0"]);
  const tile = SAMPLES.meadow;
  return picture(5, 3, (svg) => {
    placed.forEach((row, y) => [...row].forEach((c, x) => {
      if (c === "1") tileAt(svg, tile, x, y);
      else el("rect", { x, y, width: 1, height: 1, fill: area.has(`${x},${y}`) ? "#fff1b8" : "#efe8d8", stroke: "#b8a98c", "stroke-width": 0.02 }, svg);
    }));
    el("path", { d: "M1,1 H3 V0 H5 V1 H4 V2 H1 Z", fill: "none", stroke: "#c28a00", "stroke-width": 0.06, "stroke-linejoin": "round" }, svg);
    pointsBadge(svg, [2, 1.5], points(area.size, "empty_space"));
  }, label, "help-picture", 48);
}

function swatch(kind, label) {
  return picture(1, 1, (svg) => drawSwatch(svg, kind), label, "help-picture help-swatch", 52);
}

function tilePicture(tile, label, figure = null) {
  return picture(1, 1, (svg) => {
    tileAt(svg, tile, 0);
    if (figure) figureOn(svg, tile, figure.index, 0, 0, figure);
  }, label);
}

// ------------------------------------------------------------------------------------------------ page

// Open the rules page, at `section` if named.
export async function openHelp(section = null) {
  state.screen = "help";
  try {
    state.meta = state.meta || (await games.meta());
  } catch {
    // Without the server's rates the pictures go without their points; the page still reads.
  }
  if (state.screen === "help") renderHelp(section);
}

export function renderHelp(section = null) {
  const lang = state.lang;
  const edition = helpEdition();
  const common = helpParams(edition);
  const reads = { edition, reader: { you: [], name: null } };
  const w = (key, values = {}) => t(`page.help.${key}`, { ...common, ...values }, reads);
  const T = (key) => t(`term.${key}`, {}, reads);
  const rates = (state.meta && state.meta.rates) || {};
  main.innerHTML = "";
  const p = (key, values) => h("p", {}, w(key, values));
  const figure = (pic, caption) => h("figure", { class: "help-figure" }, pic, h("figcaption", {}, caption));
  const item = (pic, text) => h("li", { class: "help-item" }, pic, h("span", {}, text));
  const sectionOf = (id, ...children) => h("section", { class: "panel help-section", id: `help-${id}`, "aria-labelledby": `help-${id}-title` },
    h("h2", { id: `help-${id}-title` }, w(`s-${id}`)), ...children);

  const editionSwitch = h("div", { class: "help-editions", role: "radiogroup", "aria-label": w("edition") },
    h("span", { class: "muted" }, t("page.label", { label: w("edition") })),
    EDITIONS.map((e) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "help-edition", value: e, checked: e === edition, onchange: () => {
        localStorage.setItem(EDITION_KEY, e);
        renderHelp(section);
      } }), t(`page.rules.${e}`))));

  const contents = h("nav", { class: "panel help-contents", "aria-label": w("contents") },
    h("h2", {}, w("contents")),
    h("ol", {}, SECTIONS.map((id) => h("li", {}, h("a", { href: `#/help/${id}`, "data-section": id }, id === "guide" ? t("page.guide.title") : w(`s-${id}`))))));

  const numbers = printedNumbers(edition);
  const tokens = [1, 2, 3, 4, 5, 6, 7, 8, 9].sort((a, b) => numbers[a] - numbers[b]);
  const kinds = ["stone", "brick", "wood"];

  const guideBox = h("input", { type: "checkbox", id: "guide-on", checked: guideOn(), onchange: (ev) => setGuide(ev.target.checked) });
  const restarted = h("p", { class: "muted", id: "guide-restarted", hidden: true, role: "status" }, t("page.guide.restarted"));

  main.append(h("div", { class: "help", id: "help", "data-edition": edition, lang },
    h("div", { class: "help-head" },
      h("h1", {}, w("title")),
      h("button", { type: "button", id: "help-back", onclick: () => (history.length > 1 ? history.back() : (location.hash = "#/")) }, icon("back"), w("back"))),
    editionSwitch,
    contents,
    sectionOf("goal", p("goal-1"), p("goal-2")), // Z1-Z21
    sectionOf("tiles", p("tiles-1"), p("tiles-2"), // Z6-Z8
      h("div", { class: "help-row" },
        figure(placingPicture(w("tiles-fits"), true), w("tiles-fits")),
        figure(placingPicture(w("tiles-not"), false), w("tiles-not")))),
    sectionOf("features", p("features-1"), // Z9, Z12, Z14
      h("ul", { class: "help-list help-features" },
        ["road", "house", "pigsty", "meadow", "shrine", "stocks", "fountain"].map((kind) =>
          h("li", { class: "help-item", "data-kind": kind }, tilePicture(SAMPLES[kind], T(kind)), swatch(kind, T(kind)), h("span", {}, w(`f-${kind}`)))))),
    sectionOf("figures", p("figures-1"), // Z9-Z11, Z17
      h("ul", { class: "help-list" },
        item(tilePicture(SAMPLES.road, T("herald"), { index: 0 }), w("role-herald")),
        item(tilePicture(SAMPLES.house, T("squire"), { index: 0 }), w("role-squire")),
        item(tilePicture(SAMPLES.pigsty, T("farmer"), { index: 0 }), w("role-farmer")),
        item(tilePicture(SAMPLES.meadow, T("monk"), { index: 0, lying: true }), w("role-monk"))),
      p("figures-2"), p("figures-3")),
    sectionOf("scoring", p("scoring-1"), p("scoring-2"), // Z12-Z18
      h("ul", { class: "help-points" }, ["points-road", "points-house", "points-pigsty"].map((key) => h("li", {}, w(key)))),
      h("div", { class: "help-row" },
        figure(scoringPicture("road", w("ex-road", { tiles: 3, points: 3 * rates.road, with_stocks: 3 * rates.road_with_stocks })),
          w("ex-road", { tiles: 3, points: 3 * rates.road, with_stocks: 3 * rates.road_with_stocks })),
        figure(scoringPicture("house", w("ex-house", { tiles: 2, points: 2 * rates.house })), w("ex-house", { tiles: 2, points: 2 * rates.house })),
        figure(scoringPicture("pigsty", w("ex-pigsty", { tiles: 2, points: 2 * rates.pigsty })), w("ex-pigsty", { tiles: 2, points: 2 * rates.pigsty }))),
      p("scoring-3"), p("scoring-4"), p("scoring-5")),
    sectionOf("tokens", p("tokens-1"), p("tokens-when"), // Z4, Z16, Z19, C3, C4
      h("ul", { class: "help-list help-tokens" }, tokens.map((kind) => {
        const printed = numbers[kind];
        const name = t(`token.${kind}`, {}, reads);
        return h("li", { class: "help-item", "data-token": kind },
          picture(1, 1, (svg) => drawToken(svg, kind, printed), `${printed}: ${name}`, "help-picture help-token", 50),
          h("span", {}, h("strong", {}, `${printed}. ${name}`), " — ", w(`token-${kind}`)));
      })),
      p("tokens-end")),
    sectionOf("end", p("end-1"), // Z20, Z21
      h("ul", { class: "help-points" }, h("li", {}, w("end-meadow")), h("li", {}, w("end-family")), h("li", {}, w("end-tokens"))),
      figure(emptyAreaPicture(w("end-area", { n: 5 })), w("end-area", { n: 5 })),
      // What the players' panel projects during the game (panels.js links here), and the tokens it counts.
      p("end-projected"), h("p", {}, h("a", { href: "#/help/tokens", id: "help-end-tokens" }, w("end-see-tokens")))),
    sectionOf("sokol", p("sokol-1"), // F1-F8
      h("ul", { class: "help-list" },
        item(tilePicture(SAMPLES.chapel, T("chapel")), w("sokol-chapel")),
        item(picture(1, 1, (svg) => drawFigure(svg, [0.5, 0.55], 0, { piece: "prince", size: 0.75 }), T("prince"), "help-picture", 52), w("sokol-prince")),
        item(picture(1, 1, (svg) => drawFigure(svg, [0.45, 0.55], 1, { piece: "falconer", size: 0.75 }), T("falconer"), "help-picture", 52), w("sokol-falconer"))),
      p("sokol-both"),
      h("ul", { class: "help-list" },
        item(tilePicture(SAMPLES.nest, T("nest")), w("sokol-nests")),
        item(picture(1, 1, (svg) => {
          el("rect", { x: 0.3, y: 0.22, width: 0.4, height: 0.56, rx: 0.06, fill: "#6b4b2a", stroke: "#2f2012", "stroke-width": 0.04 }, svg);
          el("path", { d: "M0.38,0.74 V0.45 A0.12,0.12 0 0 1 0.62,0.45 V0.74", fill: "#2f2012" }, svg);
        }, T("gate"), "help-picture", 52), w("sokol-gates")))),
    sectionOf("knights", p("knights-1"), // K1-K8
      h("div", { class: "help-row help-cards" },
        h("div", { class: "k-card k-card-sample", "data-card": "knight" }, cardPicture("knight"), h("span", { class: "k-card-name" }, t("card.knight")),
          h("span", { class: "k-strengths" }, kinds.map((k) => h("span", { class: "k-str", "data-kind": k, title: t("page.knights.strength", { kind: message(`castle-kind.${k}`), n: knight()[k] }) },
            kindMark(k), h("span", { class: "sr-only" }, `${t(`castle-kind.${k}`)} `), h("b", { class: "k-str-value" }, knight()[k]))))),
        h("div", { class: "k-card k-card-sample", "data-card": "shepherd" }, cardPicture("shepherd"), h("span", { class: "k-card-name" }, t("card.shepherd")))),
      p("knights-card", { stone: knight().stone, brick: knight().brick, wood: knight().wood }), p("knights-2"),
      h("ul", { class: "help-list help-castles" },
        ["stone", "brick", "wood"].flatMap((kind) => ["small", "big"].map((size) => {
          const name = t(`card-tile.${kind}-${size}`);
          return h("li", { class: "help-item" }, knightsTile({ kind, points: size === "big" ? 2 : 1, name }, 56), h("span", {}, name));
        })),
        h("li", { class: "help-item" }, knightsTile({ kind: null, points: 0, name: t("card-tile.drum") }, 56), h("span", {}, t("card-tile.drum")))),
      h("ul", { class: "help-points" }, h("li", {}, w("knights-castle")), h("li", {}, w("knights-drum"))),
      p("knights-end")),
    h("section", { class: "panel help-section", id: "help-guide", "aria-labelledby": "help-guide-title" },
      h("h2", { id: "help-guide-title" }, t("page.guide.title")),
      h("label", { class: "choice" }, guideBox, " ", t("page.guide.option")),
      h("button", { type: "button", id: "guide-restart", onclick: () => {
        restartGuide();
        guideBox.checked = true;
        restarted.hidden = false;
      } }, t("page.guide.restart")),
      restarted)));
  if (section && SECTIONS.includes(section)) {
    const target = document.getElementById(`help-${section}`);
    if (target) target.scrollIntoView();
  }
}
