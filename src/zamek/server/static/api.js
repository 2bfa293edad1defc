// The API client: one function per request of the JSON protocol (its models: /api/openapi.json). Every answer
// says the protocol's version in its Zamek-Api header; a server speaking another version than this page is
// refused with a message asking for a reload. A refused request throws an ApiError with the server's message, in
// the page's language (every request says it: its `lang`, and Accept-Language), and its code, rule and values.
//
// Seats: the tokens of the seats this browser holds live in localStorage (`zamek-seats`), by game id; a request
// that changes a game sends the token of the seat it acts for (Authorization: Bearer). Nothing else identifies
// a player: no account, no cookie.

export const API_VERSION = 5;

export class ApiError extends Error {
  constructor(status, message, code = null, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.rule = details.rule ?? null; // the rule a refused move breaks (Z7, K4...)
    this.params = details.params ?? null;
  }
}

// The words of the errors the client itself reports (page.error.offline, page.error.api-version): the page's.
let say = (key) => key;
let language = null;

export function setClientWords(translate) {
  say = translate;
}

// The language the server is to answer in (its refusals' messages).
export function setClientLanguage(lang) {
  language = lang;
}

// ------------------------------------------------------------------- seats

const SEATS_KEY = "zamek-seats";

// Read once and kept: names and turns ask for the seats many times a drawing. Another tab's change (the
// storage event) is read again.
let cached = null;
window.addEventListener("storage", (ev) => {
  if (ev.key === SEATS_KEY || ev.key === null) cached = null;
});

function loadSeats() {
  if (cached) return cached;
  try {
    const saved = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    cached = saved && typeof saved === "object" ? saved : {};
  } catch {
    cached = {};
  }
  return cached;
}

function storeSeats(all) {
  cached = all;
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export const seats = {
  // { kind: "castle" | "knights", tokens: { seat: token }, invite?: code } of a game, or null.
  of: (id) => loadSeats()[id] || null,
  held: (id) => Object.keys((loadSeats()[id] || { tokens: {} }).tokens).map(Number),
  token: (id, seat) => ((loadSeats()[id] || { tokens: {} }).tokens[seat] ?? null),
  // Any token of the game (for what any of its seats may do: delete, watch as a player).
  any: (id) => Object.values((loadSeats()[id] || { tokens: {} }).tokens)[0] ?? null,
  remember(kind, id, tokens, invite) {
    const all = loadSeats();
    const entry = all[id] || { kind, tokens: {} };
    for (const { seat, token } of tokens || []) entry.tokens[seat] = token;
    if (invite) entry.invite = invite;
    all[id] = entry;
    storeSeats(all);
  },
  forget(id) {
    const all = loadSeats();
    delete all[id];
    storeSeats(all);
  },
  allTokens: () => Object.values(loadSeats()).flatMap((e) => Object.values(e.tokens || {})),
};

// --------------------------------------------------------------- the player

// A player's identity (issue 39): its secret token and its name, kept in localStorage (`zamek-player`). The requests
// that create or take a seat carry it (X-Zamek-Player): the seat is then the player's, on every device it is moved
// to (by the link #/me/<token>).
const PLAYER_KEY = "zamek-player";

export const identity = {
  get() {
    try {
      const me = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
      return me && typeof me.token === "string" ? me : null;
    } catch {
      return null;
    }
  },
  set(me) {
    if (me) localStorage.setItem(PLAYER_KEY, JSON.stringify({ token: me.token, name: me.name }));
    else localStorage.removeItem(PLAYER_KEY);
  },
};

const asPlayer = (token = null) => {
  const held = token || (identity.get() || {}).token;
  return held ? { "X-Zamek-Player": held } : {};
};

// ----------------------------------------------------------------- requests

// One request: `body` is sent as JSON (a string as it is), `token` as the seat's proof, `headers` besides (the
// player's). Resolves to the answer's JSON (null for 204).
export async function call(method, path, body, token = null, headers = {}) {
  const options = { method, headers: { ...(language ? { "Accept-Language": language } : {}), ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  if (token) options.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, say("page.error.offline"));
  }
  const version = response.headers.get("Zamek-Api");
  if (version !== null && Number(version) !== API_VERSION) throw new ApiError(response.status, say("page.error.api-version"), "version");
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.message) || `${response.status}`, data && data.error, data || {});
  return data;
}

const query = (params) => {
  const entries = Object.entries(params).filter(([, v]) => v !== null && v !== undefined);
  return entries.length ? `?${entries.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}` : "";
};

// A new or joined game's answer carries its seats' tokens: keep them, give the view.
const seated = (kind) => (view) => {
  seats.remember(kind, view.id, view.tokens, view.invite);
  return view;
};

// The key of this tab's joining of a game by an invitation: sent again if the answer is lost (the server then gives
// the same seat a new token, until the seat's token is used), and to nobody else.
function joinKey(id, invite) {
  const name = `zamek-join:${id}:${invite}`;
  let key = sessionStorage.getItem(name);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    sessionStorage.setItem(name, key);
  }
  return key;
}

// The time controls offered for a game with friends (both games): none, a live clock (minutes and seconds added a
// move), or days a move.
export const CLOCKS = {
  none: null,
  "live-5-3": { kind: "live", minutes: 5, increment: 3 },
  "live-10-5": { kind: "live", minutes: 10, increment: 5 },
  "live-20-10": { kind: "live", minutes: 20, increment: 10 },
  "days-1": { kind: "correspondence", days: 1 },
  "days-3": { kind: "correspondence", days: 3 },
};

// The castle game. `lang` chooses the language of the words in a view (en, pl).
export const games = {
  meta: () => call("GET", "/api/meta"),
  geometry: (sokol, board) => call("GET", `/api/geometry${query({ sokol, board })}`),
  // One page of this browser's games, the latest changed first (the server lists at most 200 a page).
  lobby: (offset = 0, limit = 50) => call("POST", "/api/lobby", { tokens: seats.allTokens(), offset, limit }),
  adopt: async () => {
    for (const a of await call("POST", "/api/adopt", {})) seats.remember(a.kind, a.id, [{ seat: a.seat, token: a.token }]);
  },
  create: (options, lang) => call("POST", `/api/games${query({ lang })}`, options, null, asPlayer()).then(seated("castle")),
  join: (id, invite, name, lang) => call("POST", `/api/games/${id}/join${query({ lang })}`, { invite, name: name || null, key: joinKey(id, invite) }, null, asPlayer()).then(seated("castle")),
  get: (id, lang) => call("GET", `/api/games/${id}${query({ lang })}`),
  // Cheap to poll while the computer thinks: the revision, whether it still thinks, whether the game is over.
  status: (id) => call("GET", `/api/games/${id}/status`),
  act: (id, action, revision, lang, token) => call("POST", `/api/games/${id}/actions${query({ lang })}`, { action, revision }, token),
  draw: (id, revision, lang, token) => call("POST", `/api/games/${id}/draw${query({ lang })}`, { revision }, token),
  undo: (id, revision, lang, token) => call("POST", `/api/games/${id}/undo${query({ lang })}`, { revision }, token),
  resign: (id, revision, lang, token) => call("POST", `/api/games/${id}/resign${query({ lang })}`, { revision }, token),
  abort: (id, revision, lang, token) => call("POST", `/api/games/${id}/abort${query({ lang })}`, { revision }, token),
  rematch: (id, lang, token) => call("POST", `/api/games/${id}/rematch${query({ lang })}`, undefined, token).then(seated("castle")),
  replay: (id, move, lang) => call("GET", `/api/games/${id}/replay${query({ move, lang })}`),
  // The best moves for the seat to move (its token); a finished game's analysis (anyone may ask).
  hints: (id, lang, token) => call("GET", `/api/games/${id}/hints${query({ lang })}`, undefined, token),
  analysis: (id, lang) => call("GET", `/api/games/${id}/analysis${query({ lang })}`),
  remove: (id) => call("DELETE", `/api/games/${id}`, undefined, seats.any(id)).then(() => seats.forget(id)),
  importRecord: (text, lang) => call("POST", `/api/import${query({ lang })}`, text).then(seated("castle")),
  recordUrl: (id) => `/api/games/${id}/record`,
  // The live games anyone may watch (those their creators listed), the most highly rated first.
  live: () => call("GET", "/api/live"),
};

// A word at the table (either game): one of the fixed messages (/api/meta's table_messages), said by a seat's token.
export const sayAtTable = (id, message, token) => call("POST", `/api/games/${id}/say`, { message }, token);

// The lobby where players meet (issue 39): open challenges and quick pairing, as this browser's player (the same
// token holds the seats of the games made there).
export const lobby = {
  challenges: () => call("GET", "/api/challenges", undefined, null, asPlayer()),
  post: (seek) => call("POST", "/api/challenges", seek, null, asPlayer()),
  accept: (id) => call("POST", `/api/challenges/${id}/accept`, {}, null, asPlayer()),
  withdraw: (id) => call("DELETE", `/api/challenges/${id}`, undefined, null, asPlayer()),
  playNow: (seek) => call("POST", "/api/pairing", seek, null, asPlayer()),
  headers: () => asPlayer(),
};

// Rycerze i zamki: the same routes (/api/games), the game named at its start. A seat's view (its hand, its legal
// moves) is asked with that seat's token; without one, the answer is the public view (a spectator's, the table's).
export const knights = {
  create: (options, lang) => call("POST", `/api/games${query({ lang })}`, { game: "knights", ...options }, null, asPlayer()).then(seated("knights")),
  join: (id, invite, name, lang) => call("POST", `/api/games/${id}/join${query({ lang })}`, { invite, name: name || null, key: joinKey(id, invite) }, null, asPlayer()).then(seated("knights")),
  get: (id, lang, seat = null, token = null) => call("GET", `/api/games/${id}${query({ seat, lang })}`, undefined, token),
  status: (id) => call("GET", `/api/games/${id}/status`),
  act: (id, seat, action, revision, lang, token) => call("POST", `/api/games/${id}/actions${query({ lang })}`, { seat, action, revision }, token),
  resign: (id, revision, lang, token) => call("POST", `/api/games/${id}/resign${query({ lang })}`, { revision }, token),
  // Before every person has made a first move: the game ends with no result (409 "started" after).
  abort: (id, revision, lang, token) => call("POST", `/api/games/${id}/abort${query({ lang })}`, { revision }, token),
  // Offer a rematch of a finished game with friends, or take one's seat in the one offered (with one's old token).
  rematch: (id, lang, token) => call("POST", `/api/games/${id}/rematch${query({ lang })}`, undefined, token).then(seated("knights")),
  // A new invitation code for the seats still free (the old one stops working).
  invite: (id, token) => call("POST", `/api/games/${id}/invite`, undefined, token).then((answer) => {
    seats.remember("knights", id, [], answer.invite);
    return answer.invite;
  }),
  remove: (id) => call("DELETE", `/api/games/${id}`, undefined, seats.any(id)),
  recordUrl: (id) => `/api/games/${id}/record`,
  eventsPath: (id) => `/api/games/${id}/events`,
};

// Players, ratings and the leaderboard (issue 39).
export const players = {
  create: (name) => call("POST", "/api/players", { name }),
  me: (token) => call("GET", "/api/players/me", undefined, null, asPlayer(token)),
  rename: (name) => call("PATCH", "/api/players/me", { name }, null, asPlayer()),
  page: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  leaderboard: (game, clock) => call("GET", `/api/leaderboard${query({ game, clock })}`),
  // The player's games on this device too: each seat's token (the player's own) kept as a seat's link keeps it.
  async sync() {
    if (!identity.get()) return;
    const answer = await call("GET", "/api/players/me/games", undefined, null, asPlayer());
    for (const g of answer.games) if (!seats.token(g.id, g.seat)) seats.remember(g.kind, g.id, [{ seat: g.seat, token: g.token }]);
  },
};

// Live events of a game (`path`: /api/games/ID/events), read with fetch so that the
// seat's token travels in a header, never in a URL. `onEvent(type, data)` gets each event; the stream comes
// back by itself after a failure or a `restart` (the server stopping), resuming after the last revision seen.
// Returns a function that stops it.
export function watch(path, token, lastRevision, onEvent, onConnected = () => {}, extraHeaders = {}) {
  let stopped = false;
  let last = lastRevision;
  let controller = null;
  let delay = 500;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      const headers = { Accept: "text/event-stream", ...extraHeaders };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (last !== null && last !== undefined) headers["Last-Event-ID"] = String(last);
      try {
        const response = await fetch(path, { headers, signal: controller.signal, cache: "no-store" });
        if (!response.ok || !response.body) {
          if (response.status === 404 || response.status === 403) {
            onEvent("gone", {});
            return;
          }
          throw new Error(String(response.status));
        }
        onConnected(true);
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let type = "message";
            let data = "";
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) type = line.slice(6).trim();
              else if (line.startsWith("data:")) data += line.slice(5).trim();
              else if (line.startsWith("id:")) last = Number(line.slice(3).trim());
            }
            if (!data) continue;
            let parsed = {};
            try {
              parsed = JSON.parse(data);
            } catch {
              continue;
            }
            onEvent(type, parsed);
            if (type === "gone") return;
            // The server is stopping (a restart): come back after the time it asks, each page at its own moment.
            if (type === "restart") delay = Math.max(250, Number(parsed.retry) || 1000) * (1 + Math.random());
          }
        }
      } catch {
        if (stopped) return;
      }
      if (stopped) return;
      onConnected(false);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }
  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}
