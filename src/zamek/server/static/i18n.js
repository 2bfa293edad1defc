// The page's language and its words. Every text the page shows is a message of the catalogue (zamek.i18n: the
// folders src/zamek/i18n/<lang>/, page.toml and help.toml for the page's own words), served by /api/words and
// formatted by words.js; this module holds the Words of the language shown, and chooses that language among the
// ones the server offers (/api/meta's `languages`).

import { loadWords, NOBODY } from "./words.js";

const STORED = "zamek-lang";
let words = null;

// The Words of the language shown (loaded by useLanguage before the page draws anything).
export const currentWords = () => words;

// The message `key` with `params` filled in, in the words of `edition` (The Castle 2003 names things its own way),
// as `reader` reads it (the seats that are theirs: "You", a friend's name).
export function tr(key, params = {}, edition = null, reader = NOBODY) {
  return words.say(key, params, edition, reader);
}

// Load the words of `lang` and make it the page's language (kept in this browser when `keep`).
export async function useLanguage(lang, keep = false) {
  if (keep) localStorage.setItem(STORED, lang); // at once: a page opened while the words load is in it too
  const loaded = await loadWords(lang);
  words = loaded;
  document.documentElement.lang = loaded.lang;
  return loaded.lang;
}

// The language to show, among those the server offers (`offered`, codes like "en", "pl"): the one chosen here
// before, else the first of the browser's languages the server has (by its whole tag, then by its language), else
// the server's own choice for this browser (`fallback`, from its Accept-Language), else the first offered.
export function guessLanguage(offered, fallback = null) {
  const codes = (offered || []).map((l) => (typeof l === "string" ? l : l.lang || l.code)).filter(Boolean);
  if (!codes.length) return fallback || "en";
  const stored = localStorage.getItem(STORED);
  if (stored && codes.includes(stored)) return stored;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  const lower = codes.map((c) => c.toLowerCase());
  for (const tag of wanted.map((l) => String(l).toLowerCase())) {
    if (lower.includes(tag)) return codes[lower.indexOf(tag)];
    const primary = tag.split("-")[0];
    if (lower.includes(primary)) return codes[lower.indexOf(primary)];
  }
  return fallback && codes.includes(fallback) ? fallback : codes[0];
}
