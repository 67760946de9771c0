// The sign-in screen: play as a guest (a name) or with an account (log in or
// register). HTTP /api/guest, /api/login, /api/register give a session token.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";
import { api } from "./protocol.js";
import { dieSvg } from "./dice.js";
import { pieceSvg } from "./pieces.js";

/** A decorative row: 4-2-1 on three dice and a few figurines (hidden from screen readers). */
function welcomeArt() {
  return h("div", { class: "welcome-art", "aria-hidden": "true" },
    dieSvg(4), dieSvg(2), dieSvg(1),
    h("span", { class: "welcome-pieces" }, pieceSvg("l", "w"), pieceSvg("g", "b"), pieceSvg("f", "w"), pieceSvg("u", "b")));
}

export function title() {
  return t("signin_title");
}

export function helpLines() {
  return t("help_signin");
}

async function submit(app, path, body) {
  const ui = app.ui.signin;
  ui.error = null;
  ui.busy = true;
  app.rerender();
  try {
    const session = await api(path, body);
    ui.busy = false;
    app.signedIn(session);
  } catch (error) {
    ui.busy = false;
    ui.error = error.message || String(error);
    app.rerender();
    document.getElementById(ui.errorFor)?.focus();
  }
}

export function render(app) {
  const ui = (app.ui.signin = app.ui.signin || { error: null, busy: false });
  const guest = (event) => {
    event.preventDefault();
    const name = document.getElementById("guest-name").value.trim();
    ui.errorFor = "guest-name";
    submit(app, "/api/guest", { name, lang: lang() });
  };
  const account = (path) => (event) => {
    event.preventDefault();
    const name = document.getElementById("account-name").value.trim();
    const password = document.getElementById("account-password").value;
    ui.errorFor = "account-name";
    const body = path === "/api/login" ? { name, password } : { name, password, lang: lang() };
    submit(app, path, body);
  };
  return [
    welcomeArt(),
    h("p", {}, t("signin_intro")),
    ui.error ? h("p", { class: "error", role: "alert", id: "signin-error" }, ui.error) : null,
    h("div", { class: "grid-2" },
      h("section", { class: "panel", "aria-labelledby": "guest-heading" },
        h("h2", { id: "guest-heading" }, t("guest_heading")),
        h("form", { onsubmit: guest, "aria-labelledby": "guest-heading" },
          h("div", { class: "field" },
            h("label", { for: "guest-name" }, t("name")),
            h("input", { type: "text", id: "guest-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname",
              "aria-describedby": ui.error && ui.errorFor === "guest-name" ? "signin-error" : null })),
          h("button", { type: "submit", class: "primary", id: "guest-submit", "aria-disabled": ui.busy ? "true" : null },
            ui.busy ? t("signing_in") : t("play_as_guest")))),
      h("section", { class: "panel", "aria-labelledby": "account-heading" },
        h("h2", { id: "account-heading" }, t("account_heading")),
        h("form", { onsubmit: account("/api/login"), "aria-labelledby": "account-heading" },
          h("div", { class: "field" },
            h("label", { for: "account-name" }, t("name")),
            h("input", { type: "text", id: "account-name", name: "username", required: true, maxlength: 32, autocomplete: "username" })),
          h("div", { class: "field" },
            h("label", { for: "account-password" }, t("password")),
            h("input", { type: "password", id: "account-password", name: "password", required: true, autocomplete: "current-password" })),
          h("div", { class: "row" },
            h("button", { type: "submit", id: "login-submit" }, t("log_in")),
            h("button", { type: "button", id: "register-submit", onclick: account("/api/register") }, t("register")))))),
  ];
}
