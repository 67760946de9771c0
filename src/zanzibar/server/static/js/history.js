// The table's history panel: every item of the table's stream (game events,
// chat, system messages) in order, filtered by channel, reviewable at leisure
// (a focusable list the player can read with the screen reader's keys).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const CHANNELS = ["all", "game", "chat", "system"];

/** The sentence an item is announced and listed with. */
export function itemText(item) {
  if (item.type === "chat") {
    if (item.offline && item.sentence) return item.sentence; // kept while the player was away
    const who = item.from ?? "?";
    if (item.me) return `* ${who} ${item.text}`;
    if (item.private) return item.to ? `(${who} → ${item.to}) ${item.text}` : `(${who}) ${item.text}`;
    return `${who}: ${item.text}`;
  }
  return item.text ?? "";
}

/** The history section of the table screen. */
export function renderHistory(app) {
  const ui = (app.ui.history = app.ui.history || { channel: "all" });
  const items = app.items.filter((item) => ui.channel === "all" || item.channel === ui.channel);
  const choose = (channel) => () => {
    ui.channel = channel;
    app.rerender();
  };
  return h("section", { class: "panel", "aria-labelledby": "history-heading", id: "history-section" },
    h("h2", { id: "history-heading", tabindex: "-1" }, t("history_heading")),
    h("div", { class: "row", role: "group", "aria-label": t("channel") },
      CHANNELS.map((channel) =>
        h("button", {
          type: "button",
          "data-key": `channel-${channel}`,
          "aria-pressed": String(ui.channel === channel),
          onclick: choose(channel),
        }, t(`channel_${channel}`)))),
    app.firstSeq() > 1
      ? h("div", { class: "row" },
          h("button", { type: "button", id: "earlier-history", onclick: () => app.loadEarlierHistory() }, t("earlier_history")))
      : null,
    h("ol", {
      class: "history-list",
      id: "history-list",
      tabindex: "0",
      "aria-labelledby": "history-heading",
    },
    items.length === 0
      ? h("li", { "data-key": "empty" }, t("history_empty"))
      : items.map((item, index) =>
          h("li", { "data-key": `i${item.seq ?? "p" + index}`, "data-channel": item.channel },
            h("span", { class: "channel-tag" }, `[${t(`channel_${item.channel}`) || item.channel}]`),
            itemText(item)))));
}

/** Keep the history list scrolled to its end when new items arrive. */
export function scrollHistory() {
  const list = document.getElementById("history-list");
  if (list && document.activeElement !== list) list.scrollTop = list.scrollHeight;
}
