// Reading the option schemas the server sends (OptionSchema.to_json), with
// some tolerance for the exact shape (descriptions per language or already
// rendered, presets as objects or names).

import { h } from "./dom.js";
import { lang, t, nameOf } from "./i18n.js";

/**
 * A description as a player reads it: without the research references the
 * server keeps in it ("(seeds 000/001)", "as in seed 004") nor internal
 * value names ("(last_turn)").
 */
export function cleanText(text) {
  return String(text || "")
    .replace(/\s*\([^()]*\b(?:seeds?|graines?)\b[^()]*\)/gi, "")
    .replace(/\s*\((?:[a-z0-9]+_[a-z0-9_]+)\)/g, "")
    .replace(/\s*\b(?:as in |comme (?:la |les )?)(?:seeds?|graines?) [0-9/]+/gi, "")
    .replace(/\s+([,.])/g, "$1")
    .trim();
}

/** An option's short name in words ("Target", "But"), else its description. */
export function optionLabel(spec) {
  return nameOf("option_names", spec.name) || cleanText(localized(spec.description)) || spec.name;
}

/** A rule set's name in words ("Bar rules"). */
export function presetLabel(preset) {
  return nameOf("preset_names", preset.name) || preset.name;
}

export function localized(value) {
  if (value && typeof value === "object") return value[lang()] ?? value.en ?? Object.values(value)[0] ?? "";
  return value ?? "";
}

export function gameTitle(info, fallback = "") {
  if (!info) return fallback;
  return localized(info.title) || info.name || fallback;
}

export function optionSpecs(info) {
  if (!info) return [];
  const schema = info.options;
  if (Array.isArray(schema)) return schema;
  return schema?.options || [];
}

export function presets(info) {
  if (!info) return [];
  const fromSchema = info.options && !Array.isArray(info.options) ? info.options.presets : null;
  const list = fromSchema ?? info.presets ?? [];
  return list.map((p) => (typeof p === "string" ? { name: p, description: "", values: {} } : p));
}

export function defaults(info) {
  const out = {};
  for (const spec of optionSpecs(info)) out[spec.name] = spec.default;
  return out;
}

/** Option values of a preset: the defaults, then the preset's own values. */
export function presetValues(info, presetName) {
  const values = defaults(info);
  const preset = presets(info).find((p) => p.name === presetName);
  if (preset) Object.assign(values, preset.values || {});
  return values;
}

export function choiceLabel(spec, choice) {
  const labels = spec.choice_labels;
  if (!labels) return choice;
  const entry = labels[choice];
  if (entry) return localized(entry) || choice;
  const byLang = labels[lang()] || labels.en;
  return (byLang && byLang[choice]) || choice;
}

export function formatValue(spec, value) {
  if (spec?.type === "bool") return value ? t("yes") : t("no");
  if (spec?.type === "choice") return choiceLabel(spec, value);
  return String(value);
}

/** A short text of a table's options, in words: its rule set and what differs from it. */
export function summarize(info, preset, options) {
  const parts = [];
  if (preset) {
    const p = presets(info).find((x) => x.name === preset);
    parts.push(p ? presetLabel(p) : preset);
  } else if (presets(info).length) {
    parts.push(t("custom_preset"));
  }
  const base = presetValues(info, preset);
  for (const spec of optionSpecs(info)) {
    if (options && spec.name in options && options[spec.name] !== base[spec.name]) {
      parts.push(`${optionLabel(spec)}: ${formatValue(spec, options[spec.name])}`);
    }
  }
  return parts.join(" · ");
}

/**
 * A control for one option, labelled by the option's description in the
 * user's language; its name, default and range are tied to it as a hint
 * (aria-describedby). `values` holds the form's values, updated in place.
 */
export function optionControl(values, spec, prefix) {
  const id = `${prefix}-${spec.name}`;
  const descId = `${id}-desc`;
  const value = values[spec.name];
  const label = optionLabel(spec);
  const set = (v) => {
    values[spec.name] = v;
  };
  const facts = [cleanText(localized(spec.description)), t("default_value", { value: formatValue(spec, spec.default) })];
  if (spec.type === "int" && spec.minimum != null && spec.maximum != null) {
    facts.push(t("range", { min: spec.minimum, max: spec.maximum }));
  }
  const hint = h("p", { class: "hint", id: descId }, facts.join(" · "));
  if (spec.type === "bool") {
    return h("div", { class: "field", "data-key": id },
      h("input", { type: "checkbox", id, checked: Boolean(value), "aria-describedby": descId,
        onchange: (e) => set(e.target.checked) }),
      " ", h("label", { for: id, style: "display:inline" }, label),
      hint);
  }
  if (spec.type === "choice") {
    return h("div", { class: "field", "data-key": id },
      h("label", { for: id }, label),
      h("select", { id, "aria-describedby": descId, value: String(value), onchange: (e) => set(e.target.value) },
        (spec.choices || []).map((choice) =>
          h("option", { value: choice, selected: choice === value }, choiceLabel(spec, choice)))),
      hint);
  }
  return h("div", { class: "field", "data-key": id },
    h("label", { for: id }, label),
    h("input", { type: "number", id, "aria-describedby": descId, value: String(value),
      min: spec.minimum ?? null, max: spec.maximum ?? null, step: 1,
      onchange: (e) => set(e.target.value === "" ? spec.default : Number(e.target.value)) }),
    hint);
}
