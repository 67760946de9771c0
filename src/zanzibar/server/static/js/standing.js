// Standing: the leaderboard of each rating family and players' profiles (ratings
// with their history, last games with their record, statistics), read from the
// HTTP API (GET /api/leaderboard/{family}, GET /api/profile/{name}). Every table
// has a caption and column headers; what is loaded is also said in a sentence
// (one's own rank first), so a screen reader user hears the answer without
// walking the table.

import { h } from "./dom.js";
import { t, lang, botLevel } from "./i18n.js";
import { announce } from "./announce.js";

const PAGE = 20;

export function title() {
  return t("standing_title");
}

export function helpLines() {
  return t("help_standing");
}

function ui(app) {
  return (app.ui.standing = app.ui.standing || { family: null, board: null, profile: null, families: [], error: null });
}

async function getJson(app, path) {
  const headers = app.token ? { Authorization: `Bearer ${app.token}` } : {};
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${sep}lang=${lang()}`, { headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.message || String(response.status));
    error.code = body.code;
    throw error;
  }
  return body;
}

function fail(app, error) {
  const state = ui(app);
  state.error = error.message;
  app.rerender();
  announce(t("error_prefix", { message: error.message }), { politeness: "assertive" });
}

/** Open the view: the families, the first (or last chosen) leaderboard and one's own profile. */
export async function open(app) {
  const state = ui(app);
  app.navigate("standing");
  try {
    state.families = (await getJson(app, "/api/leaderboard")).families; // in the language of now
    await loadBoard(app, state.family || state.families[0].family, 0, { quiet: false });
    if (app.user && !app.user.guest) await loadProfile(app, app.user.name, { focus: false, quiet: true });
  } catch (error) {
    fail(app, error);
  }
}

/** A player's sentence about their own place ("You are 3rd of 12 ..."), or that they have no rating yet. */
function youSentence(board) {
  if (!board.you) return t("standing_you_none", { family: board.title });
  const you = board.you;
  return t(you.provisional ? "standing_you_provisional" : "standing_you", {
    family: board.title, rank: you.rank, total: board.total, rating: String(you.rating), games: you.games,
  });
}

async function loadBoard(app, family, cursor, { quiet = false } = {}) {
  const state = ui(app);
  state.family = family;
  const asked = (state.asked = (state.asked || 0) + 1);
  try {
    const board = await getJson(app, `/api/leaderboard/${encodeURIComponent(family)}?limit=${PAGE}&cursor=${cursor}`);
    if (asked !== state.asked) return; // a later choice (the arrow keys run through the list) wins
    state.family = family;
    state.error = null;
    if (cursor > 0 && state.board && state.board.family === family) {
      board.players = [...state.board.players, ...board.players];
    }
    state.board = board;
    app.rerender();
    if (!quiet) announce(`${t("standing_board_loaded", { family: board.title, total: board.total })} ${youSentence(board)}`);
  } catch (error) {
    fail(app, error);
  }
}

async function loadProfile(app, name, { focus = true, quiet = false } = {}) {
  const state = ui(app);
  try {
    state.profile = await getJson(app, `/api/profile/${encodeURIComponent(name)}`);
    state.error = null;
    app.rerender();
    if (focus) document.getElementById("profile-heading")?.focus();
    if (!quiet) announce(profileSentence(state.profile));
  } catch (error) {
    fail(app, error);
  }
}

function profileSentence(profile) {
  if (!profile.ratings.length) return t("profile_no_ratings", { name: profile.user });
  const parts = profile.ratings.map((r) => t("profile_rating_sentence", {
    family: r.title, rating: String(r.rating), rank: r.rank, games: r.games,
  }));
  return `${t("profile_loaded", { name: profile.user })} ${parts.join(" ")}`;
}

async function setHidden(app, hidden) {
  const state = ui(app);
  try {
    const response = await fetch("/api/profile/settings", {
      method: "PUT",
      headers: { Authorization: `Bearer ${app.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ hidden }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.message || String(response.status));
    if (state.profile) state.profile.hidden = body.hidden;
    app.rerender();
    announce(t(body.hidden ? "profile_now_hidden" : "profile_now_visible"));
  } catch (error) {
    fail(app, error);
  }
}

function boardSection(app) {
  const state = ui(app);
  const board = state.board;
  return h("section", { class: "panel", "aria-labelledby": "board-heading", id: "board-section" },
    h("h2", { id: "board-heading", tabindex: "-1" }, t("leaderboard_heading")),
    h("div", { class: "field" },
      h("label", { for: "board-family" }, t("rating_family")),
      h("select", {
        id: "board-family", value: state.family || "",
        onchange: (e) => loadBoard(app, e.target.value, 0),
      }, state.families.map((f) => h("option", { value: f.family, selected: f.family === state.family }, f.title)))),
    board ? h("p", { id: "board-you" }, youSentence(board)) : null,
    board
      ? board.players.length
        ? h("table", { id: "board-table", class: "data-table" },
            h("caption", {}, t("leaderboard_caption", { family: board.title, total: board.total, n: board.provisional_games })),
            h("thead", {}, h("tr", {},
              h("th", { scope: "col" }, t("col_rank")),
              h("th", { scope: "col" }, t("col_player")),
              h("th", { scope: "col" }, t("col_rating")),
              h("th", { scope: "col" }, t("col_games")))),
            h("tbody", {}, board.players.map((p) =>
              h("tr", { "data-key": `u${p.user}`, class: p.user === app.user?.id ? "me" : null },
                h("td", {}, String(p.rank)),
                h("th", { scope: "row" },
                  p.profile
                    ? h("button", {
                        type: "button", class: "link",
                        "aria-label": t("view_profile_of", { name: p.name }),
                        onclick: () => loadProfile(app, p.name),
                      }, p.name)
                    : p.name),
                h("td", {}, p.provisional ? t("rating_provisional", { rating: String(p.rating) }) : String(p.rating)),
                h("td", {}, String(p.games))))))
        : h("p", { id: "board-empty" }, t("leaderboard_empty", { family: board.title }))
      : h("p", {}, t("loading")),
    board && board.next != null
      ? h("div", { class: "row actions" },
          h("button", { type: "button", id: "more-players", onclick: () => loadBoard(app, board.family, board.next) }, t("more_players")))
      : null,
    board && board.bots.length
      ? h("p", { class: "hint", id: "board-bots" },
          t("bots_fixed", { list: board.bots.map((b) => t("bot_rating", { level: botLevel(b.level), rating: String(b.rating) })).join(", ") }))
      : null);
}

function historyTable(rating) {
  return h("table", { class: "data-table", "data-key": `hist-${rating.family}`, id: `history-${rating.family}` },
    h("caption", {}, t("history_caption", { family: rating.title })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("col_match")),
      h("th", { scope: "col" }, t("col_date")),
      h("th", { scope: "col" }, t("col_place")),
      h("th", { scope: "col" }, t("col_change")),
      h("th", { scope: "col" }, t("col_rating")))),
    h("tbody", {}, rating.history.map((point) =>
      h("tr", { "data-key": `g${point.game}` },
        h("th", { scope: "row" }, h("a", { href: `/api/games/${point.game}` }, t("game_number", { id: point.game }))),
        h("td", {}, (point.date || "").slice(0, 10)),
        h("td", {}, String(point.place)),
        h("td", {}, point.change > 0 ? `+${point.change}` : String(point.change)),
        h("td", {}, String(point.rating))))));
}

function profileSection(app) {
  const state = ui(app);
  const profile = state.profile;
  if (!profile) return null;
  const own = profile.id === app.user?.id;
  return h("section", { class: "panel", "aria-labelledby": "profile-heading", id: "profile-section" },
    h("h2", { id: "profile-heading", tabindex: "-1" }, t("profile_heading", { name: profile.user })),
    own && !app.user?.guest
      ? h("div", { class: "field" },
          h("input", {
            type: "checkbox", id: "profile-hidden", checked: Boolean(profile.hidden),
            "aria-describedby": "profile-hidden-hint",
            onchange: (e) => setHidden(app, e.target.checked),
          }),
          " ", h("label", { for: "profile-hidden", style: "display:inline" }, t("profile_hide")),
          h("p", { class: "hint", id: "profile-hidden-hint" }, t("profile_hide_hint")))
      : null,
    profile.ratings.length
      ? h("table", { class: "data-table", id: "profile-ratings" },
          h("caption", {}, t("ratings_caption", { name: profile.user })),
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("rating_family")),
            h("th", { scope: "col" }, t("col_rating")),
            h("th", { scope: "col" }, t("col_rank")),
            h("th", { scope: "col" }, t("col_games")))),
          h("tbody", {}, profile.ratings.map((r) =>
            h("tr", { "data-key": r.family },
              h("th", { scope: "row" }, r.title),
              h("td", {}, r.provisional ? t("rating_provisional", { rating: String(r.rating) }) : String(r.rating)),
              h("td", {}, String(r.rank)),
              h("td", {}, String(r.games))))))
      : h("p", {}, t("profile_no_ratings", { name: profile.user })),
    profile.ratings.map((r) => historyTable(r)),
    h("table", { class: "data-table", id: "profile-games" },
      h("caption", {}, t("last_games_caption")),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("col_match")),
        h("th", { scope: "col" }, t("col_date")),
        h("th", { scope: "col" }, t("col_result")),
        h("th", { scope: "col" }, t("col_change")))),
      h("tbody", {}, profile.games.map((g) =>
        h("tr", { "data-key": `lg${g.id}` },
          h("th", { scope: "row" }, h("a", { href: g.replay }, t("game_of", { id: g.id, game: g.game }))),
          h("td", {}, (g.finished || "").slice(0, 10)),
          h("td", {}, g.result ? t(`result_${g.result}`) : ""),
          h("td", {}, g.change == null ? t("not_rated") : g.change > 0 ? `+${g.change}` : String(g.change)))))),
    h("table", { class: "data-table", id: "profile-stats" },
      h("caption", {}, t("stats_caption")),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("col_game")),
        h("th", { scope: "col" }, t("col_played")),
        h("th", { scope: "col" }, t("col_won")),
        h("th", { scope: "col" }, t("col_lost")))),
      h("tbody", {}, Object.entries(profile.stats).map(([game, s]) =>
        h("tr", { "data-key": `st-${game}` },
          h("th", { scope: "row" }, app.gameInfo(game)?.title || game),
          h("td", {}, String(s.played)),
          h("td", {}, String(s.won)),
          h("td", {}, String(s.lost)))))));
}

export function render(app) {
  const state = ui(app);
  return [
    state.error ? h("p", { class: "error", role: "alert", id: "standing-error" }, state.error) : null,
    h("div", { class: "row actions" },
      h("button", { type: "button", id: "standing-back", onclick: () => app.navigate("lobby") }, t("back_to_lobby")),
      app.user && !app.user.guest
        ? h("button", { type: "button", id: "my-profile", onclick: () => loadProfile(app, app.user.name) }, t("my_profile"))
        : null),
    boardSection(app),
    profileSection(app),
  ];
}

/**
 * A game this player sat in just ended: say what it did to their rating
 * ("Your Zilch 5000 rating: 1138, up 138."), once the salon has rated it (it
 * rates right after the result is stored, one game at a time over the salon: on a
 * busy salon that takes seconds, so the tries back off, up to about a minute in all).
 * Nothing for a guest, a spectator or a game that counts for no rating.
 */
const RATING_TRIES_MS = [250, 500, 1000, 2000, 4000, 8000, 15000, 30000];

export async function afterGame(app) {
  const gameId = app.table?.game_id;
  const seated = app.table?.you?.seat !== null && app.table?.you?.seat !== undefined;
  if (!app.user || app.user.guest || !seated || gameId == null) return;
  for (const wait of RATING_TRIES_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    let profile;
    try {
      profile = await getJson(app, `/api/profile/${encodeURIComponent(app.user.name)}`);
    } catch {
      return;
    }
    const game = profile.games.find((g) => g.id === gameId);
    if (!game) continue; // not stored yet
    if (!game.family) return; // a game that counts for no rating
    if (game.change == null) continue; // not rated yet
    const rating = profile.ratings.find((r) => r.family === game.family);
    if (!rating) return;
    const change = game.change;
    announce(t(change > 0 ? "rating_after_up" : change < 0 ? "rating_after_down" : "rating_after_same", {
      family: rating.title, rating: String(rating.rating), change: String(Math.abs(change)),
    }));
    return;
  }
}
