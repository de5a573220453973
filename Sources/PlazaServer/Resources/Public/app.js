// Plaza's only script: no inline code (the CSP forbids it), no third parties.
"use strict";

// Forms that destroy something ask once more.
document.addEventListener("submit", (event) => {
  const message = event.target.getAttribute("data-confirm");
  if (message && !window.confirm(message)) event.preventDefault();
});

// The service worker makes Plaza installable and shows an offline page instead of the browser's error.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}
