// The lobby: a new game, the list of games (resume, replay, export, delete), importing a saved game, and the
// Rycerze i zamki panel.

import { games } from "./api.js";
import { knightsLobby } from "./knights.js";
import { describeGame, h, main, showError, state, t } from "./ui.js";

export async function openLobby() {
  state.screen = "lobby";
  state.gameId = null;
  state.view = null;
  main.innerHTML = "";
  const form = newGameForm();
  const list = h("section", { class: "panel games", id: "games" });
  const importBox = importForm();
  main.append(h("div", { class: "lobby" }, form, h("div", { class: "lobby-right" }, list, importBox)));
  main.append(h("div", { class: "lobby knights-lobby" }, ...knightsLobby(openLobby)));
  try {
    renderGameList(list, await games.list());
  } catch (err) {
    list.append(h("p", { class: "error" }, err.message));
  }
}

function radio(name, value, label, checked) {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), " ", label);
}

function newGameForm() {
  const saved = JSON.parse(localStorage.getItem("zamek-new-game") || "{}");
  const opt = (key, fallback) => (saved[key] !== undefined ? saved[key] : fallback);
  const levels = ["beginner", "easy", "medium", "hard"];
  const form = h(
    "form",
    { class: "panel new-game", id: "new-game" },
    h("h2", {}, t("newGame")),
    h("fieldset", {}, h("legend", {}, t("opponent")),
      radio("mode", "computer", t("vsComputer"), opt("mode", "computer") === "computer"),
      radio("mode", "hotseat", t("hotseat"), opt("mode", "computer") === "hotseat")),
    h("fieldset", { class: "computer-only" }, h("legend", {}, t("level")),
      levels.map((l) => radio("level", l, t("level-" + l), opt("level", "beginner") === l))),
    h("fieldset", { class: "computer-only" }, h("legend", {}, t("seat")),
      ["first", "second", "random"].map((s) => radio("seat", s, t("seat-" + s), opt("seat", "first") === s))),
    h("fieldset", {}, h("legend", {}, t("edition")),
      ["zamek", "castle2003"].map((e) => radio("edition", e, t("edition-" + e), opt("edition", "zamek") === e)),
      h("label", { class: "choice" }, h("input", { type: "checkbox", name: "sokol", checked: opt("sokol", false) }), " ", t("sokol")),
      h("label", { class: "choice" }, h("input", { type: "checkbox", name: "gate_guard", checked: opt("gate_guard", false) }), " ", t("gateGuard"))),
    h("p", { class: "error", id: "error", hidden: true, role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "start-game" }, t("start")),
  );
  const sync = () => {
    const data = new FormData(form);
    form.querySelectorAll(".computer-only").forEach((f) => (f.hidden = data.get("mode") !== "computer"));
    const gate = form.querySelector("input[name=gate_guard]");
    gate.disabled = !data.get("sokol");
    if (gate.disabled) gate.checked = false;
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const options = {
      mode: data.get("mode"),
      level: data.get("level") || "beginner",
      seat: data.get("seat") || "first",
      edition: data.get("edition"),
      sokol: data.get("sokol") === "on",
      gate_guard: data.get("gate_guard") === "on",
    };
    localStorage.setItem("zamek-new-game", JSON.stringify(options));
    try {
      const view = await games.create(options, state.lang);
      location.hash = `#/game/${view.id}`;
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

function renderGameList(container, lines) {
  container.innerHTML = "";
  const groups = [["playing", t("inProgress")], ["over", t("finished")]];
  for (const [status, title] of groups) {
    const mine = lines.filter((g) => g.status === status);
    container.append(h("h2", {}, title));
    if (!mine.length) {
      container.append(h("p", { class: "muted" }, t("noGames")));
      continue;
    }
    const ul = h("ul", { class: "game-list", "data-status": status });
    for (const g of mine) {
      const d = describeGame(g);
      const when = new Date(g.updated_at).toLocaleString(state.lang === "pl" ? "pl-PL" : "en-GB", { dateStyle: "short", timeStyle: "short" });
      ul.append(h("li", { class: "game-item", "data-id": g.id },
        h("div", { class: "game-info" },
          h("span", { class: "score-pair" },
            h("span", { class: "dot p0" }), g.scores[0], " : ", g.scores[1], h("span", { class: "dot p1" })),
          h("span", {}, d.who), h("span", { class: "muted" }, `${d.rules} · ${t("turn", { n: g.turn })} · ${when}`)),
        h("div", { class: "game-actions" },
          status === "playing" ? h("a", { class: "button primary", href: `#/game/${g.id}` }, t("resume")) : null,
          h("a", { class: "button", href: `#/replay/${g.id}/` }, t("replay")),
          h("a", { class: "button", href: games.recordUrl(g.id), download: `zamek-${g.id}.json` }, t("export")),
          h("button", { type: "button", class: "danger", onclick: async () => {
            if (!confirm(t("confirmDelete"))) return;
            await games.remove(g.id);
            openLobby();
          } }, t("delete")))));
    }
    container.append(ul);
  }
}

function importForm() {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "import-file" });
  const message = h("p", { class: "error", hidden: true, role: "alert", id: "import-error" });
  const form = h("form", { class: "panel import" }, h("h2", {}, t("importTitle")), h("p", { class: "muted" }, t("importHint")),
    input, h("button", { type: "submit" }, t("importButton")), message);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.hidden = true;
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const view = await games.importRecord(await file.text(), state.lang);
      location.hash = view.over ? `#/replay/${view.id}/` : `#/game/${view.id}`;
    } catch (err) {
      message.textContent = err.message;
      message.hidden = false;
    }
  });
  return form;
}
