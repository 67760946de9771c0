// Reading a dice game's view (421 or Zilch) into what dice.js draws. The
// shapes follow the games' state JSON: games/dice421/state.py and
// games/zilch/state.py (their docstrings describe every field).

import { t } from "./i18n.js";

const sameList = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function legalOf(view) {
  return Array.isArray(view.legal) ? view.legal : [];
}

/** 421: three dice highest first; the selection names the dice to roll again. */
function model421(ctx) {
  const view = ctx.view || {};
  const state = view.state || {};
  const legal = legalOf(view);
  const dice = [0, 1, 2].map((i) => (state.dice && state.dice[i] ? Number(state.dice[i]) : null));
  const rolled = dice.every((v) => v);
  const rolls = legal.filter((a) => a.type === "roll");
  const stop = legal.find((a) => a.type === "stop") || null;
  const firstRoll = !rolled || !state.rolls;
  const phaseWord = { draw: t("phase_draw"), charge: t("phase_charge"), decharge: t("phase_decharge"), over: t("phase_over") }[state.phase] || state.phase;
  const facts = [t("phase", { phase: phaseWord })];
  if (state.phase === "charge" || state.pot) facts.push(t("pot", { n: state.pot ?? 0 }));
  if (state.phase === "charge" || state.phase === "decharge") {
    facts.push(t("rolls_left", { n: state.rolls ?? 0, max: state.limit ?? 3 }));
  }
  if (state.playoff) facts.push(t(`playoff_${state.playoff}`));
  const rounds = state.config?.rounds ?? state.config?.losses_to_lose;
  if ((state.round ?? 1) > 1 || (rounds && rounds > 1)) facts.push(t("round_n", { n: state.round ?? 1 }));
  const throwOf = {};
  for (const [seat, faces, n] of state.done || []) throwOf[seat] = `${faces.join("-")} (${t("rolls_n", { n })})`;
  const players = (ctx.names || []).map((_, seat) => ({
    seat,
    tokens: (state.tokens || [])[seat] ?? 0,
    losses: (state.losses || [])[seat] ?? 0,
    out: state.phase === "decharge" && ((state.tokens || [])[seat] ?? 0) === 0,
  }));
  const columns = [
    { label: t("col_tokens"), value: (p) => String(p.tokens) + (p.out ? ` (${t("out")})` : "") },
    { label: t("col_this_turn"), value: (p) => throwOf[p.seat] ?? (p.seat === view.to_act && rolled ? `${dice.join("-")}…` : "—") },
  ];
  if (players.some((p) => p.losses)) columns.push({ label: t("col_losses"), value: (p) => String(p.losses) });
  const rollAction = (selected) => {
    if (!rolls.length) return null;
    if (firstRoll) return rolls.find((a) => a.dice === undefined || a.dice === "all" || (Array.isArray(a.dice) && a.dice.length === 3)) || rolls[0];
    // Nothing selected: roll all three again (as the game's help says).
    const wanted = selected.length ? selected : [0, 1, 2];
    return rolls.find((a) => Array.isArray(a.dice) && sameList(a.dice, wanted)) || null;
  };
  return {
    dice,
    stamp: JSON.stringify([state.dice, state.rolls, (state.done || []).length, state.turns, state.phase]),
    kept: null,
    keptLabel: null,
    combination: null,
    facts,
    columns,
    players,
    selectable: (index) => rolled && !firstRoll && Boolean(dice[index]) && rolls.length > 0,
    rollAction,
    rollRefusal: () => (rolls.length === 0 ? t("no_more_rolls") : t("cannot_roll")),
    stopAction: () => stop,
    stopRefusal: () => t("cannot_stop"),
    rollLabel: (selected) => (firstRoll || selected.size === 0 ? t("roll_all") : t("roll_selected")),
    stopLabel: t("stop"),
  };
}

/** Zilch: the dice of the last roll; the selection names the scoring dice to set aside. */
function modelZilch(ctx) {
  const view = ctx.view || {};
  const state = view.state || {};
  const legal = legalOf(view);
  const roll = state.phase === "choose" && Array.isArray(state.roll) ? state.roll.map(Number) : [];
  const dice = roll.length ? [...roll] : Array(state.dice_left || 6).fill(null);
  const rolls = legal.filter((a) => a.type === "roll");
  const banks = legal.filter((a) => a.type === "bank");
  const keepOf = (a) => (Array.isArray(a.keep) ? [...a.keep].sort((x, y) => x - y) : []);
  const facts = [t("turn_points", { n: state.turn_points ?? 0 })];
  if (view.threshold) facts.push(t("bank_needs", { n: view.threshold }));
  if (state.stage === "final") facts.push(t("final_round"));
  if (state.stage === "tiebreak") facts.push(t("tiebreak"));
  const players = (ctx.names || []).map((_, seat) => ({
    seat,
    score: (state.scores || [])[seat] ?? 0,
    entered: (state.entered || [])[seat],
  }));
  const columns = [
    { label: t("col_score"), value: (p) => String(p.score) },
    { label: t("col_entered"), value: (p) => (p.entered ? t("yes") : t("no")) },
  ];
  const find = (list, selected) => list.find((a) => sameList(keepOf(a), selected)) || null;
  return {
    dice,
    stamp: JSON.stringify([state.phase, state.roll, state.turn_points, state.current]),
    kept: null,
    keptLabel: null,
    combination: null,
    extraDice: state.kept && state.kept.length ? t("set_aside", { dice: state.kept.join(" ") }) : null,
    keptDice: (state.kept || []).map(Number),
    facts,
    columns,
    players,
    selectable: (index) => index < roll.length && rolls.length + banks.length > 0,
    rollAction: (selected) => (state.phase === "start" ? rolls[0] || null : find(rolls, selected)),
    selectAll: () => {
      // The largest set of dice that can be set aside together. (The union of
      // every legal choice is not one: with four sixes where only three of a
      // kind score, each triple is legal but the four are not.)
      let best = [];
      for (const a of [...rolls, ...banks]) if (keepOf(a).length > best.length) best = keepOf(a);
      return best;
    },
    rollRefusal: (selected) => (selected.length ? t("not_scoring") : t("select_scoring")),
    stopAction: (selected) => find(banks, selected),
    stopRefusal: (selected) => (selected.length ? t("cannot_bank") : t("select_scoring")),
    rollLabel: (selected) => (state.phase === "start" ? t("roll_all") : t("set_aside_roll")),
    stopLabel: t("set_aside_bank"),
  };
}

export function diceModel(ctx) {
  return ctx.game === "zilch" ? modelZilch(ctx) : model421(ctx);
}
