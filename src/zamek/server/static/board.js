// The castle in SVG: wall, score track, towers, gates, start spaces, tiles, figures, score markers,
// the spaces where the drawn tile may go, and highlights. Geometry comes from /api/geometry; the views
// name places by their space names (e10; start spaces by their id, S5), as the geometry does.

import { COLORS, drawFigure, drawStart, drawTile, el, featureOutline, perimeterPoint, rotatePoint, tileAnchors } from "./tiles.js";
import { icon } from "./icons.js";
import { message, seatValue, t, term, termValue, textOf, upperFirst, valueText } from "./ui.js";

// The system asks for less motion: nothing moves (the page's stylesheet stills its own animations as well).
export const lessMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// A finger is the screen's main pointer.
export const coarsePointer = () => window.matchMedia("(pointer: coarse)").matches;

// Whether the player uses a touch screen now: the last pointer that touched the page was a finger (or, before any,
// a finger is the screen's main pointer). What the page says then names no key.
let lastPointer = null;
window.addEventListener("pointerdown", (ev) => (lastPointer = ev.pointerType), { capture: true, passive: true });
export const touching = () => (lastPointer ? lastPointer === "touch" || lastPointer === "pen" : coarsePointer());

// A figure's box around its foot point, in figure units (drawFigure's shape: arms ±0.52, head -0.5, feet 0.45,
// half the outline's width around it).
const FIGURE_BOX = { left: -0.56, right: 0.56, top: -0.54, bottom: 0.49 };
const GHOST_SIZE = 0.3;
const TOUCH_PX = 50; // a space on a touch screen, zoomed: its highlight (0.92 of it) more than a finger's 44 px
const MIN_SPACES = 3; // zoomed in as far as it goes: three spaces across

// Where the ghost figures of a tile stand so that no two of them overlap: each starts on its feature's point and
// is pushed apart from the others within the tile (and out of the tile-local boxes `avoid`, {l, r, t, b}, where
// something else is drawn); when they do not fit they are made smaller, and as a last resort they stand in a grid
// (below the boxes avoided). `points` are tile-local [x, y]; returns { at: [[x, y]...], size }.
export function ghostLayout(points, lying, size = GHOST_SIZE, avoid = []) {
  const box = (i, s) => {
    const b = lying[i] ? { left: FIGURE_BOX.top, right: FIGURE_BOX.bottom, top: -FIGURE_BOX.right, bottom: -FIGURE_BOX.left } : FIGURE_BOX; // rotate(-90)
    return { l: b.left * s, r: b.right * s, t: b.top * s, b: b.bottom * s };
  };
  const gap = 0.01;
  const meets = (p, a, q, b) => p[0] + a.l < q[0] + b.r + gap && q[0] + b.l < p[0] + a.r + gap
    && p[1] + a.t < q[1] + b.b + gap && q[1] + b.t < p[1] + a.b + gap;
  const overlaps = (at, s) => {
    for (let i = 0; i < at.length; i++) {
      if (avoid.some((o) => meets(at[i], box(i, s), [0, 0], o))) return true;
      for (let j = i + 1; j < at.length; j++) {
        if (meets(at[i], box(i, s), at[j], box(j, s))) return true;
      }
    }
    return false;
  };
  const clamp = (p, i, s) => {
    const b = box(i, s);
    return [Math.min(1 - b.r, Math.max(-b.l, p[0])), Math.min(1 - b.b, Math.max(-b.t, p[1]))];
  };
  for (let s = size; s >= size * 0.5; s *= 0.85) {
    let at = points.map((p, i) => clamp(p, i, s));
    for (let round = 0; round < 60 && overlaps(at, s); round++) {
      for (let i = 0; i < at.length; i++) {
        const a = box(i, s);
        // Out of a box avoided, the shorter way.
        for (const o of avoid) {
          const dx = Math.min(at[i][0] + a.r, o.r) - Math.max(at[i][0] + a.l, o.l) + gap * 1.5;
          const dy = Math.min(at[i][1] + a.b, o.b) - Math.max(at[i][1] + a.t, o.t) + gap * 1.5;
          if (dx <= gap * 0.5 || dy <= gap * 0.5) continue;
          if (dx < dy) at[i] = [at[i][0] + (at[i][0] < (o.l + o.r) / 2 ? -dx : dx), at[i][1]];
          else at[i] = [at[i][0], at[i][1] + (at[i][1] < (o.t + o.b) / 2 ? -dy : dy)];
          at[i] = clamp(at[i], i, s);
        }
        for (let j = i + 1; j < at.length; j++) {
          const b = box(j, s);
          // How deep the boxes go into each other along each axis; they are pushed apart along the shallower.
          const dx = Math.min(at[i][0] + a.r, at[j][0] + b.r) - Math.max(at[i][0] + a.l, at[j][0] + b.l) + gap * 1.5;
          const dy = Math.min(at[i][1] + a.b, at[j][1] + b.b) - Math.max(at[i][1] + a.t, at[j][1] + b.t) + gap * 1.5;
          if (dx <= gap * 0.5 || dy <= gap * 0.5) continue;
          if (dx < dy) {
            const sign = at[i][0] < at[j][0] || (at[i][0] === at[j][0] && i < j) ? -1 : 1;
            at[i] = [at[i][0] + (sign * dx) / 2, at[i][1]];
            at[j] = [at[j][0] - (sign * dx) / 2, at[j][1]];
          } else {
            const sign = at[i][1] < at[j][1] || (at[i][1] === at[j][1] && i < j) ? -1 : 1;
            at[i] = [at[i][0], at[i][1] + (sign * dy) / 2];
            at[j] = [at[j][0], at[j][1] - (sign * dy) / 2];
          }
          at[i] = clamp(at[i], i, s);
          at[j] = clamp(at[j], j, s);
        }
      }
    }
    if (!overlaps(at, s)) return { at, size: s };
  }
  // A grid of cells, each one figure, always fits (below what is avoided).
  const top = Math.max(0, ...avoid.map((o) => o.b));
  const cols = Math.ceil(Math.sqrt(points.length));
  const rows = Math.ceil(points.length / cols);
  const s = Math.min(size, Math.min(1 / cols, (1 - top) / rows) / 1.25);
  return { at: points.map((_, i) => [((i % cols) + 0.5) / cols, top + ((Math.floor(i / cols) + 0.5) * (1 - top)) / rows]), size: s };
}


export class Board {
  // `zoom`: the board of a game, with + and − buttons; on a touch screen too small for the whole castle at a
  // finger's size, it starts zoomed in.
  constructor(svg, geometry, { zoom = false } = {}) {
    this.svg = svg;
    this.geo = geometry;
    this.tilesById = new Map(geometry.tiles.map((t) => [t.id, t]));
    this.H = geometry.height;
    // Where each space lies (x east, y north, from 0): the interior's spaces and the start spaces.
    this.spaceAt = new Map([...geometry.spaces.map((s) => [s.name, [s.x, s.y]]), ...geometry.starts.map((s) => [s.id, [s.x, s.y]])]);
    this.handlers = {};
    const pad = 1.05;
    // The whole castle; on a phone the board shows a part of it, large enough to touch (zoom), and moves with a
    // finger.
    this.full = { x: -pad, y: -pad, w: geometry.width + 2 * pad, h: geometry.height + 2 * pad };
    this.box = { ...this.full };
    svg.setAttribute("viewBox", `${-pad} ${-pad} ${geometry.width + 2 * pad} ${geometry.height + 2 * pad}`);
    svg.setAttribute("role", "group");
    svg.innerHTML = "";
    this.defs = el("defs", {}, svg);
    const glow = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, this.defs);
    el("feGaussianBlur", { stdDeviation: 0.04, result: "blur" }, glow);
    const merge = el("feMerge", {}, glow);
    el("feMergeNode", { in: "blur" }, merge);
    el("feMergeNode", { in: "SourceGraphic" }, merge);
    this.layers = {};
    for (const name of ["wall", "spaces", "tiles", "pending", "marks", "legal", "preview", "ghosts", "figures", "markers", "highlight"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.drawWall();
    this.view = null;
    this.motions = [];
    this.tipFor = null;
    // Pointing at a feature says what it is worth (a touch shows it too).
    svg.addEventListener("pointermove", (ev) => this.pointAt(ev));
    svg.addEventListener("pointerdown", (ev) => ev.pointerType === "touch" && this.pointAt(ev));
    svg.addEventListener("pointerleave", () => this.hideTip());
    this.followFinger();
    if (zoom) this.addZoomButtons();
    if (zoom && this.canZoom()) this.setZoom(true);
  }

  // ------------------------------------------------------------------ zoom

  // A touch screen on which the whole castle's spaces are smaller than a finger.
  canZoom() {
    return coarsePointer() && this.svg.clientWidth > 0 && this.svg.clientWidth / this.full.w < TOUCH_PX;
  }

  // The part shown: the whole castle or less, down to a few spaces across, always of the whole castle's shape (the
  // board keeps its size on the page).
  get zoomed() {
    return this.box.w < this.full.w - 1e-6;
  }

  // Zoomed, a space is TOUCH_PX pixels at least (on a screen too small for that, a few spaces across); else the
  // whole castle.
  setZoom(on) {
    const width = on ? Math.max(MIN_SPACES, (this.svg.clientWidth || 360) / TOUCH_PX) : this.full.w;
    this.zoomTo(width);
    if (on && this.view) {
      this.centredFor = null; // zoomed in while placing: on to where the tile fits
      this.render(this.view, this.ui);
    }
  }

  // Show `width` spaces across (within the zoom's limits), the point `at` (SVG units; the middle of the part shown
  // unless given) staying where it is on the screen.
  zoomTo(width, at = null) {
    this.box = this.zoomedBox(this.box, width, at);
    this.applyBox();
  }

  // The part `from` zoomed to `width` spaces across around the point `at`.
  zoomedBox(from, width, at = null) {
    const w = Math.min(this.full.w, Math.max(MIN_SPACES, width));
    const [ax, ay] = at || [from.x + from.w / 2, from.y + from.h / 2];
    const k = w / from.w;
    return { x: ax - (ax - from.x) * k, y: ay - (ay - from.y) * k, w, h: (w * this.full.h) / this.full.w };
  }

  // One step of the + and − buttons: a third more or less.
  zoomStep(inwards) {
    this.zoomTo(this.box.w * (inwards ? 0.75 : 1 / 0.75));
  }

  // A point of the page (client pixels) in SVG units.
  svgPoint(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return [p.x, p.y];
  }

  // Keep the part shown within the castle, and show it; what floats over the board (the guide's marks) hears of it.
  applyBox() {
    const b = this.box;
    b.x = Math.min(Math.max(b.x, this.full.x), this.full.x + this.full.w - b.w);
    b.y = Math.min(Math.max(b.y, this.full.y), this.full.y + this.full.h - b.h);
    this.svg.setAttribute("viewBox", `${b.x.toFixed(3)} ${b.y.toFixed(3)} ${b.w.toFixed(3)} ${b.h.toFixed(3)}`);
    this.svg.classList.toggle("zoomed", this.zoomed);
    this.svg.dispatchEvent(new CustomEvent("boardview", { bubbles: true }));
    if (this.zoomButtons) this.zoomButtons.update();
  }

  // Bring the space `space` (SVG corner) to the middle of the part shown.
  centreOn(space) {
    if (!this.zoomed || !this.spaceAt.has(space)) return;
    const [ox, oy] = this.spaceOrigin(space);
    this.box.x = ox + 0.5 - this.box.w / 2;
    this.box.y = oy + 0.5 - this.box.h / 2;
    this.applyBox();
  }

  // Whether the middle of space `space` is in the part shown.
  shows(space) {
    const [ox, oy] = this.spaceOrigin(space);
    const b = this.box;
    return ox + 0.5 > b.x && ox + 0.5 < b.x + b.w && oy + 0.5 > b.y && oy + 0.5 < b.y + b.h;
  }

  // Bring space `space` into view: into the part of the castle shown, and the board onto the screen where the page
  // is scrolled away from it (a phone shows the board above the panels).
  reveal(space) {
    if (!this.spaceAt.has(space)) return;
    if (!this.shows(space)) this.centreOn(space);
    const rect = this.screenRect(space);
    if (!rect) return;
    const margin = 8;
    if (rect.top >= margin && rect.bottom <= window.innerHeight - margin) return;
    const middle = (rect.top + rect.bottom) / 2 - window.innerHeight / 2;
    window.scrollBy({ top: middle, behavior: lessMotion() ? "auto" : "smooth" });
  }

  // Fingers and wheels: one finger moves a zoomed castle under it (a drag is no tap: the click that ends it is
  // dropped), two fingers pinch to zoom (and move it as they go), and a pinch of a touchpad or Ctrl with the wheel
  // zooms around the pointer. The page itself is not zoomed by a pinch on the board.
  followFinger() {
    const down = new Map(); // pointer id -> its last position
    let drag = null;
    let pinch = null;
    let dropClick = false;
    const spread = () => {
      const [a, b] = [...down.values()];
      return { d: Math.hypot(a[0] - b[0], a[1] - b[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
    };
    this.svg.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType === "mouse") {
        if (this.zoomed && ev.button === 0) drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, box: { ...this.box }, moved: false };
        return;
      }
      down.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (down.size === 2) {
        // A second finger: a pinch, from the box as it is (a drag begun by the first finger ends here).
        const { d, mid } = spread();
        pinch = { d: Math.max(d, 1), mid, box: { ...this.box }, at: this.svgPoint(...mid) };
        if (!pinch.at) pinch = null;
        drag = null;
        dropClick = true;
      } else if (down.size === 1 && this.zoomed) {
        drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, box: { ...this.box }, moved: false };
      }
    });
    this.svg.addEventListener("pointermove", (ev) => {
      if (down.has(ev.pointerId)) down.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pinch && down.size >= 2) {
        // Zoomed around the point between the fingers where the pinch began, and moved as they move.
        const { d, mid } = spread();
        const box = this.zoomedBox(pinch.box, pinch.box.w * (pinch.d / Math.max(d, 1)), pinch.at);
        const perPixel = box.w / (this.svg.clientWidth || 1);
        this.box = { ...box, x: box.x - (mid[0] - pinch.mid[0]) * perPixel, y: box.y - (mid[1] - pinch.mid[1]) * perPixel };
        this.applyBox();
        return;
      }
      if (!drag || ev.pointerId !== drag.id) return;
      const dx = ev.clientX - drag.x;
      const dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 10) return;
      drag.moved = true;
      const scale = this.box.w / (this.svg.clientWidth || 1);
      this.box.x = drag.box.x - dx * scale;
      this.box.y = drag.box.y - dy * scale;
      this.applyBox();
    });
    const end = (ev) => {
      down.delete(ev.pointerId);
      if (pinch && down.size < 2) {
        pinch = null;
        setTimeout(() => (dropClick = false), 0);
      }
      if (!drag || ev.pointerId !== drag.id) return;
      dropClick = drag.moved;
      drag = null;
      if (dropClick) setTimeout(() => (dropClick = false), 0);
    };
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
    this.svg.addEventListener("click", (ev) => {
      if (!dropClick) return;
      dropClick = false;
      ev.stopPropagation();
      ev.preventDefault();
    }, true);
    this.svg.addEventListener("wheel", (ev) => {
      if (!ev.ctrlKey) return; // a wheel alone scrolls the page
      ev.preventDefault();
      const at = this.svgPoint(ev.clientX, ev.clientY);
      const lines = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1;
      this.zoomTo(this.box.w * Math.exp(Math.max(-1, Math.min(1, (ev.deltaY * lines) / 300))), at);
    }, { passive: false });
  }

  // The + and − buttons over the board's corner (after the board, within its frame).
  addZoomButtons() {
    const make = (id, inwards, key, iconName) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.className = "zoom-step";
      b.setAttribute("aria-label", t(key));
      b.title = t(key);
      b.append(icon(iconName));
      b.addEventListener("click", () => this.zoomStep(inwards));
      return b;
    };
    const box = document.createElement("div");
    box.className = "zoom-steps";
    const less = make("zoom-less", false, "page.board.zoom-less", "zoom-out");
    const more = make("zoom-more", true, "page.board.zoom-more", "zoom-in");
    box.append(less, more);
    this.svg.after(box);
    this.zoomButtons = {
      update: () => {
        less.disabled = !this.zoomed;
        more.disabled = this.box.w <= MIN_SPACES + 1e-6;
      },
    };
    this.zoomButtons.update();
  }

  // Lattice point (y up) to SVG point.
  pt([x, y]) {
    return [x, this.H - y];
  }

  cellOrigin(x, y) {
    return [x, this.H - y - 1];
  }

  // The SVG corner of a space named like e10 (or a start space, S5).
  spaceOrigin(space) {
    const [x, y] = this.spaceAt.get(space);
    return this.cellOrigin(x, y);
  }

  drawWall() {
    const { wall } = this.geo;
    const layer = this.layers.wall;
    const poly = (points) => points.map((p) => this.pt(p).join(",")).join(" ");
    el("polygon", { points: poly(wall.outer), class: "wall-outer" }, layer);
    el("polygon", { points: poly(wall.outline), class: "wall-inner" }, layer);
    // Start spaces (half tiles printed on the wall).
    for (const start of this.geo.starts) {
      const [ox, oy] = this.cellOrigin(start.x, start.y);
      const g = el("g", { transform: `translate(${ox},${oy})` }, layer);
      drawStart(g, start, wall.start_depth);
    }
    // The score track.
    this.trackAt = new Map();
    this.trackLength = wall.track.length; // a marker goes round: score n stands on number n % trackLength
    for (const sp of wall.track) {
      const [x, y] = this.pt([sp.x, sp.y]);
      this.trackAt.set(sp.n, [x, y]);
      const g = el("g", { transform: `translate(${x},${y}) rotate(${-sp.angle})`, class: "track" }, layer);
      const s = sp.size;
      el("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 0.03, class: sp.n % 5 === 0 ? "track-space five" : "track-space" }, g);
      const label = el("text", { x, y: y + s * 0.16, class: "track-number", "font-size": Math.min(0.17, s * 0.58) }, layer);
      label.textContent = sp.n;
    }
    for (const gate of wall.gates) {
      const [x, y] = this.pt([gate.x, gate.y]);
      const g = el("g", { transform: `translate(${x},${y}) rotate(${-gate.angle})`, class: "gate" }, layer);
      el("rect", { x: -0.16, y: -0.2, width: 0.32, height: 0.4, rx: 0.04, fill: "#6b4b2a", stroke: "#2f2012", "stroke-width": 0.03 }, g);
      el("path", { d: "M-0.1,0.16 V-0.04 A0.1,0.1 0 0 1 0.1,-0.04 V0.16", fill: "#2f2012" }, g);
    }
    this.towerNodes = [];
    for (const tower of wall.towers) {
      const [x, y] = this.pt([tower.x, tower.y]);
      const g = el("g", { transform: `translate(${x},${y})`, class: "tower" }, layer);
      el("circle", { r: 0.3, class: "tower-body" }, g);
      const t = el("text", { y: -0.15, class: "tower-number" }, g);
      t.textContent = `${tower.track[0]}·${tower.track[1]}`;
      const token = el("g", { class: "tower-token" }, g);
      el("rect", { x: -0.11, y: -0.09, width: 0.22, height: 0.22, rx: 0.04 }, token);
      const q = el("text", { y: 0.08, class: "token-mark" }, token);
      q.textContent = "?";
      this.towerNodes.push(g);
    }
    // The empty spaces, with their names.
    this.spaceNodes = new Map();
    for (const space of this.geo.spaces) {
      const [ox, oy] = this.cellOrigin(space.x, space.y);
      const r = el("rect", { x: ox, y: oy, width: 1, height: 1, class: "space" }, this.layers.spaces);
      const t = el("text", { x: ox + 0.06, y: oy + 0.16, class: "space-name" }, this.layers.spaces);
      t.textContent = space.name;
      this.spaceNodes.set(space.name, r);
    }
  }

  tileGroup(parent, tileId, space, rotation, cls = "") {
    const tile = this.tilesById.get(tileId);
    const [ox, oy] = this.spaceOrigin(space);
    const g = el("g", { transform: `translate(${ox},${oy}) rotate(${90 * rotation},0.5,0.5)`, class: cls }, parent);
    drawTile(g, tile);
    return g;
  }

  // Where a figure on part `part` (the feature's index on the tile) of a tile placed on `space` turned `rotation`
  // stands, in SVG.
  featurePoint(tileId, part, space, rotation) {
    const tile = this.tilesById.get(tileId);
    const local = rotatePoint(tileAnchors(tile)[part], rotation);
    const [ox, oy] = this.spaceOrigin(space);
    return [ox + local[0], oy + local[1]];
  }

  // Draw a position. `ui` holds what the person is doing: the rotation of the drawn tile, the figure choices.
  render(view, ui = {}) {
    const focused = this.focusedSpace(); // a highlighted space with the keyboard focus keeps it across the redraw
    this.view = view;
    this.ui = ui;
    this.hideTip();
    for (const name of ["tiles", "pending", "marks", "legal", "preview", "ghosts", "figures", "markers", "highlight"]) this.layers[name].innerHTML = "";
    this.hints = null;
    view.towers.forEach((holds, i) => {
      const node = this.towerNodes[i];
      node.classList.toggle("taken", !holds);
      // What a face-down token may be: one of the tokens not yet revealed (the same for every tower).
      let title = node.querySelector("title");
      if (!title) title = el("title", {}, node);
      title.textContent = holds && view.hidden_tokens ? view.hidden_tokens.map(textOf).join(" · ") : "";
    });
    const placedAt = new Map();
    this.placedAt = placedAt;
    for (const p of view.placements) placedAt.set(p.space, p);
    for (const p of view.placements) {
      // Each tile in a group of its own: what a screen reader says of it, and what moves when it arrives.
      const wrap = el("g", { class: "placed-wrap", "data-space": p.space, role: "img", "aria-label": this.describeTile(p) }, this.layers.tiles);
      this.tileGroup(wrap, p.tile, p.space, p.rotation, "placed");
    }
    // The last move of each player: outlined in their colour, the very last one thicker.
    const last = view.placements[view.placements.length - 1];
    const seen = new Set();
    for (let i = view.placements.length - 1; i >= 0 && seen.size < 2; i--) {
      const p = view.placements[i];
      if (p.player === null || seen.has(p.player)) continue;
      seen.add(p.player);
      const [ox, oy] = this.spaceOrigin(p.space);
      el("rect", { x: ox + 0.03, y: oy + 0.03, width: 0.94, height: 0.94, class: p === last ? "last-move" : "last-move older", stroke: COLORS.players[p.player] }, this.layers.marks);
    }
    for (const f of view.figures) {
      const p = placedAt.get(f.space);
      if (!p) continue;
      const at = this.featurePoint(p.tile, f.part, f.space, p.rotation);
      const wrap = el("g", { class: "figure-wrap", "data-space": f.space, "data-part": f.part, "data-feature": f.feature }, this.layers.figures);
      drawFigure(wrap, at, f.player, { piece: f.piece, lying: f.kind === "meadow" && f.piece === "follower" });
    }
    this.drawMarkers(view);
    if (view.scoring) this.highlightSpaces(view.scoring.spaces, "scoring", this.layers.marks);
    this.drawLegal(focused);
    this.drawFigureChoices();
    this.drawPending(ui.pending);
    this.playMotion();
  }

  // A move chosen and not yet confirmed (an option of the page): the tile on its space as it is turned, or the
  // figure on its feature of the tile just placed.
  drawPending(pending) {
    if (!pending) return;
    const view = this.view;
    if (pending.kind === "place" && view.drawn) {
      this.tileGroup(this.layers.pending, view.drawn.id, pending.space, pending.rotation, "pending-tile");
      const [ox, oy] = this.spaceOrigin(pending.space);
      el("rect", { x: ox + 0.03, y: oy + 0.03, width: 0.94, height: 0.94, class: "pending-frame" }, this.layers.pending);
    } else if (pending.kind === "figure" && pending.part !== null && view.placements.length) {
      const p = view.placements[view.placements.length - 1];
      const lying = (this.tilesById.get(p.tile).features[pending.part] || {}).kind === "meadow" && (pending.piece || "follower") === "follower";
      const g = el("g", { class: "pending-figure", "pointer-events": "none" }, this.layers.highlight);
      drawFigure(g, this.featurePoint(p.tile, pending.part, p.space, p.rotation), view.current, { piece: pending.piece || "follower", lying });
      this.showFeature(pending.part, true);
    }
  }

  drawMarkers(view) {
    const positions = view.players.map((p) => this.trackNumber(p.score));
    view.players.forEach((player, i) => {
      const at = this.trackAt.get(positions[i]);
      if (!at) return;
      const shared = positions[0] === positions[1];
      const dx = shared ? (i === 0 ? -0.09 : 0.09) : 0;
      const wrap = el("g", { class: "marker-wrap", "data-player": i, "data-score": player.score }, this.layers.markers);
      const g = el("g", { transform: `translate(${at[0] + dx},${at[1] - 0.02})`, class: "score-marker" }, wrap);
      el("circle", { r: 0.15, fill: COLORS.players[i], stroke: COLORS.playersDark[i], "stroke-width": 0.035 }, g);
      const laps = Math.floor(player.score / this.trackLength);
      if (laps > 0) {
        const t = el("text", { y: 0.05, class: "lap" }, g);
        t.textContent = `+${laps * this.trackLength}`;
      }
      el("title", {}, g).textContent = `${player.score}`;
    });
  }

  // ------------------------------------------------------------------ motion

  // What moved since the position shown before (`before`): the tiles and figures put by the seats in `others`
  // (the computer, a friend elsewhere: not the moves made on this page) and both score markers. The next render
  // plays it; nothing moves when the system asks for less motion. Returns what moved ({ tiles, figures, scored }).
  noteMotion(before, view, others) {
    this.motions = [];
    const moved = { tiles: 0, figures: 0, scored: 0 };
    if (!before || before.id !== view.id) return moved;
    const now = performance.now();
    const grown = before.placements.length <= view.placements.length
      && before.placements.every((p, i) => view.placements[i].space === p.space && view.placements[i].tile === p.tile);
    const arriving = new Set();
    if (grown) {
      for (const p of view.placements.slice(before.placements.length)) {
        if (!others.includes(p.player)) continue;
        arriving.add(p.space);
        moved.tiles += 1;
        this.motions.push({ kind: "tile", space: p.space, start: now, duration: 550 });
      }
    }
    const key = (f) => `${f.player}:${f.space}:${f.part}:${f.piece}`;
    const had = new Set(before.figures.map(key));
    for (const f of view.figures) {
      if (had.has(key(f)) || !others.includes(f.player)) continue;
      moved.figures += 1;
      this.motions.push({ kind: "figure", space: f.space, part: f.part, start: now + (arriving.has(f.space) ? 450 : 0), duration: 450 });
    }
    const after = moved.tiles ? 500 : 0;
    view.players.forEach((p, i) => {
      const from = before.players[i].score;
      if (p.score <= from) return; // an undo jumps back
      moved.scored += 1;
      const steps = p.score - from;
      this.motions.push({ kind: "marker", player: i, from, to: p.score, start: now + after, duration: Math.min(1800, 300 + 60 * steps) });
    });
    if (lessMotion()) this.motions = [];
    return moved;
  }

  // Play what is still moving on the nodes just drawn (a redraw in the middle of a motion goes on from where it was).
  playMotion() {
    const now = performance.now();
    this.motions = (this.motions || []).filter((m) => now < m.start + m.duration);
    for (const m of this.motions) {
      let node = null;
      let frames = null;
      let easing = "ease-out";
      if (m.kind === "tile") {
        node = this.layers.tiles.querySelector(`.placed-wrap[data-space="${m.space}"]`);
        frames = [
          { transform: "translate(0.6px, -1.1px) scale(1.3)", opacity: 0 },
          { opacity: 1, offset: 0.4 },
          { transform: "translate(0px, 0px) scale(1)", opacity: 1 },
        ];
        easing = "cubic-bezier(.2,.7,.3,1)";
      } else if (m.kind === "figure") {
        node = this.layers.figures.querySelector(`.figure-wrap[data-space="${m.space}"][data-part="${m.part}"]`);
        frames = [
          { transform: "translate(0px, -0.8px)", opacity: 0 },
          { transform: "translate(0px, 0.02px)", opacity: 1, offset: 0.8 },
          { transform: "translate(0px, 0px)", opacity: 1 },
        ];
        easing = "ease-in";
      } else if (m.kind === "marker") {
        node = this.layers.markers.querySelector(`.marker-wrap[data-player="${m.player}"]`);
        frames = this.trackFrames(m.from, m.to);
        easing = "ease-in-out";
      }
      if (!node || !frames) continue;
      node.dataset.motion = m.kind;
      node.animate(frames, { duration: m.duration, delay: m.start - now, easing, fill: "backwards" });
    }
  }

  // The track's number a score stands on.
  trackNumber(score) {
    return score % this.trackLength;
  }

  // A score marker's way along the track from score `from` to `to`: a keyframe on each space passed (at most 40),
  // as offsets from where it ends.
  trackFrames(from, to) {
    const end = this.trackAt.get(this.trackNumber(to));
    if (!end) return null;
    const steps = to - from;
    const count = Math.min(steps, 40);
    const frames = [];
    for (let k = 0; k <= count; k++) {
      const score = from + Math.round((k * steps) / count);
      const at = this.trackAt.get(this.trackNumber(score)) || end;
      frames.push({ transform: `translate(${(at[0] - end[0]).toFixed(3)}px, ${(at[1] - end[1]).toFixed(3)}px)` });
    }
    return frames;
  }

  // ------------------------------------------------------------------ words for screen readers

  featureWords(kinds) {
    const counts = new Map();
    for (const k of kinds) counts.set(k, (counts.get(k) || 0) + 1);
    return valueText([...counts].map(([k, n]) => (n > 1 ? message("page.board.times", { n, feature: termValue(k) }) : termValue(k))));
  }

  // A placed tile in words: its features, who put it there, the figures on it.
  describeTile(p) {
    const view = this.view;
    const tile = this.tilesById.get(p.tile);
    const parts = [this.featureWords(tile.features.map((f) => f.kind))];
    if (p.player !== null && p.player !== undefined) parts.push(t("page.board.placed-by", { player: seatValue(p.player) }));
    for (const f of view.figures.filter((x) => x.space === p.space)) {
      const figure = termValue(f.piece === "follower" ? f.role : f.piece);
      parts.push(t("page.board.figure-there", { player: seatValue(f.player), figure, feature: termValue(f.kind) }));
    }
    return `${parts.join("; ")} (${p.space})`;
  }

  // What lies beside an empty space, side by side: the features of a neighbouring tile or start space on the
  // side they share, or the wall.
  describeSurroundings(space) {
    const [x, y] = this.spaceAt.get(space);
    if (!this.coordIndex) this.coordIndex = new Map([...this.spaceAt].map(([name, [cx, cy]]) => [`${cx},${cy}`, name]));
    const starts = new Map(this.geo.starts.map((st) => [st.id, st]));
    const parts = [];
    [[0, 1], [1, 0], [0, -1], [-1, 0]].forEach(([dx, dy], side) => {
      const name = this.coordIndex.get(`${x + dx},${y + dy}`);
      let what = null;
      if (!name) what = t("page.board.the-wall");
      else if (starts.has(name)) what = t("page.board.start-space", { features: this.featureWords(starts.get(name).features.map((f) => f.kind)) });
      else if (this.placedAt.has(name)) {
        const p = this.placedAt.get(name);
        const tile = this.tilesById.get(p.tile);
        const facing = (side + 2) % 4;
        const kinds = [];
        for (let s = 3 * facing; s < 3 * facing + 3; s++) {
          const local = (((s - 3 * p.rotation) % 12) + 12) % 12;
          const f = tile.features.find((ft) => ft.segments.includes(local));
          if (f && !kinds.includes(f.kind)) kinds.push(f.kind);
        }
        what = valueText(kinds.map((k) => termValue(k)));
      }
      if (what) parts.push(t("page.board.side-what", { side: message(`page.side.${["north", "east", "south", "west"][side]}`), what }));
    });
    return parts.join("; ");
  }

  // ------------------------------------------------------------------ placing the tile

  focusedSpace() {
    const active = document.activeElement;
    return active && this.layers.legal.contains(active) ? active.dataset.space : null;
  }

  drawLegal(focused = null) {
    const ui = this.ui;
    const view = this.view;
    const layer = this.layers.legal;
    this.legalBySpace = new Map();
    if (!ui.placing || !view.drawn) return;
    // The legal placements (each a Place action), by space.
    const bySpace = this.legalBySpace;
    for (const place of view.drawn.places) {
      if (!bySpace.has(place.space)) bySpace.set(place.space, []);
      bySpace.get(place.space).push(place.rotation);
    }
    const key = `${view.id}:${view.moves_count}:${view.drawn.id}`;
    let order = [...bySpace.keys()];
    if (this.zoomed) {
      // A new tile: the part shown goes to a space where it fits as turned, the one nearest the middle of them all.
      if (this.centredFor !== key) {
        this.centredFor = key;
        const fits = order.filter((sp) => bySpace.get(sp).includes(ui.rotation));
        const pool = fits.length ? fits : order;
        const mid = pool.map((sp) => this.spaceOrigin(sp)).reduce((a, b) => [a[0] + b[0] / pool.length, a[1] + b[1] / pool.length], [0, 0]);
        const near = (sp) => Math.hypot(this.spaceOrigin(sp)[0] - mid[0], this.spaceOrigin(sp)[1] - mid[1]);
        this.centreOn(pool.reduce((a, b) => (near(b) < near(a) ? b : a)));
      }
      // The spaces shown first (and by the keyboard first), nearest the middle.
      const cx = this.box.x + this.box.w / 2;
      const cy = this.box.y + this.box.h / 2;
      const away = (sp) => Math.hypot(this.spaceOrigin(sp)[0] + 0.5 - cx, this.spaceOrigin(sp)[1] + 0.5 - cy);
      order = order.sort((a, b) => away(a) - away(b));
    }
    for (const space of order) {
      const rotations = bySpace.get(space);
      const [ox, oy] = this.spaceOrigin(space);
      const now = rotations.includes(ui.rotation);
      const label = t("page.board.space", { fits: now ? "now" : "turned", around: this.describeSurroundings(space), space });
      const r = el("rect", {
        x: ox + 0.04, y: oy + 0.04, width: 0.92, height: 0.92, rx: 0.06,
        class: now ? "legal now" : "legal other", tabindex: now ? 0 : -1, role: "button",
        "data-space": space, "aria-label": label,
      }, layer);
      r.addEventListener("mouseenter", () => this.preview(space));
      // Focused from the keyboard (not by a click, nor by the page when a mouse made the last move), it shows the tile.
      r.addEventListener("focus", () => r.matches(":focus-visible") && this.preview(space));
      r.addEventListener("mouseleave", () => this.clearPreview());
      r.addEventListener("blur", () => this.clearPreview());
      r.addEventListener("click", () => this.handlers.place && this.handlers.place(space));
      r.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.handlers.place && this.handlers.place(space);
          return;
        }
        // The arrows go from space to space (and not on to turning the tile, as they do elsewhere on the page).
        const step = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
        if (!step || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey) return;
        ev.preventDefault();
        ev.stopPropagation();
        this.focusNext(space, step);
      });
      if (space === focused) r.focus({ preventScroll: true });
    }
  }

  // The highlighted space nearest to `space` in direction `step` ([dx, dy], y north): the one whose way there goes
  // most along that direction and least across it.
  focusNext(space, [dx, dy]) {
    const [x0, y0] = this.spaceAt.get(space);
    let best = null;
    for (const other of this.legalBySpace.keys()) {
      if (other === space) continue;
      const [x, y] = this.spaceAt.get(other);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along <= 0) continue;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      const cost = along + 2.5 * across;
      if (!best || cost < best.cost) best = { other, cost };
    }
    if (!best) return;
    const node = this.layers.legal.querySelector(`[data-space="${best.other}"]`);
    if (node) node.focus();
  }

  preview(space) {
    this.clearPreview();
    const ui = this.ui;
    if (!ui.placing || !this.view.drawn) return;
    const rotations = (this.legalBySpace && this.legalBySpace.get(space)) || [];
    const rotation = rotations.includes(ui.rotation) ? ui.rotation : rotations[0];
    if (rotation === undefined) return;
    const g = this.tileGroup(this.layers.preview, this.view.drawn.id, space, rotation, "preview");
    g.setAttribute("pointer-events", "none");
    if (rotation !== ui.rotation) g.classList.add("turned");
  }

  clearPreview() {
    this.layers.preview.innerHTML = "";
  }

  // The spaces where another player's drawn tile fits (turned some way), shaded until the next drawing: only shown,
  // nothing to click (those who watch a player place a tile cannot place it).
  shadeFits(drawn) {
    return this.highlightSpaces([...new Set(drawn.places.map((p) => p.space))], "fits", this.layers.marks);
  }

  // ------------------------------------------------------------------ moves shown, not played

  // A move drawn over the board without being played (a hint, the best move of an analysis): the tile `tileId`
  // on `move.space` turned `move.rotation`, faint, with the figure of `player` on part `move.part`, and a badge
  // (`badge`: a number or a word) with `note` beside it (the expected lead). Clicks go through it to the board.
  // Several moves on one space (the same tile turned another way): the later ones (`slot` 1, 2...) draw no tile,
  // their badge in another corner and their note above the first's.
  drawGhostMove(tileId, move, player, { badge = "", note = "", cls = "", slot = 0 } = {}) {
    if (!move || !move.space || !this.spaceAt.has(move.space) || !this.tilesById.has(tileId)) return null;
    const g = el("g", { class: `ghost-move ${cls}`.trim(), "data-space": move.space, "pointer-events": "none" }, this.layers.ghosts);
    const [ox, oy] = this.spaceOrigin(move.space);
    if (slot === 0) {
      this.tileGroup(g, tileId, move.space, move.rotation || 0, "ghost-tile");
      el("rect", { x: ox + 0.03, y: oy + 0.03, width: 0.94, height: 0.94, class: "ghost-frame" }, g);
    }
    if (move.part !== null && move.part !== undefined) {
      const at = this.featurePoint(tileId, move.part, move.space, move.rotation || 0);
      const lying = (this.tilesById.get(tileId).features[move.part] || {}).kind === "meadow" && (move.piece || "follower") === "follower";
      drawFigure(g, at, player, { piece: move.piece || "follower", lying, size: 0.3 });
    }
    const [bx, by] = [[0.16, 0.16], [0.84, 0.16], [0.84, 0.5], [0.16, 0.5]][slot % 4];
    if (badge !== "") {
      el("circle", { cx: ox + bx, cy: oy + by, r: 0.14, class: "ghost-badge" }, g);
      el("text", { x: ox + bx, y: oy + by + 0.05, class: "ghost-badge-text", "text-anchor": "middle" }, g).textContent = String(badge);
    }
    if (note) {
      el("text", { x: ox + 0.5, y: oy + 0.92 - 0.2 * slot, class: "ghost-note", "text-anchor": "middle" }, g).textContent = note;
    }
    return g;
  }

  clearGhosts() {
    this.layers.ghosts.innerHTML = "";
  }

  // The hints (the best moves, numbered from 1, `lead(hint)` the words of each one's expected lead): on each space
  // hinted, the tile as the first hint there turns it, one badge with the numbers of all the hints there ("1, 2"),
  // and each one's figure, numbered where several share the space (the figures laid out apart, as the figure
  // choices are); the lead of a hint alone on its space. Nothing overlaps, however many share a space. A hint turned
  // otherwise than the first on its space shows its figure when it is pointed at (showHint).
  drawHints(tileId, hints, player, lead) {
    this.hints = { tileId, list: hints, player };
    const bySpace = new Map();
    hints.forEach((hint, i) => {
      if (!hint.space || !this.spaceAt.has(hint.space) || !this.tilesById.has(tileId)) return;
      if (!bySpace.has(hint.space)) bySpace.set(hint.space, []);
      bySpace.get(hint.space).push({ hint, n: i + 1 });
    });
    const tile = this.tilesById.get(tileId);
    for (const [space, here] of bySpace) {
      const [ox, oy] = this.spaceOrigin(space);
      const rotation = here[0].hint.rotation || 0;
      const g = el("g", { class: "ghost-move hint", "data-space": space, "data-hints": here.map((h) => h.n).join(" "), "pointer-events": "none" }, this.layers.ghosts);
      this.tileGroup(g, tileId, space, rotation, "ghost-tile");
      el("rect", { x: ox + 0.03, y: oy + 0.03, width: 0.94, height: 0.94, class: "ghost-frame" }, g);
      const numbers = here.map((h) => h.n).join(t("list.separator"));
      const badge = el("g", { class: "ghost-badge-wrap" }, g);
      const pill = el("rect", { x: ox + 0.04, y: oy + 0.04, width: 0.28, height: 0.26, rx: 0.13, class: "ghost-badge" }, badge);
      const text = el("text", { x: ox + 0.18, y: oy + 0.225, class: "ghost-badge-text", "text-anchor": "middle" }, badge);
      text.textContent = numbers;
      // As wide as its numbers (measured where the board is drawn, else guessed from their length).
      const width = Math.max(0.28, (text.getComputedTextLength() || 0.09 * numbers.length) + 0.14);
      pill.setAttribute("width", width.toFixed(3));
      text.setAttribute("x", (ox + 0.04 + width / 2).toFixed(3));
      // The figures stand clear of the badge (and of the lead's line, at the bottom, where there is one).
      const avoid = [{ l: 0.02, r: 0.06 + width, t: 0.02, b: 0.32 }, ...(here.length === 1 ? [{ l: 0.2, r: 0.8, t: 0.74, b: 0.98 }] : [])];
      const figures = here.filter(({ hint }) => (hint.rotation || 0) === rotation && hint.part !== null && hint.part !== undefined);
      const lying = figures.map(({ hint }) => tile.features[hint.part].kind === "meadow" && (hint.piece || "follower") === "follower");
      const layout = ghostLayout(figures.map(({ hint }) => rotatePoint(tileAnchors(tile)[hint.part], rotation)), lying, GHOST_SIZE, avoid);
      figures.forEach(({ hint, n }, i) => {
        const at = [ox + layout.at[i][0], oy + layout.at[i][1]];
        drawFigure(g, at, player, { piece: hint.piece || "follower", lying: lying[i], size: layout.size });
        if (here.length > 1) el("text", { x: at[0], y: at[1] + 0.05, class: "ghost-figure-n", "text-anchor": "middle", "data-n": n }, g).textContent = String(n);
      });
      // The lead of a hint alone on its space; where several share one, their leads are in the list beside the
      // board (a space has no room for them and their figures).
      if (here.length === 1) {
        el("text", { x: ox + 0.5, y: oy + 0.92, class: "ghost-note", "text-anchor": "middle", "data-n": here[0].n }, g).textContent = lead(here[0].hint);
      }
    }
  }

  // Hint `n` (from 1) as it would be played, over the hints drawn: its tile turned as it says, its figure's feature
  // outlined and the spaces that feature covers shaded (none: no hint shown).
  showHint(n) {
    const old = this.layers.highlight.querySelector(".hint-shown");
    if (old) old.remove();
    this.layers.ghosts.querySelectorAll(".ghost-move.hint.picked").forEach((g) => g.classList.remove("picked"));
    const hint = n && this.hints ? this.hints.list[n - 1] : null;
    if (!hint || !hint.space || !this.spaceAt.has(hint.space)) return;
    const { tileId, player } = this.hints;
    const g = el("g", { class: "hint-shown", "data-n": n, "pointer-events": "none" }, this.layers.highlight);
    if (hint.feature_spaces && hint.feature_spaces.length) this.highlightSpaces(hint.feature_spaces, "hint-feature", g);
    const tileG = this.tileGroup(g, tileId, hint.space, hint.rotation || 0, "hint-tile");
    if (hint.part !== null && hint.part !== undefined) {
      featureOutline(tileG, this.tilesById.get(tileId), hint.part, "feature-outline on hint-outline");
      const lying = this.tilesById.get(tileId).features[hint.part].kind === "meadow" && (hint.piece || "follower") === "follower";
      drawFigure(g, this.featurePoint(tileId, hint.part, hint.space, hint.rotation || 0), player, { piece: hint.piece || "follower", lying });
    }
    const ghost = [...this.layers.ghosts.querySelectorAll(".ghost-move.hint")].find((x) => x.dataset.hints.split(" ").includes(String(n)));
    if (ghost) ghost.classList.add("picked");
  }

  // ------------------------------------------------------------------ putting a figure

  // After placing: a ghost figure on each feature the person may take, to click; no two of them overlap. A click
  // on the tile elsewhere opens the list of its features (handlers.menu).
  drawFigureChoices() {
    const ui = this.ui;
    const view = this.view;
    this.choiceOutlines = new Map();
    if (!ui.figureChoices || !ui.figureChoices.length) return;
    const p = view.placements[view.placements.length - 1];
    const tile = this.tilesById.get(p.tile);
    const [ox, oy] = this.spaceOrigin(p.space);
    const outlines = el("g", { transform: `translate(${ox},${oy}) rotate(${90 * p.rotation},0.5,0.5)` }, this.layers.highlight);
    if (this.handlers.menu) {
      const hit = el("rect", { x: ox, y: oy, width: 1, height: 1, class: "figure-menu-hit", "aria-hidden": "true" }, this.layers.highlight);
      hit.addEventListener("click", () => this.handlers.menu());
    }
    const choices = [];
    for (const choice of ui.figureChoices) {
      if (!choices.some((c) => c.part === choice.part)) choices.push(choice);
    }
    const anchors = tileAnchors(tile);
    const layout = ghostLayout(choices.map((c) => rotatePoint(anchors[c.part], p.rotation)), choices.map((c) => c.kind === "meadow"));
    choices.forEach((choice, i) => {
      this.choiceOutlines.set(choice.part, featureOutline(outlines, tile, choice.part, "feature-outline"));
      const at = [ox + layout.at[i][0], oy + layout.at[i][1]];
      const g = drawFigure(this.layers.highlight, at, view.current, { ghost: true, lying: choice.kind === "meadow", size: layout.size });
      if (this.zoomed && coarsePointer()) {
        // Too small for a finger: a touch on the tile opens the list of its features instead.
        g.setAttribute("pointer-events", "none");
        g.setAttribute("aria-hidden", "true");
        return;
      }
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", choice.label);
      g.setAttribute("data-action", choice.action);
      g.setAttribute("data-part", choice.part);
      el("title", {}, g).textContent = choice.label;
      g.addEventListener("mouseenter", () => this.showFeature(choice.part, true));
      g.addEventListener("mouseleave", () => this.showFeature(choice.part, false));
      g.addEventListener("click", () => this.handlers.figure && this.handlers.figure(choice.action));
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.handlers.figure && this.handlers.figure(choice.action);
        }
      });
    });
  }

  // Outline part `part` (a feature's index) of the tile just placed.
  showFeature(part, on) {
    const outline = this.choiceOutlines && this.choiceOutlines.get(part);
    if (outline) outline.classList.toggle("on", on);
  }

  // Where a space is on the screen (client pixels): for what is shown beside it.
  screenRect(space) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix || !this.spaceAt.has(space)) return null;
    const [ox, oy] = this.spaceOrigin(space);
    const a = new DOMPoint(ox, oy).matrixTransform(matrix);
    const b = new DOMPoint(ox + 1, oy + 1).matrixTransform(matrix);
    return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), right: Math.max(a.x, b.x), bottom: Math.max(a.y, b.y) };
  }

  // ------------------------------------------------------------------ what a feature is worth

  // Pointing at a placed tile (or a figure) names the feature there: its tiles, who holds it, its points.
  pointAt(ev) {
    const view = this.view;
    if (!view || !view.features || !view.features.length || !(ev.target instanceof Element)) return;
    let id = null;
    const figure = ev.target.closest(".figure-wrap");
    const wrap = ev.target.closest(".placed-wrap");
    if (figure) id = Number(figure.dataset.feature);
    else if (wrap) {
      const p = this.placedAt.get(wrap.dataset.space);
      const part = this.partAt(p, ev);
      if (p && part !== null && p.features) id = p.features[part];
    }
    const info = id === null ? null : view.features.find((f) => f.id === id);
    if (!info) {
      this.hideTip();
      return;
    }
    this.showTip(info, ev.clientX, ev.clientY);
  }

  // The part of tile placement `p` under the pointer: a drawn road or building under it (whatever is drawn on
  // top of it), else the meadow nearest along the tile's edge.
  partAt(p, ev) {
    if (!p) return null;
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(matrix.inverse());
    const [ox, oy] = this.spaceOrigin(p.space);
    const local = rotatePoint([point.x - ox, point.y - oy], -p.rotation);
    const wrap = this.layers.tiles.querySelector(`.placed-wrap[data-space="${p.space}"]`);
    const drawn = wrap ? [...wrap.querySelectorAll("[data-feature]")].reverse() : []; // the topmost first
    const at = new DOMPoint(local[0], local[1]);
    for (const shape of drawn) {
      if (typeof shape.isPointInFill !== "function") continue;
      const road = shape.getAttribute("fill") === "none" || shape.classList.contains("f-road");
      if (road ? shape.isPointInStroke(at) : shape.isPointInFill(at)) return Number(shape.dataset.feature);
    }
    const tile = this.tilesById.get(p.tile);
    let best = null;
    const meadows = tile.features.some((f) => f.kind === "meadow");
    tile.features.forEach((f, i) => {
      if (meadows && f.kind !== "meadow") return;
      for (const s of f.segments) {
        const [x, y] = perimeterPoint(s + 0.5);
        const d = Math.hypot(x - local[0], y - local[1]);
        if (!best || d < best.d) best = { i, d };
      }
    });
    return best ? best.i : null;
  }

  showTip(info, x, y) {
    if (this.tipFor !== info.id) {
      this.tipFor = info.id;
      this.highlightSpaces(info.spaces, "hover");
      const tip = this.tip();
      tip.innerHTML = "";
      const line = (text, cls = "") => {
        const p = document.createElement("div");
        if (cls) p.className = cls;
        p.textContent = text;
        tip.append(p);
      };
      line(t("page.tip.head", { feature: upperFirst(term(info.kind)), tiles: message("count.tiles", { n: info.tiles }) }), "tip-head");
      const [a, b] = info.figures;
      if (a + b === 0) line(t("page.tip.nobody"));
      else if (info.owner === null) line(t("page.tip.tie", { a, b }));
      else line(t("page.tip.owner", { player: seatValue(info.owner), a, b }));
      const points = message("count.points", { n: info.points });
      if (info.kind === "meadow") line(t("page.tip.at-end", { points }));
      else if (info.complete) line(t("page.tip.complete", { points }));
      else line(t("page.tip.if-now", { points }));
      tip.hidden = false;
    }
    const tip = this.tip();
    const width = tip.offsetWidth;
    const left = x + 16 + width > window.innerWidth ? x - 16 - width : x + 16;
    tip.style.left = `${Math.max(4, left)}px`;
    tip.style.top = `${Math.max(4, y + 16)}px`;
  }

  tip() {
    let tip = document.getElementById("feature-tip");
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "feature-tip";
      tip.className = "feature-tip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      (this.svg.parentElement || document.body).append(tip);
    }
    return tip;
  }

  hideTip() {
    if (this.tipFor === null || this.tipFor === undefined) return;
    this.tipFor = null;
    const tip = document.getElementById("feature-tip");
    if (tip) tip.hidden = true;
    this.clearHighlight();
  }

  // Shade a set of spaces by name (a feature from the log, the family house...).
  highlightSpaces(spaces, cls = "hover", layer = null) {
    const target = layer || this.layers.highlight;
    if (!layer) this.clearHighlight();
    // Without a layer of its own, a shade lasts while it is pointed at: clearHighlight takes it away.
    const g = el("g", { class: `cells ${cls}${layer ? "" : " transient"}` }, target);
    for (const space of spaces) {
      if (!this.spaceAt.has(space)) continue;
      const [ox, oy] = this.spaceOrigin(space);
      el("rect", { x: ox, y: oy, width: 1, height: 1 }, g);
    }
    return g;
  }

  // A feature just scored flashes on the board with its points, for a moment (the page's stylesheet keeps it
  // still for people who ask for less motion).
  flashScored(spaces, points, player) {
    const shown = spaces.filter((space) => this.spaceAt.has(space));
    if (!shown.length) return;
    const g = this.highlightSpaces(shown, `flash p${player}`, this.layers.highlight);
    const [ox, oy] = this.spaceOrigin(shown[0]);
    const label = el("text", { x: ox + 0.5, y: oy + 0.62, class: "flash-points" }, g);
    label.textContent = `+${points}`;
    setTimeout(() => g.remove(), 2400);
  }

  clearHighlight() {
    this.layers.highlight.querySelectorAll(".cells.transient").forEach((n) => n.remove());
  }
}
