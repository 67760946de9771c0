// Run before the first paint (a classic script in <head>): the saved theme or
// the system's, so the page never flashes the other one. js/theme.js keeps
// it up to date afterwards.
(function () {
  var saved = null;
  try { saved = localStorage.getItem("zanzibar.theme"); } catch (e) { saved = null; }
  var dark = saved === "dark" || saved === "light" ? saved === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
})();
