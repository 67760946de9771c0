// Reading a chess game's view (rules.view) for drawing: the board from the
// FEN (multi-digit empty runs, 12 x 12 and larger), the legal moves grouped by
// square, the last move, check, the setup choices. Piece names in English and
// French for the letters of Zanzibar-S (and orthodox chess), used when the
// server sends none.

const FILES = "abcdefghijklmnop";
const LEGEND_ORDER = ["k", "q", "g", "u", "l", "f", "r", "c", "v", "b", "n", "z", "m", "e", "w", "i", "p"];

const NAMES = {
  en: { k: "King", q: "Queen", g: "Eagle", l: "Lion", u: "Rhinoceros", f: "Buffalo", i: "Prince",
        b: "Bishop", n: "Knight", m: "Camel", r: "Rook", c: "Cannon", e: "Elephant", z: "Giraffe",
        v: "Crocodile", w: "Machine", p: "Pawn", a: "Archbishop", d: "Duchess", s: "Sorceress" },
  fr: { k: "Roi", q: "Dame", g: "Aigle", l: "Lion", u: "Rhinocéros", f: "Buffle", i: "Prince",
        b: "Fou", n: "Cavalier", m: "Chameau", r: "Tour", c: "Canon", e: "Éléphant", z: "Girafe",
        v: "Crocodile", w: "Machine", p: "Pion", a: "Archevêque", d: "Duchesse", s: "Sorcière" },
};

let serverNames = null;

/** Piece names sent by the server ({letter: {en, fr}} or {letter: name}) take precedence. */
export function setPieceNames(names) {
  serverNames = names || null;
}

export function pieceName(letter, lang) {
  const key = String(letter).toLowerCase();
  const fromServer = serverNames?.[key] ?? serverNames?.[key.toUpperCase()];
  if (fromServer) return typeof fromServer === "string" ? fromServer : fromServer[lang] || fromServer.en || key;
  return (NAMES[lang] || NAMES.en)[key] || (NAMES.en[key] ?? key.toUpperCase());
}

export function squareName(file, rank) {
  return `${FILES[file]}${rank + 1}`;
}

function parseSquare(sq) {
  const m = /^([a-p])(\d{1,2})$/.exec(sq);
  return m ? { file: FILES.indexOf(m[1]), rank: Number(m[2]) - 1 } : null;
}

/** Parse the placement field of a FEN into {squares: Map, files, ranks}. */
export function parseFen(fen) {
  const [placement = "", side = "w"] = String(fen || "").trim().split(/\s+/);
  const rows = placement.split("/");
  const ranks = rows.length;
  const squares = new Map();
  let files = 0;
  rows.forEach((row, index) => {
    const rank = ranks - 1 - index;
    let file = 0;
    const tokens = row.match(/\d+|\+?[A-Za-z]~?/g) || [];
    for (const token of tokens) {
      if (/^\d+$/.test(token)) {
        file += Number(token);
        continue;
      }
      const letter = token.replace(/[+~]/g, "");
      squares.set(squareName(file, rank), { letter: letter.toLowerCase(), color: letter === letter.toUpperCase() ? "w" : "b" });
      file += 1;
    }
    files = Math.max(files, file);
  });
  return { squares, files: files || 12, ranks: ranks || 12, side: side === "b" ? "b" : "w" };
}

/** A coordinate move ("f2h4", "e11e12q", "f2-h4") -> {from, to, promotion}. */
export function parseMove(text) {
  const m = /^([a-p]\d{1,2})[-x]?([a-p]\d{1,2})=?([a-zA-Z])?$/.exec(String(text || "").trim());
  return m ? { from: m[1], to: m[2], promotion: m[3] ? m[3].toLowerCase() : null } : null;
}

function findFen(view) {
  const state = view?.state || {};
  return view?.fen || state.fen || state.position?.fen || state.board_fen || null;
}

function moveOfAction(action) {
  if (!action || typeof action !== "object") return null;
  const text = action.move ?? action.uci ?? null;
  return text ? parseMove(text) : null;
}

/** Everything the chess view needs, read from the current view. */
export function chessModel(ctx) {
  const view = ctx.view || {};
  const state = view.state || {};
  if (view.pieces || state.pieces) setPieceNames(view.pieces || state.pieces);
  const board = parseFen(findFen(view));
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const moves = [];
  const setups = [];
  for (const action of legal) {
    const move = moveOfAction(action);
    if (move) moves.push({ ...move, action });
    else if (action.type === "setup") setups.push(action);
  }
  const last = view.last_move || null;
  let lastMove = null;
  if (last) {
    const parsed = typeof last === "string" ? parseMove(last) : parseMove(last.move || "");
    // The sentence the server announced for the last move, if the history holds it.
    const items = ctx.app?.items || [];
    const said = [...items].reverse().find((i) => i.channel === "game" && i.event?.kind === "move");
    lastMove = {
      from: parsed?.from || null,
      to: parsed?.to || null,
      text: said ? `${said.text} (${typeof last === "string" ? last : last.move})` : String(typeof last === "string" ? last : last.move),
    };
  }
  // During the setup nobody moves yet: Black is choosing the arrangement.
  const sideToMove = state.phase === "setup" ? null : board.side;
  return {
    files: board.files,
    ranks: board.ranks,
    sideToMove,
    inCheck: Boolean(view.in_check ?? view.check),
    drawOffered: state.draw_offer !== undefined && state.draw_offer !== null && state.draw_offer >= 0 ? state.draw_offer : null,
    canResign: legal.some((a) => a.type === "resign"),
    canDraw: legal.some((a) => a.type === "draw"),
    lastMove,
    pieceAt: (sq) => board.squares.get(sq) || null,
    // Every piece type of the game (from the start position if the view has it), strongest first.
    letters: () => {
      const start = view.start_fen || state.start_fen || null;
      const source = start ? parseFen(start).squares : board.squares;
      const found = new Set([...source.values()].map((p) => p.letter));
      for (const p of board.squares.values()) found.add(p.letter);
      for (const layout of view.setup_choices || []) for (const ch of String(layout).replace(/\s/g, "")) found.add(ch.toLowerCase());
      return LEGEND_ORDER.filter((l) => found.has(l)).concat([...found].filter((l) => !LEGEND_ORDER.includes(l)).sort());
    },
    coords: (sq) => parseSquare(sq) || { file: 0, rank: 0 },
    defaultCursor: () => (ctx.mySeat === 1 ? squareName(5, board.ranks - 2) : squareName(5, 1)),
    myColor: (c) => (c.mySeat === 0 ? "w" : c.mySeat === 1 ? "b" : null),
    flipped: (c) => c.mySeat === 1,
    targetsFrom: (from) => [...new Set(moves.filter((m) => m.from === from).map((m) => m.to))],
    movesBetween: (from, to) => moves.filter((m) => m.from === from && m.to === to),
    setupActions: (lang) =>
      setups.map((action, index) => {
        const layout = (view.setup_choices || [])[action.arrangement ?? index];
        return { action, layout, label: describeLayout(view.variant, layout, lang) || `#${index + 1}` };
      }),
  };
}

/**
 * The squares each group of a setup layout fills, in order ("KQGL UF": King
 * f12, Queen g12, Eagle f11, Lion g11, Rhinoceros e12, Buffalo h12), as the
 * variant files and the game's help text give them.
 */
const SETUP_SQUARES = {
  "zanzibar-s": [["f12", "g12", "f11", "g11"], ["e12", "h12"]],
  metamachy: [["f12", "g12", "f11", "g11"]],
};

export function describeLayout(variant, layout, lang) {
  if (!layout) return null;
  const groups = SETUP_SQUARES[variant];
  const parts = layout.split(/\s+/);
  if (!groups || parts.length !== groups.length) return layout;
  const words = [];
  parts.forEach((letters, g) => {
    [...letters].forEach((letter, i) => words.push(`${pieceName(letter, lang)} ${groups[g][i] || "?"}`));
  });
  return `${layout}: ${words.join(", ")}`;
}
