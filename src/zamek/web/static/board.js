// The castle in SVG: wall, score track, towers, gates, start spaces, tiles, figures, score markers,
// the spaces where the drawn tile may go, and highlights. Geometry comes from /api/geometry; the views
// name places by their space names (e10; start spaces by their id, S5), as the geometry does.

import { COLORS, drawFigure, drawStart, drawTile, el, featureOutline, rotatePoint, tileAnchors } from "./tiles.js";


export class Board {
  constructor(svg, geometry) {
    this.svg = svg;
    this.geo = geometry;
    this.tilesById = new Map(geometry.tiles.map((t) => [t.id, t]));
    this.H = geometry.height;
    // Where each space lies (x east, y north, from 0): the interior's spaces and the start spaces.
    this.spaceAt = new Map([...geometry.spaces.map((s) => [s.name, [s.x, s.y]]), ...geometry.starts.map((s) => [s.id, [s.x, s.y]])]);
    this.handlers = {};
    const pad = 1.05;
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
    for (const name of ["wall", "spaces", "tiles", "marks", "legal", "preview", "figures", "markers", "highlight"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.drawWall();
    this.view = null;
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
    this.view = view;
    this.ui = ui;
    for (const name of ["tiles", "marks", "legal", "preview", "figures", "markers", "highlight"]) this.layers[name].innerHTML = "";
    view.towers.forEach((holds, i) => {
      const node = this.towerNodes[i];
      node.classList.toggle("taken", !holds);
      // What a face-down token may be: one of the tokens not yet revealed (the same for every tower).
      let title = node.querySelector("title");
      if (!title) title = el("title", {}, node);
      title.textContent = holds && view.hidden_tokens ? view.hidden_tokens.join(", ") : "";
    });
    const placedAt = new Map();
    for (const p of view.placements) {
      placedAt.set(p.space, p);
      this.tileGroup(this.layers.tiles, p.tile, p.space, p.rotation, "placed");
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
      drawFigure(this.layers.figures, at, f.player, { piece: f.piece, lying: f.kind === "meadow" && f.piece === "follower" });
    }
    this.drawMarkers(view);
    if (view.scoring) this.highlightSpaces(view.scoring.spaces, "scoring", this.layers.marks);
    this.drawLegal();
    this.drawFigureChoices();
  }

  drawMarkers(view) {
    const positions = view.players.map((p) => p.score % 100);
    view.players.forEach((player, i) => {
      const at = this.trackAt.get(positions[i]);
      if (!at) return;
      const shared = positions[0] === positions[1];
      const dx = shared ? (i === 0 ? -0.09 : 0.09) : 0;
      const g = el("g", { transform: `translate(${at[0] + dx},${at[1] - 0.02})`, class: "score-marker" }, this.layers.markers);
      el("circle", { r: 0.15, fill: COLORS.players[i], stroke: COLORS.playersDark[i], "stroke-width": 0.035 }, g);
      const laps = Math.floor(player.score / 100);
      if (laps > 0) {
        const t = el("text", { y: 0.05, class: "lap" }, g);
        t.textContent = `+${laps * 100}`;
      }
      el("title", {}, g).textContent = `${player.score}`;
    });
  }

  drawLegal() {
    const ui = this.ui;
    const view = this.view;
    const layer = this.layers.legal;
    if (!ui.placing || !view.drawn) return;
    // The legal placements (each a Place action), by space.
    const bySpace = new Map();
    for (const place of view.drawn.places) {
      if (!bySpace.has(place.space)) bySpace.set(place.space, []);
      bySpace.get(place.space).push(place.rotation);
    }
    this.legalBySpace = bySpace;
    for (const [space, rotations] of bySpace) {
      const [ox, oy] = this.spaceOrigin(space);
      const now = rotations.includes(ui.rotation);
      const r = el("rect", {
        x: ox + 0.04, y: oy + 0.04, width: 0.92, height: 0.92, rx: 0.06,
        class: now ? "legal now" : "legal other", tabindex: now ? 0 : -1, role: "button",
        "data-space": space, "aria-label": space,
      }, layer);
      r.addEventListener("mouseenter", () => this.preview(space));
      r.addEventListener("focus", () => this.preview(space));
      r.addEventListener("mouseleave", () => this.clearPreview());
      r.addEventListener("blur", () => this.clearPreview());
      r.addEventListener("click", () => this.handlers.place && this.handlers.place(space));
      r.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.handlers.place && this.handlers.place(space);
        }
      });
    }
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

  // After placing: a ghost figure on each feature the person may take, to click.
  drawFigureChoices() {
    const ui = this.ui;
    const view = this.view;
    if (!ui.figureChoices || !ui.figureChoices.length) return;
    const p = view.placements[view.placements.length - 1];
    const tile = this.tilesById.get(p.tile);
    const seen = new Set();
    const [ox, oy] = this.spaceOrigin(p.space);
    const outlines = el("g", { transform: `translate(${ox},${oy}) rotate(${90 * p.rotation},0.5,0.5)` }, this.layers.highlight);
    this.choiceOutlines = new Map();
    for (const choice of ui.figureChoices) {
      if (seen.has(choice.part)) continue;
      seen.add(choice.part);
      const outline = featureOutline(outlines, tile, choice.part, "feature-outline");
      this.choiceOutlines.set(choice.part, outline);
      const at = this.featurePoint(p.tile, choice.part, p.space, p.rotation);
      const g = drawFigure(this.layers.highlight, at, view.current, { ghost: true, lying: choice.kind === "meadow" });
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", choice.label);
      g.setAttribute("data-action", choice.action);
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
    }
  }

  // Outline part `part` (a feature's index) of the tile just placed.
  showFeature(part, on) {
    const outline = this.choiceOutlines && this.choiceOutlines.get(part);
    if (outline) outline.classList.toggle("on", on);
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
