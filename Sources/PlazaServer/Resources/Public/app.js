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

// "Use my location" buttons fill a form's latitude and longitude from the browser and submit it.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-locate]");
  if (!button) return;
  const form = document.getElementById(button.getAttribute("data-locate"));
  const status = form.querySelector("[data-locate-status]");
  if (!("geolocation" in navigator)) { status.textContent = "This browser cannot tell where you are."; return; }
  status.textContent = "Finding you…";
  navigator.geolocation.getCurrentPosition((position) => {
    form.querySelector("[name=latitude]").value = position.coords.latitude.toFixed(6);
    form.querySelector("[name=longitude]").value = position.coords.longitude.toFixed(6);
    form.submit();
  }, () => { status.textContent = "Location unavailable: allow it for this site, or search by name."; }, { enableHighAccuracy: true, timeout: 15000 });
});

// Sharing from the browser: while on (remembered per browser), positions go to the page endpoint when the
// user moved 10 m or 20 s passed. Only where the page offers it ([data-share-endpoint]) and sharing is on.
(() => {
  const box = document.querySelector("[data-share-endpoint]");
  if (!box) return;
  const button = box.querySelector("[data-share-toggle]");
  const status = box.querySelector("[data-share-status]");
  const csrf = document.querySelector("main").getAttribute("data-csrf");
  let watch = null;
  let last = null;

  function distance(a, b) {
    const rad = Math.PI / 180, dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
  }

  function send(position) {
    const point = { latitude: position.coords.latitude, longitude: position.coords.longitude,
      accuracy: position.coords.accuracy, recordedAt: new Date(position.timestamp || Date.now()).toISOString() };
    if (last && distance(last, point) < 10 && Date.now() - last.sent < 20000) return;
    last = Object.assign({ sent: Date.now() }, point);
    fetch(box.getAttribute("data-share-endpoint"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ points: [point] }),
    }).then((response) => {
      status.textContent = response.ok ? "Sharing: position sent at " + new Date().toLocaleTimeString() + "." : "Plaza refused the position (" + response.status + ").";
      box.setAttribute("data-sent", String(Number(box.getAttribute("data-sent") || 0) + (response.ok ? 1 : 0)));
    }).catch(() => { last = null; status.textContent = "Offline: will send again when you move."; });
  }

  function start() {
    if (!("geolocation" in navigator)) { status.textContent = "This browser cannot tell where you are."; return; }
    localStorage.setItem("plaza-share", "1");
    button.textContent = "Stop sharing from this browser";
    status.textContent = "Waiting for your position…";
    watch = navigator.geolocation.watchPosition(send, () => { status.textContent = "Location unavailable: allow it for this site."; },
      { enableHighAccuracy: true, maximumAge: 5000 });
  }

  function stop() {
    localStorage.removeItem("plaza-share");
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    watch = null;
    button.textContent = "Start sharing from this browser";
    status.textContent = "Not sharing from this browser.";
  }

  button.addEventListener("click", () => (watch === null ? start() : stop()));
  if (localStorage.getItem("plaza-share") === "1") start();
})();

// The merchant's presence list follows /v1/events live (the session cookie authenticates the socket).
(() => {
  const list = document.getElementById("presence");
  if (!list) return;
  // UUIDs arrive upper-case in JSON and lower-case in URLs: compare them lower-cased.
  const business = list.getAttribute("data-business").toLowerCase();
  const names = JSON.parse(list.getAttribute("data-locations") || "{}");
  const status = document.getElementById("live-status");
  let delay = 1000;

  function render(items) {
    list.replaceChildren(...items.map((item) => {
      const li = document.createElement("li");
      li.setAttribute("data-username", item.username);
      const name = document.createElement("strong");
      name.textContent = item.displayName;
      const detail = document.createElement("span");
      detail.className = "muted";
      detail.textContent = " @" + item.username + " · " + (names[String(item.locationId).toLowerCase()] || "") + " · since " + new Date(item.since).toLocaleTimeString();
      li.append(name, detail);
      return li;
    }));
    document.getElementById("present-count").textContent = String(items.length);
    document.getElementById("presence-empty").hidden = items.length > 0;
  }

  function refresh() {
    fetch("/places/businesses/" + business + "/presence.json", { credentials: "same-origin" })
      .then((response) => response.json()).then((page) => render(page.items)).catch(() => {});
  }

  function connect() {
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/events");
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "ready") {
        delay = 1000;
        status.textContent = "live";
        document.body.setAttribute("data-live", "1");
        refresh();
      } else if (event.type.startsWith("presence.") && String(event.data.businessId).toLowerCase() === business) {
        refresh();
      }
    });
    socket.addEventListener("close", () => {
      status.textContent = "reconnecting…";
      document.body.removeAttribute("data-live");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();

// Live fragments: a [data-live-fragment] region reloads its server-rendered HTML from that URL whenever
// /v1/events brings an event whose type starts with one of its [data-live-events] prefixes (and on every
// (re)connect, so nothing missed while offline stays missing). Forms outside the region keep what is typed.
(() => {
  const regions = Array.from(document.querySelectorAll("[data-live-fragment]"));
  if (!regions.length) return;
  const status = document.getElementById("live-status");
  let delay = 1000;

  function refresh(region) {
    return fetch(region.getAttribute("data-live-fragment"), { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => { region.innerHTML = html; localTimes(region); })
      .catch(() => {});
  }
  window.plazaRefreshLive = () => Promise.all(regions.map(refresh));

  function connect() {
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/events");
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "ready") {
        delay = 1000;
        if (status) status.textContent = "live";
        document.body.setAttribute("data-live", "1");
        window.plazaRefreshLive();
        return;
      }
      for (const region of regions) {
        const prefixes = (region.getAttribute("data-live-events") || "").split(",");
        if (prefixes.some((prefix) => prefix && event.type.startsWith(prefix))) refresh(region);
      }
    });
    socket.addEventListener("close", () => {
      if (status) status.textContent = "reconnecting…";
      document.body.removeAttribute("data-live");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();

// Forms marked [data-async] post without leaving the page: the answer is JSON (a problem names what went wrong),
// then the live regions reload. Without this script the same forms post and redirect as usual.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-async]");
  if (!form || event.defaultPrevented || !window.fetch) return;
  event.preventDefault();
  const status = document.querySelector("[data-async-status]");
  const button = form.querySelector("button[type=submit]");
  if (button) button.disabled = true;
  fetch(form.action, {
    method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
    body: new URLSearchParams(new FormData(form)),
  }).then((response) => response.json().then((body) => ({ ok: response.ok, body })))
    .then(({ ok, body }) => {
      if (status) {
        status.hidden = ok;
        status.textContent = ok ? "" : [body.title, body.detail].concat((body.errors || []).map((e) => e.message)).filter(Boolean).join(" ");
      }
      if (ok && form.hasAttribute("data-fresh-key")) {
        form.reset();
        const key = form.querySelector("[name=idempotencyKey]");
        if (key && window.crypto && crypto.randomUUID) key.value = crypto.randomUUID();
      }
      if (window.plazaRefreshLive) return window.plazaRefreshLive();
    })
    .catch(() => { if (status) { status.hidden = false; status.textContent = "No connection: try again."; } })
    .finally(() => { if (button) button.disabled = false; });
});

// "Charge" next to a customer in the shop fills the counter's form.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-pick]");
  if (!button) return;
  const input = document.getElementById("customer");
  input.value = button.getAttribute("data-pick");
  document.getElementById("payCode").value = "";
  document.getElementById("amount").focus();
});

// Times written by the server in UTC are shown in the reader's own clock.
function localTimes(root) {
  root.querySelectorAll("time[datetime]").forEach((time) => {
    const date = new Date(time.getAttribute("datetime"));
    if (isNaN(date)) return;
    time.textContent = time.hasAttribute("data-countdown") || time.textContent.includes("T")
      ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : time.textContent;
  });
}
localTimes(document);
