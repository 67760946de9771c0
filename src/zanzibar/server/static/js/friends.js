// The Friends panel of the lobby: the friends list with each friend's state
// as text ("Bob is online, at table 3 (421), seat 1."), add and remove by
// name, a private message form, the private messages of this visit (those
// kept while the player was away included), and whether to hear friends come
// and go. Every control is a labelled form control or button, reached with Tab;
// the panel's heading is a level-2 heading (F moves to it from the lobby).
// The words are the catalogue's web-friends_* messages; the friends' sentences
// come from the server in the player's language.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./announce.js";

/** Private messages kept for the page (newest last), at most this many. */
const KEEP = 100;

function state(app) {
  if (!app.friends) app.friends = { list: [], alerts: true, text: "", loaded: false, privates: [], to: "" };
  return app.friends;
}

/** Ask the salon for the list (accounts only); quietly does nothing for guests. */
export async function loadFriends(app) {
  const friends = state(app);
  if (!app.user || app.user.guest) return;
  try {
    const reply = await app.request("friends.list");
    friends.list = reply.friends || [];
    friends.alerts = reply.alerts !== false;
    friends.text = reply.text || "";
    friends.loaded = true;
    if (app.screen === "lobby") app.rerender();
  } catch {
    /* shown again at the next change */
  }
}

/** A private `chat` (table null) arrived: keep it for the panel's list. */
export function takePrivate(app, message) {
  const friends = state(app);
  friends.privates = [...friends.privates, message].slice(-KEEP);
  if (app.screen === "lobby") app.rerender();
}

/** A `friend` event: say it (it is news the player asked for) and refresh the list. */
export function takeFriendEvent(app, message) {
  announce(message.text, { channel: "system" });
  loadFriends(app);
}

/** The line a private message is listed with: "Anna: hi", "To Bob: hi", or its sentence. */
export function privateText(app, item) {
  if (item.offline && item.sentence) return item.sentence;
  const who = item.from ?? "?";
  if (item.me) return `* ${who} ${item.text}`;
  const mine = app.user && item.user === app.user.id && item.to !== app.user.name;
  if (!mine) return `${who}: ${item.text}`;
  const line = t("friends_private_to", { to: item.to ?? "?", text: item.text });
  return item.kept ? `${line} (${t("friends_kept_mark")})` : line;
}

async function addFriend(app, event) {
  event.preventDefault();
  const input = document.getElementById("friend-name");
  const name = input.value.trim();
  if (!name) {
    announce(t("friends_name_needed"), { politeness: "assertive" });
    input.focus();
    return;
  }
  try {
    const reply = await app.request("friends.add", { name });
    input.value = "";
    announce(`${reply.text} ${reply.friend?.text || ""}`.trim());
    await loadFriends(app);
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
  input.focus();
}

async function removeFriend(app, name) {
  try {
    const reply = await app.request("friends.remove", { name });
    announce(reply.text);
    await loadFriends(app);
    document.getElementById("friends-heading")?.focus();
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
}

/** "Message Bob": fill the recipient, put the focus in the message field. */
function messageTo(app, name) {
  state(app).to = name;
  const to = document.getElementById("private-to");
  if (to) to.value = name;
  document.getElementById("private-text")?.focus();
}

async function sendPrivate(app, event) {
  event.preventDefault();
  const to = document.getElementById("private-to");
  const text = document.getElementById("private-text");
  const name = to.value.trim();
  const body = text.value.trim();
  if (!name) {
    announce(t("friends_name_needed"), { politeness: "assertive" });
    to.focus();
    return;
  }
  if (!body) {
    text.focus();
    return;
  }
  state(app).to = name;
  try {
    const reply = await app.request("chat.private", { to: name, text: body });
    text.value = "";
    announce(reply.kept ? reply.sentence || t("friends_kept") : t("friends_sent", { name }));
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
  text.focus();
}

async function setAlerts(app, on) {
  try {
    const reply = await app.request("friends.alerts", { on });
    state(app).alerts = reply.alerts;
    announce(reply.text);
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
  app.rerender();
}

function friendItem(app, friend) {
  const place = friend.places?.find((where) => where.table != null);
  return h("li", { "data-key": `f${friend.user}`, "data-online": String(friend.online) },
    h("p", { class: "facts", id: `friend-${friend.user}` }, friend.text),
    h("div", { class: "row actions" },
      h("button", {
        type: "button", "data-key": "message", "aria-label": t("friends_message_to", { name: friend.name }),
        onclick: () => messageTo(app, friend.name),
      }, t("friends_message")),
      place
        ? h("button", {
            type: "button", "data-key": "go",
            "aria-label": t("friends_go_to", { name: friend.name, id: String(place.table) }),
            onclick: () => app.enterTable(place.table, { mode: "watch" }),
          }, t("watch"))
        : null,
      h("button", {
        type: "button", "data-key": "remove", "aria-label": t("friends_remove_named", { name: friend.name }),
        onclick: () => removeFriend(app, friend.name),
      }, t("friends_remove"))));
}

function listPart(app, friends) {
  if (app.user?.guest) return [h("p", { id: "friends-guest" }, t("friends_guest"))];
  return [
    h("p", { id: "friends-summary" }, friends.loaded ? friends.text : t("loading")),
    friends.list.length
      ? h("ul", { class: "friend-list", id: "friends-list", "aria-labelledby": "friends-heading" },
          friends.list.map((friend) => friendItem(app, friend)))
      : null,
    h("div", { class: "row actions" },
      h("button", { type: "button", id: "friends-refresh", onclick: () => loadFriends(app).then(() => announce(state(app).text)) },
        t("friends_refresh"))),
    h("form", { class: "row", id: "friend-add-form", onsubmit: (e) => addFriend(app, e), "aria-label": t("friends_add") },
      h("label", { for: "friend-name" }, t("friends_add_label")),
      h("input", { type: "text", id: "friend-name", maxlength: 64, autocomplete: "off" }),
      h("button", { type: "submit", id: "friend-add" }, t("friends_add"))),
    h("div", { class: "field" },
      h("input", {
        type: "checkbox", id: "friends-alerts", checked: friends.alerts,
        onchange: (e) => setAlerts(app, e.target.checked),
      }),
      " ", h("label", { for: "friends-alerts", style: "display:inline" }, t("friends_alerts"))),
  ];
}

function messagePart(app, friends) {
  return [
    h("h3", { id: "private-heading" }, t("friends_private_heading")),
    h("form", { class: "row", id: "private-form", onsubmit: (e) => sendPrivate(app, e), "aria-labelledby": "private-heading" },
      h("label", { for: "private-to" }, t("friends_to")),
      h("input", { type: "text", id: "private-to", maxlength: 64, autocomplete: "off", value: friends.to || "" }),
      h("label", { for: "private-text" }, t("message")),
      h("input", { type: "text", id: "private-text", maxlength: 500, autocomplete: "off", "aria-describedby": "private-hint" }),
      h("button", { type: "submit", id: "private-send" }, t("send"))),
    h("p", { class: "hint", id: "private-hint" }, t("friends_private_hint")),
    h("ol", { class: "history-list", id: "private-list", tabindex: "0", "aria-labelledby": "private-heading" },
      friends.privates.length
        ? friends.privates.map((item, index) => h("li", { "data-key": `pm${index}` }, privateText(app, item)))
        : h("li", { "data-key": "empty" }, t("friends_no_private"))),
  ];
}

/** The Friends section of the lobby. */
export function friendsSection(app) {
  const friends = state(app);
  return h("section", { class: "panel", "aria-labelledby": "friends-heading", id: "friends-section" },
    h("h2", { id: "friends-heading", tabindex: "-1" }, t("friends_heading")),
    listPart(app, friends),
    messagePart(app, friends));
}

/** F (outside text fields): move to the Friends heading. */
export function handleKey(app, event) {
  if (event.code !== "KeyF" || event.shiftKey) return false;
  document.getElementById("friends-heading")?.focus();
  return true;
}
