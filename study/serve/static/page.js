// Runs before textual.js reads the address: take the token (and textual.js's ?ping= / ?delay=) out of the
// address bar, so it is neither shown, bookmarked nor read by textual.js; the HttpOnly cookie carries on.
(function () {
  const params = new URLSearchParams(window.location.search);
  const keep = new URLSearchParams();
  if (params.has("fontsize")) keep.set("fontsize", params.get("fontsize"));
  const rest = keep.toString();
  history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : ""));
  // textual.js opens links and downloads with window.open(url, "_blank"), which hands the new page a handle
  // on this tab (window.opener): the opened page could send the study tab to a look-alike address. Every new
  // tab this page opens gets no opener and no Referer.
  const open = window.open.bind(window);
  window.open = function (url, target) {
    if (target === "_self") return open(url, target);
    return open(url, "_blank", "noopener,noreferrer");
  };
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
