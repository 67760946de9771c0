// The lobby: the list of tables (game, options, seats, state, spectators)
// with Join and Watch, the form that creates a table (every option of the
// chosen game with its description), and joining by invitation link.

import { h } from "./dom.js";
import { t, botLevel } from "./i18n.js";
import { announce } from "./announce.js";
import { betweenGames, isFreeSeat } from "./seats.js";
import { friendsSection } from "./friends.js";
import * as tournaments from "./tournaments.js";
import { localized, gameTitle, optionSpecs, presets, presetValues, summarize, optionControl, presetLabel, cleanText } from "./options.js";

export function title() {
  return t("lobby_title");
}

export { handleKey } from "./friends.js";

export function helpLines() {
  return t("help_lobby");
}

function seatText(seat) {
  if (seat.away) return `${seat.name} (${t("away_bot", { level: botLevel(seat.bot || "") })})`;
  if (seat.bot && seat.user == null) return t("bot_seat_name", { n: seat.seat + 1, level: botLevel(seat.bot) });
  if (seat.name) return seat.connected === false ? `${seat.name} (${t("offline")})` : seat.name;
  return t("free_seat");
}

const STATE_ORDER = { playing: 0, paused: 0, waiting: 1, finished: 2 };

/**
 * The tables worth showing: running and waiting ones first (newest first);
 * finished or deserted ones (every person seated offline) only where this user sits.
 */
export function visibleTables(app) {
  const mine = (table) => (table.seats || []).some((s) => s.user != null && s.user === app.user?.id);
  // Nobody there any more: every person seated has gone offline.
  const deserted = (table) => {
    const people = (table.seats || []).filter((s) => s.user != null);
    return people.length > 0 && people.every((s) => s.connected === false);
  };
  const first = new Set((app.tables || []).map((table) => table.id));
  return [...(app.tables || []), ...(app.moreTables || []).filter((table) => !first.has(table.id))]
    .filter((table) => mine(table) || (table.state !== "finished" && !deserted(table)))
    .sort((a, b) => (STATE_ORDER[a.state] ?? 3) - (STATE_ORDER[b.state] ?? 3) || b.id - a.id);
}

function tableCard(app, table) {
  const info = app.gameInfo(table.game);
  const seats = table.seats || [];
  const mine = seats.some((s) => s.user === app.user?.id);
  const free = seats.filter(isFreeSeat).length;
  const canJoin = mine || (betweenGames(table) && free > 0);
  const title = table.title || gameTitle(info, table.game);
  const options = summarize(info, table.preset, table.options);
  return h("li", { class: "table-card", "data-key": `t${table.id}`, "data-state": table.state, "aria-labelledby": `card-${table.id}` },
    h("h3", { id: `card-${table.id}` }, t("table_title", { id: table.id, game: title }),
      h("span", { class: "state-tag" }, t(`state_${table.state}`))),
    options ? h("p", { class: "facts" }, options) : null,
    table.rated !== undefined ? h("p", { class: "facts" }, t(table.rated === true ? "table_rated" : table.rated === false ? "table_unrated" : "table_rated_accounts")) : null,
    h("p", { class: "facts" }, t("players_seated", { n: seats.length - free, max: seats.length }),
      free ? ` · ${t("seats_free", { n: free })}` : "",
      table.spectators ? ` · ${t("col_spectators")}: ${table.spectators}` : ""),
    h("ul", { class: "seat-list" }, seats.map((seat) => h("li", { "data-key": `s${seat.seat}` }, seatText(seat)))),
    h("div", { class: "row actions" },
      canJoin
        ? h("button", {
            type: "button", class: "primary", "data-key": "join", "aria-label": t("join_table", { id: table.id }),
            onclick: () => app.enterTable(table.id, { mode: "play" }),
          }, t("join"))
        : null,
      h("button", {
        type: "button", "data-key": "watch", "aria-label": t("watch_table", { id: table.id }),
        onclick: () => app.enterTable(table.id, { mode: "watch" }),
      }, t("watch"))));
}

function tablesSection(app) {
  const tables = visibleTables(app);
  return h("section", { class: "panel", "aria-labelledby": "tables-heading", id: "tables-section" },
    h("h2", { id: "tables-heading", tabindex: "-1" }, t("tables_heading")),
    tables.length === 0
      ? h("p", { id: "no-tables" }, t("no_tables"))
      : h("ul", { class: "table-cards", id: "tables-list", "aria-labelledby": "tables-heading" },
          tables.map((table) => tableCard(app, table))),
    app.lobbyCursor() != null
      ? h("div", { class: "row actions" },
          h("button", { type: "button", id: "more-tables", onclick: () => app.loadMoreTables() }, t("more_tables")))
      : null);
}

function formState(app) {
  const ui = (app.ui.lobby = app.ui.lobby || {});
  if (!ui.game || !app.gameInfo(ui.game)) {
    ui.game = app.games[0]?.name || null;
    ui.preset = null;
  }
  const info = app.gameInfo(ui.game);
  if (info && ui.preset === null) {
    ui.preset = presets(info)[0]?.name || "";
    ui.values = presetValues(info, ui.preset);
    ui.seats = info.seats?.[0] ?? 2;
  }
  return ui;
}

async function createTable(app, event) {
  event.preventDefault();
  const ui = formState(app);
  const info = app.gameInfo(ui.game);
  const base = presetValues(info, ui.preset);
  const changed = {};
  for (const [name, value] of Object.entries(ui.values)) if (value !== base[name]) changed[name] = value;
  const fields = { game: ui.game, seats: Number(ui.seats), private: Boolean(ui.private) };
  if (ui.preset) fields.preset = ui.preset;
  if (ui.rated === false) fields.rated = false; // checked: rated when every player has an account
  if (Object.keys(changed).length) fields.options = changed;
  ui.error = null;
  try {
    const reply = await app.request("table.create", fields);
    const table = reply.table;
    const bots = Math.max(0, Math.min(Number(ui.bots) || 0, Number(ui.seats) - 1));
    for (let i = 0; i < bots; i++) {
      await app.request("table.add_bot", { table: table.id, level: ui.botLevel || info.bot_levels?.[0] });
    }
    app.tableMemory(table.id).save({ mode: "play", invite: table.invite || null });
    app.table = table;
    await app.enterTable(table.id, { mode: "play", invite: table.invite || null });
  } catch (error) {
    ui.error = error.option ? `${error.message}` : error.message;
    app.rerender();
    announce(t("error_prefix", { message: ui.error }), { politeness: "assertive" });
    const field = error.reply?.option ? document.getElementById(`opt-${error.reply.option}`) : null;
    (field || document.getElementById("create-submit"))?.focus();
  }
}

/** How many bots to seat at once, and their level. */
function botFields(info, ui, seatRange) {
  const levels = info?.bot_levels || [];
  if (!levels.length) return null;
  if (!levels.includes(ui.botLevel)) ui.botLevel = levels[0];
  return h("div", { class: "row", "data-key": `bots-${info.name}` },
    h("div", { class: "field" },
      h("label", { for: "create-bots" }, t("bots_field")),
      h("input", {
        type: "number", id: "create-bots", min: 0, max: seatRange[1] - 1, value: String(ui.bots ?? 0),
        "aria-describedby": "create-bots-hint", onchange: (e) => { ui.bots = Number(e.target.value); },
      })),
    h("div", { class: "field" },
      h("label", { for: "create-bot-level" }, t("bots_level_field")),
      h("select", { id: "create-bot-level", value: ui.botLevel, onchange: (e) => { ui.botLevel = e.target.value; } },
        levels.map((level) => h("option", { value: level, selected: level === ui.botLevel }, botLevel(level))))),
    h("p", { class: "hint", id: "create-bots-hint" }, t("bots_hint")));
}

function createSection(app) {
  const ui = formState(app);
  const info = app.gameInfo(ui.game);
  const seatRange = info?.seats || [2, 2];
  const presetList = presets(info);
  const preset = presetList.find((p) => p.name === ui.preset);
  return h("section", { class: "panel", "aria-labelledby": "create-heading", id: "create-section" },
    h("h2", { id: "create-heading", tabindex: "-1" }, t("create_heading")),
    h("form", { id: "create-form", "aria-labelledby": "create-heading", onsubmit: (e) => createTable(app, e) },
      ui.error ? h("p", { class: "error", role: "alert", id: "create-error" }, ui.error) : null,
      h("div", { class: "field" },
        h("label", { for: "create-game" }, t("game")),
        h("select", {
          id: "create-game", value: ui.game || "",
          onchange: (e) => { ui.game = e.target.value; ui.preset = null; app.rerender(); },
        }, app.games.map((g) => h("option", { value: g.name, selected: g.name === ui.game }, gameTitle(g, g.name))))),
      presetList.length
        ? h("div", { class: "field" },
            h("label", { for: "create-preset" }, t("preset")),
            h("select", {
              id: "create-preset", value: ui.preset, "aria-describedby": "create-preset-desc",
              onchange: (e) => { ui.preset = e.target.value; ui.values = presetValues(info, ui.preset); app.rerender(); },
            }, presetList.map((p) => h("option", { value: p.name, selected: p.name === ui.preset }, presetLabel(p)))),
            h("p", { class: "hint", id: "create-preset-desc" }, cleanText(localized(preset?.description))))
        : null,
      h("div", { class: "field" },
        h("label", { for: "create-seats" }, t("seats")),
        h("input", {
          type: "number", id: "create-seats", min: seatRange[0], max: seatRange[1], value: String(ui.seats),
          "aria-describedby": "create-seats-hint", onchange: (e) => { ui.seats = Number(e.target.value); },
        }),
        h("p", { class: "hint", id: "create-seats-hint" }, t("seats_hint", { min: seatRange[0], max: seatRange[1] }))),
      botFields(info, ui, seatRange),
      h("div", { class: "field" },
        h("input", { type: "checkbox", id: "create-private", checked: Boolean(ui.private), onchange: (e) => { ui.private = e.target.checked; } }),
        " ", h("label", { for: "create-private", style: "display:inline" }, t("private_table"))),
      app.user && !app.user.guest
        ? h("div", { class: "field" },
            h("input", { type: "checkbox", id: "create-rated", checked: ui.rated !== false, onchange: (e) => { ui.rated = e.target.checked; } }),
            " ", h("label", { for: "create-rated", style: "display:inline" }, t("rated_table")))
        : null,
      optionSpecs(info).length
        ? h("fieldset", { "data-key": `opts-${ui.game}-${ui.preset}` },
            h("legend", {}, t("options_heading")),
            optionSpecs(info).map((spec) => optionControl(ui.values, spec, "opt")))
        : null,
      h("button", { type: "submit", class: "primary", id: "create-submit" }, t("create"))));
}

function inviteSection(app) {
  const go = (event) => {
    event.preventDefault();
    const input = document.getElementById("invite-input");
    const text = input.value.trim();
    const hashPart = text.includes("#") ? text.slice(text.indexOf("#") + 1) : text.includes("?") ? text.slice(text.indexOf("?") + 1) : text;
    const params = new URLSearchParams(hashPart);
    const id = params.get("table");
    if (!id || !/^\d+$/.test(id)) {
      announce(t("invite_bad"), { politeness: "assertive" });
      input.focus();
      return;
    }
    app.enterTable(Number(id), { mode: "play", invite: params.get("invite") });
  };
  return h("section", { class: "panel", "aria-labelledby": "invite-heading" },
    h("h2", { id: "invite-heading" }, t("invite_heading")),
    h("form", { onsubmit: go, class: "row", "aria-labelledby": "invite-heading" },
      h("label", { for: "invite-input" }, t("invite_link")),
      h("input", { type: "text", id: "invite-input", size: 40, "aria-describedby": "invite-hint" }),
      h("button", { type: "submit" }, t("go"))),
    h("p", { class: "hint", id: "invite-hint" }, t("invite_hint")));
}

function myTablesSection(app) {
  const mine = app.myTables || [];
  if (!mine.length) return null;
  return h("section", { class: "panel", "aria-labelledby": "mine-heading", id: "mine-section" },
    h("h2", { id: "mine-heading", tabindex: "-1" }, t("my_tables")),
    h("ul", { class: "row", style: "list-style:none;padding:0" },
      mine.map((entry) =>
        h("li", { "data-key": `m${entry.table}` },
          h("button", {
            type: "button",
            onclick: () => app.enterTable(entry.table, { mode: entry.seat == null ? "watch" : "play" }),
          }, t("back_to_table", { id: entry.table }))))));
}

export function render(app) {
  return [
    app.error ? h("p", { class: "error", role: "alert" }, app.error) : null,
    myTablesSection(app),
    tablesSection(app),
    friendsSection(app),
    tournaments.section(app),
    createSection(app),
    inviteSection(app),
  ];
}
