// The page's entry: routing between the screens (lobby.js, game.js, replay.js, Rycerze i zamki in knights.js and
// the rules page in help.js), the header with the rules link and the language switch, the first-game guide
// (guide.js), and the keys. Plain ES modules, no build step; the API client is api.js.

import { call, seats, setClientWords, watch } from "./api.js";
import { gameKey, openGame, refreshGame } from "./game.js";
import { startGuide } from "./guide.js";
import { openHelp, renderHelp } from "./help.js";
import { hw } from "./help-words.js";
import { initKnights, knightsLanguageChanged, leaveKnights, openKnights, openKnightsJoin } from "./knights.js";
import { openJoin, openLobby } from "./lobby.js";
import { openReplay, replayKey, stopReplayPlay } from "./replay.js";
import { copyBox, h, main, pageUrl, showError, state, stopWatching, t } from "./ui.js";

setClientWords((key) => t(key));
initKnights({ h, api: call, seats, watch, t: (key, values) => t(key, values), main, copyBox, pageUrl, lang: () => state.lang });

function route() {
  stopWatching();
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
  else if (parts[0] === "replay" && parts[1]) {
    // A move number that is not one (#/replay/ID/abc) shows the end of the game.
    const move = /^\d{1,6}$/.test(parts[2] || "") ? Number(parts[2]) : null;
    openReplay(parts[1], move);
  }
  else openLobby();
}

function header() {
  const nav = document.getElementById("nav");
  nav.innerHTML = "";
  nav.append(
    h("a", { href: "#/", class: "nav-link" }, t("lobby")),
    h("a", { href: "#/help", class: "nav-link help-link", id: "help-link", title: hw(state.lang, "help-link-label"),
      "aria-current": location.hash.startsWith("#/help") ? "page" : null }, hw(state.lang, "help-link")),
    h("button", { class: "lang", id: "lang-switch", type: "button", onclick: switchLanguage, "aria-label": t("languageLabel") }, t("language")),
  );
  document.getElementById("tagline").textContent = t("tagline");
  document.documentElement.lang = state.lang;
}

function switchLanguage() {
  state.lang = state.lang === "pl" ? "en" : "pl";
  localStorage.setItem("zamek-lang", state.lang);
  header();
  state.boardFor = null; // the panels' headings and hints are drawn anew, in the new language
  if (state.screen === "join") route(); // an invitation's page, drawn again in the new language
  else if (state.screen === "help") renderHelp();
  else if (state.screen === "knights") knightsLanguageChanged();
  else if (state.screen === "game" && state.gameId) refreshGame();
  else if (state.screen === "replay" && state.view) openReplay(state.gameId, state.view.replay.move);
  else openLobby();
}

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (state.screen === "game") gameKey(ev);
  else if (state.screen === "replay") replayKey(ev);
});

window.addEventListener("hashchange", route);
route();
startGuide();
