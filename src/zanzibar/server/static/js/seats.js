// Small facts about tables and seats (TableSummary/Seat of docs/protocol.md),
// shared by the lobby and the table screen.

/** Nobody sits there: neither a person nor a bot. */
export function isFreeSeat(seat) {
  return !seat.name && !seat.bot && seat.user == null;
}

/** No game runs (waiting for the first, or the last one finished): seats and options may change. */
export function betweenGames(table) {
  return table.state === "waiting" || table.state === "finished";
}
