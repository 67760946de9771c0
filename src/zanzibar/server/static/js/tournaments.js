// Swiss tournaments in the lobby: the list (register, unregister, standings),
// the form that creates one, the standings table, and the tournament events
// (round begins, your table, results and standings) read in the live region.
// The server sends every announcement as a sentence in the user's language.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { gameTitle } from "./options.js";

function ui(app) {
  app.ui.tournaments = app.ui.tournaments || { list: [], shown: null, goTo: null, game: null };
  return app.ui.tournaments;
}

/** Ask the server for the list again (and the tournament shown, if any). */
export async function refresh(app) {
  const state = ui(app);
  try {
    const reply = await app.request("tournament.list");
    state.list = reply.tournaments || [];
    if (state.shown) {
      const shown = await app.request("tournament.show", { tournament: state.shown.id });
      state.shown = shown.tournament;
    }
  } catch {
    /* the section shows what it has */
  }
  if (app.screen === "lobby") app.rerender();
}

/** A tournament message from the server: say it, remember where to go, refresh. */
export function receive(app, msg) {
  const state = ui(app);
  if (msg.text) announce(msg.text, { politeness: msg.type === "tournament.table" ? "assertive" : "polite" });
  if (msg.type === "tournament.table") state.goTo = { table: msg.table, tournament: msg.tournament, round: msg.round };
  refresh(app);
}

async function act(app, type, id, then) {
  try {
    await app.request(type, { tournament: id });
    if (then) announce(then);
    await refresh(app);
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
}

async function show(app, id) {
  const state = ui(app);
  try {
    const reply = await app.request("tournament.show", { tournament: id });
    state.shown = reply.tournament;
    app.rerender();
    document.getElementById("standings-heading")?.focus();
    if (reply.tournament.standings_text) announce(reply.tournament.standings_text);
  } catch (error) {
    announce(t("error_prefix", { message: error.message || error.code }), { politeness: "assertive" });
  }
}

function card(app, tour) {
  const registering = tour.state === "registering";
  return h("li", { class: "table-card", "data-key": `tour${tour.id}`, "aria-labelledby": `tour-${tour.id}` },
    h("h3", { id: `tour-${tour.id}` }, tour.name),
    h("p", { class: "facts" },
      t("tournament_facts", {
        game: tour.title || tour.game, players: tour.players, max: tour.max_players,
        round: tour.round, rounds: tour.rounds,
      }),
      " · ", t(`tournament_state_${tour.state}`)),
    h("div", { class: "row actions" },
      registering
        ? h("button", {
            type: "button", class: "primary", "data-key": "register", "aria-label": t("tournament_register_named", { name: tour.name }),
            onclick: () => act(app, "tournament.register", tour.id, t("tournament_registered", { name: tour.name })),
          }, t("tournament_register"))
        : null,
      registering
        ? h("button", {
            type: "button", "data-key": "unregister", "aria-label": t("tournament_unregister_named", { name: tour.name }),
            onclick: () => act(app, "tournament.unregister", tour.id, t("tournament_unregistered", { name: tour.name })),
          }, t("tournament_unregister"))
        : null,
      h("button", {
        type: "button", "data-key": "standings", "aria-label": t("tournament_standings_named", { name: tour.name }),
        onclick: () => show(app, tour.id),
      }, t("tournament_standings")),
      registering && tour.host === app.user?.name
        ? h("button", { type: "button", "data-key": "start", onclick: () => act(app, "tournament.start", tour.id) }, t("tournament_start"))
        : null));
}

function standingsTable(app) {
  const shown = ui(app).shown;
  if (!shown) return null;
  const lines = shown.standings || [];
  return h("div", { id: "standings-block", "data-key": `standings${shown.id}` },
    h("h3", { id: "standings-heading", tabindex: "-1" }, t("tournament_standings_of", { name: shown.name })),
    lines.length === 0
      ? h("p", {}, t("tournament_no_standings"))
      : h("table", { id: "standings-table" },
          h("caption", {}, t("tournament_standings_caption", { name: shown.name, round: shown.round, rounds: shown.rounds })),
          h("thead", {}, h("tr", {},
            ["col_rank", "col_player", "col_points", "col_buchholz", "col_buchholz_cut1", "col_sb"].map((key) =>
              h("th", { scope: "col" }, t(`tournament_${key}`))))),
          h("tbody", {}, lines.map((line) =>
            h("tr", { "data-key": `e${line.entrant}` },
              h("td", {}, String(line.rank)),
              h("th", { scope: "row" }, line.name),
              h("td", {}, String(line.points)),
              h("td", {}, String(line.buchholz)),
              h("td", {}, String(line.buchholz_cut1)),
              h("td", {}, String(line.sonneborn_berger)))))));
}

async function create(app, event) {
  event.preventDefault();
  const state = ui(app);
  const form = event.target;
  const fields = {
    game: form.elements["tour-game"].value,
    rounds: Number(form.elements["tour-rounds"].value),
    max_players: Number(form.elements["tour-max"].value),
    seats: Number(form.elements["tour-seats"].value),
  };
  const name = form.elements["tour-name"].value.trim();
  if (name) fields.name = name;
  try {
    const reply = await app.request("tournament.create", fields);
    announce(t("tournament_created", { name: reply.tournament.name }));
    state.error = null;
    await refresh(app);
  } catch (error) {
    state.error = error.message || error.code;
    app.rerender();
    announce(t("error_prefix", { message: state.error }), { politeness: "assertive" });
  }
}

function createForm(app) {
  const state = ui(app);
  const games = app.games || [];
  return h("form", { id: "tournament-form", "aria-labelledby": "tournament-create-heading", onsubmit: (e) => create(app, e) },
    h("h3", { id: "tournament-create-heading" }, t("tournament_create")),
    state.error ? h("p", { class: "error", role: "alert" }, state.error) : null,
    h("div", { class: "row" },
      h("div", { class: "field" },
        h("label", { for: "tour-name" }, t("tournament_name")),
        h("input", { id: "tour-name", name: "tour-name", type: "text", maxlength: 48 })),
      h("div", { class: "field" },
        h("label", { for: "tour-game" }, t("tournament_game")),
        h("select", { id: "tour-game", name: "tour-game" },
          games.map((game) => h("option", { value: game.name }, gameTitle(game, game.name))))),
      h("div", { class: "field" },
        h("label", { for: "tour-rounds" }, t("tournament_rounds")),
        h("input", { id: "tour-rounds", name: "tour-rounds", type: "number", min: 1, max: 20, value: "3" })),
      h("div", { class: "field" },
        h("label", { for: "tour-max" }, t("tournament_max")),
        h("input", { id: "tour-max", name: "tour-max", type: "number", min: 2, max: 128, value: "8" })),
      h("div", { class: "field" },
        h("label", { for: "tour-seats" }, t("tournament_seats")),
        h("input", { id: "tour-seats", name: "tour-seats", type: "number", min: 2, max: 16, value: "2" }))),
    h("div", { class: "row actions" }, h("button", { type: "submit", id: "tournament-submit" }, t("tournament_create"))));
}

/** The lobby's tournaments panel. */
export function section(app) {
  const state = ui(app);
  const goTo = state.goTo;
  return h("section", { class: "panel", "aria-labelledby": "tournaments-heading", id: "tournaments-section" },
    h("h2", { id: "tournaments-heading", tabindex: "-1" }, t("tournaments_heading")),
    goTo
      ? h("p", { class: "row actions" },
          h("button", {
            type: "button", class: "primary", id: "tournament-go",
            onclick: () => { state.goTo = null; app.enterTable(goTo.table, { mode: "play" }); },
          }, t("tournament_go", { table: goTo.table, round: goTo.round })))
      : null,
    state.list.length === 0
      ? h("p", { id: "no-tournaments" }, t("tournament_none"))
      : h("ul", { class: "table-cards", id: "tournaments-list", "aria-labelledby": "tournaments-heading" },
          state.list.map((tour) => card(app, tour))),
    standingsTable(app),
    createForm(app));
}
