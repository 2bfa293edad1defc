// The score-over-time chart at the end of a game, from the itemised log.

import { COLORS, el } from "./tiles.js";

export function scoreSeries(log, lastTurn) {
  const series = [[0], [0]];
  const totals = [0, 0];
  let turn = 0;
  const during = log.filter((i) => !i.final);
  let k = 0;
  for (turn = 1; turn <= lastTurn; turn++) {
    while (k < during.length && during[k].turn <= turn) {
      const item = during[k++];
      if (item.player !== null) totals[item.player] += item.points;
    }
    series[0].push(totals[0]);
    series[1].push(totals[1]);
  }
  for (const item of log.filter((i) => i.final)) {
    if (item.player !== null) totals[item.player] += item.points;
  }
  series[0].push(totals[0]);
  series[1].push(totals[1]);
  return series;
}

export function drawChart(container, log, lastTurn, names, finalLabel) {
  container.innerHTML = "";
  const series = scoreSeries(log, lastTurn);
  const n = series[0].length;
  const max = Math.max(10, ...series[0], ...series[1]);
  const W = 320;
  const H = 170;
  const L = 32;
  const B = 22;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img" }, container);
  const x = (i) => L + ((W - L - 8) * i) / Math.max(1, n - 1);
  const y = (v) => H - B - ((H - B - 10) * v) / max;
  const step = max > 60 ? 20 : 10;
  for (let v = 0; v <= max; v += step) {
    el("line", { x1: L, x2: W - 8, y1: y(v), y2: y(v), class: "grid" }, svg);
    el("text", { x: L - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, svg).textContent = v;
  }
  el("text", { x: x(n - 1), y: H - 6, class: "axis", "text-anchor": "end" }, svg).textContent = finalLabel;
  el("text", { x: L, y: H - 6, class: "axis" }, svg).textContent = "1";
  series.forEach((values, p) => {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    el("polyline", { points, fill: "none", stroke: COLORS.players[p], "stroke-width": 2.5, "stroke-linejoin": "round" }, svg);
    el("circle", { cx: x(n - 1), cy: y(values[n - 1]), r: 3.5, fill: COLORS.players[p] }, svg);
  });
  el("title", {}, svg).textContent = names.join(" / ");
  return svg;
}

// The advantage graph of a game's analysis: the first player's expected final lead before each decision, then the
// final lead; above the middle line in the first player's colour, below it in the second's (as lichess draws
// White and Black). A flagged decision has a marker of its flag's colour; a click on a decision's column calls
// `onPick(decision)`; `current` (a decision's index in the moves) is marked by a line.
export function drawAdvantage(container, decisions, finalLead, { current = null, onPick = () => {}, label = () => "", title = "" } = {}) {
  container.innerHTML = "";
  const values = [...decisions.map((d) => d.lead_before), finalLead];
  const n = values.length;
  const W = 320;
  const H = 150;
  const L = 30;
  const R = 6;
  const T = 8;
  const B = 8;
  const max = Math.max(10, ...values.map((v) => Math.ceil(Math.abs(v) / 10) * 10));
  const x = (i) => L + ((W - L - R) * i) / Math.max(1, n - 1);
  const y = (v) => T + ((H - T - B) * (max - Math.max(-max, Math.min(max, v)))) / (2 * max);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart advantage", role: "img", id: "advantage" }, container);
  el("title", {}, svg).textContent = title;
  const defs = el("defs", {}, svg);
  const above = el("clipPath", { id: "advantage-above" }, defs);
  el("rect", { x: 0, y: 0, width: W, height: y(0) }, above);
  const below = el("clipPath", { id: "advantage-below" }, defs);
  el("rect", { x: 0, y: y(0), width: W, height: H - y(0) }, below);
  for (const v of [max, max / 2, 0, -max / 2, -max]) {
    el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "grid zero" : "grid" }, svg);
    el("text", { x: L - 4, y: y(v) + 3.5, class: "axis", "text-anchor": "end" }, svg).textContent = v > 0 ? `+${v}` : String(v);
  }
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const area = `${x(0).toFixed(1)},${y(0).toFixed(1)} ${line} ${x(n - 1).toFixed(1)},${y(0).toFixed(1)}`;
  el("polygon", { points: area, fill: COLORS.players[0], "fill-opacity": 0.45, "clip-path": "url(#advantage-above)" }, svg);
  el("polygon", { points: area, fill: COLORS.players[1], "fill-opacity": 0.45, "clip-path": "url(#advantage-below)" }, svg);
  el("polyline", { points: line, fill: "none", stroke: "#4d463b", "stroke-width": 1.2, "stroke-linejoin": "round" }, svg);
  const at = decisions.findIndex((d) => d.index === current);
  if (at >= 0) el("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, class: "advantage-now" }, svg);
  const step = (W - L - R) / Math.max(1, n - 1);
  decisions.forEach((d, i) => {
    if (d.flag) el("circle", { cx: x(i), cy: y(d.lead_before), r: 3.2, class: `advantage-mark flag-${d.flag}`, "data-index": d.index }, svg);
    const hit = el("rect", { x: x(i) - step / 2, y: 0, width: step, height: H, class: "advantage-hit", "data-index": d.index }, svg);
    el("title", {}, hit).textContent = label(d);
    hit.addEventListener("click", () => onPick(d));
  });
  return svg;
}

// A rating's history (the player page): the rating after each rated game, its deviation as a band around it.
export function drawRatingChart(container, points, title = "") {
  container.innerHTML = "";
  const W = 320;
  const H = 150;
  const L = 40;
  const R = 8;
  const T = 8;
  const B = 10;
  const lows = points.map((p) => p.rating - p.rd);
  const highs = points.map((p) => p.rating + p.rd);
  const min = Math.floor(Math.min(...lows) / 100) * 100;
  const max = Math.max(min + 100, Math.ceil(Math.max(...highs) / 100) * 100);
  const n = points.length;
  const x = (i) => (n === 1 ? (L + W - R) / 2 : L + ((W - L - R) * i) / (n - 1));
  const y = (v) => T + ((H - T - B) * (max - v)) / (max - min);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart rating-chart", role: "img" }, container);
  el("title", {}, svg).textContent = title;
  const step = Math.max(100, Math.ceil((max - min) / 400) * 100);
  for (let v = min; v <= max; v += step) {
    el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }, svg);
    el("text", { x: L - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, svg).textContent = v;
  }
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.rd).toFixed(1)}`),
    ...points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.rd).toFixed(1)}`).reverse()].join(" ");
  el("polygon", { points: band, fill: COLORS.players[0], "fill-opacity": 0.15 }, svg);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  el("polyline", { points: line, fill: "none", stroke: COLORS.players[0], "stroke-width": 2.5, "stroke-linejoin": "round" }, svg);
  points.forEach((p, i) => el("circle", { cx: x(i), cy: y(p.rating), r: 3, fill: COLORS.players[0] }, svg));
  return svg;
}
