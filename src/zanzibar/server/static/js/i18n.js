// The web client's words. They are not written here: the server sends the
// "web-*" messages of the product's one catalogue (src/zanzibar/l10n/<lang>/web.ftl)
// as JSON from /api/l10n/<lang>.json, and this module formats them. Game
// sentences (events, answers to "scores", "turn"...) come from the server
// already in the user's language. See docs/l10n.md.

export const LANGUAGES = ["en", "fr"];

const loaded = {}; // lang -> {messages, lines}
const pending = {}; // lang -> Promise
let current = "en";

/** Fetch (once) the messages of a language; resolves when they can be used. */
export function loadLang(code) {
  if (loaded[code]) return Promise.resolve(loaded[code]);
  if (!pending[code]) {
    pending[code] = fetch(`/api/l10n/${encodeURIComponent(code)}.json`, { cache: "no-cache" })
      .then((response) => {
        if (!response.ok) throw new Error(`no messages for ${code} (HTTP ${response.status})`);
        return response.json();
      })
      .then((body) => {
        loaded[code] = { messages: body.messages, lines: new Set(body.lines) };
        return loaded[code];
      })
      .finally(() => {
        delete pending[code];
      });
  }
  return pending[code];
}

/** The language in use ("en" or "fr"). */
export function lang() {
  return current;
}

/**
 * Switch the interface language (the page's lang attribute follows). Returns a
 * promise resolved once its messages are loaded: render after it.
 */
export function setLang(code) {
  current = LANGUAGES.includes(code) ? code : "en";
  document.documentElement.lang = current;
  return loadLang(current).catch(() => (current === "en" ? null : loadLang("en")));
}

function vowel(value) {
  const first = String(value ?? "").trim().normalize("NFD").charAt(0).toLowerCase();
  return first && "aeiouyh".includes(first) ? "yes" : "no";
}

function show(value) {
  if (typeof value === "number") return new Intl.NumberFormat(current).format(value);
  return String(value);
}

function variant(node, vars) {
  const value = node.s.f === "VOWEL" ? vowel(vars[node.s.v]) : vars[node.s.v];
  for (const [key, pattern] of node.k) {
    if (String(key) === String(value)) return pattern;
  }
  if (typeof value === "number") {
    const category = new Intl.PluralRules(current).select(value);
    for (const [key, pattern] of node.k) {
      if (key === category) return pattern;
    }
  }
  return node.k[node.d][1];
}

/** Format one exported pattern with its variables (see l10n/webexport.py for the form). */
export function formatPattern(pattern, vars = {}, table = null, depth = 0) {
  let text = "";
  for (const item of pattern) {
    if (typeof item === "string") text += item;
    else if (typeof item === "number") text += show(item);
    else if ("s" in item) text += formatPattern(variant(item, vars), vars, table, depth + 1);
    else if ("m" in item) {
      const ref = table?.messages[item.m.replace(/^web-/, "")];
      text += ref && depth < 8 ? formatPattern(ref, vars, table, depth + 1) : `{${item.m}}`;
    } else if ("f" in item) text += vowel(vars[item.v]);
    else text += item.v in vars ? show(vars[item.v]) : `{$${item.v}}`;
  }
  return text;
}

/**
 * A message by key ("join_table" reads web-join_table) with its variables;
 * help texts ("help_*") are lists of lines. Until the language is loaded, the key.
 */
export function t(key, vars = {}) {
  const table = loaded[current] || loaded.en;
  const pattern = table?.messages[key];
  if (pattern === undefined) return key;
  const text = formatPattern(pattern, vars, table);
  if (table.lines.has(key) || key.startsWith("help_")) return text.split("\n");
  return text;
}

/** Pick the language a visitor probably wants: saved choice, then the browser's. */
export function guessLang() {
  const saved = localStorage.getItem("zanzibar.lang");
  if (saved && LANGUAGES.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(nav) ? nav : "en";
}

/** Join words as a sentence does: "a, b and c" / "a, b et c" (the catalogue's list-and). */
export function joinWords(items) {
  if (items.length === 0) return t("nothing");
  if (items.length === 1) return String(items[0]);
  const head = items.slice(0, -1).map(String).join(t("list_separator"));
  return t("list_and", { head, last: String(items[items.length - 1]) });
}
