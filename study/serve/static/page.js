// Runs before textual.js reads the address: take the token (and textual.js's ?ping= / ?delay=) out of the
// address bar, so it is neither shown, bookmarked nor read by textual.js; the HttpOnly cookie carries on.
(function () {
  const params = new URLSearchParams(window.location.search);
  const keep = new URLSearchParams();
  if (params.has("fontsize")) keep.set("fontsize", params.get("fontsize"));
  const rest = keep.toString();
  history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : ""));
  function restart() { window.location.reload(); }
  // The app starts blurred (textual-serve's driver says so) and Textual then hides the footer's keys until
  // focus arrives. Once the app's first screen is here, focus the terminal so its keys show at once and
  // typing works without a click first.
  function focusWhenPainted() {
    const observer = new MutationObserver(function () {
      if (!document.body.classList.contains("-first-byte")) return;
      observer.disconnect();
      const input = document.querySelector(".xterm-helper-textarea");
      if (input) { input.blur(); input.focus(); }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  }
  document.addEventListener("DOMContentLoaded", function () {
    focusWhenPainted();
    for (const id of ["start", "restart"]) {
      const button = document.getElementById(id);
      if (button) button.addEventListener("click", restart);
    }
  });
})();
