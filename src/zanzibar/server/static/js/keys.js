// Keyboard shortcuts. Keys are matched by KeyboardEvent.code (the physical
// key), so Digit1..Digit6 select dice on AZERTY keyboards too, where the
// digits themselves need Shift. Single-key shortcuts only act when the focus
// is not in a text field; F1 (help) and Ctrl+F1 (rules) act everywhere. Every
// shortcut has a button too; the help dialog lists them.

import { isTextField } from "./dom.js";

/** Digit keys: "Digit3" or "Numpad3" -> 3, otherwise null. */
export function digitOf(code) {
  const match = /^(?:Digit|Numpad)([1-9])$/.exec(code);
  return match ? Number(match[1]) : null;
}

/** Is this target a control that Space and Enter already activate? */
export function activatesItself(el) {
  if (!el) return false;
  if (el.closest?.("[data-keys='own']")) return true;
  return ["BUTTON", "A", "SUMMARY"].includes(el.nodeName) ||
    (el.nodeName === "INPUT" && /^(button|submit|reset|checkbox|radio)$/.test(el.type)) ||
    el.getAttribute?.("role") === "button";
}

export function installKeys(app, screens) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented) return;
    if (event.code === "F1" || event.key === "F1") {
      event.preventDefault();
      if (event.ctrlKey || event.metaKey) app.showRules();
      else app.showHelp();
      return;
    }
    if (document.getElementById("dialog").open) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTextField(event.target)) return;
    const module = screens[app.screen];
    if (module.handleKey && module.handleKey(app, event)) event.preventDefault();
  });
}
