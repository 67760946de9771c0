// The 421 and Zilch view: the dice as pips (SVG) and as text, which dice are
// selected, the roll / stop / bank buttons, the roll limit, everyone's tokens
// or scores, the pot and the phase, and whose turn it is.
//
// Keys (by KeyboardEvent.code, so AZERTY works), as the games' own help
// texts list them for the terminal and the web: Digit1..6 select a die,
// Shift+Digit1..6 unselect it, Space says the selection, R rolls (so does
// Enter inside the game section, away from any button), K stops (421), B banks (Zilch), A selects every scoring die
// (Zilch), D repeats the last roll, S the scores, T the turn, I the status.
// The selection is the player's own until they roll; it is sent with the action.

import { h, s } from "./dom.js";
import { t, joinWords } from "./i18n.js";
import { announce } from "./announce.js";
import { digitOf, activatesItself } from "./keys.js";
import { diceModel } from "./dicemodel.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/** One die face drawn by us: a rounded square with its pips (or blank, not rolled yet). */
export function dieSvg(value, extraClass = "") {
  return s("svg", { viewBox: "0 0 100 100", class: `die-svg ${extraClass}`.trim(), "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "die-shadow", x: 8, y: 10, width: 88, height: 88, rx: 18 }),
    s("rect", { class: "die-face", x: 4, y: 4, width: 88, height: 88, rx: 18 }),
    (PIPS[value] || []).map(([cx, cy]) => s("circle", { class: "pip", cx: cx - 2, cy: cy - 2, r: 8.5 })));
}

/** Dice just rolled shake for a moment (not with prefers-reduced-motion: see main.css). */
function rolling(ctx, model) {
  const ui = ctx.ui;
  const rolled = model.dice.some((v) => v);
  if (ui.rollStamp !== model.stamp) {
    const first = ui.rollStamp === undefined;
    ui.rollStamp = model.stamp;
    ui.rollUntil = rolled && !first ? Date.now() + 450 : 0;
    if (ui.rollUntil) setTimeout(() => ctx.rerender(), 480);
  }
  return Date.now() < (ui.rollUntil || 0);
}

function selectedSet(ctx, model) {
  const ui = ctx.ui;
  // A new roll (or a new turn) clears the selection.
  const stamp = `${ctx.view?.to_act}|${model.stamp}`;
  if (ui.diceStamp !== stamp) {
    ui.diceStamp = stamp;
    ui.selected = new Set();
  }
  return ui.selected;
}

function dieLabel(model, index, selected) {
  const value = model.dice[index];
  const parts = [t("die_n", { n: index + 1, value: value ? String(value) : t("die_not_rolled") })];
  if (model.keptLabel && model.kept?.[index]) parts.push(model.keptLabel);
  if (model.selectable(index)) parts.push(selected.has(index) ? t("die_selected") : t("die_unselected"));
  return parts.join(", ");
}

function selectionText(model, selected) {
  const sel = [];
  const unsel = [];
  model.dice.forEach((value, index) => {
    if (!model.selectable(index)) return;
    const word = `${index + 1} (${value ?? "-"})`;
    (selected.has(index) ? sel : unsel).push(word);
  });
  if (sel.length === 0) return t("selection_none");
  return t("selection", { sel: joinWords(sel), unsel: joinWords(unsel) });
}

function toggle(ctx, model, index, on) {
  if (index < 0 || index >= model.dice.length || !model.selectable(index)) return false;
  const selected = selectedSet(ctx, model);
  if (on) selected.add(index);
  else selected.delete(index);
  announce(`${dieLabel(model, index, selected)}`);
  ctx.rerender();
  return true;
}

function selectAll(ctx, model) {
  const selected = selectedSet(ctx, model);
  selected.clear();
  for (const index of model.selectAll()) selected.add(index);
  announce(selectionText(model, selected));
  ctx.rerender();
}

/** Send the roll ("roll") or the stop/bank ("stop") for the current selection. */
async function doAction(ctx, model, which) {
  const selected = [...selectedSet(ctx, model)].sort((a, b) => a - b);
  const action = which === "roll" ? model.rollAction(selected) : model.stopAction(selected);
  if (!action) {
    const why = which === "roll" ? model.rollRefusal(selected) : model.stopRefusal(selected);
    announce(why, { politeness: "assertive" });
    return;
  }
  await ctx.act(action);
}

/** L: the last few things that happened in the game, from the table's history. */
function sayLastEvents(ctx) {
  const events = (ctx.app.items || []).filter((item) => item.channel === "game").slice(-5);
  announce(events.length ? t("last_events", { events: events.map((e) => e.text).join(" · ") }) : t("history_empty"));
}

function notYourTurn(ctx) {
  announce(t("turn_of", { name: ctx.names[ctx.view.to_act] ?? "?" }));
}

export function helpLines() {
  return t("help_dice");
}

export function handleKey(ctx, event) {
  if (!ctx.view) return false;
  const model = diceModel(ctx);
  const digit = digitOf(event.code);
  if (digit !== null && digit <= 6) {
    if (!ctx.myTurn) {
      notYourTurn(ctx);
      return true;
    }
    return toggle(ctx, model, digit - 1, !event.shiftKey) || true;
  }
  if (event.code === "Space") {
    if (activatesItself(event.target)) return false;
    announce(model.dice.some((v) => v) ? selectionText(model, selectedSet(ctx, model)) : t("no_dice"));
    return true;
  }
  if (event.shiftKey) return false;
  if (event.code === "Enter" || event.code === "NumpadEnter") {
    const inGame = event.target === document.body || event.target.closest?.("#game-section");
    if (!inGame || activatesItself(event.target)) return false;
  }
  switch (event.code) {
    case "Enter":
    case "NumpadEnter":
    case "KeyR":
      if (ctx.myTurn) doAction(ctx, model, "roll");
      else notYourTurn(ctx);
      return true;
    case "KeyK":
    case "KeyB":
      if ((event.code === "KeyB") !== (ctx.game === "zilch")) return false;
      if (ctx.myTurn) doAction(ctx, model, "stop");
      else notYourTurn(ctx);
      return true;
    case "KeyA":
      if (!model.selectAll || !ctx.myTurn) return false;
      selectAll(ctx, model);
      return true;
    case "KeyI":
      ctx.ask("status");
      return true;
    case "KeyD":
      ctx.ask("dice");
      return true;
    case "KeyS":
      ctx.ask("scores");
      return true;
    case "KeyT":
      ctx.ask("turn");
      return true;
    case "KeyL":
      sayLastEvents(ctx);
      return true;
    default:
      return false;
  }
}

function scoreTable(ctx, model) {
  return h("table", { class: "scoreboard", id: "scoreboard" },
    h("caption", { class: "visually-hidden" }, t("players_heading")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("players_heading")),
      model.columns.map((col) => h("th", { scope: "col" }, col.label)))),
    h("tbody", {}, model.players.map((player) =>
      h("tr", { "data-key": `p${player.seat}`, "data-turn": String(player.seat === ctx.view.to_act && !ctx.view.over) },
        h("th", { scope: "row" },
          ctx.names[player.seat] ?? `#${player.seat + 1}`,
          player.seat === ctx.mySeat ? ` ${t("you_mark")}` : "",
          player.seat === ctx.view.to_act && !ctx.view.over ? h("span", { class: "visually-hidden" }, ` (${t("playing_now")})`) : null),
        model.columns.map((col) => h("td", {}, col.value(player)))))));
}

export function render(ctx) {
  const model = diceModel(ctx);
  const selected = selectedSet(ctx, model);
  const canAct = ctx.myTurn;
  const shake = rolling(ctx, model);
  const rollable = canAct && Boolean(model.rollAction([...selected].sort((a, b) => a - b)));
  const stoppable = canAct && Boolean(model.stopAction([...selected].sort((a, b) => a - b)));
  const diceText = model.dice.some((v) => v)
    ? t("dice_text", { dice: model.dice.map((v) => v ?? "-").join(" ") })
    : t("no_dice");
  return h("div", { id: "dice-view", "data-game": ctx.game },
    h("ul", { class: "row", id: "dice-facts" },
      model.facts.map((fact, i) => h("li", { "data-key": `f${i}`, class: "badge" }, fact))),
    h("h3", { id: "dice-heading", tabindex: "-1" }, t("dice_heading")),
    ctx.view.over ? null : h("p", { class: "dice-text", id: "dice-text" }, diceText, model.combination ? ` — ${model.combination}` : ""),
    ctx.view.over ? null : h("div", { class: "dice-row", id: "dice-row", role: "group", "aria-labelledby": "dice-heading" },
      model.dice.map((value, index) => {
        const actionable = canAct && model.selectable(index);
        return h("button", {
          type: "button",
          class: `die${shake && value ? " rolling" : ""}`,
          "data-key": `die${index}`,
          id: `die-${index + 1}`,
          "aria-pressed": model.selectable(index) ? String(selected.has(index)) : null,
          // Not a tab stop unless it can be chosen now (digit keys reach every die).
          "aria-disabled": actionable ? null : "true",
          tabindex: actionable ? null : "-1",
          "aria-label": dieLabel(model, index, selected),
          onclick: () => {
            if (!canAct || !model.selectable(index)) return;
            toggle(ctx, model, index, !selected.has(index));
          },
        },
        dieSvg(value),
        h("span", { class: "die-caption", "aria-hidden": "true" }, `${index + 1}`));
      })),
    model.keptDice?.length > 0 && !ctx.view.over
      ? h("div", { class: "dice-tray", id: "dice-tray" },
          h("span", { class: "tray-label", id: "dice-extra" }, model.extraDice),
          h("span", { class: "tray-dice", "aria-hidden": "true" }, model.keptDice.map((v, i) => h("span", { class: "kept-die", "data-key": `k${i}` }, dieSvg(v)))))
      : null,
    ctx.view.over ? null : h("div", { class: "row", id: "dice-actions" },
      h("button", {
        type: "button", class: "primary", id: "roll-button",
        "aria-disabled": rollable ? null : "true",
        onclick: () => canAct && doAction(ctx, model, "roll"),
      }, `${model.rollLabel(selected)} (R)`),
      model.stopLabel
        ? h("button", {
            type: "button", id: "stop-button",
            "aria-disabled": stoppable ? null : "true",
            onclick: () => canAct && doAction(ctx, model, "stop"),
          }, `${model.stopLabel} (${ctx.game === "zilch" ? "B" : "K"})`)
        : null),
    model.selectAll && !ctx.view.over
      ? h("div", { class: "row", id: "dice-select-all" },
          h("button", {
            type: "button", id: "select-all-button", "aria-disabled": canAct ? null : "true",
            onclick: () => canAct && selectAll(ctx, model),
          }, t("select_all_scoring")))
      : null,
    h("div", { class: "row", id: "dice-questions" },
      h("button", { type: "button", id: "say-selection", onclick: () => announce(model.dice.some((v) => v) ? selectionText(model, selected) : t("no_dice")) }, t("say_selection")),
      h("button", { type: "button", id: "say-dice", onclick: () => ctx.ask("dice") }, t("say_dice")),
      h("button", { type: "button", id: "say-scores", onclick: () => ctx.ask("scores") }, t("say_scores")),
      h("button", { type: "button", id: "say-turn", onclick: () => ctx.ask("turn") }, t("say_turn")),
      h("button", { type: "button", id: "say-status", onclick: () => ctx.ask("status") }, t("say_status")),
      h("button", { type: "button", id: "say-last", onclick: () => sayLastEvents(ctx) }, t("say_last_events"))),
    scoreTable(ctx, model));
}
