// Rycerze i zamki drawn: each card's picture, the castle kinds' marks and the tiles (a castle of its kind and
// size, or the recruitment drum), in SVG from the same small helpers as the castle game's tiles (tiles.js).
// Every drawing is a pure function of what it shows. Names and numbers are the page's text beside the pictures,
// so that screen readers and the tests read them as words.

import { el } from "./tiles.js";

const INK = "#3b2f22";
export const KIND_COLORS = {
  stone: { fill: "#b9b5ac", shade: "#8f8a80", line: "#55514a" },
  brick: { fill: "#c8613f", shade: "#9c4429", line: "#5b2414" },
  wood: { fill: "#b98a4e", shade: "#8a6230", line: "#4a3217" },
};

function svg(viewBox, width, height, cls, label = null) {
  return el("svg", { viewBox, width, height, class: cls, role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true" });
}

// A castle of one kind seen from the front: a stone keep, a brick tower or a wooden palisade. `big` adds a
// second tower and a wall between.
function castle(parent, kind, { big = false, x = 0.5, y = 0.62, size = 1, flag = true } = {}) {
  const c = KIND_COLORS[kind];
  const g = el("g", { transform: `translate(${x},${y}) scale(${size})`, class: `castle castle-${kind}` }, parent);
  const tower = (cx, w, h) => {
    if (kind === "wood") {
      const stakes = Math.max(3, Math.round(w / 0.06));
      for (let i = 0; i < stakes; i++) {
        const sx = cx - w / 2 + (i + 0.5) * (w / stakes);
        const sw = w / stakes;
        el("path", { d: `M${sx - sw / 2 + 0.004},0.2 V${-h + 0.04} L${sx},${-h} L${sx + sw / 2 - 0.004},${-h + 0.04} V0.2 Z`, fill: i % 2 ? c.fill : c.shade, stroke: c.line, "stroke-width": 0.012 }, g);
      }
      el("path", { d: `M${cx - w / 2},${-h * 0.45} H${cx + w / 2} M${cx - w / 2},0.08 H${cx + w / 2}`, stroke: c.line, "stroke-width": 0.02 }, g);
      return;
    }
    const merlons = 3;
    let d = `M${cx - w / 2},0.2 V${-h}`;
    for (let i = 0; i < merlons; i++) {
      const mw = w / (2 * merlons - 1);
      const mx = cx - w / 2 + 2 * i * mw;
      d += ` H${mx + mw} V${-h + 0.05}` + (i < merlons - 1 ? ` H${mx + 2 * mw} V${-h}` : "");
    }
    d += ` H${cx + w / 2} V0.2 Z`;
    el("path", { d, fill: c.fill, stroke: c.line, "stroke-width": 0.016, "stroke-linejoin": "round" }, g);
    // Stone blocks or bricks.
    const rows = Math.floor((h + 0.2 - 0.06) / 0.06);
    for (let r = 1; r < rows; r++) {
      const ry = 0.2 - r * 0.06;
      el("path", { d: `M${cx - w / 2},${ry} H${cx + w / 2}`, stroke: c.shade, "stroke-width": 0.008 }, g);
      const step = kind === "brick" ? 0.07 : 0.1;
      for (let bx = cx - w / 2 + (r % 2 ? step / 2 : step); bx < cx + w / 2 - 0.01; bx += step) {
        el("path", { d: `M${bx},${ry} v0.06`, stroke: c.shade, "stroke-width": 0.008 }, g);
      }
    }
    el("path", { d: `M${cx - 0.035},0.2 v-0.08 a0.035,0.035 0 0 1 0.07,0 v0.08 Z`, fill: INK }, g);
    el("path", { d: `M${cx - 0.012},${-h * 0.55} h0.024 v0.06 h-0.024 Z`, fill: INK }, g);
  };
  if (big) {
    el("rect", { x: -0.3, y: -0.12, width: 0.6, height: 0.32, fill: KIND_COLORS[kind].shade, stroke: KIND_COLORS[kind].line, "stroke-width": 0.014 }, g);
    tower(-0.24, 0.2, 0.34);
    tower(0.24, 0.2, 0.34);
    tower(0, 0.26, 0.46);
  } else {
    tower(0, 0.3, 0.36);
  }
  if (kind !== "wood" && flag) {
    el("path", { d: `M0,${big ? -0.46 : -0.36} v-0.16`, stroke: INK, "stroke-width": 0.014 }, g);
    el("path", { d: `M0,${big ? -0.62 : -0.52} l0.12,0.035 l-0.12,0.035 Z`, fill: "#c23b2b", stroke: "#5b1a12", "stroke-width": 0.008 }, g);
  }
  return g;
}

// The mark of a castle kind, small, beside a strength.
export function kindMark(kind, size = 22) {
  const s = svg("0 0 1 1", size, size, `k-kind-mark k-kind-mark-${kind}`);
  castle(s, kind, { x: 0.5, y: 0.66, size: 1.5, flag: false });
  return s;
}

// A tile of Rycerze i zamki: a castle of its kind (big: two points), or the recruitment drum.
export function knightsTile(tile, size = 72) {
  const s = svg("0 0 1 1", size, size, `k-tile-art k-tile-${tile.kind || "drum"}`, tile.name);
  el("rect", { x: 0.02, y: 0.02, width: 0.96, height: 0.96, rx: 0.06, fill: "#a9c97a", stroke: "#4d463b", "stroke-width": 0.03 }, s);
  el("path", { d: "M0.02,0.78 Q0.5,0.68 0.98,0.8 V0.92 a0.06,0.06 0 0 1 -0.06,0.06 H0.08 a0.06,0.06 0 0 1 -0.06,-0.06 Z", fill: "#8db25e" }, s);
  if (tile.kind) {
    castle(s, tile.kind, { big: tile.points > 1, x: 0.5, y: 0.62, size: tile.points > 1 ? 1 : 1.05 });
    for (let i = 0; i < tile.points; i++) {
      el("circle", { cx: 0.13 + i * 0.13, cy: 0.13, r: 0.055, fill: "#f2c94c", stroke: "#7a5a08", "stroke-width": 0.015, class: "k-point" }, s);
    }
  } else {
    drum(s);
  }
  return s;
}

function drum(parent) {
  const g = el("g", { class: "drum" }, parent);
  el("path", { d: "M0.26,0.4 V0.7 a0.24,0.08 0 0 0 0.48,0 V0.4 Z", fill: "#b8452f", stroke: INK, "stroke-width": 0.02 }, g);
  el("path", { d: "M0.26,0.45 L0.38,0.74 L0.5,0.46 L0.62,0.76 L0.74,0.45", fill: "none", stroke: "#f3e6c4", "stroke-width": 0.018 }, g);
  el("ellipse", { cx: 0.5, cy: 0.4, rx: 0.24, ry: 0.08, fill: "#f3e6c4", stroke: INK, "stroke-width": 0.02 }, g);
  el("path", { d: "M0.3,0.18 L0.46,0.37 M0.72,0.16 L0.55,0.36", stroke: "#6b4a26", "stroke-width": 0.03, "stroke-linecap": "round" }, g);
  el("circle", { cx: 0.3, cy: 0.18, r: 0.03, fill: "#e9dcc0", stroke: INK, "stroke-width": 0.012 }, g);
  el("circle", { cx: 0.72, cy: 0.16, r: 0.03, fill: "#e9dcc0", stroke: INK, "stroke-width": 0.012 }, g);
}

// Each card's picture, in a unit square.
const PICTURES = {
  dragon(g) {
    el("path", { d: "M0.2,0.7 Q0.1,0.5 0.3,0.45 Q0.45,0.42 0.55,0.55 Q0.65,0.7 0.85,0.62 Q0.75,0.78 0.55,0.75 Q0.4,0.74 0.3,0.78 Z", fill: "#4f8a3c", stroke: INK, "stroke-width": 0.02 }, g);
    el("path", { d: "M0.35,0.47 L0.42,0.15 L0.52,0.32 L0.62,0.12 L0.6,0.5 Z", fill: "#7cb35c", stroke: INK, "stroke-width": 0.02, "stroke-linejoin": "round" }, g);
    el("path", { d: "M0.2,0.7 Q0.12,0.62 0.16,0.55 L0.08,0.5 L0.2,0.48", fill: "#4f8a3c", stroke: INK, "stroke-width": 0.02 }, g);
    el("circle", { cx: 0.17, cy: 0.56, r: 0.015, fill: "#f2c94c" }, g);
    el("path", { d: "M0.06,0.52 Q0.0,0.45 0.04,0.38 M0.07,0.5 Q0.02,0.56 0.0,0.6", stroke: "#e8742a", "stroke-width": 0.025, fill: "none", "stroke-linecap": "round" }, g);
  },
  "mounted-knight"(g) {
    el("path", { d: "M0.25,0.9 L0.32,0.55 Q0.3,0.35 0.45,0.28 L0.52,0.16 L0.56,0.3 Q0.72,0.36 0.74,0.55 L0.62,0.58 L0.55,0.48 L0.5,0.9 Z", fill: "#8a5a30", stroke: INK, "stroke-width": 0.02, "stroke-linejoin": "round" }, g);
    el("path", { d: "M0.45,0.3 Q0.38,0.45 0.34,0.6", stroke: "#3d2a14", "stroke-width": 0.03, fill: "none" }, g);
    el("circle", { cx: 0.6, cy: 0.38, r: 0.018, fill: INK }, g);
    el("path", { d: "M0.08,0.92 L0.9,0.08", stroke: "#6b4a26", "stroke-width": 0.03, "stroke-linecap": "round" }, g);
    el("path", { d: "M0.84,0.1 l0.08,-0.05 l-0.04,0.09 Z", fill: "#c9c6bf", stroke: INK, "stroke-width": 0.012 }, g);
    el("path", { d: "M0.7,0.2 l0.16,0.02 l-0.1,0.08 Z", fill: "#c23b2b", stroke: INK, "stroke-width": 0.01 }, g);
  },
  knight(g) {
    el("path", { d: "M0.28,0.82 V0.45 Q0.28,0.18 0.5,0.18 Q0.72,0.18 0.72,0.45 V0.82 Z", fill: "#c9c6bf", stroke: INK, "stroke-width": 0.025, "stroke-linejoin": "round" }, g);
    el("path", { d: "M0.32,0.48 H0.68 M0.5,0.52 V0.78", stroke: INK, "stroke-width": 0.04 }, g);
    for (const y of [0.6, 0.68]) el("path", { d: `M0.4,${y} h0.06 M0.54,${y} h0.06`, stroke: INK, "stroke-width": 0.02 }, g);
    el("path", { d: "M0.5,0.18 Q0.6,0.04 0.78,0.08 Q0.66,0.12 0.62,0.2", fill: "#c23b2b", stroke: INK, "stroke-width": 0.015 }, g);
  },
  "foot-soldier"(g) {
    el("path", { d: "M0.7,0.95 V0.12", stroke: "#6b4a26", "stroke-width": 0.035, "stroke-linecap": "round" }, g);
    el("path", { d: "M0.7,0.02 l0.05,0.12 h-0.1 Z", fill: "#c9c6bf", stroke: INK, "stroke-width": 0.015 }, g);
    el("path", { d: "M0.18,0.3 H0.56 V0.55 Q0.56,0.8 0.37,0.9 Q0.18,0.8 0.18,0.55 Z", fill: "#2f6fb3", stroke: INK, "stroke-width": 0.025, "stroke-linejoin": "round" }, g);
    el("path", { d: "M0.37,0.34 V0.84 M0.22,0.52 H0.52", stroke: "#f2c94c", "stroke-width": 0.04 }, g);
  },
  peasant(g) {
    el("path", { d: "M0.3,0.95 L0.62,0.3", stroke: "#8a5a30", "stroke-width": 0.035, "stroke-linecap": "round" }, g);
    el("path", { d: "M0.56,0.28 L0.74,0.36 M0.6,0.3 L0.72,0.05 M0.66,0.33 L0.8,0.1 M0.53,0.26 L0.62,0.02", stroke: "#8f8a80", "stroke-width": 0.025, "stroke-linecap": "round" }, g);
    el("path", { d: "M0.08,0.5 Q0.25,0.32 0.42,0.5 Z", fill: "#e6c45c", stroke: INK, "stroke-width": 0.018 }, g);
    el("ellipse", { cx: 0.25, cy: 0.5, rx: 0.22, ry: 0.05, fill: "#e6c45c", stroke: INK, "stroke-width": 0.018 }, g);
  },
  hog(g) {
    el("path", { d: "M0.15,0.45 Q0.18,0.2 0.5,0.2 Q0.82,0.2 0.85,0.45 Q0.86,0.78 0.5,0.82 Q0.14,0.78 0.15,0.45 Z", fill: "#7a5230", stroke: INK, "stroke-width": 0.025 }, g);
    el("path", { d: "M0.2,0.3 L0.12,0.08 L0.34,0.22 Z M0.8,0.3 L0.88,0.08 L0.66,0.22 Z", fill: "#5a3a1e", stroke: INK, "stroke-width": 0.02 }, g);
    el("ellipse", { cx: 0.5, cy: 0.62, rx: 0.16, ry: 0.11, fill: "#c98f7a", stroke: INK, "stroke-width": 0.02 }, g);
    el("circle", { cx: 0.44, cy: 0.62, r: 0.025, fill: INK }, g);
    el("circle", { cx: 0.56, cy: 0.62, r: 0.025, fill: INK }, g);
    el("circle", { cx: 0.36, cy: 0.4, r: 0.03, fill: INK }, g);
    el("circle", { cx: 0.64, cy: 0.4, r: 0.03, fill: INK }, g);
    el("path", { d: "M0.32,0.66 q-0.06,-0.02 -0.06,-0.12 M0.68,0.66 q0.06,-0.02 0.06,-0.12", stroke: "#f4efe2", "stroke-width": 0.03, fill: "none", "stroke-linecap": "round" }, g);
  },
  shepherd(g) {
    el("path", { d: "M0.62,0.95 V0.25 Q0.62,0.08 0.46,0.08 Q0.32,0.08 0.32,0.22 Q0.32,0.3 0.4,0.3", fill: "none", stroke: "#8a5a30", "stroke-width": 0.04, "stroke-linecap": "round" }, g);
    for (const [x, y] of [[0.2, 0.66], [0.3, 0.6], [0.4, 0.66], [0.3, 0.72], [0.22, 0.58], [0.38, 0.58]]) {
      el("circle", { cx: x, cy: y, r: 0.07, fill: "#f4efe2", stroke: "#8c8270", "stroke-width": 0.012 }, g);
    }
    el("ellipse", { cx: 0.1, cy: 0.6, rx: 0.05, ry: 0.04, fill: "#4d463b" }, g);
    el("path", { d: "M0.22,0.76 v0.1 M0.36,0.76 v0.1", stroke: "#4d463b", "stroke-width": 0.025 }, g);
  },
};

// A card's picture: its figure in a round frame.
export function cardPicture(card, size = 56) {
  const s = svg("0 0 1 1", size, size, `k-card-art k-card-art-${card}`);
  el("circle", { cx: 0.5, cy: 0.5, r: 0.48, fill: card === "shepherd" ? "#e8eef5" : "#f6ecd2", stroke: "#8a7f6e", "stroke-width": 0.025 }, s);
  const g = el("g", { transform: "translate(0.12,0.12) scale(0.76)" }, s);
  (PICTURES[card] || (() => {}))(g);
  return s;
}
