// The light and the dark theme: the system's choice by default, or the one
// the player picked with the header's toggle (remembered in this browser).

const KEY = "zanzibar.theme";
const query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

function saved() {
  const value = localStorage.getItem(KEY);
  return value === "dark" || value === "light" ? value : null;
}

/** The theme in use: "light" or "dark". */
export function theme() {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

function apply(name) {
  document.documentElement.dataset.theme = name;
}

/** Apply the saved theme or the system's, and follow the system while nothing is saved. */
export function initTheme(onChange) {
  apply(saved() || (query?.matches ? "dark" : "light"));
  query?.addEventListener?.("change", (event) => {
    if (saved()) return;
    apply(event.matches ? "dark" : "light");
    onChange?.();
  });
}

/** Switch theme and remember the choice. */
export function toggleTheme() {
  const next = theme() === "dark" ? "light" : "dark";
  localStorage.setItem(KEY, next);
  apply(next);
}
