// "Your move", as players of other sites expect to be told it when the tab is in the background: the tab's title
// says it while it is the player's move in the game shown (both games, with friends elsewhere, live or by days); a short tone when it becomes their move
// (on unless turned off, even where the other sounds are off); and, where the player allows it (off unless turned
// on: the browser's permission is asked only then), a notification when it becomes their move in a game they are
// not looking at (the tab hidden, or another screen: the games are then followed as the lobby follows them).
// The tones of the page (WebAudio, made on the spot) live here too: the game's sounds use them.

import { games } from "./api.js";

let say = (key) => key; // the page's words (app.js gives them)
let shownKey = null; // the game shown ("castle:ID", "knights:ID"), while its screen is open
let shownMine = false;
const known = new Map(); // game key → whether it was the player's move when last seen (shown or followed)

export function initTurn(translate) {
  say = translate;
  document.addEventListener("visibilitychange", showTitle);
  followGames();
}

// The tab's title: the page's, with "Your move" before it while it is the player's move in the game shown.
export function showTitle() {
  const title = say("page.header.title");
  const text = shownKey && shownMine ? say("page.turn.title", { title }) : title;
  if (document.title !== text) document.title = text;
}

// Leaving a game's screen (app.js, at every route): no game shown, the title as the page's.
export function leaveTurn() {
  shownKey = null;
  shownMine = false;
  showTitle();
}

// The game shown, as its screen draws it: whether it is the player's move there (in a game with friends elsewhere, a
// seat this page holds is to act).
export function turnShown(kind, id, mine) {
  shownKey = `${kind}:${id}`;
  shownMine = !!mine;
  showTitle();
  noteTurn(kind, id, !!mine);
}

// It became the player's move (seen or followed): the tone, and the notification where it is not looked at.
function noteTurn(kind, id, mine) {
  const key = `${kind}:${id}`;
  const was = known.get(key);
  known.set(key, mine);
  if (!mine || was !== false) return; // first seen, or no change
  if (optionOn("turnSound")) turnTone();
  const looking = key === shownKey && !document.hidden;
  if (!looking) notify(kind, id);
}

// ------------------------------------------------------------------ options

// Kept in this browser: the "your move" tone (on unless turned off), the notifications (off unless turned on).
export const TURN_OPTIONS = { turnSound: "zamek-turn-sound", notify: "zamek-notify" };
const OFF_BY_DEFAULT = new Set(["notify"]);

export function optionOn(name) {
  const stored = localStorage.getItem(TURN_OPTIONS[name]);
  if (name === "notify") return stored === "on" && notificationsAllowed();
  return OFF_BY_DEFAULT.has(name) ? stored === "on" : stored !== "off";
}

const notificationsAllowed = () => "Notification" in window && Notification.permission === "granted";

// The two switches, for a screen's row of options (`h` builds elements).
export function turnOptions(h) {
  const box = (name, id, changed) => h("label", { class: "option", title: say(`page.option.${TURN_OPTIONS[name].slice(6)}-hint`) },
    h("input", { type: "checkbox", id, checked: optionOn(name), onchange: (ev) => changed(ev.target) }),
    " ", say(`page.option.${TURN_OPTIONS[name].slice(6)}`));
  return [
    box("turnSound", "turn-sound", (input) => {
      localStorage.setItem(TURN_OPTIONS.turnSound, input.checked ? "on" : "off");
      if (input.checked) turnTone();
    }),
    box("notify", "notify", async (input) => {
      if (!input.checked) {
        localStorage.setItem(TURN_OPTIONS.notify, "off");
        return;
      }
      // The browser asks the player now, once: a refusal (or a browser with no notifications) leaves it off.
      let permission = "Notification" in window ? Notification.permission : "denied";
      if (permission === "default") {
        try {
          permission = await Notification.requestPermission();
        } catch {
          permission = "denied";
        }
      }
      input.checked = permission === "granted";
      input.title = permission === "granted" ? say("page.option.notify-hint") : say("page.option.notify-refused");
      localStorage.setItem(TURN_OPTIONS.notify, input.checked ? "on" : "off");
      if (input.checked) followGames();
    }),
  ];
}

// ------------------------------------------------------------------ notifications

function notify(kind, id) {
  if (!optionOn("notify")) return;
  const target = kind === "knights" ? `#/knights/${id}` : `#/game/${id}`;
  try {
    const note = new Notification(say("page.turn.notice", { title: say("page.header.title") }), {
      body: say(kind === "knights" ? "page.turn.notice-knights" : "page.turn.notice-castle"),
      tag: `zamek-${id}`,
    });
    note.onclick = () => {
      window.focus();
      location.hash = target;
      note.close();
    };
  } catch {
    // A browser that shows notifications only through a service worker: the title and the tone say it.
  }
}

// While notifications are on, this browser's games are followed (asked every few seconds, as the lobby asks them):
// a game that becomes the player's move is noted, the one shown included (its live events usually tell it first).
const FOLLOW_EVERY_MS = 3000;
let following = null;

function followGames() {
  if (following || !optionOn("notify")) return;
  const tick = async () => {
    following = null;
    if (!optionOn("notify")) return;
    try {
      const held = await games.lobby(0, 200);
      for (const g of held.castle) if (g.status !== "over") noteTurn("castle", g.id, !!g.your_move);
      for (const g of held.knights) if (g.status !== "over") noteTurn("knights", g.id, !!g.your_move);
    } catch {
      // The next round asks again.
    }
    following = setTimeout(tick, FOLLOW_EVERY_MS);
  };
  following = setTimeout(tick, 0);
}

// ------------------------------------------------------------------ tones

// Tones made on the spot (WebAudio): no sound files. The audio context is made at the first tone (browsers let a
// page sound only after a click: a tone before one is silent).
let audio = null;

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

export function tone(frequency, after = 0, length = 0.09, type = "triangle", volume = 0.07) {
  const ctx = audioContext();
  if (!ctx) return;
  const start = ctx.currentTime + after;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// It is your move: two soft notes down, a bell's call.
export const TURN_TONE = [880, 587];

export function turnTone() {
  tone(TURN_TONE[0], 0, 0.14, "sine", 0.06);
  tone(TURN_TONE[1], 0.16, 0.2, "sine", 0.06);
}
