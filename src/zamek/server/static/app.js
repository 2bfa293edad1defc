// The page's entry: routing between the screens (lobby.js, game.js, replay.js, Rycerze i zamki in knights.js,
// players and the leaderboard in players.js, the rules page in help.js), the header with the rules link and the
// language menu, the first-game guide (guide.js), and the keys. Plain ES modules, no build step; the API client is api.js. Before it draws anything the
// page asks the server what it offers (/api/meta: its languages among others) and loads the words of the language
// shown (i18n.js); it loads them again when another language is chosen.

import { call, games, identity, seats, setClientLanguage, setClientWords, watch } from "./api.js";
import { gameKey, openGame, refreshGame } from "./game.js";
import { startGuide } from "./guide.js";
import { openHelp, renderHelp } from "./help.js";
import { guessLanguage, useLanguage } from "./i18n.js";
import { icon } from "./icons.js";
import { initKnights, knightsLanguageChanged, leaveKnights, openKnights, openKnightsJoin } from "./knights.js";
import { openJoin, openLobby } from "./lobby.js";
import { adoptPlayer, openLeaderboard, openMe, openPlayer } from "./players.js";
import { openReplay, replayKey, stopReplayPlay } from "./replay.js";
import { setTableMessages } from "./talk.js";
import { initTurn, leaveTurn, showTitle } from "./turn.js";
import { copyBox, h, main, pageUrl, showError, state, stopWatching, t } from "./ui.js";
import { loadWords } from "./words.js";

setClientWords((key) => t(key));
initKnights({ h, api: call, seats, watch, t: (key, values, options) => t(key, values, options), main, copyBox, pageUrl, lang: () => state.lang });

function route() {
  stopWatching();
  leaveTurn(); // the screen opened says again whether it is the player's move
  if (!location.hash.startsWith("#/replay/")) stopReplayPlay();
  showError(null);
  if (!location.hash.startsWith("#/replay/") || state.screen !== "replay") window.scrollTo(0, 0);
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/");
  if (parts[0] !== "knights") leaveKnights();
  header();
  if (parts[0] === "help") openHelp(parts[1] || null);
  else if (parts[0] === "knights" && parts[1]) {
    state.screen = "knights";
    openKnights(parts[1], { spectator: parts[2] === "watch" });
  } else if (parts[0] === "knights-join" && parts[1] && parts[2]) {
    state.screen = "join";
    openKnightsJoin(parts[1], parts[2]);
  } else if (parts[0] === "game" && parts[1]) openGame(parts[1]);
  else if (parts[0] === "watch" && parts[1]) openGame(parts[1], { spectator: true });
  else if (parts[0] === "join" && parts[1] && parts[2]) openJoin(parts[1], parts[2]);
  else if (parts[0] === "seat" && parts[1] && parts[2] && parts[3]) {
    // A seat's link from another device: keep its token here, then forget the link (it is a secret).
    seats.remember(parts[4] === "knights" ? "knights" : "castle", parts[1], [{ seat: Number(parts[2]), token: parts[3] }]);
    history.replaceState(null, "", parts[4] === "knights" ? `#/knights/${parts[1]}` : `#/game/${parts[1]}`);
    route();
  }
  else if (parts[0] === "me" && parts[1]) adoptPlayer(parts[1]); // a player's link from another device
  else if (parts[0] === "me") openMe();
  else if (parts[0] === "player" && parts[1]) openPlayer(decodeURIComponent(parts[1]));
  else if (parts[0] === "leaderboard") openLeaderboard(parts[1], parts[2]);
  else if (parts[0] === "replay" && parts[1]) {
    // A move number that is not one (#/replay/ID/abc) shows the end of the game.
    const move = /^\d{1,6}$/.test(parts[2] || "") ? Number(parts[2]) : null;
    openReplay(parts[1], move);
  }
  else openLobby();
}

// The languages the server offers, each with its own name (its catalogue's `name`: "English", "Polski").
async function languageNames() {
  if (state.languageNames) return state.languageNames;
  const offered = (state.meta && state.meta.languages) || [state.lang];
  const given = state.meta && state.meta.language_names; // {lang: name}, where the server says them itself
  const named = await Promise.all(offered.map(async (entry) => {
    if (typeof entry === "object" && entry.name) return { lang: entry.lang || entry.code, name: entry.name };
    const lang = typeof entry === "string" ? entry : entry.lang || entry.code;
    if (given && given[lang]) return { lang, name: given[lang] };
    try {
      return { lang, name: (await loadWords(lang)).name };
    } catch {
      return null;
    }
  }));
  state.languageNames = named.filter(Boolean);
  return state.languageNames;
}

function header() {
  const me = identity.get();
  const nav = document.getElementById("nav");
  nav.innerHTML = "";
  const menu = h("select", { class: "lang", id: "lang-switch", "aria-label": t("page.header.language"), title: t("page.header.language"), onchange: (ev) => switchLanguage(ev.target.value) },
    (state.languageNames || [{ lang: state.lang, name: state.lang }]).map((l) => h("option", { value: l.lang, selected: l.lang === state.lang, lang: l.lang }, l.name)));
  nav.append(
    h("a", { href: "#/", class: "nav-link" }, t("page.header.games")),
    h("a", { href: "#/me", class: "nav-link", id: "me-link" }, me ? me.name : t("page.players.nav-me")),
    h("a", { href: "#/leaderboard", class: "nav-link", id: "leaderboard-link" }, t("page.players.nav-leaderboard")),
    h("a", { href: "#/help", class: "nav-link help-link", id: "help-link", title: t("page.help.link-label"),
      "aria-current": location.hash.startsWith("#/help") ? "page" : null }, t("page.help.link")),
    menu,
  );
  document.getElementById("brand-name").textContent = t("page.header.brand");
  document.getElementById("tagline").textContent = t("page.header.tagline");
  showTitle(); // the page's title, "Your move" before it while it is the player's move in the game shown
  document.documentElement.lang = state.lang;
}

async function switchLanguage(lang) {
  try {
    state.lang = await useLanguage(lang, true);
  } catch (err) {
    showError(err.message);
    header();
    return;
  }
  setClientLanguage(state.lang);
  header();
  state.boardFor = null; // the panels' headings and hints are drawn anew, in the new language
  if (state.screen === "join") route(); // an invitation's page, drawn again in the new language
  else if (state.screen === "help") renderHelp();
  else if (state.screen === "knights") knightsLanguageChanged();
  else if (state.screen === "game" && state.gameId) refreshGame();
  else if (state.screen === "replay" && state.view) openReplay(state.gameId, state.view.replay.move);
  else if (["me", "player", "leaderboard"].includes(state.screen)) route(); // drawn again in the new language
  else openLobby();
}

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (state.screen === "game") gameKey(ev);
  else if (state.screen === "replay") replayKey(ev);
});

// The start: what the server offers, the language shown and its words; then the screen the address names.
async function start() {
  try {
    state.meta = await games.meta();
  } catch {
    state.meta = null; // the server does not answer: the words of the language guessed, if they come
  }
  const offered = state.meta ? state.meta.languages : [];
  try {
    state.lang = await useLanguage(guessLanguage(offered, state.meta ? state.meta.lang : null));
  } catch {
    // No words at all: the page cannot say anything but that it waits; a click tries again.
    main.innerHTML = "";
    main.append(h("p", { class: "panel error" }, h("button", { type: "button", onclick: () => location.reload() }, icon("reload"))));
    return;
  }
  setClientLanguage(state.lang);
  setTableMessages(state.meta && state.meta.table_messages);
  await languageNames();
  initTurn((key, values) => t(key, values));
  window.addEventListener("hashchange", route);
  route();
  startGuide();
}

start();
