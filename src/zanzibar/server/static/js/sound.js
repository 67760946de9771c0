// Sound cues made with WebAudio (no audio files): a dice rattle and a
// two-note "your turn" chime, at a volume the player sets. Off by default.

import { settings } from "./settings.js";

let context = null;

function audio() {
  if (!settings.get("sound")) return null;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  if (!context) context = new Ctor();
  if (context.state === "suspended") context.resume();
  return context;
}

function volume() {
  const value = Number(settings.get("volume"));
  return Number.isFinite(value) ? Math.max(0, Math.min(1, value / 100)) : 0.5;
}

function tone(ctx, frequency, start, length, gainValue, type = "sine") {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(gainValue, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function clicks(ctx, count, start, gainValue) {
  // Short bursts of filtered noise: dice knocking on a table.
  const length = Math.floor(ctx.sampleRate * 0.03);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  for (let n = 0; n < count; n++) {
    const src = ctx.createBufferSource();
    const gain = ctx.createGain();
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1800 + Math.random() * 1600;
    gain.gain.value = gainValue * (0.6 + Math.random() * 0.4);
    src.buffer = buffer;
    src.connect(filter).connect(gain).connect(ctx.destination);
    src.start(start + n * (0.05 + Math.random() * 0.04));
  }
}

/** The dice rattle, one knock per die (at least three). */
export function diceSound(dice = 3) {
  if (!settings.get("sound_game")) return;
  const ctx = audio();
  if (!ctx) return;
  clicks(ctx, Math.max(3, dice + 2), ctx.currentTime, volume());
}

/** A rising two-note chime for "your turn". */
export function turnSound() {
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  tone(ctx, 660, now, 0.18, 0.3 * volume());
  tone(ctx, 880, now + 0.16, 0.3, 0.3 * volume());
}

/** A soft low note for a chat message. */
export function chatSound() {
  if (!settings.get("sound_chat")) return;
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 440, ctx.currentTime, 0.12, 0.15 * volume(), "triangle");
}
