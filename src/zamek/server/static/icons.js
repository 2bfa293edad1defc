// The page's icons, drawn as SVG (a symbol character would depend on the fonts of the reader's system): the
// replay's controls, turning the tile, undo, zoom, back, reload, and the gate guard's shield. Each is drawn on a
// 24 by 24 grid in the text's colour (currentColor). An icon beside words, or in a button with its own name, is
// hidden from screen readers; an icon that stands alone gets its name (the catalogue's words) as aria-label and
// title.

import { el } from "./tiles.js";

const line = (d) => ["path", { d, class: "icon-line" }];
const solid = (d) => ["path", { d, class: "icon-solid" }];

const SHAPES = {
  first: [line("M5 5v14"), solid("M19 5v14l-7-7zM12 5v14l-7-7z")],  // a bar and two triangles: to the first move
  "prev-turn": [solid("M12 5v14l-8-7zM20 5v14l-8-7z")],  // two triangles: a turn back
  prev: [line("M15 5l-7 7 7 7")],  // a chevron: a move back
  play: [solid("M7 4.5v15l12.5-7.5z")],
  pause: [solid("M6.5 5h4v14h-4zM13.5 5h4v14h-4z")],
  next: [line("M9 5l7 7-7 7")],
  "next-turn": [solid("M4 5v14l8-7zM12 5v14l8-7z")],
  last: [solid("M5 5v14l7-7zM12 5v14l7-7z"), line("M19 5v14")],
  "rotate-left": [line("M7.5 8.5A7 7 0 1 1 5 13.5"), solid("M3.5 4.5l1 6.5 6-2.5z")],
  "rotate-right": [line("M16.5 8.5A7 7 0 1 0 19 13.5"), solid("M20.5 4.5l-1 6.5-6-2.5z")],
  undo: [line("M8 9h7.5a4.5 4.5 0 0 1 0 9H10"), solid("M3 9l6-5v10z")],
  "zoom-in": [["circle", { cx: 10.5, cy: 10.5, r: 6.5, class: "icon-line" }], line("M15.5 15.5l5 5M7.5 10.5h6M10.5 7.5v6")],
  "zoom-out": [["circle", { cx: 10.5, cy: 10.5, r: 6.5, class: "icon-line" }], line("M15.5 15.5l5 5M7.5 10.5h6")],
  back: [line("M20 12H5M11 5l-7 7 7 7")],
  reload: [line("M18.5 12.5A6.5 6.5 0 1 1 16 7.3"), solid("M20 3.5v7h-7z")],
  shield: [solid("M12 2.5l8 3v6c0 5-3.5 8.5-8 10-4.5-1.5-8-5-8-10v-6z"), ["path", { d: "M12 5.5v13M7 10.5h10", class: "icon-mark" }]],
};

// The icon `name` as an <svg class="icon">; with a label it is an image of that name, else decoration.
export function icon(name, label = null) {
  const svg = el("svg", { viewBox: "0 0 24 24", class: `icon icon-${name}`, "data-icon": name, focusable: "false" });
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    el("title", {}, svg).textContent = label;
  } else svg.setAttribute("aria-hidden", "true");
  for (const [tag, attrs] of SHAPES[name]) el(tag, attrs, svg);
  return svg;
}
