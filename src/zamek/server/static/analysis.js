// A finished game's analysis, on the replay screen: the advantage graph (the first player's expected final lead
// by decision), each player's summary (inaccuracies, mistakes, blunders, the mean loss), and every decision with
// its flag. Picking a decision (in the list or on the graph) moves the replay to it and draws on the board the
// move played and the best move, faint, side by side. The server computes the analysis once and keeps it.

import { games } from "./api.js";
import { drawAdvantage } from "./chart.js";
import { h, movesText, playerName, seatValue, showError, state, t } from "./ui.js";

export const FLAG_SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// An expected lead as a signed number with one decimal: "+4.2", "−1.0", "±0.0".
export const leadText = (lead) => `${lead > 0.05 ? "+" : lead < -0.05 ? "−" : "±"}${Math.abs(lead).toFixed(1)}`;

// "e10/90" and "follower:2" as what the board draws: the tile's space and rotation, the figure's feature.
export function moveShape(actions) {
  const shape = { space: null, rotation: 0, part: null, piece: null };
  for (const text of actions) {
    const place = /^([A-Za-z]+\d+)\/(0|90|180|270)$/.exec(text);
    const figure = /^(follower|prince|falconer):(\d+)$/.exec(text);
    if (place) {
      shape.space = place[1];
      shape.rotation = Number(place[2]) / 90;
    } else if (figure) {
      shape.piece = figure[1];
      shape.part = Number(figure[2]);
    }
  }
  return shape;
}

const loaded = (id) => state.analysis && state.analysis.game === id && state.analysis.lang === state.lang;

// Ask for the analysis (the first time it is computed, about a second) and show it.
export async function analyse(view, redraw) {
  if (state.analysisBusy) return;
  state.analysisBusy = view.id;
  renderAnalysis(view, redraw);
  try {
    const data = await games.analysis(view.id, state.lang);
    state.analysis = { game: view.id, lang: state.lang, data };
  } catch (err) {
    showError(err.message);
  } finally {
    state.analysisBusy = null;
  }
  if (state.screen === "replay" && state.view && state.view.id === view.id) redraw();
}

// The Analyse button of a finished game (the replay's tools).
export function analyseButton(view, redraw) {
  if (view.seed === null || view.seed === undefined) return null; // not over: an analysis would tell what is hidden
  return h("button", { type: "button", id: "analyse", class: loaded(view.id) ? "" : "primary", onclick: () => analyse(view, redraw) },
    t("page.analysis.analyse"));
}

// The analysis panel beside the board (after the replay's controls), or none when no analysis is asked for.
export function renderAnalysis(view, redraw, goto) {
  let panel = document.getElementById("analysis");
  const busy = state.analysisBusy === view.id;
  if (!busy && !(state.analysis && state.analysis.game === view.id)) {
    if (panel) panel.remove();
    return;
  }
  if (!panel) {
    panel = h("section", { class: "panel analysis", id: "analysis" });
    document.getElementById("turn").after(panel);
  }
  panel.innerHTML = "";
  panel.append(h("h2", {}, t("page.analysis.title")));
  if (busy) {
    panel.append(h("p", { class: "thinking", id: "analysing" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("page.analysis.analysing")));
    return;
  }
  if (!loaded(view.id)) { // the language changed: the words again, from the stored analysis
    analyse(view, redraw);
    return;
  }
  const data = state.analysis.data;
  const flagWords = (flag) => `${FLAG_SYMBOLS[flag]} ${t(`page.analysis.flag.${flag}`)}`;
  const played = (d) => movesText(view, d.played_messages, d.played_words);
  const mover = (d) => (d.player === 0 ? 1 : -1);
  const graph = h("div", { class: "chart-wrap", id: "advantage-chart" });
  panel.append(h("p", { class: "muted small", id: "advantage-caption" }, t("page.analysis.caption", { player: seatValue(0) })), graph);
  drawAdvantage(graph, data.decisions, data.final_lead, {
    current: view.replay.move,
    onPick: goto,
    title: t("page.analysis.caption", { player: seatValue(0) }),
    label: (d) => `${data.decisions.indexOf(d) + 1}. ${played(d)} (${leadText(d.lead_before)})${d.flag ? ` ${flagWords(d.flag)}` : ""}`,
  });
  panel.append(h("table", { class: "analysis-summary", id: "analysis-summary" },
    h("thead", {}, h("tr", {}, h("th", {}, ""),
      ["inaccuracy", "mistake", "blunder"].map((f) => h("th", { class: "num", title: t(`page.analysis.flag.${f}`) }, FLAG_SYMBOLS[f])),
      h("th", { class: "num", title: t("page.analysis.mean-loss-hint") }, t("page.analysis.mean-loss")))),
    h("tbody", {}, data.summary.map((s) => h("tr", { "data-player": s.player },
      h("td", {}, h("span", { class: `dot p${s.player}` }), playerName(view, s.player)),
      h("td", { class: "num" }, s.inaccuracies), h("td", { class: "num" }, s.mistakes), h("td", { class: "num" }, s.blunders),
      h("td", { class: "num" }, s.mean_loss.toFixed(1)))))));
  const th = data.thresholds;
  panel.append(h("p", { class: "muted small analysis-legend", id: "analysis-legend", title: t("page.analysis.estimate-hint") },
    t("page.analysis.legend", { inaccuracy: th.inaccuracy, mistake: th.mistake, blunder: th.blunder })));
  const here = data.decisions.find((d) => d.index === view.replay.move);
  if (here) {
    const same = here.best.join(" ") === here.played.join(" ");
    panel.append(h("div", { class: "decision-detail", id: "decision-detail" },
      h("p", {}, h("span", { class: "mark played" }, "●"), " ", h("strong", {}, t("page.analysis.played")), t("page.analysis.move", { move: played(here) }),
        ` (${leadText(mover(here) * here.lead_after)})`, here.flag ? h("span", { class: `flag flag-${here.flag}` }, ` ${flagWords(here.flag)}`) : null),
      same ? h("p", { class: "muted" }, t("page.analysis.best-played"))
        : h("p", {}, h("span", { class: "mark best" }, "★"), " ", h("strong", {}, t("page.analysis.best")), t("page.analysis.move", { move: movesText(view, here.best_messages, here.best_words) }),
          ` (${leadText(mover(here) * here.lead_before)})`)));
  }
  const list = h("ol", { class: "move-list decision-list", id: "decision-list" },
    data.decisions.map((d) => h("li", {
      class: `${d.index === view.replay.move ? "current" : ""}${d.flag ? ` flagged flag-${d.flag}` : ""}`,
      "data-index": d.index, "data-flag": d.flag || "", tabindex: 0, onclick: () => goto(d),
      onkeydown: (ev) => (ev.key === "Enter" || ev.key === " ") && (ev.preventDefault(), goto(d)),
    }, h("span", { class: `dot p${d.player}` }), played(d),
    d.flag ? h("span", { class: `flag flag-${d.flag}`, title: t("page.analysis.loss", { loss: d.loss.toFixed(1) }) }, ` ${flagWords(d.flag)}`) : null)));
  panel.append(list);
  const current = list.querySelector(".current");
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
}

// On the board at a decision of the analysis: the move played (●) and the best move (★), faint, with the mover's
// expected final lead after each.
export function drawDecisionMoves(view) {
  if (!loaded(view.id) || !view.drawn) return;
  const d = state.analysis.data.decisions.find((x) => x.index === view.replay.move);
  if (!d) return;
  const sign = d.player === 0 ? 1 : -1;
  const best = moveShape(d.best);
  const played = moveShape(d.played);
  const same = d.best.join(" ") === d.played.join(" ");
  state.board.drawGhostMove(view.drawn.id, best, d.player, { badge: "★", note: leadText(sign * d.lead_before), cls: "best" });
  // On the best move's space (another turn or another figure): the move played takes the next slot (its badge in
  // another corner, its note above), else it would hide under the best move's tile.
  const slot = played.space === best.space ? 1 : 0;
  if (!same) state.board.drawGhostMove(view.drawn.id, played, d.player, { badge: "●", note: leadText(sign * d.lead_after), cls: "played", slot });
}
