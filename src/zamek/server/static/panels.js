// The game's layout and the side panels the game and the replay screens share: the title, the players (with the
// score each would have if the game ended now), the last moves, the score log, the tiles still to come and the legend.

import { icon } from "./icons.js";
import { drawSwatch, el as svgEl } from "./tiles.js";
import { describeGame, figureIcon, h, lineText, main, playerName, state, t, term, termValue, tileSvg, tokenEffect, tokenWords } from "./ui.js";

export function gameLayout(replay) {
  main.innerHTML = "";
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "board";
  const layout = h("div", { class: replay ? "game replay" : "game" },
    h("section", { class: "board-wrap" }, h("div", { class: "game-title", id: "game-title" }), svg),
    h("aside", { class: "side" },
      h("section", { class: "panel turn", id: "turn", "aria-live": "polite" }),
      h("section", { class: "panel players", id: "players" }),
      h("section", { class: "panel recent", id: "recent" }),
      h("details", { class: "panel log", id: "log", open: true }, h("summary", {}, t("page.game.scores")), h("ol", { id: "log-list" })),
      h("details", { class: "panel remaining", id: "remaining" }, h("summary", { id: "remaining-title" }), h("div", { class: "tile-grid", id: "remaining-grid" })),
      h("details", { class: "panel legend", id: "legend" }, h("summary", {}, t("page.game.legend")), h("div", { id: "legend-body" })),
      h("p", { class: "muted keys" }, t("page.game.keyboard"))));
  main.append(layout);
  return svg;
}

// Everything beside the board but the turn panel (the game's prompts or the replay's controls).
export function renderSidePanels(view) {
  renderTitle(view);
  renderPlayers(view);
  renderRecent(view);
  renderLog(view);
  renderRemaining(view);
  renderLegend(view);
}

// Hovering (or focusing) an element shades the spaces it is about on the board.
export function highlightOn(spaces, cls = "hover") {
  return {
    onmouseenter: () => state.board.highlightSpaces(spaces, cls),
    onmouseleave: () => state.board.clearHighlight(),
    onfocus: () => state.board.highlightSpaces(spaces, cls),
    onblur: () => state.board.clearHighlight(),
  };
}

function renderTitle(view) {
  const title = document.getElementById("game-title");
  const rules = describeGame(view).line;
  title.innerHTML = "";
  title.append(
    h("span", { class: "names" }, h("span", { class: "dot p0" }), playerName(view, 0), ` ${t("page.game.vs")} `, h("span", { class: "dot p1" }), playerName(view, 1)),
    h("span", { class: "muted" }, " · ", rules, ` · ${t("page.game.turn", { n: view.turn })}`),
  );
  // Against a friend: whether both agreed to hints when the game was made.
  if (view.mode === "friend") title.append(h("span", { class: "muted", id: "hints-info", "data-hints": String(view.hints) }, ` · ${t(view.hints ? "page.hints.on" : "page.hints.off")}`));
  // On a touch screen: the whole castle, or a part of it large enough for a finger (moved with the finger).
  const board = state.board;
  if (board && board.canZoom()) {
    const zoomed = board.zoomed;
    title.append(h("button", {
      type: "button", class: "zoom-toggle", id: "zoom", "aria-pressed": String(zoomed), title: t(zoomed ? "page.game.zoom-out" : "page.game.zoom-in"),
      "aria-label": t(zoomed ? "page.game.zoom-out" : "page.game.zoom-in"), onclick: () => {
        board.setZoom(!board.zoomed);
        renderTitle(view);
      },
    }, icon(zoomed ? "zoom-out" : "zoom-in")));
  }
}

function renderPlayers(view) {
  const panel = document.getElementById("players");
  panel.innerHTML = "";
  view.players.forEach((p, i) => {
    const stats = h("div", { class: "stats" },
      h("span", { class: "stat", title: term("follower") }, figureIcon(i, "follower"), `× ${p.supply}`));
    if (view.sokol) {
      stats.append(h("span", { class: "stat", title: term("prince") }, figureIcon(i, "prince"), `× ${p.princes}`),
        h("span", { class: "stat", title: term("falconer") }, figureIcon(i, "falconer"), `× ${p.falconers}`),
        h("span", { class: "stat" }, t("page.game.nests", { n: p.nests })));
    }
    const family = h("span", { class: "stat family", tabindex: p.family_size ? 0 : -1, ...highlightOn(p.family_spaces, "family") },
      t("page.game.family-size", { house: termValue("family-house"), n: p.family_size }));
    stats.append(family);
    const tokens = h("div", { class: "tokens" },
      p.tokens.length ? p.tokens.map((tk) => {
        const name = tokenWords(tk.kind, tk.number);
        return h("span", { class: tk.usable ? "token" : "token later", title: tk.usable ? name : t("page.game.token-later", { token: name }) }, h("b", {}, tk.number), " ", tokenEffect(tk.kind));
      })
        : h("span", { class: "muted" }, t("page.game.no-tokens")));
    // While the game is on: the score the final scoring of this position would give (the engine's projection).
    const projected = view.over ? null
      : h("span", { class: "projected muted small", "data-projected": p.projected, title: t("page.game.projected-hint") }, t("page.game.projected", { n: p.projected }));
    panel.append(h("div", { class: `player p${i}${view.current === i && !view.over ? " current" : ""}`, "data-player": i },
      h("div", { class: "player-head" }, h("span", { class: `dot p${i}` }), h("span", { class: "name" }, playerName(view, i)),
        h("span", { class: "score", "data-score": p.score }, p.score), projected),
      stats, tokens));
  });
  // How the end scores (and the tokens it counts), on the rules page.
  if (!view.over) panel.append(h("p", { class: "small" }, h("a", { href: "#/help/end", id: "projected-help" }, t("page.game.projected-help"))));
}

function renderRecent(view) {
  const panel = document.getElementById("recent");
  panel.innerHTML = "";
  const moves = view.recent.filter((m) => m.kind !== "draw").slice(-5);
  panel.hidden = !moves.length; // no empty frame before the first move
  if (!moves.length) return;
  panel.append(h("h3", {}, t("page.game.last-moves")), h("ul", { class: "recent-list" },
    moves.map((m) => h("li", {}, m.player !== null ? h("span", { class: `dot p${m.player}` }) : null, lineText(view, m.words, m.message)))));
}

function renderLog(view) {
  const list = document.getElementById("log-list");
  list.innerHTML = "";
  const items = view.log.slice().reverse();
  if (!items.length) list.append(h("li", { class: "muted" }, t("page.game.no-scores")));
  for (const item of items) {
    const li = h("li", { tabindex: 0, class: item.final ? "final" : "", ...highlightOn(item.spaces) },
      h("span", { class: "turn-no" }, item.final ? "★" : `#${item.turn}`),
      item.player !== null ? h("span", { class: `dot p${item.player}` }) : h("span", { class: "dot none" }),
      h("span", { class: "line" }, lineText(view, item.line, item.message)),
      h("span", { class: "pts" }, item.points ? `+${item.points}` : "0"));
    list.append(li);
  }
}

function renderRemaining(view) {
  document.getElementById("remaining-title").textContent = t("page.game.remaining", { n: view.remaining.length });
  const grid = document.getElementById("remaining-grid");
  const details = document.getElementById("remaining");
  const fill = () => {
    grid.innerHTML = "";
    for (const id of view.remaining) grid.append(h("span", { class: "mini", title: id }, tileSvg(id, view.sokol, 0, 40, "tile-svg mini")));
    if (view.discarded.length) grid.append(h("p", { class: "muted" }, t("page.game.discarded", { tiles: view.discarded })));
  };
  grid.innerHTML = "";
  if (details.open) fill();
  details.ontoggle = () => details.open && fill();
}

function legendSwatch(draw) {
  const svg = svgEl("svg", { viewBox: "0 0 1 1", width: 26, height: 26, class: "swatch", "aria-hidden": "true" });
  draw(svg);
  return svg;
}

function renderLegend(view) {
  const body = document.getElementById("legend-body");
  body.innerHTML = "";
  // Close-ups, each drawn as only that kind looks: whole tiles at this size look alike (a house and a nest, a
  // road and the stocks).
  const kinds = ["road", "house", "pigsty", "meadow", "shrine", "stocks", "fountain", ...(view.sokol ? ["chapel", "nest"] : [])];
  const entries = kinds.map((kind) => [term(kind), (s) => drawSwatch(s, kind)]);
  const roles = [["herald", "road"], ["squire", "house"], ["farmer", "pigsty"], ["monk", "meadow"]];
  if (view.sokol) roles.push(["preacher", "chapel"]);
  body.append(h("ul", { class: "legend-list" }, entries.map(([name, draw]) => h("li", {}, legendSwatch(draw), name))));
  body.append(h("ul", { class: "legend-list roles" }, roles.map(([role, kind]) => h("li", {}, figureIcon(view.current, "follower"),
    t("server.view.figure", { figure: termValue(role), feature: termValue(kind) })))));
  if (view.sokol) {
    body.append(h("ul", { class: "legend-list roles" },
      h("li", {}, figureIcon(0, "prince"), term("prince")), h("li", {}, figureIcon(0, "falconer"), term("falconer"))));
  }
}
