// The API client: one function per request of the JSON protocol (its models: /api/openapi.json). Every answer
// says the protocol's version in its Zamek-Api header; a server speaking another version than this page is
// refused with a message asking for a reload. A refused request throws an ApiError with the server's message.

export const API_VERSION = 2;

export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The words of the errors the client itself reports ("offline", "apiVersion"): the page gives its translations.
let say = (key) => key;

export function setClientWords(translate) {
  say = translate;
}

// One request: `body` is sent as JSON (a string as it is). Resolves to the answer's JSON (null for 204).
export async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, say("offline"));
  }
  const version = response.headers.get("Zamek-Api");
  if (version !== null && Number(version) !== API_VERSION) throw new ApiError(response.status, say("apiVersion"), "version");
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.message) || `${response.status}`, data && data.error);
  return data;
}

const query = (params) => {
  const entries = Object.entries(params).filter(([, v]) => v !== null && v !== undefined);
  return entries.length ? `?${entries.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}` : "";
};

// The castle game. `lang` chooses the language of the words in a view (en, pl).
export const games = {
  meta: () => call("GET", "/api/meta"),
  geometry: (sokol, board) => call("GET", `/api/geometry${query({ sokol, board })}`),
  list: () => call("GET", "/api/games"),
  create: (options, lang) => call("POST", `/api/games${query({ lang })}`, options),
  get: (id, lang) => call("GET", `/api/games/${id}${query({ lang })}`),
  status: (id) => call("GET", `/api/games/${id}/status`),
  act: (id, action, revision, lang) => call("POST", `/api/games/${id}/actions${query({ lang })}`, { action, revision }),
  draw: (id, revision, lang) => call("POST", `/api/games/${id}/draw${query({ lang })}`, { revision }),
  undo: (id, lang) => call("POST", `/api/games/${id}/undo${query({ lang })}`, {}),
  replay: (id, move, lang) => call("GET", `/api/games/${id}/replay${query({ move, lang })}`),
  remove: (id) => call("DELETE", `/api/games/${id}`),
  importRecord: (text, lang) => call("POST", `/api/import${query({ lang })}`, text),
  recordUrl: (id) => `/api/games/${id}/record`,
};
