// Drawing tiles in SVG from their features (sent by the server from the tile data files).
//
// A tile is drawn in a unit square, north up (x east, y south). Its 12 edge segments are numbered
// clockwise from the west end of the north side, as in the data files:
//
//        0   1   2
//     11           3
//     10           4
//      9           5
//        8   7   6
//
// Meadows are the ground; buildings (house, pigsty, chapel) are shapes that hug their segments of
// the edge; roads run from the middle of a side to another side, to the fountain or to a building.

export const SVG_NS = "http://www.w3.org/2000/svg";

export const COLORS = {
  meadow: "#9cc46a",
  meadowEdge: "#7fa653",
  house: "#c8553d",
  houseEdge: "#8f3322",
  pigsty: "#b98b4e",
  pigstyEdge: "#7a5a2c",
  chapel: "#a597d6",
  chapelEdge: "#6a5aa8",
  road: "#f3e9cc",
  roadEdge: "#8b7a55",
  fountain: "#4f9fd8",
  players: ["#2f6fb3", "#e5a81c"],
  playersDark: ["#17406e", "#8a6106"],
};

const BUILDINGS = new Set(["house", "pigsty", "chapel"]);
const CENTER = [0.5, 0.5];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// The point at perimeter position t (0..12, one unit per segment), clockwise from the north-west corner.
export function perimeterPoint(t) {
  t = ((t % 12) + 12) % 12;
  const side = Math.floor(t / 3);
  const u = (t - 3 * side) / 3;
  if (side === 0) return [u, 0];
  if (side === 1) return [1, u];
  if (side === 2) return [1 - u, 1];
  return [0, 1 - u];
}

const CORNER_T = [0, 3, 6, 9];

// Points along the perimeter from t0 to t1 (clockwise), corners included.
function perimeterPath(t0, t1) {
  const points = [perimeterPoint(t0)];
  let end = t1;
  if (end <= t0) end += 12;
  for (let c = Math.ceil(t0 + 1e-9); c < end; c++) {
    if (CORNER_T.includes(c % 12)) points.push(perimeterPoint(c));
  }
  points.push(perimeterPoint(end));
  return points;
}

// Split a feature's segments into maximal runs of consecutive segments (cyclic): [[start, length], ...].
export function runs(segments) {
  const set = new Set(segments);
  if (set.size === 12) return [[0, 12]];
  const result = [];
  for (const s of [...set].sort((a, b) => a - b)) {
    if (set.has((s + 11) % 12)) continue;
    let length = 1;
    while (set.has((s + length) % 12)) length++;
    result.push([s, length]);
  }
  return result;
}

const lerp = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const fmt = (p) => `${p[0].toFixed(4)},${p[1].toFixed(4)}`;

function normalize(v) {
  const n = Math.hypot(v[0], v[1]) || 1;
  return [v[0] / n, v[1] / n];
}

const DEPTH = [0, 0.42, 0.5, 0.62, 0.5, 0.36, 0.3];

// The curve that closes a single run of a building: a quadratic Bezier from the run's end back to its start.
// A building on up to half the edge bulges into the tile; a larger one leaves a bay for what lies in the gap.
function runControl(start, length) {
  const p = perimeterPoint(start);
  const q = perimeterPoint(start + length);
  const chordMid = lerp(p, q, 0.5);
  const big = length > 6;
  const runMid = big ? perimeterPoint(start + length + (12 - length) / 2) : perimeterPoint(start + length / 2);
  const inward = normalize([CENTER[0] - runMid[0], CENTER[1] - runMid[1]]);
  const d = DEPTH[big ? 12 - length : length];
  return { p, q, chordMid, inward, control: [chordMid[0] + inward[0] * d, chordMid[1] + inward[1] * d], d, big };
}

// The SVG path of a building feature.
export function buildingPath(segments) {
  const rs = runs(segments);
  if (rs.length === 1 && rs[0][1] === 12) return "M0,0 H1 V1 H0 Z";
  let d = "";
  if (rs.length === 1) {
    const [start, length] = rs[0];
    const pts = perimeterPath(start, start + length);
    d = `M${fmt(pts[0])}` + pts.slice(1).map((p) => ` L${fmt(p)}`).join("");
    const { control, p } = runControl(start, length);
    d += ` Q${fmt(control)} ${fmt(p)} Z`;
    return d;
  }
  rs.forEach(([start, length], i) => {
    const pts = perimeterPath(start, start + length);
    d += (i === 0 ? `M${fmt(pts[0])}` : ` L${fmt(pts[0])}`) + pts.slice(1).map((p) => ` L${fmt(p)}`).join("");
    const next = rs[(i + 1) % rs.length];
    const a = pts[pts.length - 1];
    const b = perimeterPoint(next[0]);
    const mid = lerp(a, b, 0.5);
    const control = lerp(mid, CENTER, 0.75);
    d += ` Q${fmt(control)} ${fmt(b)}`;
  });
  return d + " Z";
}

// Where a figure stands on each feature, and where the extras (shrines, stocks, nests) are drawn.
export function tileAnchors(tile) {
  const features = tile.features;
  const anchors = [];
  const buildingAnchor = (f) => {
    const rs = runs(f.segments);
    if (rs.length !== 1) return [0.5, 0.5];
    const [start, length] = rs[0];
    if (length === 12) return [0.5, 0.5];
    if (length > 6) return lerp(perimeterPoint(start + length / 2), CENTER, 0.45);
    const { chordMid, inward, d } = runControl(start, length);
    const depth = Math.max(0.12, d * 0.34);
    return [chordMid[0] + inward[0] * depth, chordMid[1] + inward[1] * depth];
  };
  for (const f of features) {
    if (BUILDINGS.has(f.kind)) {
      anchors.push(buildingAnchor(f));
    } else if (f.kind === "road") {
      anchors.push(roadGeometry(tile, f).anchor);
    } else {
      const rs = runs(f.segments).sort((a, b) => b[1] - a[1]);
      const [start, length] = rs[0];
      const edge = perimeterPoint(start + length / 2);
      anchors.push(lerp(edge, CENTER, length >= 6 ? 0.3 : 0.26));
    }
  }
  return anchors;
}

// A road's drawing: its path, the point a herald stands on, and a point beside it for stocks.
export function roadGeometry(tile, feature) {
  const mids = feature.segments.map((s) => perimeterPoint(s + 0.5));
  if (mids.length === 2) {
    const [a, b] = mids;
    const opposite = Math.abs(a[0] - b[0]) === 1 || Math.abs(a[1] - b[1]) === 1;
    if (opposite) {
      return { d: `M${fmt(a)} L${fmt(b)}`, anchor: lerp(a, b, 0.5), beside: lerp(a, b, 0.25), dir: [b[0] - a[0], b[1] - a[1]] };
    }
    const anchor = [0.25 * a[0] + 0.5 * 0.5 + 0.25 * b[0], 0.25 * a[1] + 0.5 * 0.5 + 0.25 * b[1]];
    return { d: `M${fmt(a)} Q0.5,0.5 ${fmt(b)}`, anchor, beside: lerp(a, anchor, 0.5), dir: [anchor[0] - a[0], anchor[1] - a[1]] };
  }
  if (mids.length === 1) {
    const a = mids[0];
    let end = CENTER;
    if (!tile.fountain) {
      // The road ends at the nearest building of the tile.
      let best = null;
      for (const f of tile.features) {
        if (!BUILDINGS.has(f.kind)) continue;
        const rs = runs(f.segments);
        const target = rs.length === 1 && rs[0][1] < 12 ? runControl(rs[0][0], rs[0][1]) : null;
        const point = target ? lerp(target.chordMid, target.control, 0.5) : CENTER;
        const dist = Math.hypot(point[0] - a[0], point[1] - a[1]);
        if (!best || dist < best.dist) best = { point, dist };
      }
      if (best) end = best.point;
    } else {
      end = lerp(a, CENTER, 0.82);
    }
    return { d: `M${fmt(a)} L${fmt(end)}`, anchor: lerp(a, end, 0.55), beside: lerp(a, end, 0.28), dir: [end[0] - a[0], end[1] - a[1]], end };
  }
  // A crossroads: every arm meets in the middle.
  const d = mids.map((m) => `M${fmt(m)} L0.5,0.5`).join(" ");
  return { d, anchor: lerp(mids[0], CENTER, 0.55), beside: lerp(mids[0], CENTER, 0.25), dir: [0.5 - mids[0][0], 0.5 - mids[0][1]], cross: true };
}

function shrineIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon shrine" }, parent);
  el("path", { d: "M-0.055,0.06 V-0.03 L0,-0.075 L0.055,-0.03 V0.06 Z", fill: "#f6f1e4", stroke: "#5b5348", "stroke-width": 0.012 }, g);
  el("path", { d: "M0,-0.05 V0.035 M-0.025,-0.02 H0.025", stroke: "#8c2f2f", "stroke-width": 0.012 }, g);
  return g;
}

function stocksIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon stocks" }, parent);
  el("path", { d: "M0,0.07 V-0.03 M-0.06,-0.04 H0.06", stroke: "#4a3320", "stroke-width": 0.022, "stroke-linecap": "round" }, g);
  el("circle", { cx: -0.03, cy: -0.04, r: 0.012, fill: "#e7d8b4" }, g);
  el("circle", { cx: 0.03, cy: -0.04, r: 0.012, fill: "#e7d8b4" }, g);
  return g;
}

function nestIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon nest" }, parent);
  el("ellipse", { cx: 0, cy: 0.01, rx: 0.06, ry: 0.035, fill: "#6b4a26", stroke: "#3d2a14", "stroke-width": 0.01 }, g);
  el("circle", { cx: -0.018, cy: -0.012, r: 0.018, fill: "#f4efe2" }, g);
  el("circle", { cx: 0.018, cy: -0.012, r: 0.018, fill: "#e9e0c8" }, g);
  return g;
}

function chapelIcon(parent, at) {
  el("path", { d: `M${at[0]},${at[1] - 0.06} v0.11 M${at[0] - 0.035},${at[1] - 0.03} h0.07`, stroke: "#3f3470", "stroke-width": 0.018, "stroke-linecap": "round", class: "icon" }, parent);
}

function houseIcon(parent, at, kind) {
  const [x, y] = at;
  if (kind === "house") {
    el("path", { d: `M${x - 0.05},${y + 0.03} V${y - 0.01} L${x},${y - 0.05} L${x + 0.05},${y - 0.01} V${y + 0.03} Z`, fill: "#f3d9c9", stroke: "#6e2515", "stroke-width": 0.01, class: "icon" }, parent);
  } else {
    el("path", { d: `M${x - 0.055},${y + 0.03} V${y - 0.02} M${x},${y + 0.03} V${y - 0.02} M${x + 0.055},${y + 0.03} V${y - 0.02} M${x - 0.065},${y - 0.005} H${x + 0.065}`, stroke: "#4e3616", "stroke-width": 0.012, class: "icon" }, parent);
  }
}

// Draw a tile (rotation 0) into `parent`; the caller places and turns the group.
export function drawTile(parent, tile, { extras = true } = {}) {
  const g = el("g", { class: "tile" }, parent);
  el("rect", { x: 0, y: 0, width: 1, height: 1, fill: COLORS.meadow }, g);
  const anchors = tileAnchors(tile);
  // Larger buildings first, so that smaller ones (and bands across the tile) stay visible on top.
  const order = tile.features.map((f, i) => [f, i]).filter(([f]) => BUILDINGS.has(f.kind));
  order.sort((a, b) => (runs(b[0].segments).length === 1 ? b[0].segments.length : 0) - (runs(a[0].segments).length === 1 ? a[0].segments.length : 0));
  order.forEach(([f, i]) => {
    el("path", { d: buildingPath(f.segments), fill: COLORS[f.kind], stroke: COLORS[f.kind + "Edge"], "stroke-width": 0.018, "stroke-linejoin": "round", class: `feature f-${f.kind}`, "data-feature": i }, g);
  });
  const roads = tile.features.map((f, i) => [f, i]).filter(([f]) => f.kind === "road");
  for (const [f] of roads) {
    el("path", { d: roadGeometry(tile, f).d, stroke: COLORS.roadEdge, "stroke-width": 0.15, fill: "none", "stroke-linecap": "butt" }, g);
  }
  for (const [f, i] of roads) {
    el("path", { d: roadGeometry(tile, f).d, stroke: COLORS.road, "stroke-width": 0.1, fill: "none", "stroke-linecap": "butt", class: "feature f-road", "data-feature": i }, g);
  }
  if (roads.length && !tile.fountain && roads.some(([f]) => f.segments.length >= 3)) {
    el("rect", { x: 0.43, y: 0.43, width: 0.14, height: 0.14, fill: COLORS.road, stroke: COLORS.roadEdge, "stroke-width": 0.015 }, g);
  }
  if (tile.fountain) {
    el("circle", { cx: 0.5, cy: 0.5, r: 0.11, fill: COLORS.fountain, stroke: "#e8f3fb", "stroke-width": 0.03 }, g);
    el("circle", { cx: 0.5, cy: 0.5, r: 0.04, fill: "#cfe8f8" }, g);
  }
  if (extras) {
    tile.features.forEach((f, i) => {
      const at = anchors[i];
      if (f.kind === "chapel") chapelIcon(g, [at[0] + 0.1, at[1] - 0.06]);
      else if (f.kind === "house" || f.kind === "pigsty") houseIcon(g, [at[0] + 0.1, at[1] - 0.05], f.kind);
      if (f.kind === "road" && f.stocks) {
        const geo = roadGeometry(tile, f);
        const n = normalize(geo.dir);
        stocksIcon(g, [geo.beside[0] - n[1] * 0.13, geo.beside[1] + n[0] * 0.13]);
      }
      if (f.shrines) {
        for (let k = 0; k < f.shrines; k++) shrineIcon(g, lerp(at, CENTER, -0.05 + 0.28 * (k + 1)).map((v, j) => v + (j === 0 ? 0.08 : -0.02)));
      }
      if (f.nests) {
        for (let k = 0; k < f.nests; k++) nestIcon(g, [at[0] - 0.1 + 0.06 * k, at[1] + 0.09]);
      }
    });
  }
  el("rect", { x: 0, y: 0, width: 1, height: 1, fill: "none", stroke: "rgba(40,30,10,0.35)", "stroke-width": 0.012 }, g);
  return g;
}

// A start space: the half tile printed on the wall. Its features lie on the three segments of the side facing
// the castle; it is drawn as a strip `depth` deep along that side of its own unit square.
export function drawStart(parent, start, depth) {
  const g = el("g", { class: "start" }, parent);
  const facing = (start.side + 2) % 4;
  const strip = stripRect(facing, depth);
  el("rect", { ...strip, fill: COLORS.meadow, stroke: "#5b5348", "stroke-width": 0.02 }, g);
  for (const f of start.features) {
    for (const s of f.segments) {
      const part = segmentRect(s, depth);
      if (BUILDINGS.has(f.kind)) el("rect", { ...part, fill: COLORS[f.kind], stroke: COLORS[f.kind + "Edge"], "stroke-width": 0.01 }, g);
    }
    if (f.kind === "road") {
      const s = f.segments[0];
      const a = perimeterPoint(s + 0.5);
      const inward = [[0, 1], [-1, 0], [0, -1], [1, 0]][facing];
      const b = [a[0] + inward[0] * depth, a[1] + inward[1] * depth];
      el("path", { d: `M${fmt(a)} L${fmt(b)}`, stroke: COLORS.roadEdge, "stroke-width": 0.15 }, g);
      el("path", { d: `M${fmt(a)} L${fmt(b)}`, stroke: COLORS.road, "stroke-width": 0.1 }, g);
    }
    const mid = segmentMid(f.segments[Math.floor(f.segments.length / 2)], depth);
    if (f.shrines) shrineIcon(g, mid, 1.1);
    if (f.nests) nestIcon(g, [mid[0] + 0.12, mid[1]], 1);
    if (f.kind === "chapel") chapelIcon(g, mid);
  }
  return g;
}

function stripRect(side, depth) {
  if (side === 0) return { x: 0, y: 0, width: 1, height: depth };
  if (side === 1) return { x: 1 - depth, y: 0, width: depth, height: 1 };
  if (side === 2) return { x: 0, y: 1 - depth, width: 1, height: depth };
  return { x: 0, y: 0, width: depth, height: 1 };
}

function segmentRect(s, depth) {
  const side = Math.floor(s / 3);
  const a = perimeterPoint(s);
  const b = perimeterPoint(s + 1);
  const x0 = Math.min(a[0], b[0]);
  const y0 = Math.min(a[1], b[1]);
  if (side === 0) return { x: x0, y: 0, width: 1 / 3, height: depth };
  if (side === 2) return { x: x0, y: 1 - depth, width: 1 / 3, height: depth };
  if (side === 1) return { x: 1 - depth, y: y0, width: depth, height: 1 / 3 };
  return { x: 0, y: y0, width: depth, height: 1 / 3 };
}

function segmentMid(s, depth) {
  const r = segmentRect(s, depth);
  return [r.x + r.width / 2, r.y + r.height / 2];
}

// Rotate a point of the unit square `rotation` quarter turns clockwise about its centre.
export function rotatePoint([x, y], rotation) {
  let p = [x, y];
  for (let i = 0; i < ((rotation % 4) + 4) % 4; i++) p = [1 - p[1], p[0]];
  return p;
}

// The outline of one feature, for highlighting it on a placed tile.
export function featureOutline(parent, tile, index, cls) {
  const f = tile.features[index];
  if (BUILDINGS.has(f.kind)) return el("path", { d: buildingPath(f.segments), class: cls }, parent);
  if (f.kind === "road") return el("path", { d: roadGeometry(tile, f).d, class: cls + " road-outline", fill: "none" }, parent);
  const at = tileAnchors(tile)[index];
  return el("circle", { cx: at[0], cy: at[1], r: 0.16, class: cls }, parent);
}

// A figure: a follower (standing), a monk (lying on a meadow), a prince (crowned) or a falconer (with a bird).
export function drawFigure(parent, at, player, { piece = "follower", lying = false, ghost = false, size = 0.3 } = {}) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${size}) rotate(${lying ? -90 : 0})`, class: ghost ? "figure ghost" : "figure" }, parent);
  const fill = COLORS.players[player];
  const stroke = COLORS.playersDark[player];
  el("path", {
    d: "M0,-0.5 C0.13,-0.5 0.17,-0.39 0.13,-0.28 L0.42,-0.17 C0.52,-0.13 0.5,0.0 0.4,0.0 L0.2,-0.03 L0.38,0.45 L0.1,0.45 L0,0.22 L-0.1,0.45 L-0.38,0.45 L-0.2,-0.03 L-0.4,0.0 C-0.5,0.0 -0.52,-0.13 -0.42,-0.17 L-0.13,-0.28 C-0.17,-0.39 -0.13,-0.5 0,-0.5 Z",
    fill, stroke, "stroke-width": 0.07, "stroke-linejoin": "round",
  }, g);
  if (piece === "prince") {
    el("path", { d: "M-0.16,-0.5 L-0.16,-0.68 L-0.08,-0.58 L0,-0.72 L0.08,-0.58 L0.16,-0.68 L0.16,-0.5 Z", fill: "#f2c94c", stroke: "#7a5a08", "stroke-width": 0.04 }, g);
  } else if (piece === "falconer") {
    el("path", { d: "M0.3,-0.32 q0.12,-0.16 0.26,-0.12 q-0.08,0.02 -0.1,0.08 q0.1,0.0 0.16,0.08 q-0.16,0.02 -0.32,-0.04 Z", fill: "#5a4632", stroke: "#2c2116", "stroke-width": 0.03 }, g);
  }
  return g;
}
