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
//
// The features' shapes (buildingPath, roadGeometry) and the points figures stand on (tileAnchors) are the
// board's: they decide where a feature is pointed at and outlined. The art drawn on them (grass on the
// meadows, roofs on the houses, pigs and a fence in the pigsties, a chapel, cobbles on the roads, the
// fountain, the shrines, stocks and nests) takes no pointer events and is a pure function of the tile: the
// same tile is drawn the same way every time (its small variations come from a hash of its id).

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
  grass: "#6f9a45",
  roof: "#e0784c",
  roofShade: "#a9412a",
  roofEdge: "#5e1d10",
  pig: "#f2a6b6",
  pigEdge: "#8a4152",
  fence: "#5a3d1c",
  cobble: "#d8c79e",
  stone: "#d9d3c4",
  stoneEdge: "#6d6658",
  wood: "#7a4f26",
  woodEdge: "#3b240f",
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

// ------------------------------------------------------------------------------------------------ art

// A small hash of a text (a tile's id), and a generator of numbers in [0, 1) from it: the same tile gets the
// same small variations every time it is drawn.
function hashText(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function seeded(text) {
  let a = hashText(text) || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quadPoints(p0, c, p1, steps = 10) {
  const points = [];
  for (let i = 1; i <= steps; i++) {
    const u = i / steps;
    const a = lerp(p0, c, u);
    const b = lerp(c, p1, u);
    points.push(lerp(a, b, u));
  }
  return points;
}

// The outline of a building as a polygon (buildingPath with its curves cut into short lines), and the curves
// alone (the building's inner edges, where a pigsty's fence stands).
export function buildingPolygon(segments) {
  const rs = runs(segments);
  if (rs.length === 1 && rs[0][1] === 12) return { points: [[0, 0], [1, 0], [1, 1], [0, 1]], inner: "" };
  const points = [];
  let inner = "";
  if (rs.length === 1) {
    const [start, length] = rs[0];
    const pts = perimeterPath(start, start + length);
    const { control, p } = runControl(start, length);
    points.push(...pts, ...quadPoints(pts[pts.length - 1], control, p).slice(0, -1));
    inner = `M${fmt(pts[pts.length - 1])} Q${fmt(control)} ${fmt(p)}`;
    return { points, inner };
  }
  rs.forEach(([start, length], i) => {
    const pts = perimeterPath(start, start + length);
    const next = rs[(i + 1) % rs.length];
    const a = pts[pts.length - 1];
    const b = perimeterPoint(next[0]);
    const control = lerp(lerp(a, b, 0.5), CENTER, 0.75);
    points.push(...pts, ...quadPoints(a, control, b).slice(0, -1));
    inner += `${inner ? " " : ""}M${fmt(a)} Q${fmt(control)} ${fmt(b)}`;
  });
  return { points, inner };
}

export function insidePolygon([x, y], points) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i];
    const [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

// Points along a road's centre line (as roadGeometry draws it), to keep the houses and pigs off it.
function roadPoints(tile, feature) {
  const mids = feature.segments.map((s) => perimeterPoint(s + 0.5));
  const line = (a, b) => Array.from({ length: 11 }, (_, i) => lerp(a, b, i / 10));
  if (mids.length === 2) {
    const [a, b] = mids;
    const opposite = Math.abs(a[0] - b[0]) === 1 || Math.abs(a[1] - b[1]) === 1;
    return opposite ? line(a, b) : [a, ...quadPoints(a, CENTER, b)];
  }
  if (mids.length === 1) return line(mids[0], roadGeometry(tile, feature).end || CENTER);
  return mids.flatMap((m) => line(m, CENTER));
}

// Where small things (roofs, pigs) go inside a building: spots of a staggered grid whose whole footprint
// (half-width w, half-height h) lies in the building, off the roads, the fountain and the other buildings.
function spotsIn(tile, index, polygons, roads, { step = 0.15, w = 0.06, h = 0.05, jitter = 0.012, fountain = tile.fountain } = {}) {
  const random = seeded(`${tile.id}:${index}`);
  const own = polygons.get(index);
  const others = [...polygons].filter(([i]) => i !== index).map(([, poly]) => poly);
  const spots = [];
  const rows = Math.round(1 / (step * 0.85));
  for (let row = 0; row < rows; row++) {
    const y = 0.07 + row * step * 0.85;
    for (let x = 0.07 + (row % 2 ? step / 2 : 0); x < 0.95; x += step) {
      const at = [x + (random() - 0.5) * jitter * 2, y + (random() - 0.5) * jitter * 2];
      const corners = [[-w, -h], [w, -h], [w, h], [-w, h], [0, 0]].map(([dx, dy]) => [at[0] + dx, at[1] + dy]);
      if (!corners.every((c) => insidePolygon(c, own.points) && c[0] > 0.02 && c[0] < 0.98 && c[1] > 0.02 && c[1] < 0.98)) continue;
      if (corners.some((c) => others.some((poly) => insidePolygon(c, poly.points)))) continue;
      if (roads.some((r) => Math.hypot(r[0] - at[0], r[1] - at[1]) < 0.09 + Math.max(w, h))) continue;
      if (fountain && Math.hypot(at[0] - 0.5, at[1] - 0.5) < 0.2) continue;
      spots.push(at);
    }
  }
  return spots;
}

// A roof seen from above: a hipped roof, its four slopes in light and shade; `turn` lays it across.
function roof(parent, [x, y], turn, size = 1) {
  const w = 0.07 * size;
  const h = 0.05 * size;
  const r = w - h; // half the ridge
  const g = el("g", { transform: `translate(${fmt([x, y])})${turn ? " rotate(90)" : ""}`, class: "roof" }, parent);
  el("ellipse", { cx: 0.012 * size, cy: 0.014 * size, rx: w, ry: h, fill: "rgba(60,10,0,.35)" }, g);
  el("path", { d: `M${-w},${-h} H${w} L${r},0 H${-r} Z`, fill: COLORS.roof }, g);
  el("path", { d: `M${w},${-h} V${h} L${r},0 Z`, fill: "#c9603a" }, g);
  el("path", { d: `M${-w},${h} H${w} L${r},0 H${-r} Z`, fill: COLORS.roofShade }, g);
  el("path", { d: `M${-w},${-h} V${h} L${-r},0 Z`, fill: "#f0a071" }, g);
  el("path", { d: `M${-w},${-h} H${w} V${h} H${-w} Z M${-w},${-h} L${-r},0 L${-w},${h} M${w},${-h} L${r},0 L${w},${h} M${-r},0 H${r}`, fill: "none", stroke: COLORS.roofEdge, "stroke-width": 0.008 * Math.max(1, size * 0.8), "stroke-linejoin": "round" }, g);
  return g;
}

// A pig seen from above: body, head with its ears and snout, a curly tail.
function pig(parent, [x, y], angle, size = 1) {
  const g = el("g", { transform: `translate(${fmt([x, y])}) rotate(${angle}) scale(${size})`, class: "pig" }, parent);
  el("path", { d: "M-0.052,0.004 q-0.02,-0.012 -0.012,-0.022 q0.006,-0.004 0.008,0.006", fill: "none", stroke: COLORS.pigEdge, "stroke-width": 0.007, "stroke-linecap": "round" }, g);
  el("ellipse", { cx: -0.005, cy: 0, rx: 0.048, ry: 0.031, fill: COLORS.pig, stroke: COLORS.pigEdge, "stroke-width": 0.008 }, g);
  el("path", { d: "M0.03,-0.02 l0.012,-0.02 l0.01,0.016 Z M0.03,0.02 l0.012,0.02 l0.01,-0.016 Z", fill: COLORS.pigEdge }, g);
  el("circle", { cx: 0.045, cy: 0, r: 0.022, fill: COLORS.pig, stroke: COLORS.pigEdge, "stroke-width": 0.008 }, g);
  el("ellipse", { cx: 0.066, cy: 0, rx: 0.008, ry: 0.011, fill: "#e27d93", stroke: COLORS.pigEdge, "stroke-width": 0.005 }, g);
  return g;
}

// A chapel seen from above: a cross-shaped roof with its ridges and a cross on the crossing.
function chapelBuilding(parent, [x, y], size = 1) {
  const g = el("g", { transform: `translate(${fmt([x, y])}) scale(${size})`, class: "chapel-art" }, parent);
  el("ellipse", { cx: 0.01, cy: 0.012, rx: 0.11, ry: 0.08, fill: "rgba(40,30,60,.25)" }, g);
  el("path", { d: "M-0.1,-0.028 H-0.03 V-0.075 H0.03 V-0.028 H0.1 V0.028 H0.03 V0.095 H-0.03 V0.028 H-0.1 Z", fill: "#dcd6ea", stroke: "#3f3470", "stroke-width": 0.01, "stroke-linejoin": "round" }, g);
  el("path", { d: "M-0.1,0 H0.1 M0,-0.075 V0.095", stroke: "#8a80b5", "stroke-width": 0.008 }, g);
  el("path", { d: "M0,-0.045 V0.045 M-0.03,-0.012 H0.03", stroke: "#3f3470", "stroke-width": 0.016, "stroke-linecap": "round" }, g);
  return g;
}

// A tuft of grass.
function tuft(parent, [x, y], size = 1) {
  const s = 0.018 * size;
  el("path", { d: `M${fmt([x - s, y])} l${s * 0.3},${-s * 1.6} M${fmt([x, y])} l0,${-s * 2.1} M${fmt([x + s, y])} l${-s * 0.3},${-s * 1.6}`, stroke: COLORS.grass, "stroke-width": 0.009 * Math.max(1, size / 1.6), "stroke-linecap": "round" }, parent);
}

// A wayside shrine: a small white niche with a red roof and a cross, on a stone post.
function shrineIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon shrine" }, parent);
  el("ellipse", { cx: 0.006, cy: 0.082, rx: 0.05, ry: 0.016, fill: "rgba(30,40,10,.35)" }, g);
  el("rect", { x: -0.016, y: 0.02, width: 0.032, height: 0.062, fill: COLORS.stone, stroke: COLORS.stoneEdge, "stroke-width": 0.009 }, g);
  el("rect", { x: -0.042, y: -0.04, width: 0.084, height: 0.064, rx: 0.006, fill: "#fbf8ef", stroke: "#4d463b", "stroke-width": 0.01 }, g);
  el("path", { d: "M-0.02,0.02 v-0.03 a0.02,0.02 0 0 1 0.04,0 v0.03 Z", fill: "#3f5fa8" }, g);
  el("path", { d: "M-0.058,-0.034 L0,-0.078 L0.058,-0.034 Z", fill: "#b3402a", stroke: "#5e1d10", "stroke-width": 0.01, "stroke-linejoin": "round" }, g);
  el("path", { d: "M0,-0.078 V-0.112 M-0.014,-0.1 H0.014", stroke: "#3b2a12", "stroke-width": 0.009, "stroke-linecap": "round" }, g);
  return g;
}

// The stocks: two posts holding a board with three holes, on a plank.
function stocksIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon stocks" }, parent);
  el("ellipse", { cx: 0.004, cy: 0.062, rx: 0.075, ry: 0.016, fill: "rgba(30,40,10,.35)" }, g);
  el("rect", { x: -0.07, y: 0.048, width: 0.14, height: 0.016, fill: COLORS.wood, stroke: COLORS.woodEdge, "stroke-width": 0.007 }, g);
  el("path", { d: "M-0.05,0.05 V-0.06 M0.05,0.05 V-0.06", stroke: COLORS.woodEdge, "stroke-width": 0.02, "stroke-linecap": "round" }, g);
  el("rect", { x: -0.068, y: -0.032, width: 0.136, height: 0.04, rx: 0.006, fill: "#a8743d", stroke: COLORS.woodEdge, "stroke-width": 0.009 }, g);
  el("path", { d: "M-0.068,-0.012 H0.068", stroke: COLORS.woodEdge, "stroke-width": 0.006 }, g);
  for (const [x, r] of [[-0.038, 0.01], [0, 0.013], [0.038, 0.01]]) el("circle", { cx: x, cy: -0.012, r, fill: "#2a1a0a" }, g);
  return g;
}

function nestIcon(parent, at, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon nest" }, parent);
  el("ellipse", { cx: 0, cy: 0.01, rx: 0.06, ry: 0.035, fill: "#6b4a26", stroke: "#3d2a14", "stroke-width": 0.01 }, g);
  el("path", { d: "M-0.05,0.0 q0.05,0.03 0.1,0 M-0.045,0.022 q0.045,0.02 0.09,0", fill: "none", stroke: "#a57a45", "stroke-width": 0.007 }, g);
  el("circle", { cx: -0.018, cy: -0.012, r: 0.018, fill: "#f4efe2", stroke: "#8c8270", "stroke-width": 0.005 }, g);
  el("circle", { cx: 0.018, cy: -0.012, r: 0.018, fill: "#e9e0c8", stroke: "#8c8270", "stroke-width": 0.005 }, g);
  return g;
}

// The fountain seen from above: a stone basin, water, a column with its jets.
function fountainArt(parent, at = CENTER, scale = 1) {
  const g = el("g", { transform: `translate(${fmt(at)}) scale(${scale})`, class: "icon fountain" }, parent);
  const ring = Array.from({ length: 8 }, (_, i) => {
    const a = (Math.PI / 8) * (2 * i + 1);
    return [0.13 * Math.cos(a), 0.13 * Math.sin(a)];
  });
  el("path", { d: `M${ring.map(fmt).join(" L")} Z`, fill: COLORS.stone, stroke: COLORS.stoneEdge, "stroke-width": 0.012, "stroke-linejoin": "round" }, g);
  el("circle", { r: 0.098, fill: COLORS.fountain, stroke: "#2d6e9e", "stroke-width": 0.008 }, g);
  el("circle", { r: 0.07, fill: "none", stroke: "#9fd0f0", "stroke-width": 0.008, "stroke-dasharray": "0.03 0.025" }, g);
  el("circle", { r: 0.03, fill: COLORS.stone, stroke: COLORS.stoneEdge, "stroke-width": 0.008 }, g);
  el("path", { d: "M0,-0.015 V-0.06 M0.015,0 H0.06 M0,0.015 V0.06 M-0.015,0 H-0.06", stroke: "#eaf6ff", "stroke-width": 0.01, "stroke-linecap": "round" }, g);
  el("circle", { r: 0.012, fill: "#eaf6ff" }, g);
  return g;
}

// Where one small thing goes in a building with no room for the usual ones: a spot with room for a small one,
// else the spot its figure stands on.
function smallSpot(tile, index, polygons, w, h) {
  const spots = spotsIn(tile, index, polygons, [], { step: 0.05, w, h, jitter: 0, fountain: false });
  return spots.length ? [spots[Math.floor(spots.length / 2)]] : [tileAnchors(tile)[index]];
}

// A feature's art, under its figure: roofs on a house, pigs and a fence in a pigsty, a chapel.
function buildingArt(parent, tile, index, polygons, roads) {
  const f = tile.features[index];
  const random = seeded(`${tile.id}:${index}:art`);
  if (f.kind === "house") {
    let spots = spotsIn(tile, index, polygons, roads, { step: 0.2, w: 0.075, h: 0.075, jitter: 0.015 });
    const small = !spots.length;
    if (small) spots = smallSpot(tile, index, polygons, 0.04, 0.04);
    spots.forEach((at) => roof(parent, at, random() < 0.3, small ? 0.55 : 1));
  } else if (f.kind === "pigsty") {
    if (polygons.get(index).inner) {
      el("path", { d: polygons.get(index).inner, fill: "none", stroke: COLORS.fence, "stroke-width": 0.012 }, parent);
      el("path", { d: polygons.get(index).inner, fill: "none", stroke: COLORS.fence, "stroke-width": 0.032, "stroke-dasharray": "0.012 0.045" }, parent);
    }
    for (let k = 0; k < 4; k++) {
      const at = [0.1 + 0.8 * random(), 0.1 + 0.8 * random()];
      if (insidePolygon(at, polygons.get(index).points)) el("ellipse", { cx: at[0], cy: at[1], rx: 0.05, ry: 0.025, fill: "#8d6634", opacity: 0.6 }, parent);
    }
    let spots = spotsIn(tile, index, polygons, roads, { step: 0.22, w: 0.09, h: 0.09, jitter: 0.02 });
    const small = !spots.length;
    if (small) spots = smallSpot(tile, index, polygons, 0.05, 0.05);
    spots.filter((_, k) => k % 2 === 0 || spots.length <= 2).forEach((at) => pig(parent, at, Math.floor(random() * 4) * 90 + (random() - 0.5) * 40, small ? 0.75 : 1.35));
  } else if (f.kind === "chapel") {
    const spots = spotsIn(tile, index, polygons, roads, { step: 0.1, w: 0.1, h: 0.095, jitter: 0 });
    if (spots.length) {
      const mid = spots.reduce((a, p) => [a[0] + p[0] / spots.length, a[1] + p[1] / spots.length], [0, 0]);
      const best = spots.reduce((a, p) => (Math.hypot(p[0] - mid[0], p[1] - mid[1]) < Math.hypot(a[0] - mid[0], a[1] - mid[1]) ? p : a));
      chapelBuilding(parent, best);
    } else {
      chapelBuilding(parent, smallSpot(tile, index, polygons, 0.05, 0.05)[0], 0.5);
    }
  }
}

// Tiles drawn once, then copied: a drawing depends on the tile alone.
const drawn = new Map();

// Draw a tile (rotation 0) into `parent`; the caller places and turns the group. `extras` draws the shrines,
// stocks and nests (the legend's plain road leaves them out).
export function drawTile(parent, tile, { extras = true } = {}) {
  const key = `${extras ? 1 : 0}:${JSON.stringify(tile)}`;
  let template = drawn.get(key);
  if (!template) {
    template = tileDrawing(tile, extras);
    if (drawn.size > 500) drawn.clear();
    drawn.set(key, template);
  }
  const g = template.cloneNode(true);
  parent.appendChild(g);
  return g;
}

function tileDrawing(tile, extras) {
  const g = el("g", { class: "tile" });
  el("rect", { x: 0, y: 0, width: 1, height: 1, fill: COLORS.meadow }, g);
  const anchors = tileAnchors(tile);
  const random = seeded(`${tile.id}:grass`);
  const grass = el("g", { class: "art grass", "pointer-events": "none" }, g);
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 5; col++) {
      if (random() < 0.45) continue;
      tuft(grass, [0.1 + col * 0.2 + (random() - 0.5) * 0.1, 0.12 + row * 0.2 + (random() - 0.5) * 0.1], 0.8 + random() * 0.5);
    }
  }
  const roadFeatures = tile.features.map((f, i) => [f, i]).filter(([f]) => f.kind === "road");
  const roads = roadFeatures.flatMap(([f]) => roadPoints(tile, f));
  const polygons = new Map(tile.features.map((f, i) => [f, i]).filter(([f]) => BUILDINGS.has(f.kind)).map(([f, i]) => [i, buildingPolygon(f.segments)]));
  // Larger buildings first, so that smaller ones (and bands across the tile) stay visible on top.
  const order = tile.features.map((f, i) => [f, i]).filter(([f]) => BUILDINGS.has(f.kind));
  order.sort((a, b) => (runs(b[0].segments).length === 1 ? b[0].segments.length : 0) - (runs(a[0].segments).length === 1 ? a[0].segments.length : 0));
  order.forEach(([f, i]) => {
    el("path", { d: buildingPath(f.segments), fill: COLORS[f.kind], stroke: COLORS[f.kind + "Edge"], "stroke-width": 0.018, "stroke-linejoin": "round", class: `feature f-${f.kind}`, "data-feature": i }, g);
    buildingArt(el("g", { class: `art art-${f.kind}`, "pointer-events": "none" }, g), tile, i, polygons, roads);
  });
  for (const [f] of roadFeatures) {
    el("path", { d: roadGeometry(tile, f).d, stroke: COLORS.roadEdge, "stroke-width": 0.15, fill: "none", "stroke-linecap": "butt" }, g);
  }
  for (const [f, i] of roadFeatures) {
    el("path", { d: roadGeometry(tile, f).d, stroke: COLORS.road, "stroke-width": 0.1, fill: "none", "stroke-linecap": "butt", class: "feature f-road", "data-feature": i }, g);
  }
  const cobbles = el("g", { class: "art cobbles", "pointer-events": "none" }, g);
  for (const [f] of roadFeatures) {
    const d = roadGeometry(tile, f).d;
    // Setts in a running bond: the middle row of stones half a stone on from the outer rows.
    el("path", { d, stroke: COLORS.cobble, "stroke-width": 0.086, fill: "none", "stroke-dasharray": "0.022 0.012" }, cobbles);
    el("path", { d, stroke: COLORS.road, "stroke-width": 0.03, fill: "none" }, cobbles);
    el("path", { d, stroke: COLORS.cobble, "stroke-width": 0.03, fill: "none", "stroke-dasharray": "0.022 0.012", "stroke-dashoffset": 0.017 }, cobbles);
  }
  if (roadFeatures.length && !tile.fountain && roadFeatures.some(([f]) => f.segments.length >= 3)) {
    el("rect", { x: 0.43, y: 0.43, width: 0.14, height: 0.14, fill: COLORS.road, stroke: COLORS.roadEdge, "stroke-width": 0.015 }, g);
    el("circle", { cx: 0.5, cy: 0.5, r: 0.035, fill: COLORS.cobble, stroke: COLORS.roadEdge, "stroke-width": 0.008, "pointer-events": "none" }, g);
  }
  if (tile.fountain) fountainArt(el("g", { class: "art", "pointer-events": "none" }, g));
  if (extras) {
    const icons = el("g", { class: "art extras", "pointer-events": "none" }, g);
    tile.features.forEach((f, i) => {
      const at = anchors[i];
      if (f.kind === "road" && f.stocks) {
        const geo = roadGeometry(tile, f);
        const n = normalize(geo.dir);
        const side = [geo.beside[0] - n[1] * 0.16, geo.beside[1] + n[0] * 0.16];
        const other = [geo.beside[0] + n[1] * 0.16, geo.beside[1] - n[0] * 0.16];
        const inside = (p) => p[0] > 0.12 && p[0] < 0.88 && p[1] > 0.12 && p[1] < 0.88;
        stocksIcon(icons, inside(side) || !inside(other) ? side : other, 1.25);
      }
      if (f.shrines) {
        for (let k = 0; k < f.shrines; k++) shrineIcon(icons, lerp(at, CENTER, -0.05 + 0.28 * (k + 1)).map((v, j) => v + (j === 0 ? 0.08 : -0.02)), 1.25);
      }
      if (f.nests) {
        for (let k = 0; k < f.nests; k++) nestIcon(icons, [at[0] - 0.1 + 0.06 * k, at[1] + 0.09], 1.15);
      }
    });
  }
  el("rect", { x: 0, y: 0, width: 1, height: 1, fill: "none", stroke: "rgba(40,30,10,0.35)", "stroke-width": 0.012 }, g);
  return g;
}

// A close-up of one thing of the game, filling a unit square: for legends and the rules page, where a whole
// tile would show it too small. `kind`: road, house, pigsty, meadow, chapel, shrine, stocks, fountain, nest.
export function drawSwatch(parent, kind) {
  const g = el("g", { class: `swatch-art swatch-${kind}` }, parent);
  const ground = { house: COLORS.house, pigsty: COLORS.pigsty, chapel: COLORS.chapel }[kind] || COLORS.meadow;
  el("rect", { x: 0, y: 0, width: 1, height: 1, rx: 0.08, fill: ground }, g);
  if (kind === "road") {
    el("path", { d: "M0,0.5 H1", stroke: COLORS.roadEdge, "stroke-width": 0.46 }, g);
    el("path", { d: "M0,0.5 H1", stroke: COLORS.road, "stroke-width": 0.38 }, g);
    for (const [y, offset] of [[0.38, 0], [0.5, 0.06], [0.62, 0]]) {
      el("path", { d: `M0,${y} H1`, stroke: COLORS.cobble, "stroke-width": 0.1, "stroke-dasharray": "0.09 0.03", "stroke-dashoffset": offset, "stroke-linecap": "butt" }, g);
    }
  } else if (kind === "house") {
    roof(g, [0.3, 0.3], false, 2.4);
    roof(g, [0.7, 0.66], true, 2.4);
  } else if (kind === "pigsty") {
    el("path", { d: "M0.04,0.9 H0.96", stroke: COLORS.fence, "stroke-width": 0.05, "stroke-dasharray": "0.04 0.12" }, g);
    pig(g, [0.5, 0.45], 0, 4.5);
  } else if (kind === "meadow") {
    [[0.25, 0.35], [0.7, 0.3], [0.45, 0.7], [0.8, 0.75], [0.2, 0.8]].forEach((at) => tuft(g, at, 2.8));
  } else if (kind === "chapel") {
    chapelBuilding(g, [0.5, 0.5], 3.8);
  } else if (kind === "shrine") {
    shrineIcon(g, [0.5, 0.53], 5);
  } else if (kind === "stocks") {
    stocksIcon(g, [0.5, 0.5], 5.5);
  } else if (kind === "fountain") {
    fountainArt(g, CENTER, 3.4);
  } else if (kind === "nest") {
    nestIcon(g, [0.5, 0.5], 6.5);
  }
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
      if (!BUILDINGS.has(f.kind)) continue;
      el("rect", { ...part, fill: COLORS[f.kind], stroke: COLORS[f.kind + "Edge"], "stroke-width": 0.01 }, g);
      const size = Math.min(part.width, part.height) * 3.2;
      if (f.kind === "house") roof(g, segmentMid(s, depth), part.width < part.height, size);
      else if (f.kind === "pigsty") pig(g, segmentMid(s, depth), part.width < part.height ? 90 : 0, size * 0.9);
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
    if (f.kind === "chapel") chapelBuilding(g, mid, 0.6);
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

// A special token (a wall tile in The Castle 2003), face up: the number printed on it in the edition, and a
// picture of what it does. `kind` is its Zamek number (Z19), `printed` the number it shows.
export function drawToken(parent, kind, printed) {
  const g = el("g", { class: `token-art token-${kind}` }, parent);
  el("rect", { x: 0.03, y: 0.03, width: 0.94, height: 0.94, rx: 0.12, fill: "#efe4c8", stroke: "#5b4a2e", "stroke-width": 0.04 }, g);
  el("circle", { cx: 0.19, cy: 0.19, r: 0.12, fill: "#5b4a2e" }, g);
  const number = el("text", { x: 0.19, y: 0.235, "text-anchor": "middle", "font-size": 0.15, "font-weight": 700, fill: "#fffaf0" }, g);
  number.textContent = String(printed);
  const label = (text, x = 0.72, y = 0.86, size = 0.24) => {
    const t = el("text", { x, y, "text-anchor": "middle", "font-size": size, "font-weight": 800, fill: "#7a2e14", stroke: "#fffaf0", "stroke-width": 0.02, "paint-order": "stroke" }, g);
    t.textContent = text;
  };
  const open = (draw) => {
    draw();
    el("path", { d: "M0.2,0.84 H0.8", stroke: "#5b4a2e", "stroke-width": 0.03, "stroke-dasharray": "0.06 0.05" }, g);
    el("circle", { cx: 0.8, cy: 0.24, r: 0.1, fill: "#fffaf0", stroke: "#5b4a2e", "stroke-width": 0.025, "stroke-dasharray": "0.05 0.04" }, g);
  };
  switch (kind) {
    case 1:
      el("path", { d: "M0.68,0.38 A0.2,0.2 0 1 0 0.7,0.64", fill: "none", stroke: "#2f6fb3", "stroke-width": 0.06, "stroke-linecap": "round" }, g);
      el("path", { d: "M0.6,0.3 L0.76,0.33 L0.68,0.47 Z", fill: "#2f6fb3" }, g);
      label("+1", 0.52, 0.58, 0.16);
      break;
    case 2:
      roof(g, [0.45, 0.5], false, 3);
      label("×2");
      break;
    case 3:
      pig(g, [0.45, 0.5], 0, 3.6);
      label("×2");
      break;
    case 4:
      shrineIcon(g, [0.42, 0.5], 3);
      label("4");
      break;
    case 5:
      roof(g, [0.45, 0.52], false, 2.6);
      el("path", { d: "M0.45,0.4 V0.2 l0.12,0.04 l-0.12,0.04", fill: "#c23b2b", stroke: "#5e1d10", "stroke-width": 0.015 }, g);
      label("+2");
      break;
    case 6:
      el("path", { d: "M0.5,0.2 L0.57,0.4 L0.78,0.4 L0.61,0.52 L0.68,0.73 L0.5,0.6 L0.32,0.73 L0.39,0.52 L0.22,0.4 L0.43,0.4 Z", fill: "#f2c94c", stroke: "#7a5a08", "stroke-width": 0.02, "stroke-linejoin": "round" }, g);
      label("5", 0.5, 0.6, 0.22);
      break;
    case 7:
      open(() => roof(g, [0.48, 0.5], false, 2.8));
      break;
    case 8:
      open(() => pig(g, [0.46, 0.5], 0, 3.4));
      break;
    case 9:
      open(() => {
        el("path", { d: "M0.12,0.52 H0.8", stroke: COLORS.roadEdge, "stroke-width": 0.22 }, g);
        el("path", { d: "M0.12,0.52 H0.8", stroke: COLORS.road, "stroke-width": 0.16 }, g);
        el("path", { d: "M0.12,0.52 H0.8", stroke: COLORS.cobble, "stroke-width": 0.14, "stroke-dasharray": "0.035 0.03" }, g);
      });
      break;
    default:
      break;
  }
  return g;
}
