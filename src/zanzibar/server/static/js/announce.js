// Announcements for screen readers. Two live regions exist in index.html from
// page load (screen readers ignore regions created at the moment they get
// text): #live-polite for events, #live-assertive for "your turn". Each
// message is appended as its own paragraph so that two messages arriving
// together are both read; old paragraphs are pruned. In speech mode the
// browser's speech synthesis reads the messages instead, queued in order.
//
// window.__announcements records every message (politeness, channel, text) in
// order: a test hook and a debugging aid.

import { settings } from "./settings.js";
import { lang } from "./i18n.js";

const KEEP = 12;
window.__announcements = window.__announcements || [];

function region(politeness) {
  return document.getElementById(politeness === "assertive" ? "live-assertive" : "live-polite");
}

function append(politeness, text) {
  const el = region(politeness);
  if (!el) return;
  const p = document.createElement("p");
  p.textContent = text;
  el.append(p);
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

function speak(text, interrupt) {
  const synth = window.speechSynthesis;
  if (!synth) return false;
  if (interrupt) synth.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang() === "fr" ? "fr-FR" : "en-GB";
  synth.speak(utterance);
  return true;
}

/**
 * Announce one message at once. `channel` ("game", "chat", "system", "turn"
 * or "ui") lets the player silence a channel in the settings; "ui" messages
 * (answers to a key the player pressed) and "turn" are always read. Anything
 * still waiting in the stream buffer goes first, so the order holds.
 */
export function announce(text, { politeness = "polite", channel = "ui", parts = null } = {}) {
  if (!text) return;
  if (pending.length) flushStream();
  say(text, politeness, channel, parts);
}

function say(text, politeness, channel, parts, interrupt = politeness === "assertive") {
  if (channel !== "ui" && channel !== "turn" && settings.get(`announce_${channel}`) === false) return;
  window.__announcements.push({ politeness, channel, text, parts: parts || [text] });
  if (settings.get("speech") && speak(text, interrupt)) return;
  append(politeness, text);
}

// -- the table's stream ------------------------------------------------------------
//
// Items of a table's stream (game events, chat, system lines) wait a moment
// (STREAM_DELAY ms) before they are read, in order. When the turn comes to
// the player in that moment, the game events that brought it (the opponent's
// move) are read together with "your turn" as ONE assertive message, so the
// assertive region never cuts the move off. docs/accessibility.md gives the
// whole policy.

export const STREAM_DELAY = 150;
let pending = [];
let timer = null;
// Test hook: how many stream items still wait to be read.
window.__announcer = { pending: () => pending.length };

/**
 * Queue one item of the stream; it is read politely after STREAM_DELAY ms.
 * `own`: the player's own action (never carried into a "your turn" message).
 */
export function announceStream(text, channel, own = false, onSaid = null) {
  if (!text) return;
  pending.push({ text, channel, own, onSaid });
  if (timer === null) timer = setTimeout(flushStream, STREAM_DELAY);
}

/** Read every queued item now, politely, in order. */
export function flushStream() {
  clearTimeout(timer);
  timer = null;
  const items = pending;
  pending = [];
  for (const item of items) sayItem(item);
}

function sayItem(item) {
  say(item.text, "polite", item.channel, null);
  item.onSaid?.();
}

/**
 * "Your turn": assertive, once (the caller sees to that), preceded in the
 * same message by the game events still queued (the move that gave the turn).
 */
export function announceTurn(text) {
  clearTimeout(timer);
  timer = null;
  let split = pending.length;
  while (split > 0 && pending[split - 1].channel === "game" && !pending[split - 1].own) split -= 1;
  const before = pending.slice(0, split);
  const along = pending.slice(split).filter(() => settings.get("announce_game") !== false);
  const muted = pending.slice(split).filter(() => settings.get("announce_game") === false);
  for (const item of muted) item.onSaid?.();
  pending = [];
  for (const item of before) sayItem(item);
  const parts = [...along.map((item) => item.text), text];
  // Speech mode: "your turn" cuts off older speech, never the lines queued just before it.
  say(parts.map(sentence).join(" "), "assertive", "turn", parts, before.length === 0);
  for (const item of along) item.onSaid?.();
}

/** "bob plays e10e8" -> "bob plays e10e8." (a full stop between joined sentences). */
function sentence(text) {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
