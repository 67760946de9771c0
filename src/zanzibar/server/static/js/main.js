// The web client's entry point: application state, the connection, routing
// between the three screens (sign in, lobby, table), the header controls and
// the dialogs (help, rules, settings). Screens are rendered by morphing
// (dom.js), so an update never takes the focus away from the control the
// player is on.

import { h, render } from "./dom.js";
import { t, setLang, lang, guessLang } from "./i18n.js";
import { Connection } from "./protocol.js";
import { announce, announceStream, announceTurn } from "./announce.js";
import { settings } from "./settings.js";
import { diceSound, turnSound, chatSound } from "./sound.js";
import { installKeys } from "./keys.js";
import { initTheme, theme, toggleTheme } from "./theme.js";
import * as signin from "./signin.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as standing from "./standing.js";
import * as tournaments from "./tournaments.js";
import { itemText } from "./history.js";
import { loadFriends, takePrivate, takeFriendEvent } from "./friends.js";
import { gameTitle, localized, optionSpecs, presets } from "./options.js";

const SCREENS = { signin, lobby, table, standing };

export const app = {
  token: localStorage.getItem("zanzibar.token") || null,
  user: JSON.parse(localStorage.getItem("zanzibar.user") || "null"),
  conn: null,
  screen: "signin",
  connState: "idle",
  games: [],
  tables: [],
  lobbyNext: null,
  lobbyTotal: 0,
  moreTables: [],
  moreNext: null,
  tableId: null,
  table: null,
  view: null,
  logLength: 0,
  items: [],
  lastSeq: 0,
  historyPage: 0,
  ui: {},
  error: null,

  rerender,
  navigate,
  request,
  act,
  ask,
  enterTable,
  toLobby,
  signedIn,
  signOut,
  showHelp,
  showRules,
  showDialog,
  gameInfo,
  tableMemory,
  loadMoreTables,
  lobbyCursor,
  loadEarlierHistory,
  firstSeq,
};
window.__app = app; // test and debugging hook

// -- per-table memory kept for the tab (survives a reload) ------------------------

function tableMemory(id) {
  const key = `zanzibar.table.${id}`;
  const value = JSON.parse(sessionStorage.getItem(key) || "{}");
  return {
    announced: value.announced || 0,
    turn: value.turn || 0,
    mode: value.mode || null,
    invite: value.invite || null,
    save(changes) {
      Object.assign(value, changes);
      Object.assign(this, changes);
      sessionStorage.setItem(key, JSON.stringify(value));
    },
  };
}

// -- rendering ----------------------------------------------------------------------

function screenModule() {
  return SCREENS[app.screen];
}

function rerender() {
  const module = screenModule();
  const title = module.title(app);
  const h1 = document.getElementById("page-title");
  if (h1.textContent !== title) h1.textContent = title;
  document.title = `${title} · Zanzibar`;
  const screen = document.getElementById("screen");
  const before = document.activeElement;
  const section = before && screen.contains(before) ? before.closest("section[id]")?.id : null;
  const lostId = before?.id || null;
  render(screen, module.render(app));
  renderHeader();
  if (before && before !== document.body && !before.isConnected) keepFocusNear(section, lostId);
}

/**
 * The focused control went away in an update (a button that no longer
 * applies): put the focus on the heading of the section it was in, so the
 * player is never dropped at the top of the page.
 */
function keepFocusNear(sectionId, lostId = null) {
  // A die that went away (fewer dice in play): the nearest die still there.
  const die = /^die-(\d+)$/.exec(lostId || "");
  if (die) {
    for (let n = Number(die[1]) - 1; n >= 1; n--) {
      const other = document.getElementById(`die-${n}`);
      if (other) {
        other.focus({ preventScroll: true });
        return;
      }
    }
  }
  const section = sectionId ? document.getElementById(sectionId) : null;
  const target = section?.querySelector("h2[tabindex], h3[tabindex]") || document.getElementById("page-title");
  target.focus({ preventScroll: false });
}

function renderHeader() {
  document.getElementById("skip-link").textContent = t("skip_to_main");
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("lang-select").value = lang();
  document.getElementById("settings-button").textContent = t("settings");
  const themeButton = document.getElementById("theme-button");
  themeButton.textContent = t("theme_dark");
  themeButton.setAttribute("aria-pressed", String(theme() === "dark"));
  document.getElementById("help-button").textContent = t("help");
  document.getElementById("rules-button").textContent = t("rules");
  const standingButton = document.getElementById("standing-button");
  standingButton.textContent = t("standing_button");
  standingButton.hidden = !app.user;
  document.getElementById("top-nav").setAttribute("aria-label", t("app_name"));
  const signout = document.getElementById("signout-button");
  signout.textContent = t("sign_out");
  signout.hidden = !app.user;
  const label = document.getElementById("user-label");
  label.textContent = app.user
    ? t("signed_in_as", { name: app.user.name }) + (app.user.guest ? ` (${t("guest")})` : "")
    : "";
  const status = document.getElementById("conn-status");
  const text = { connecting: t("connecting"), reconnecting: t("disconnected") }[app.connState] || "";
  status.dataset.state = app.connState;
  if (status.textContent !== text) status.textContent = text;
  document.getElementById("dialog-close").textContent = t("close");
}

/** Show another screen and put the focus on its heading. */
function navigate(screen) {
  const changed = app.screen !== screen;
  app.screen = screen;
  app.error = null;
  rerender();
  if (changed) document.getElementById("page-title").focus();
}

// -- connection --------------------------------------------------------------------

function request(type, fields = {}) {
  return app.conn.request(type, fields);
}

function signedIn(session) {
  app.token = session.token;
  app.user = session.user;
  localStorage.setItem("zanzibar.token", session.token);
  localStorage.setItem("zanzibar.user", JSON.stringify(session.user));
  if (session.user.lang) {
    setLang(session.user.lang).then(() => rerender());
    localStorage.setItem("zanzibar.lang", session.user.lang);
  }
  connect();
}

function signOut() {
  app.conn?.close();
  app.conn = null;
  app.token = null;
  app.user = null;
  app.tableId = null;
  app.table = null;
  localStorage.removeItem("zanzibar.token");
  localStorage.removeItem("zanzibar.user");
  history.replaceState(null, "", location.pathname);
  navigate("signin");
}

function connect() {
  app.conn?.close();
  app.conn = new Connection({
    token: () => app.token,
    lang: () => lang(),
    onMessage: receive,
    onReady: ready,
    onStatus: (state) => {
      const was = app.connState;
      app.connState = state;
      renderHeader();
      if (state === "reconnecting" && was === "open") announce(t("disconnected"));
    },
    onAuthFailed: () => {
      signOut();
    },
  });
  app.conn.open();
}

async function ready(reconnected, welcome) {
  app.user = welcome.user || app.user;
  app.myTables = (welcome.tables || []).map((entry) => ({ table: entry.table, seat: entry.seat }));
  if (reconnected) announce(t("reconnected"));
  try {
    const reply = await request("games.list");
    app.games = reply.games || [];
  } catch {
    /* the lobby shows what it can */
  }
  request("lobby.subscribe").catch(() => {});
  loadFriends(app);
  tournaments.refresh(app);
  if (reconnected && app.tableId !== null) {
    // Resume the table: only items after the last one shown come back.
    await resumeTable(app.tableId);
    return;
  }
  const route = parseRoute();
  if (route.table !== null) {
    // The server says where this user sits or watches; the tab's memory is the fallback.
    const known = app.myTables.find((entry) => entry.table === route.table);
    const mode = known ? (known.seat === null || known.seat === undefined ? "watch" : "play") : tableMemory(route.table).mode || "play";
    await enterTable(route.table, { invite: route.invite, mode, fresh: true });
  } else if (app.screen !== "standing") {
    // A new connection (sign-in, or a change of language) shows the lobby,
    // but a player reading the leaderboards stays there.
    navigate("lobby");
  }
}

function parseRoute() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const raw = params.get("table") ?? query.get("table");
  const id = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  return { table: id, invite: params.get("invite") ?? query.get("invite") };
}

// -- tables ---------------------------------------------------------------------------

/** Sit at (mode "play") or watch (mode "watch") a table. */
async function enterTable(id, { invite = null, mode = "play", seat = null, fresh = true } = {}) {
  const memory = tableMemory(id);
  if (fresh || app.tableId !== id) {
    app.items = [];
    app.lastSeq = 0;
    app.historyPage = 0;
    app.view = null;
    app.logLength = 0;
  }
  app.tableId = id;
  const code = invite || memory.invite;
  const fields = { table: id, since: app.lastSeq };
  if (code) fields.invite = code;
  try {
    let reply;
    if (mode === "watch") {
      reply = await request("table.watch", fields);
    } else {
      if (seat !== null) fields.seat = seat;
      reply = await request("table.join", fields);
    }
    memory.save({ mode, invite: code || null });
    if (reply.table && typeof reply.table === "object") app.table = reply.table;
    rememberTable(id, mode === "watch" ? null : reply.seat ?? 0);
    const hash = `#table=${id}${code ? `&invite=${encodeURIComponent(code)}` : ""}`;
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
    app.ui.table = app.ui.table || {};
    navigate("table");
  } catch (error) {
    if (mode === "play" && (error.code === "conflict" || error.code === "forbidden") && !seat) {
      // No free seat (or a full table): watch instead.
      return enterTable(id, { invite, mode: "watch", fresh });
    }
    app.tableId = null;
    app.table = null;
    forgetTable(id);
    app.error = error.message || t("not_found");
    history.replaceState(null, "", location.pathname + "#lobby");
    navigate("lobby");
    announce(t("error_prefix", { message: app.error }), { politeness: "assertive" });
  }
}

async function resumeTable(id) {
  const memory = tableMemory(id);
  const mode = app.table?.you?.spectator ? "watch" : memory.mode || "play";
  const fields = { table: id, since: app.lastSeq };
  if (memory.invite) fields.invite = memory.invite;
  try {
    const reply = await request(mode === "watch" ? "table.watch" : "table.join", fields);
    if (reply.table && typeof reply.table === "object") app.table = reply.table;
    rerender();
  } catch (error) {
    announce(t("error_prefix", { message: error.message }));
  }
}

/** The tables this user sits at or watches (the lobby offers a way back to them). */
function rememberTable(id, seat) {
  app.myTables = [...(app.myTables || []).filter((entry) => entry.table !== id), { table: id, seat }];
}

function forgetTable(id) {
  app.myTables = (app.myTables || []).filter((entry) => entry.table !== id);
}

function toLobby({ leave = false } = {}) {
  const id = app.tableId;
  if (leave && id !== null) {
    request("table.leave", { table: id }).catch(() => {});
    tableMemory(id).save({ mode: null });
    forgetTable(id);
  }
  app.tableId = null;
  app.table = null;
  app.view = null;
  app.items = [];
  app.lastSeq = 0;
  app.historyPage = 0;
  app.moreTables = [];
  app.moreNext = null;
  history.replaceState(null, "", location.pathname + "#lobby");
  navigate("lobby");
}

// -- pages: the lobby past its first page, a table's history before the newest page --------

/** The cursor of the lobby's next page not yet shown (null: every page is shown). */
function lobbyCursor() {
  return app.moreTables.length ? app.moreNext : app.lobbyNext;
}

/**
 * "More tables": the page after the last one shown (`lobby.list`), added below the
 * subscribed first page, and the count shown said politely.
 */
async function loadMoreTables() {
  const cursor = lobbyCursor();
  if (cursor === null || cursor === undefined) return;
  try {
    const reply = await request("lobby.list", { cursor });
    const known = new Set([...app.tables, ...app.moreTables].map((table) => table.id));
    const fresh = (reply.tables || []).filter((table) => !known.has(table.id));
    app.moreTables = [...app.moreTables, ...fresh];
    app.moreNext = reply.next ?? null;
    app.lobbyTotal = reply.total ?? app.lobbyTotal;
    rerender();
    // The cards are sorted (running first, newest first), so the new ones may land anywhere:
    // the focus goes to the first of them, else stays on the button, else the list's heading.
    const keys = new Set(fresh.map((table) => `t${table.id}`));
    const card = [...document.querySelectorAll("#tables-list > li")].find((li) => keys.has(li.dataset.key));
    const target = card?.querySelector("button") || document.getElementById("more-tables");
    (target || document.getElementById("tables-heading"))?.focus();
    const shown = new Set([...app.tables, ...app.moreTables].map((table) => table.id)).size;
    announce(t("more_tables_shown", { shown, total: app.lobbyTotal }));
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
}

/** The `seq` of the earliest table item shown (0: none). */
function firstSeq() {
  const seqs = app.items.map((item) => Number(item.seq || 0)).filter((seq) => seq > 0);
  return seqs.length ? Math.min(...seqs) : 0;
}

/**
 * "Earlier history": the page of items just before the earliest shown (a `history`
 * request), put at the top of the list; not read out item by item, only their count.
 */
async function loadEarlierHistory() {
  const id = app.tableId;
  const first = firstSeq();
  if (id === null || first <= 1) return;
  const since = Math.max(0, first - 1 - (app.historyPage || 100));
  try {
    const reply = await request("history", { table: id, since, limit: first - 1 - since });
    if (app.tableId !== id || firstSeq() !== first) return;
    const earlier = (reply.items || [])
      .filter((item) => Number(item.seq || 0) < first)
      .map((item) => {
        const type = item.type || (item.channel === "game" ? "game.event" : item.channel);
        return { ...item, type, channel: item.channel || (type === "game.event" ? "game" : type) };
      });
    app.items = [...earlier, ...app.items];
    rerender();
    if (!document.getElementById("earlier-history")) document.getElementById("history-list")?.focus();
    announce(t("earlier_history_shown", { n: earlier.length }));
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
}

// -- incoming messages ------------------------------------------------------------

function receive(msg) {
  switch (msg.type) {
    case "lobby":
      app.tables = msg.tables || [];
      app.lobbyNext = msg.next ?? null;
      app.lobbyTotal = msg.total ?? app.tables.length;
      if (app.screen === "lobby") rerender();
      break;
    case "table":
      if (msg.table && msg.table.id === app.tableId) {
        app.table = msg.table;
        const you = msg.table.you || {};
        if (app.screen === "table" && you.seat == null && !you.spectator && !you.host) {
          // Kicked, or the seat is gone: back to the lobby, and say so.
          announce(t("left_table"), { politeness: "assertive" });
          forgetTable(app.tableId);
          toLobby();
          return;
        }
        if (app.screen === "table") rerender();
      }
      break;
    case "history":
      if (msg.table === app.tableId) {
        // Joining with more items than a page: the newest page came, and its length is
        // the server's page size (the earlier pages are asked for in pages of that size).
        if (msg.id === undefined && Number(msg.since || 0) > app.lastSeq) app.historyPage = (msg.items || []).length;
        for (const item of msg.items || []) takeItem(item);
        if (app.screen === "table") rerender();
      }
      break;
    case "friend":
      takeFriendEvent(app, msg);
      break;
    case "game.event":
    case "system":
    case "chat":
      if (msg.type === "chat" && msg.table == null) takePrivate(app, msg);
      if (msg.table === app.tableId || (msg.type === "chat" && msg.table == null)) {
        takeItem(msg);
        if (app.screen === "table") rerender();
      }
      break;
    case "game.view":
      if (msg.table === app.tableId) {
        app.view = msg.view;
        app.viewsReceived = (app.viewsReceived || 0) + 1;
        app.logLength = msg.log_length ?? app.logLength;
        if (!myTurnIn(msg.view)) app.turnSaid = false;
        if (app.screen === "table") rerender();
      }
      break;
    case "your_turn":
      if (msg.table === app.tableId) {
        const memory = tableMemory(msg.table);
        // Said already before a reload, or already said for this turn: not again.
        if ((msg.seq ?? 0) <= memory.turn) break;
        memory.save({ turn: msg.seq ?? 0 });
        sayTurn(msg.text);
      }
      break;
    case "tournament.event":
    case "tournament.table":
    case "tournament.standings":
    case "tournament.finished":
      tournaments.receive(app, msg);
      break;
    case "error":
      announce(t("error_prefix", { message: msg.message || msg.code }), { politeness: "assertive" });
      break;
    default:
      break;
  }
}

/** Per table, the last item queued to be read in this page (it is read 150 ms later). */
const queuedUpTo = {};

/**
 * One item of a table's stream. Items are numbered by `seq`: an item at or
 * below the last one taken is a repeat (after a reconnection) and is dropped,
 * and an item already announced before a reload is shown but not read again.
 */
function takeItem(item) {
  const type = item.type || (item.channel === "game" ? "game.event" : item.channel);
  const normal = { ...item, type, channel: item.channel || (type === "game.event" ? "game" : type) };
  if (normal.table == null && type === "chat") {
    app.items.push(normal);
    announceStream(itemText(normal), "chat");
    chatSound();
    return;
  }
  const seq = Number(item.seq || 0);
  if (seq && seq <= app.lastSeq) return;
  if (seq) app.lastSeq = seq;
  app.items.push(normal);
  const mySeat = app.table?.you?.seat ?? null;
  const eventSeat = normal.event?.seat ?? null;
  // Someone else acted: whatever comes next to this player is a new turn.
  if (type === "game.event" && eventSeat !== null && eventSeat !== mySeat) app.turnSaid = false;
  if (type === "system" && normal.kind === "kicked") checkStillAtTable(app.tableId);
  const memory = tableMemory(app.tableId);
  if (seq && seq <= Math.max(memory.announced, queuedUpTo[app.tableId] || 0)) return;
  if (type === "system" && /^game_(over|draw)$/.test(normal.kind || "")) standing.afterGame(app); // the rating it gave
  if (seq) queuedUpTo[app.tableId] = seq;
  // Remembered as read once it is read (a reload in between reads it then).
  const said = () => {
    if (seq > tableMemory(normal.table).announced) tableMemory(normal.table).save({ announced: seq });
  };
  if (type === "game.event" && normal.event?.kind === "turn" && mySeat !== null && eventSeat === mySeat) {
    // The game's own "your turn" line: "your turn" is said once, by the salon's
    // your_turn message; only the news that it is the last turn is read.
    const stage = normal.event?.data?.stage ?? normal.event?.stage;
    if (stage !== "final") {
      said();
      return;
    }
  }
  announceStream(itemText(normal), normal.channel, eventSeat !== null && eventSeat === mySeat, seq ? said : null);
  if (type === "game.event" && /roll|dice|throw/.test(normal.event?.kind || "")) diceSound(3);
  if (type === "chat") chatSound();
}

/**
 * Someone was sent away: if it was this user, the table no longer answers
 * (the salon stops sending it anything), so ask, and leave if refused.
 */
async function checkStillAtTable(id) {
  try {
    await request("history", { table: id, since: app.lastSeq });
  } catch (error) {
    if (app.tableId === id && (error.code === "forbidden" || error.code === "not_found")) {
      announce(t("left_table"), { politeness: "assertive" });
      forgetTable(id);
      toLobby();
    }
  }
}

/** Is it this player's move in `view`? */
function myTurnIn(view) {
  const seat = app.table?.you?.seat;
  return Boolean(view && !view.over && seat !== null && seat !== undefined && view.to_act === seat);
}

/** "Your turn", assertive, once per turn (docs/accessibility.md). */
function sayTurn(text) {
  if (app.turnSaid) return;
  app.turnSaid = true;
  announceTurn(text);
  turnSound();
}

// -- playing ------------------------------------------------------------------------

async function act(action) {
  if (app.tableId === null) return false;
  try {
    await request("game.action", { table: app.tableId, action, seq: app.logLength });
    return true;
  } catch (error) {
    announce(t("error_prefix", { message: error.message }), { politeness: "assertive" });
    return false;
  }
}

async function ask(topic) {
  if (app.tableId === null) return;
  try {
    const reply = await request("game.ask", { table: app.tableId, topic });
    announce(reply.text);
    return reply.text;
  } catch (error) {
    announce(t("error_prefix", { message: error.message }));
    return null;
  }
}

function gameInfo(name) {
  return app.games.find((g) => g.name === name) || null;
}

// -- dialogs --------------------------------------------------------------------------

function showDialog(title, body) {
  const dialog = document.getElementById("dialog");
  const opener = document.activeElement;
  document.getElementById("dialog-title").textContent = title;
  render(document.getElementById("dialog-body"), body);
  if (dialog.open) dialog.close();
  dialog.onclose = () => {
    if (opener && opener.isConnected) opener.focus();
  };
  dialog.showModal();
  document.getElementById("dialog-title").focus();
}

function listOf(lines) {
  return h("ul", {}, lines.map((line) => h("li", {}, line)));
}

/**
 * F1: the keys of this screen, once. (The game's own help text is written
 * for the terminal client, whose commands the web does not have; the web's
 * read-outs are keys listed here.)
 */
function showHelp() {
  const module = screenModule();
  const lines = module.helpLines ? module.helpLines(app) : [];
  const game = app.screen === "table" && app.table ? gameTitle(gameInfo(app.table.game), app.table.game) : null;
  showDialog(game ? t("help_heading_game", { game }) : t("help_heading"), [
    listOf(t("help_common")),
    lines.length ? listOf(lines) : null,
  ]);
}

async function showRules() {
  showDialog(t("rules_heading"), [h("p", {}, t("loading"))]);
  if (app.screen === "table" && app.tableId !== null) {
    try {
      const reply = await request("game.ask", { table: app.tableId, topic: "rules" });
      render(document.getElementById("dialog-body"), h("div", { class: "rules-text", id: "rules-text" }, reply.text));
      return;
    } catch {
      /* fall back to the option descriptions below */
    }
  }
  // Away from a table: the chosen game's options and presets, each with what it means.
  const name = app.table?.game || app.ui.lobby?.game || app.games[0]?.name;
  const info = gameInfo(name);
  render(document.getElementById("dialog-body"), [
    h("p", {}, t("rules_at_table")),
    info ? h("h3", {}, gameTitle(info, name)) : null,
    info ? h("ul", {}, presets(info).map((p) => h("li", {}, `${p.name}: ${localized(p.description)}`))) : null,
    info ? h("ul", {}, optionSpecs(info).map((spec) => h("li", {}, `${spec.name}: ${localized(spec.description)}`))) : null,
  ]);
}

function showSettings() {
  const checkbox = (name, label) =>
    h("div", { class: "field" },
      h("input", {
        type: "checkbox", id: `set-${name}`, checked: settings.get(name),
        onchange: (e) => settings.set(name, e.target.checked),
      }),
      " ",
      h("label", { for: `set-${name}`, style: "display:inline" }, label));
  showDialog(t("settings_heading"), [
    checkbox("speech", t("speech_mode")),
    checkbox("sound", t("sound_on")),
    h("div", { class: "field" },
      h("label", { for: "set-volume" }, t("volume")),
      h("input", {
        type: "range", id: "set-volume", min: 0, max: 100, step: 5, value: settings.get("volume"),
        oninput: (e) => settings.set("volume", Number(e.target.value)),
        onchange: () => diceSound(3),
      })),
    h("fieldset", {},
      h("legend", {}, t("announce_channels")),
      checkbox("announce_game", t("channel_game")),
      checkbox("announce_chat", t("channel_chat")),
      checkbox("announce_system", t("channel_system"))),
    h("fieldset", {},
      h("legend", {}, t("sound_channels")),
      checkbox("sound_game", t("sound_game")),
      checkbox("sound_chat", t("sound_chat"))),
  ]);
}

// -- start --------------------------------------------------------------------------

async function boot() {
  // The interface's words come from the server's catalogue: load them first.
  await setLang(app.user?.lang || guessLang());
  const select = document.getElementById("lang-select");
  select.addEventListener("change", async () => {
    await setLang(select.value);
    localStorage.setItem("zanzibar.lang", select.value);
    rerender();
    // The leaderboards' family names come from the server in the language asked.
    if (app.screen === "standing") standing.open(app);
    // The server renders game sentences in the language given at hello.
    if (app.conn && app.token) {
      app.games = []; // their descriptions come again in the new language
      app.conn.close();
      connect();
    }
  });
  initTheme(renderHeader);
  document.getElementById("theme-button").addEventListener("click", () => {
    toggleTheme();
    renderHeader();
  });
  document.getElementById("help-button").addEventListener("click", showHelp);
  document.getElementById("rules-button").addEventListener("click", showRules);
  document.getElementById("standing-button").addEventListener("click", () => standing.open(app));
  document.getElementById("settings-button").addEventListener("click", showSettings);
  document.getElementById("signout-button").addEventListener("click", signOut);
  window.addEventListener("hashchange", () => {
    const route = parseRoute();
    if (!app.user) return;
    if (route.table !== null && route.table !== app.tableId) {
      enterTable(route.table, { invite: route.invite, mode: "play", fresh: true });
    } else if (route.table === null && app.screen === "table") {
      toLobby();
    }
  });
  installKeys(app, SCREENS);
  if (app.token) {
    app.screen = "lobby";
    rerender();
    connect();
  } else {
    navigate("signin");
    document.getElementById("page-title").blur();
  }
}

boot();
