// Reading the option schemas the server sends (OptionSchema.to_json), with
// some tolerance for the exact shape (descriptions per language or already
// rendered, presets as objects or names).

import { lang, t } from "./i18n.js";

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

/** A short text of a table's options: its preset and what differs from it. */
export function summarize(info, preset, options) {
  const parts = [];
  if (preset) {
    const p = presets(info).find((x) => x.name === preset);
    parts.push(p ? p.name : preset);
  } else {
    parts.push(t("custom_preset"));
  }
  const base = presetValues(info, preset);
  for (const spec of optionSpecs(info)) {
    if (options && spec.name in options && options[spec.name] !== base[spec.name]) {
      parts.push(`${spec.name} = ${formatValue(spec, options[spec.name])}`);
    }
  }
  if (!info && options) {
    for (const [name, value] of Object.entries(options)) parts.push(`${name} = ${value}`);
  }
  return parts.join("; ");
}
