// The first-game guide: on a player's first game, three short callouts in the turn panel, each pointing at what
// to do next: ① the drawn tile (and how to turn it), ② the highlighted spaces on the board (a marker floats over
// one of them), ③ the figure choice (a marker over the ghost figure on the board). The guide watches the page
// (it needs no hook in the game's code): it shows while a game's first turns are played here and ends once a
// figure has been put (or passed); "Hide the guide" switches it off. localStorage `zamek-guide`: absent = to
// show; "done"; "off". The rules page switches it on again.
//
// The callouts sit in the page's flow, never over what they point at, and the floating markers take no
// pointer events: the guide never stands between a player and a click.

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
let pointerTarget = null;

export function startGuide() {
  const observer = new MutationObserver(update);
  observer.observe(document.getElementById("main"), { childList: true, subtree: true });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-phase", "data-revision"] });
  window.addEventListener("resize", placePointer);
  window.addEventListener("scroll", placePointer, { passive: true });
  update();
}

const say = (key) => t(`page.guide.${key}`);

function callout(step, key, arrow) {
  const box = h("div", { class: `guide-callout guide-${step} arrow-${arrow}`, id: `guide-${step}`, "data-step": step, role: "note" },
    h("p", {}, say(key)),
    step === "spaces" ? null : h("button", { type: "button", class: "guide-hide", onclick: () => setGuide(false) }, say("hide")));
  box.dataset.lang = state.lang;
  return box;
}

// Put the callout `step` before `anchor` (or after it), unless it is there already in the page's language.
function ensure(step, key, anchor, where, arrow) {
  const existing = document.getElementById(`guide-${step}`);
  if (existing && existing.dataset.lang === state.lang && existing.isConnected
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
    ensure("tile", "tile", tileRow, "before", "down");
    const hint = tileRow.nextElementSibling && tileRow.nextElementSibling.tagName === "P" ? tileRow.nextElementSibling : tileRow;
    ensure("spaces", "spaces", hint, "after", "board");
    showPointer(document.querySelector(".legal.now"), say("mark-spaces"));
  } else if (document.body.dataset.phase === "follower" && choices && choices.querySelector(".choice-button")) {
    clear("tile", "spaces");
    if (figureAt === null) figureAt = view.moves_count;
    ensure("figure", "figure", choices, "before", "down");
    showPointer(document.querySelector(".layer-highlight .figure.ghost"), say("mark-figure"));
  } else {
    clear("tile", "spaces", "figure");
    showPointer(null);
  }
}

// A marker floating just above `target` on the board (none: hidden).
function showPointer(target, label = "") {
  if (!target) {
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
  pointerTarget = target;
  placePointer();
}

function placePointer() {
  if (!pointer || pointer.hidden || !pointerTarget) return;
  if (!pointerTarget.isConnected) {
    pointer.hidden = true;
    return;
  }
  const box = pointerTarget.getBoundingClientRect();
  const size = pointer.getBoundingClientRect();
  pointer.style.left = `${Math.round(window.scrollX + box.left + box.width / 2 - size.width / 2)}px`;
  pointer.style.top = `${Math.round(window.scrollY + box.top - size.height + 4)}px`;
}
