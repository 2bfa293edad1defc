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
