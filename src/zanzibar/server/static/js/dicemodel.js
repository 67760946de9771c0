// Reading a dice game's view (421 or Zilch) into what dice.js draws. The
// shapes follow the games' state JSON (see games/dice421 and games/zilch).

import { t } from "./i18n.js";

export function diceModel(ctx) {
  const view = ctx.view || {};
  const state = view.state || {};
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const dice = (state.dice || []).map((v) => (v ? Number(v) : null));
  while (dice.length < (ctx.game === "zilch" ? 6 : 3)) dice.push(null);
  const rolls = legal.filter((a) => a.type === "roll");
  const stop = legal.find((a) => a.type === "stop" || a.type === "bank");
  return {
    dice,
    stamp: JSON.stringify([state.dice, state.rolls ?? null]),
    kept: null,
    keptLabel: null,
    combination: null,
    facts: [],
    columns: [{ label: t("tokens", { n: "" }).trim(), value: (p) => String(p.value) }],
    players: (ctx.names || []).map((name, seat) => ({ seat, value: (state.tokens || [])[seat] ?? "" })),
    selectable: () => dice.some((v) => v),
    rollAction: (selected) => (rolls.length ? rolls.find((a) => JSON.stringify(a.dice || []) === JSON.stringify(selected)) || rolls[0] : null),
    rollRefusal: () => t("error_prefix", { message: "roll" }),
    stopAction: () => stop || null,
    stopRefusal: () => t("error_prefix", { message: "stop" }),
    rollLabel: () => t("roll"),
    stopLabel: ctx.game === "zilch" ? t("bank") : t("stop"),
  };
}
