// The table screen: the game (drawn by the game's own module), the seats with
// the host's controls, the chat and the history. Game modules export
// render(ctx), handleKey(ctx, event) and helpLines(ctx).

import { h } from "./dom.js";
import { t, botLevel } from "./i18n.js";
import { announce } from "./announce.js";
import { betweenGames, isFreeSeat } from "./seats.js";
import { renderHistory, scrollHistory } from "./history.js";
import { gameTitle, optionSpecs, presets, presetValues, summarize, localized, optionControl, presetLabel, cleanText } from "./options.js";
import * as dice from "./dice.js";
import * as chess from "./chess.js";

const GAME_MODULES = { "421": dice, zilch: dice };

function gameModule(name) {
  return GAME_MODULES[name] || chess;
}

export function title(app) {
  const table = app.table;
  if (!table) return t("loading");
  return t("table_title", { id: table.id, game: table.title || gameTitle(app.gameInfo(table.game), table.game) });
}

/** What a game module needs to draw and to act. */
export function context(app) {
  const table = app.table;
  const view = app.view;
  const seats = table?.seats || [];
  const names = seats.map((s) =>
    s.bot && s.user == null ? t("bot_seat_name", { n: s.seat + 1, level: botLevel(s.bot) }) : s.name || `#${s.seat + 1}`);
  const mySeat = table?.you?.seat ?? null;
  app.ui.game = app.ui.game && app.ui.game.table === table?.id ? app.ui.game : { table: table?.id };
  return {
    app,
    table,
    view,
    game: table?.game,
    names,
    mySeat,
    ui: app.ui.game,
    myTurn: Boolean(view && !view.over && mySeat !== null && view.to_act === mySeat),
    act: (action) => app.act(action),
    ask: (topic) => app.ask(topic),
    rerender: () => app.rerender(),
    announce,
  };
}

export function helpLines(app) {
  const lines = [...t("help_table")];
  if (app.table) lines.push(...gameModule(app.table.game).helpLines(context(app)));
  return lines;
}

export function handleKey(app, event) {
  if (!app.table) return false;
  if (event.code === "KeyC" && !event.shiftKey) {
    document.getElementById("chat-input")?.focus();
    return true;
  }
  if (event.code === "KeyH" && !event.shiftKey) {
    document.getElementById("history-list")?.focus();
    return true;
  }
  return gameModule(app.table.game).handleKey(context(app), event);
}

// -- seats and host controls -----------------------------------------------------------

function seatLine(app, seat, ctx) {
  const table = app.table;
  const you = table.you || {};
  const isMe = seat.user != null && seat.user === app.user?.id;
  const isHost = seat.user != null && seat.user === table.host;
  const parts = [t("seat_n", { n: seat.seat + 1 }), ": "];
  const badges = [];
  if (seat.bot && seat.user == null) parts.push(t("bot_seat_name", { n: seat.seat + 1, level: botLevel(seat.bot) }));
  else if (seat.name) parts.push(seat.name);
  else parts.push(t("empty_seat"));
  if (seat.away) badges.push(h("span", { class: "badge" }, t("away_bot", { level: botLevel(seat.bot || "") })));
  else if (seat.bot && seat.user == null) badges.push(h("span", { class: "badge" }, t("bot_badge")));
  if (isMe) badges.push(h("span", { class: "badge" }, t("you_mark")));
  if (isHost) badges.push(h("span", { class: "badge" }, t("host_mark")));
  if (seat.name && !seat.bot && seat.connected === false) badges.push(h("span", { class: "badge" }, t("offline")));
  const turn = ctx.view && !ctx.view.over && ctx.view.to_act === seat.seat;
  if (turn) badges.push(h("span", { class: "visually-hidden" }, `, ${t("turn_of", { name: ctx.names[seat.seat] })}`));
  const controls = [];
  const waiting = betweenGames(table);
  if (you.host) {
    if (seat.bot && seat.user == null && waiting) {
      controls.push(h("button", { type: "button", "data-key": "rmbot", "aria-label": t("remove_bot_seat", { n: seat.seat + 1 }),
        onclick: () => hostAction(app, "table.remove_bot", { seat: seat.seat }) }, t("remove_bot")));
    } else if (seat.user != null && !isMe) {
      controls.push(h("button", { type: "button", "data-key": "kick", "aria-label": t("kick_user", { name: seat.name }),
        onclick: () => hostAction(app, "table.kick", { user: seat.user }) }, t("kick")));
      controls.push(h("button", { type: "button", "data-key": "host", "aria-label": t("make_host_user", { name: seat.name }),
        onclick: () => hostAction(app, "table.hand_host", { user: seat.user }) }, t("make_host")));
    }
  }
  if (isFreeSeat(seat) && waiting && (you.spectator || you.seat == null)) {
    controls.push(h("button", { type: "button", "data-key": "sit", "aria-label": t("sit_in_seat", { n: seat.seat + 1 }),
      onclick: () => app.enterTable(table.id, { mode: "play", seat: seat.seat, fresh: false }) }, t("sit_here")));
  }
  return h("li", { "data-key": `seat${seat.seat}`, "data-turn": String(Boolean(turn)) },
    parts.join(""), ...badges, controls.length ? h("span", { class: "row", style: "display:inline-flex;margin-left:.5rem" }, controls) : null);
}

async function hostAction(app, type, fields) {
  try {
    await app.request(type, { table: app.tableId, ...fields });
    return true;
  } catch (error) {
    announce(t("error_prefix", { message: error.message }), { politeness: "assertive" });
    return false;
  }
}

function hostControls(app) {
  const table = app.table;
  if (!table.you?.host) return null;
  const info = app.gameInfo(table.game);
  const ui = (app.ui.host = app.ui.host && app.ui.host.table === table.id ? app.ui.host : { table: table.id, level: null });
  const levels = info?.bot_levels || [];
  // Between games the host sets the table up.
  const waiting = betweenGames(table);
  const freeSeat = waiting && (table.seats || []).some(isFreeSeat);
  return h("div", { id: "host-controls" },
    h("h3", { id: "host-heading" }, t("host_heading")),
    h("div", { class: "row" },
      waiting ? h("button", { type: "button", class: "primary", id: "start-button", onclick: async () => {
        if (await hostAction(app, "table.start", {})) document.getElementById("game-heading")?.focus();
      } }, t("start")) : null,
      waiting && levels.length
        ? [h("label", { for: "bot-level" }, t("bot_level")),
            h("select", { id: "bot-level", value: ui.level || levels[0], onchange: (e) => { ui.level = e.target.value; } },
              levels.map((level) => h("option", { value: level, selected: level === (ui.level || levels[0]) }, botLevel(level))))]
        : null,
      waiting ? h("button", {
        type: "button", id: "add-bot-button", "aria-disabled": freeSeat ? null : "true",
        onclick: () => freeSeat && hostAction(app, "table.add_bot", { level: ui.level || levels[0] }),
      }, t("add_bot")) : null),
    table.state === "playing" || table.state === "paused"
      ? h("div", { class: "field" },
          h("input", { type: "checkbox", id: "hold-pause", checked: Boolean(table.hold),
            onchange: (e) => hostAction(app, "table.hold", { hold: e.target.checked }) }),
          " ", h("label", { for: "hold-pause", style: "display:inline" }, t("hold")))
      : null,
    clockForm(app, table),
    waiting && info ? optionsEditor(app, info, ui) : null);
}

function clockForm(app, table) {
  const submit = (event) => {
    event.preventDefault();
    const raw = document.getElementById("clock-input").value.trim();
    hostAction(app, "table.clock", { seconds: raw === "" ? null : Number(raw) });
  };
  return h("form", { class: "row", id: "clock-form", onsubmit: submit, "aria-label": t("set_clock") },
    h("label", { for: "clock-input" }, t("clock")),
    h("input", { type: "number", id: "clock-input", min: 5, max: 3600, step: 1, value: table.clock == null ? "" : String(table.clock) }),
    h("button", { type: "submit", id: "clock-submit" }, t("set_clock")));
}

function optionsEditor(app, info, ui) {
  const table = app.table;
  if (!ui.values || ui.forOptions !== JSON.stringify(table.options)) {
    ui.values = { ...presetValues(info, table.preset), ...(table.options || {}) };
    ui.preset = table.preset || "";
    ui.forOptions = JSON.stringify(table.options);
    ui.seats = (table.seats || []).length;
  }
  const save = (event) => {
    event.preventDefault();
    // Every value is sent, so one set back to its default is changed too.
    const fields = { options: { ...ui.values }, seats: Number(ui.seats) };
    if (ui.preset) fields.preset = ui.preset;
    hostAction(app, "table.options", fields);
  };
  const range = info.seats || [1, 10];
  // Open or closed as the host left it (a re-render must not fold it away).
  return h("details", { id: "options-editor", open: Boolean(ui.editorOpen), ontoggle: (e) => { ui.editorOpen = e.target.open; } },
    h("summary", {}, t("save_options")),
    h("form", { onsubmit: save, "aria-label": t("save_options") },
      presets(info).length
        ? h("div", { class: "field" },
            h("label", { for: "table-preset" }, t("preset")),
            h("select", { id: "table-preset", value: ui.preset, onchange: (e) => { ui.preset = e.target.value; ui.values = presetValues(info, ui.preset); app.rerender(); } },
              presets(info).map((p) => h("option", { value: p.name, selected: p.name === ui.preset }, `${presetLabel(p)}: ${cleanText(localized(p.description))}`))))
        : null,
      h("div", { class: "field" },
        h("label", { for: "table-seats" }, t("seats")),
        h("input", { type: "number", id: "table-seats", min: range[0], max: range[1], value: String(ui.seats),
          "aria-describedby": "table-seats-hint", onchange: (e) => { ui.seats = Number(e.target.value); } }),
        h("p", { class: "hint", id: "table-seats-hint" }, t("seats_hint", { min: range[0], max: range[1] }))),
      optionSpecs(info).map((spec) => optionControl(ui.values, spec, "table-opt")),
      h("button", { type: "submit", id: "save-options" }, t("save_options"))));
}

function inviteLine(app) {
  const table = app.table;
  if (!table.invite) return null;
  const link = `${location.origin}${location.pathname}#table=${table.id}&invite=${encodeURIComponent(table.invite)}`;
  return h("div", { class: "field" },
    h("label", { for: "invite-link" }, t("invitation")),
    h("div", { class: "row" },
      h("input", { type: "text", id: "invite-link", readonly: true, value: link, size: 48 }),
      h("button", {
        type: "button", id: "copy-invite",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
          } catch {
            document.getElementById("invite-link")?.select();
          }
          announce(t("copied"));
        },
      }, t("copy"))));
}

function seatsSection(app, ctx) {
  const table = app.table;
  const info = app.gameInfo(table.game);
  return h("section", { class: "panel", "aria-labelledby": "seats-heading", id: "seats-section" },
    h("h2", { id: "seats-heading", tabindex: "-1" }, t("seats_heading")),
    h("p", { class: "hint" }, `${gameTitle(info, table.game)} — ${summarize(info, table.preset, table.options)} — ${t(`state_${table.state}`)}`),
    h("ul", { class: "seat-list", id: "seat-list" }, (table.seats || []).map((seat) => seatLine(app, seat, ctx))),
    table.spectator_names?.length ? h("p", {}, t("spectators_list", { names: table.spectator_names.join(", ") })) : null,
    inviteLine(app),
    hostControls(app),
    h("div", { class: "row", style: "margin-top:.75rem" },
      h("button", { type: "button", id: "lobby-button", onclick: () => app.toLobby() }, t("back_to_lobby")),
      h("button", { type: "button", id: "leave-button", onclick: () => app.toLobby({ leave: true }) }, t("leave"))));
}

// -- chat ---------------------------------------------------------------------------

async function sendChat(app, event) {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  if (!text) return;
  let type = "chat.say";
  let fields = { table: app.tableId, text };
  const me = /^\/me\s+(.+)$/s.exec(text);
  const priv = /^\/(?:msg|w)\s+(\S+)\s+(.+)$/s.exec(text);
  if (me) {
    type = "chat.me";
    fields = { table: app.tableId, text: me[1] };
  } else if (priv) {
    type = "chat.private";
    fields = { to: priv[1], text: priv[2] };
  }
  try {
    await app.request(type, fields);
    input.value = "";
  } catch (error) {
    announce(t("error_prefix", { message: error.message }), { politeness: "assertive" });
  }
  input.focus();
}

function chatSection(app) {
  return h("section", { class: "panel", "aria-labelledby": "chat-heading", id: "chat-section" },
    h("h2", { id: "chat-heading" }, t("chat_heading")),
    h("form", { class: "row", onsubmit: (e) => sendChat(app, e), "aria-labelledby": "chat-heading" },
      h("label", { for: "chat-input" }, t("message")),
      h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off", "aria-describedby": "chat-hint" }),
      h("button", { type: "submit", id: "chat-send" }, t("send"))),
    h("p", { class: "hint", id: "chat-hint" }, t("chat_hint")));
}

// -- the screen -------------------------------------------------------------------

function statusLine(app, ctx) {
  const table = app.table;
  const view = ctx.view;
  let text;
  if (!view || table.state === "waiting") text = t("waiting_for_start");
  else if (table.state === "paused") text = table.hold ? t("paused_held") : t("paused");
  else if (view.over) {
    const last = [...app.items].reverse().find((item) => item.channel === "game");
    text = last ? `${t("game_over")} ${capitalized(last.text)}` : t("game_over");
  }
  else if (ctx.myTurn) text = t("your_turn_badge");
  else if (view.to_act != null) text = t("turn_of", { name: ctx.names[view.to_act] ?? `#${view.to_act + 1}` });
  else text = "";
  return h("p", { id: "turn-status", class: ctx.myTurn ? "your-turn" : "" },
    text, table.you?.spectator ? ` ${t("spectating")}` : "");
}

/** "you win with 1,300" -> "You win with 1,300" (a sentence after another). */
function capitalized(text) {
  const value = String(text || "");
  return value.charAt(0).toLocaleUpperCase() + value.slice(1);
}

export function render(app) {
  const table = app.table;
  if (!table) return [h("p", {}, t("loading"))];
  const ctx = context(app);
  const module = gameModule(table.game);
  queueMicrotask(scrollHistory);
  return [
    h("div", { class: "table-layout" },
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "game-heading", id: "game-section" },
          h("h2", { id: "game-heading", tabindex: "-1" }, t("game_heading")),
          statusLine(app, ctx),
          ctx.view ? module.render(ctx) : null),
        seatsSection(app, ctx)),
      h("div", {},
        chatSection(app),
        renderHistory(app))),
  ];
}

