// The Zanzibar-S view: a 12 x 12 board drawn as an ARIA grid. Arrow keys move
// over the squares (one square holds tabindex 0: a "roving tabindex"), Enter
// or Space picks the piece on the square and then its target (the legal
// targets are announced), Escape cancels. Every square has a full name
// ("f2, White King, legal target"). Moves can also be typed in either
// notation. Black's setup choice and the promotion choice are lists of buttons.

import { h } from "./dom.js";
import { t, lang, joinWords } from "./i18n.js";
import { announce } from "./announce.js";
import { chessModel, pieceName, squareName } from "./chessmodel.js";
import { pieceSvg } from "./pieces.js";

export function helpLines() {
  return t("help_chess");
}

function colorWord(color) {
  return color === "w" ? t("white") : t("black");
}

function squareLabel(model, ui, sq) {
  const piece = model.pieceAt(sq);
  const parts = [piece
    ? t("square_piece", { sq, color: colorWord(piece.color), piece: pieceName(piece.letter, lang()) })
    : t("square_empty", { sq })];
  if (ui.picked === sq) parts.push(t("picked"));
  if (ui.picked && model.targetsFrom(ui.picked).includes(sq)) parts.push(t("legal_target"));
  if (model.lastMove && (model.lastMove.from === sq || model.lastMove.to === sq)) parts.push(t("last_move_mark"));
  return parts.join(", ");
}

function focusSquare(sq) {
  const el = document.querySelector(`[data-square="${sq}"]`);
  if (el) el.focus();
}

function moveCursor(ctx, model, dFile, dRank, absolute = null) {
  const ui = ctx.ui;
  const { file, rank } = model.coords(ui.cursor || model.defaultCursor());
  let f = absolute && absolute.f !== undefined ? absolute.f : file + dFile;
  let r = absolute && absolute.r !== undefined ? absolute.r : rank + dRank;
  f = Math.max(0, Math.min(model.files - 1, f));
  r = Math.max(0, Math.min(model.ranks - 1, r));
  ui.cursor = squareName(f, r);
  ctx.rerender();
  focusSquare(ui.cursor);
}

async function playMove(ctx, model, from, to) {
  const ui = ctx.ui;
  const moves = model.movesBetween(from, to);
  if (moves.length === 0) return false;
  if (moves.length > 1 && moves.some((m) => m.promotion)) {
    ui.promotion = { from, to, moves };
    ctx.rerender();
    document.querySelector("#promotion-panel button")?.focus();
    return true;
  }
  ui.picked = null;
  ui.promotion = null;
  ui.cursor = to;
  await ctx.act(moves[0].action);
  return true;
}

function pick(ctx, model, sq) {
  const ui = ctx.ui;
  if (!ctx.myTurn) {
    announce(squareLabel(model, ui, sq));
    return;
  }
  if (ui.picked && ui.picked !== sq && model.targetsFrom(ui.picked).includes(sq)) {
    playMove(ctx, model, ui.picked, sq);
    return;
  }
  if (ui.picked === sq) {
    ui.picked = null;
    ctx.rerender();
    announce(t("pick_cancelled"));
    return;
  }
  const piece = model.pieceAt(sq);
  if (!piece || piece.color !== model.myColor(ctx)) {
    announce(t("not_your_piece"));
    return;
  }
  const targets = model.targetsFrom(sq);
  const name = t("piece_of", { color: colorWord(piece.color), piece: pieceName(piece.letter, lang()) });
  if (targets.length === 0) {
    announce(t("no_targets", { piece: name, sq }));
    return;
  }
  ui.picked = sq;
  ctx.rerender();
  announce(t("picked_piece", { piece: name, sq, targets: joinWords(targets) }));
}

/** Keys on the board itself (arrows, Enter, Space, Escape, Home, End). */
function boardKey(ctx, event) {
  const model = chessModel(ctx);
  const ui = ctx.ui;
  const flip = model.flipped(ctx);
  const sign = flip ? -1 : 1;
  switch (event.key) {
    case "ArrowUp": moveCursor(ctx, model, 0, sign); return true;
    case "ArrowDown": moveCursor(ctx, model, 0, -sign); return true;
    case "ArrowLeft": moveCursor(ctx, model, -sign, 0); return true;
    case "ArrowRight": moveCursor(ctx, model, sign, 0); return true;
    case "Home": moveCursor(ctx, model, 0, 0, event.ctrlKey ? { f: flip ? model.files - 1 : 0, r: flip ? model.ranks - 1 : 0 } : { f: flip ? model.files - 1 : 0 }); return true;
    case "End": moveCursor(ctx, model, 0, 0, event.ctrlKey ? { f: flip ? 0 : model.files - 1, r: flip ? 0 : model.ranks - 1 } : { f: flip ? 0 : model.files - 1 }); return true;
    case "PageUp": moveCursor(ctx, model, 0, 0, { r: flip ? 0 : model.ranks - 1 }); return true;
    case "PageDown": moveCursor(ctx, model, 0, 0, { r: flip ? model.ranks - 1 : 0 }); return true;
    case "Enter":
    case " ":
      pick(ctx, model, ui.cursor || model.defaultCursor());
      return true;
    case "Escape":
      if (ui.picked) {
        ui.picked = null;
        ctx.rerender();
        announce(t("pick_cancelled"));
        return true;
      }
      return false;
    default:
      return false;
  }
}

export function handleKey(ctx, event) {
  if (!ctx.view) return false;
  if (event.target.closest?.("#board") && boardKey(ctx, event)) return true;
  if (event.shiftKey) return false;
  const model = chessModel(ctx);
  switch (event.code) {
    case "KeyM":
      document.getElementById("move-input")?.focus();
      return true;
    case "KeyB":
      ctx.ui.cursor = ctx.ui.cursor || model.defaultCursor();
      ctx.rerender();
      focusSquare(ctx.ui.cursor);
      return true;
    case "KeyL":
      announce(model.lastMove?.text ? t("last_move", { move: model.lastMove.text }) : t("last_move", { move: "—" }));
      return true;
    case "KeyT":
      ctx.ask("turn");
      return true;
    case "KeyS":
      ctx.ask("status");
      return true;
    case "KeyV":
      ctx.ask("board");
      return true;
    case "KeyG":
      ctx.ask("moves");
      return true;
    case "KeyP":
      ctx.ask("history");
      return true;
    default:
      return false;
  }
}

function boardGrid(ctx, model) {
  const ui = ctx.ui;
  const flip = model.flipped(ctx);
  const cursor = ui.cursor || model.defaultCursor();
  const files = [...Array(model.files).keys()];
  const ranks = [...Array(model.ranks).keys()].reverse();
  if (flip) {
    files.reverse();
    ranks.reverse();
  }
  const targets = ui.picked ? model.targetsFrom(ui.picked) : [];
  const header = h("div", { role: "row", class: "rank", "data-key": "hdr" },
    h("span", { role: "columnheader", class: "coord corner" }, h("span", { class: "visually-hidden" }, t("rank_word"))),
    files.map((f) => h("span", { role: "columnheader", class: "coord", "data-key": `fh${f}` }, "abcdefghijklmnop"[f])));
  const rows = ranks.map((r) =>
    h("div", { role: "row", class: "rank", "data-key": `r${r}` },
      h("span", { role: "rowheader", class: "coord rank-label", "aria-label": t("rank_n", { n: r + 1 }) }, String(r + 1)),
      files.map((f) => {
        const sq = squareName(f, r);
        const piece = model.pieceAt(sq);
        const light = (f + r) % 2 === 1;
        return h("div", {
          role: "gridcell",
          class: `sq ${light ? "light" : "dark"}`,
          "data-key": sq,
          "data-square": sq,
          tabindex: sq === cursor ? "0" : "-1",
          "aria-label": squareLabel(model, ui, sq),
          "aria-selected": ui.picked === sq ? "true" : null,
          "data-target": targets.includes(sq) ? "true" : null,
          "data-occupied": piece ? "true" : null,
          "data-picked": ui.picked === sq ? "true" : null,
          "data-last": model.lastMove && (model.lastMove.from === sq || model.lastMove.to === sq) ? "true" : null,
          onclick: () => {
            ui.cursor = sq;
            pick(ctx, model, sq);
            focusSquare(sq);
          },
          onfocus: () => {
            if (ui.cursor !== sq) {
              ui.cursor = sq;
            }
          },
        },
        piece ? pieceSvg(piece.letter, piece.color) : null);
      })));
  const columns = model.files + 1;
  return h("div", { class: "board-wrap" },
    h("div", {
      id: "board",
      class: "board",
      role: "grid",
      "aria-label": t("board_label", { game: ctx.table?.title || ctx.game, files: model.files, ranks: model.ranks }),
      "aria-describedby": "board-help",
      "data-keys": "own",
      style: `--files: ${columns - 1}; --ranks: ${model.ranks}`,
    }, header, rows),
    h("p", { class: "hint", id: "board-help" }, t("help_chess")[0]));
}

function setupPanel(ctx, model) {
  const setups = model.setupActions(lang());
  if (!setups.length || !ctx.myTurn) return null;
  const ui = ctx.ui;
  if (ui.setupIndex === undefined || ui.setupIndex >= setups.length) ui.setupIndex = 0;
  const choose = async (event) => {
    event.preventDefault();
    const chosen = setups[ui.setupIndex];
    if (chosen && (await ctx.act(chosen.action))) {
      ui.setupIndex = undefined;
      focusSquare(ui.cursor || model.defaultCursor());
    }
  };
  return h("section", { id: "setup-panel", class: "panel", "aria-labelledby": "setup-heading" },
    h("h3", { id: "setup-heading" }, t("setup_heading")),
    h("p", { id: "setup-intro" }, t("setup_intro")),
    h("form", { class: "row", onsubmit: choose, "aria-labelledby": "setup-heading" },
      h("label", { for: "setup-select" }, t("setup_label")),
      h("select", {
        id: "setup-select", "aria-describedby": "setup-intro", value: String(ui.setupIndex),
        onchange: (e) => { ui.setupIndex = Number(e.target.value); },
      }, setups.map((setup, index) =>
        h("option", { value: String(index), selected: index === ui.setupIndex }, `${index + 1}. ${setup.label}`))),
      h("button", { type: "submit", class: "primary", id: "setup-submit" }, t("setup_choose"))));
}

function promotionPanel(ctx, model) {
  const promo = ctx.ui.promotion;
  if (!promo) return null;
  return h("section", { id: "promotion-panel", "aria-labelledby": "promotion-heading", class: "panel" },
    h("h3", { id: "promotion-heading" }, t("promotion_heading")),
    h("div", { class: "row" },
      promo.moves.map((move) =>
        h("button", {
          type: "button", "data-key": `promo-${move.promotion}`,
          onclick: async () => {
            ctx.ui.promotion = null;
            ctx.ui.picked = null;
            ctx.ui.cursor = promo.to;
            await ctx.act(move.action);
            focusSquare(promo.to);
          },
        }, t("promote_to", { piece: pieceName(move.promotion, lang()) }))),
      h("button", {
        type: "button", "data-key": "promo-cancel",
        onclick: () => {
          ctx.ui.promotion = null;
          ctx.ui.picked = null;
          ctx.rerender();
          focusSquare(promo.from);
        },
      }, t("cancel"))));
}

function moveForm(ctx) {
  const submit = async (event) => {
    event.preventDefault();
    const input = document.getElementById("move-input");
    const text = input.value.trim();
    if (!text) return;
    const ok = await ctx.act({ type: "move", move: text });
    if (ok) input.value = "";
    input.focus();
  };
  return h("form", { class: "row", id: "move-form", onsubmit: submit, "aria-label": t("type_move") },
    h("label", { for: "move-input" }, t("type_move")),
    h("input", { type: "text", id: "move-input", autocomplete: "off", spellcheck: "false", size: 12, "aria-describedby": "move-hint" }),
    h("button", { type: "submit", id: "move-submit", "aria-disabled": ctx.myTurn ? null : "true" }, t("play_move")),
    h("span", { class: "hint", id: "move-hint" }, t("type_move_hint")));
}

export function render(ctx) {
  const model = chessModel(ctx);
  const facts = [];
  const myColor = model.myColor(ctx);
  if (myColor) facts.push(t("you_play", { color: colorWord(myColor) }));
  if (model.sideToMove && !ctx.view.over) facts.push(t("to_move", { color: colorWord(model.sideToMove) }));
  if (ctx.view.state?.phase === "setup") facts.push(t("setup_waiting"));
  if (model.inCheck) facts.push(t("check"));
  return h("div", { id: "chess-view" },
    h("div", { class: "chess-top" },
      h("ul", { class: "row plain-list", id: "chess-facts" },
        facts.map((fact, i) => h("li", { class: "badge", "data-key": `f${i}` }, fact))),
      h("p", { id: "last-move" }, t("last_move", { move: model.lastMove?.text || "—" }))),
    setupPanel(ctx, model),
    promotionPanel(ctx, model),
    h("h3", { id: "board-heading", class: "visually-hidden" }, t("board_heading")),
    boardGrid(ctx, model),
    moveForm(ctx),
    h("div", { class: "row", id: "chess-actions" },
      h("button", { type: "button", id: "say-last", onclick: () => announce(t("last_move", { move: model.lastMove?.text || "—" })) }, t("say_last_move")),
      h("button", { type: "button", id: "say-turn", onclick: () => ctx.ask("turn") }, t("say_turn")),
      h("button", { type: "button", id: "say-status", onclick: () => ctx.ask("status") }, t("say_status_chess")),
      h("button", { type: "button", id: "say-board", onclick: () => ctx.ask("board") }, t("say_board")),
      h("button", { type: "button", id: "say-moves", onclick: () => ctx.ask("moves") }, t("say_moves")),
      h("button", { type: "button", id: "say-history", onclick: () => ctx.ask("history") }, t("say_history")),
      model.canDraw
        ? h("button", { type: "button", id: "draw-button", onclick: () => ctx.act({ type: "draw" }) },
            model.drawOffered !== null && model.drawOffered !== ctx.mySeat ? t("accept_draw") : t("offer_draw"))
        : null,
      model.canResign
        ? h("button", { type: "button", id: "resign-button", onclick: () => {
            if (window.confirm(t("resign_confirm"))) ctx.act({ type: "resign" });
          } }, t("resign"))
        : null),
    legend(ctx, model));
}

/** The pieces of this game: each figurine with its name and how it moves. */
function legend(ctx, model) {
  const ui = ctx.ui;
  const letters = model.letters();
  if (!letters.length) return null;
  return h("details", { id: "piece-legend", class: "panel", open: Boolean(ui.legendOpen), ontoggle: (e) => { ui.legendOpen = e.target.open; } },
    h("summary", {}, t("legend_heading")),
    h("ul", { class: "legend-list" },
      letters.map((letter) =>
        h("li", { "data-key": `lg-${letter}` },
          h("span", { class: "legend-pieces" }, pieceSvg(letter, "w")),
          h("span", {},
            h("span", { class: "legend-name" }, pieceName(letter, lang())),
            " — ",
            t(`move_${letter}`) === `move_${letter}` ? "" : t(`move_${letter}`))))));
}
