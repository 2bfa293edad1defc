// The first-game guide: on a player's first game, three short callouts in the turn panel, each pointing at what
// to do next: ① the drawn tile (and how to turn it), ② the highlighted spaces on the board (a marker floats over
// one of them that the board shows), ③ the figure choice (a marker beside the tile just placed, never over it). The
// markers follow the board when it is moved or zoomed. On a touch screen the callouts name no key and say "tap".
// The guide watches the page
// (it needs no hook in the game's code): it shows while a game's first turns are played here and ends once a
// figure has been put (or passed); "Hide the guide" switches it off. localStorage `zamek-guide`: absent = to
// show; "done"; "off". The rules page switches it on again.
//
// The callouts sit in the page's flow, never over what they point at, and the floating markers take no
// pointer events: the guide never stands between a player and a click.

import { touching } from "./board.js";
import { h, state, t } from "./ui.js";

const KEY = "zamek-guide";
const EARLY_TURNS = 4;
/** The guide shows in a game's first turns only: a game opened later (a saved one, a replay) goes on as it is. */

export const guideOn = () => localStorage.getItem(KEY) === null;

export function setGuide(on) {
  if (on) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, "off");
  update();
}

export function restartGuide() {
  localStorage.removeItem(KEY);
  figureAt = null;
}

let figureAt = null; // the number of moves when the figure callout was shown
let pointer = null;
let pointerTarget = null; // () => [the element pointed at, whether the marker stands beside it rather than over it]

export function startGuide() {
  const observer = new MutationObserver(update);
  observer.observe(document.getElementById("main"), { childList: true, subtree: true });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-phase", "data-revision"] });
  window.addEventListener("resize", placePointer);
  window.addEventListener("scroll", placePointer, { passive: true });
  document.addEventListener("boardview", placePointer); // the board moved or zoomed
  update();
}

const say = (key) => t(`page.guide.${key}`);

// A step's words: on a touch screen those that name no key.
const words = (key) => (touching() && key !== "figure" ? `${key}-touch` : key);

function callout(step, key, arrow) {
  const box = h("div", { class: `guide-callout guide-${step} arrow-${arrow}`, id: `guide-${step}`, "data-step": step, role: "note" },
    h("p", {}, say(key)),
    step === "spaces" ? null : h("button", { type: "button", class: "guide-hide", onclick: () => setGuide(false) }, say("hide")));
  box.dataset.lang = state.lang;
  box.dataset.key = key;
  return box;
}

// Put the callout `step` before `anchor` (or after it), unless it is there already in the page's language.
function ensure(step, key, anchor, where, arrow) {
  const existing = document.getElementById(`guide-${step}`);
  if (existing && existing.dataset.lang === state.lang && existing.dataset.key === key && existing.isConnected
      && (where === "before" ? existing.nextElementSibling === anchor : existing.previousElementSibling === anchor)) return;
  if (existing) existing.remove();
  const box = callout(step, key, arrow);
  if (where === "before") anchor.before(box);
  else anchor.after(box);
}

function clear(...steps) {
  for (const step of steps) {
    const node = document.getElementById(`guide-${step}`);
    if (node) node.remove();
  }
}

function update() {
  const view = state.view;
  const playing = state.screen === "game" && view && !view.over && !state.spectator;
  if (playing && figureAt !== null && view.moves_count > figureAt && document.body.dataset.phase !== "follower") {
    localStorage.setItem(KEY, "done"); // a figure was put, or "No figure" chosen: the guide has shown it all
    figureAt = null;
  }
  if (!playing || !guideOn() || view.turn > EARLY_TURNS) {
    clear("tile", "spaces", "figure");
    showPointer(null);
    return;
  }
  const tileRow = document.querySelector("#turn .drawn-row");
  const choices = document.querySelector("#turn .choices");
  if (tileRow && document.querySelector(".legal.now")) {
    figureAt = null;
    clear("figure");
    ensure("tile", words("tile"), tileRow, "before", "down");
    const hint = tileRow.nextElementSibling && tileRow.nextElementSibling.tagName === "P" ? tileRow.nextElementSibling : tileRow;
    ensure("spaces", words("spaces"), hint, "after", "board");
    showPointer(() => [shownSpace(), false], say("mark-spaces"));
  } else if (document.body.dataset.phase === "follower" && choices && choices.querySelector(".choice-button")) {
    clear("tile", "spaces");
    if (figureAt === null) figureAt = view.moves_count;
    ensure("figure", "figure", choices, "before", "down");
    showPointer(() => [placedTile(), true], say("mark-figure"));
  } else {
    clear("tile", "spaces", "figure");
    showPointer(null);
  }
}

// The first highlighted space that the board shows (a board zoomed in shows a part of the castle).
function shownSpace() {
  const board = document.getElementById("board");
  if (!board) return null;
  const frame = board.getBoundingClientRect();
  return [...document.querySelectorAll(".legal.now")].find((n) => {
    const r = n.getBoundingClientRect();
    const x = (r.left + r.right) / 2;
    const y = (r.top + r.bottom) / 2;
    return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom;
  }) || null;
}

// The tile just placed, as it is drawn (its art may reach past its space).
function placedTile() {
  const view = state.view;
  const placed = view && view.placements[view.placements.length - 1];
  return placed ? document.querySelector(`.layer-tiles .placed-wrap[data-space="${placed.space}"]`) : null;
}

// A marker floating over the board (`find`: what it points at now, and whether it stands beside it; none: hidden):
// just above a space, or beside the tile just placed, clear of it.
function showPointer(find, label = "") {
  if (!find) {
    if (pointer) pointer.hidden = true;
    pointerTarget = null;
    return;
  }
  if (!pointer) {
    pointer = h("div", { class: "guide-pointer", id: "guide-pointer", "aria-hidden": "true" }, h("span", { class: "guide-pointer-label" }), h("span", { class: "guide-pointer-arrow" }, "▼"));
    document.body.append(pointer);
  }
  pointer.querySelector(".guide-pointer-label").textContent = label;
  pointer.hidden = false;
  pointerTarget = find;
  placePointer();
}

function placePointer() {
  if (!pointer || !pointerTarget) return;
  const [target, beside] = pointerTarget();
  const board = document.getElementById("board");
  if (!target || !target.isConnected || !board) {
    pointer.hidden = true;
    return;
  }
  pointer.hidden = false;
  const box = target.getBoundingClientRect();
  const frame = board.getBoundingClientRect();
  const size = pointer.getBoundingClientRect();
  const gap = beside ? 10 : -4; // over a space its tip reaches into it; beside the tile it keeps clear (bobbing too)
  // Above the target; beside a tile at the top of the board's frame, below it (pointing up).
  const below = beside && box.top - size.height - gap < frame.top;
  pointer.classList.toggle("up", below);
  pointer.querySelector(".guide-pointer-arrow").textContent = below ? "▲" : "▼";
  const top = below ? box.bottom + gap : box.top - size.height - gap;
  pointer.style.left = `${Math.round(window.scrollX + box.left + box.width / 2 - size.width / 2)}px`;
  pointer.style.top = `${Math.round(window.scrollY + top)}px`;
}
