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
 * Announce one message. `channel` ("game", "chat", "system" or "ui") lets the
 * player silence a channel in the settings; "ui" messages (answers to a key
 * the player pressed) are always read.
 */
export function announce(text, { politeness = "polite", channel = "ui" } = {}) {
  if (!text) return;
  if (channel !== "ui" && settings.get(`announce_${channel}`) === false) return;
  window.__announcements.push({ politeness, channel, text });
  if (settings.get("speech") && speak(text, false)) return;
  append(politeness, text);
}

/** "Your turn": assertive, and a sound cue when sounds are on. */
export function announceUrgent(text) {
  announce(text, { politeness: "assertive", channel: "ui" });
}
