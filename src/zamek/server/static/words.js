// The catalogue's messages on the page: the same catalogue the server and the command line use (zamek.i18n),
// fetched once from /api/words?lang=..., in the same message syntax (zamek/i18n/messageformat.py: a subset of
// ICU MessageFormat, {n, plural, ...} by Intl.PluralRules and {x, select, ...}).
//
// A value put into a message is text or a number as it is; {term: key} is the catalogue's word for key; {key,
// params} is another message; a list is its items joined; {seat: n} is a player as the reader knows them
// (reader.name(n), else "You" or "Player N"), and a seat value `player` also gives `player_person`: "you" when
// the reader holds that seat (reader.you, a list of seats), else "other".

export const NOBODY = { you: [], name: null };
const CATEGORIES = new Set(["zero", "one", "two", "few", "many", "other"]);

export function parse(text) {
  const [parts, at] = parseFrom(text, 0, false, false);
  if (at !== text.length) throw new SyntaxError(`${text}: unmatched } at ${at}`);
  return parts;
}

function parseFrom(text, at, inPlural, nested) {
  const parts = [];
  let literal = "";
  const flush = () => { if (literal) { parts.push(literal); literal = ""; } };
  while (at < text.length) {
    const c = text[at];
    if (c === "'") {
      if (text.startsWith("''", at)) { literal += "'"; at += 2; }
      else if ("{}#".includes(text[at + 1] ?? "x")) {
        const end = text.indexOf("'", at + 1);
        if (end < 0) throw new SyntaxError(`${text}: a quote opened at ${at} is not closed`);
        literal += text.slice(at + 1, end);
        at = end + 1;
      } else { literal += "'"; at += 1; }
    } else if (c === "{") {
      flush();
      const [part, next] = parseArgument(text, at + 1, inPlural);
      parts.push(part);
      at = next;
    } else if (c === "}") {
      if (!nested) throw new SyntaxError(`${text}: unmatched } at ${at}`);
      break;
    } else if (c === "#" && inPlural) {
      flush();
      parts.push({ number: true });
      at += 1;
    } else { literal += c; at += 1; }
  }
  flush();
  return [parts, at];
}

function parseArgument(text, at, inPlural) {
  const name = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*/y;
  name.lastIndex = at;
  const m = name.exec(text);
  if (!m) throw new SyntaxError(`${text}: an argument at ${at} has no name`);
  at = name.lastIndex;
  if (text[at] === "}") return [{ arg: m[1] }, at + 1];
  const kindRe = /,\s*(plural|select)\s*,/y;
  kindRe.lastIndex = at;
  const k = kindRe.exec(text);
  if (!k) throw new SyntaxError(`${text}: argument ${m[1]} must be {name}, plural or select`);
  at = kindRe.lastIndex;
  const forms = {};
  const selector = /\s*(=\d+|[A-Za-z_][A-Za-z0-9_-]*)\s*/y;
  for (;;) {
    selector.lastIndex = at;
    const s = selector.exec(text);
    if (!s || text[selector.lastIndex] !== "{") break;
    if (k[1] === "plural" && !s[1].startsWith("=") && !CATEGORIES.has(s[1])) {
      throw new SyntaxError(`${text}: ${s[1]} is not a plural category`);
    }
    const [form, next] = parseFrom(text, selector.lastIndex + 1, k[1] === "plural" || inPlural, true);
    if (text[next] !== "}") throw new SyntaxError(`${text}: the form ${s[1]} is not closed`);
    forms[s[1]] = form;
    at = next + 1;
  }
  while (/\s/.test(text[at] ?? "")) at += 1;
  if (text[at] !== "}" || !("other" in forms)) throw new SyntaxError(`${text}: argument ${m[1]} is not closed or has no other`);
  return [{ arg: m[1], kind: k[1], forms }, at + 1];
}

export class Words {
  constructor(catalogue) {
    this.lang = catalogue.lang;
    this.name = catalogue.name;
    this.messages = catalogue.messages;
    this.locale = catalogue.plural_rules; // a CLDR locale: the plural rules, and the numbers' and dates' format
    this.plurals = new Intl.PluralRules(catalogue.plural_rules);
    this.numbers = new Intl.NumberFormat(catalogue.plural_rules, { useGrouping: false, maximumFractionDigits: 3 });
    this.parsed = new Map();
  }

  has(key) { return key in this.messages; }

  pattern(key, edition) {
    const found = edition && `${key}@${edition}` in this.messages ? `${key}@${edition}` : key;
    if (!(found in this.messages)) throw new Error(`no message ${key} in the catalogue`);
    if (!this.parsed.has(found)) this.parsed.set(found, parse(this.messages[found]));
    return this.parsed.get(found);
  }

  // The message `key` with `params` filled in, in the words of `edition`, as `reader` reads it.
  say(key, params = {}, edition = null, reader = NOBODY) {
    const values = { ...params };
    for (const [name, v] of Object.entries(params)) {
      if (v && typeof v === "object" && "seat" in v) values[`${name}_person`] = (reader.you || []).includes(v.seat) ? "you" : "other";
    }
    return this.fill(this.pattern(key, edition), values, edition, null, reader);
  }

  // A message sent by the server as {key, params}.
  render(message, edition = null, reader = NOBODY) {
    return this.say(message.key, message.params || {}, edition, reader);
  }

  // A message's value in words; `inline`: inside a list, where the reader is "you" in the middle of a sentence.
  value(v, edition, reader = NOBODY, inline = false) {
    if (v === null || v === undefined) return "";
    if (Array.isArray(v)) return v.map((x) => this.value(x, edition, reader, true)).join(this.say("list.separator"));
    if (typeof v === "number" && !Number.isInteger(v)) return this.numbers.format(v);
    if (typeof v === "object" && "term" in v) return this.say(v.term, {}, edition);
    if (typeof v === "object" && "seat" in v) {
      const name = reader.name ? reader.name(v.seat) : null;
      if (name) return name;
      const you = inline ? "player.you-inline" : "player.you";
      return this.say((reader.you || []).includes(v.seat) ? you : "player.name", { n: v.seat + 1 });
    }
    if (typeof v === "object" && "key" in v) return this.render(v, edition, reader);
    return String(v);
  }

  fill(parts, params, edition, number, reader = NOBODY) {
    let out = "";
    for (const part of parts) {
      if (typeof part === "string") out += part;
      else if (part.number) out += this.value(number, edition, reader);
      else if (!part.kind) out += this.value(params[part.arg], edition, reader);
      else {
        const v = params[part.arg];
        let form;
        if (part.kind === "plural") {
          const n = Number(v);
          const own = (key) => (Object.hasOwn(part.forms, key) ? part.forms[key] : undefined);
          form = own(`=${n}`) ?? own(this.plurals.select(n)) ?? part.forms.other;
          out += this.fill(form, params, edition, n, reader);
        } else {
          form = Object.hasOwn(part.forms, String(v)) ? part.forms[String(v)] : part.forms.other;
          out += this.fill(form, params, edition, number, reader);
        }
      }
    }
    return out;
  }
}

const loaded = new Map();

// The catalogue of `lang` (the server answers with the base language's for a language it has none for). A failed
// load is forgotten: the next call asks again.
export async function loadWords(lang) {
  if (!loaded.has(lang)) {
    const words = fetch(`/api/words?lang=${encodeURIComponent(lang)}`).then((r) => {
      if (!r.ok) throw new Error(`the words of ${lang} could not be loaded (${r.status})`);
      return r.json();
    }).then((catalogue) => new Words(catalogue));
    words.catch(() => loaded.delete(lang));
    loaded.set(lang, words);
  }
  return loaded.get(lang);
}
