// Plaza's only script: no inline code (the CSP forbids it), no third parties.
"use strict";
document.documentElement.classList.add("js");

// The page's words for scripts, from the message catalogue in the page's language (the layout's `plaza-words`):
// `plazaSay("share.sent", { time: "5:48 PM" })`; an unknown key is said as itself, so a mistake shows.
window.plazaWords = (() => {
  try { return JSON.parse(document.getElementById("plaza-words").textContent); } catch (error) { return {}; }
})();
// A plural text is an object of CLDR forms: `plazaSay("map.shops", { count: 3 })` picks "other" and writes 3 in the
// reader's digits.
window.plazaSay = (key, values) => {
  let text = window.plazaWords[key] || key;
  const lang = document.documentElement.lang || "en";
  if (typeof text === "object") {
    let form = "other";
    try { form = new Intl.PluralRules(lang).select(Number(values && values.count)); } catch (error) { form = "other"; }
    text = text[form] || text.other || key;
    values = Object.assign({}, values);
    try { values.count = new Intl.NumberFormat(lang).format(values.count); } catch (error) { /* as given */ }
  }
  return text.replace(/\{([A-Za-z0-9_.]+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
};
const plazaSay = window.plazaSay;

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

// Where the person is, for "Use my location" and the map's "you are here" (issue 39: "Location unavailable" while
// sharing was on, because a second high-accuracy request raced the sharing watch). The sharing watch's latest fix is
// kept in `window.plazaFix` (and announced as a `plaza:fix` event); a fix under a minute old is used as it is. Else the
// browser is asked for a recent fix (a cached one up to a minute old will do) within 10 s, and, when that times out or
// finds nothing, once more without high accuracy (Wi-Fi or cell towers answer where GPS cannot). A failure says which.
window.plazaFix = null;
window.plazaNoteFix = (position) => {
  window.plazaFix = { latitude: position.coords.latitude, longitude: position.coords.longitude,
    accuracy: position.coords.accuracy, at: position.timestamp || Date.now() };
  document.dispatchEvent(new CustomEvent("plaza:fix", { detail: window.plazaFix }));
  return window.plazaFix;
};
window.plazaLocate = (found, failed) => {
  const fix = window.plazaFix;
  if (fix && Date.now() - fix.at < 60000) { found(fix); return; }
  if (!("geolocation" in navigator)) { failed(plazaSay("locate.unsupported")); return; }
  const explain = (error) => {
    if (error && error.code === 1) return plazaSay("locate.denied");
    if (error && error.code === 3) return plazaSay("locate.timeout");
    return plazaSay("locate.failed");
  };
  const ask = (options, otherwise) => navigator.geolocation.getCurrentPosition(
    (position) => found(window.plazaNoteFix(position)),
    (error) => (error.code !== 1 && otherwise ? otherwise() : failed(explain(error))),
    options);
  ask({ enableHighAccuracy: true, maximumAge: 60000, timeout: 10000 },
    () => ask({ enableHighAccuracy: false, maximumAge: 300000, timeout: 20000 }, null));
};

// "Use my location" buttons fill a form's latitude and longitude from the browser and submit it.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-locate]");
  if (!button) return;
  const form = document.getElementById(button.getAttribute("data-locate"));
  const status = form.querySelector("[data-locate-status]");
  status.textContent = plazaSay("locate.finding");
  window.plazaLocate((fix) => {
    form.querySelector("[name=latitude]").value = fix.latitude.toFixed(6);
    form.querySelector("[name=longitude]").value = fix.longitude.toFixed(6);
    form.submit();
  }, (message) => { status.textContent = message; });
});

// Sharing from the browser: once turned on in the settings (remembered per browser), every signed-in Plaza page sends
// positions while it is open (when the person moved 10 m or 20 s passed), and the top bar says "Sharing · Stop", so
// presence neither goes stale on the way out nor vanishes while someone waits on another page.
(() => {
  if (!document.body.hasAttribute("data-signed-in")) return;
  const endpoint = "/places/points";
  const box = document.querySelector("[data-share-endpoint]");
  const button = box && box.querySelector("[data-share-toggle]");
  const status = box && box.querySelector("[data-share-status]");
  const indicator = document.querySelector("[data-sharing-indicator]");
  const csrf = document.querySelector("main").getAttribute("data-csrf");
  let watch = null;
  let last = null;
  const say = (text) => { if (status) status.textContent = text; };

  function distance(a, b) {
    const rad = Math.PI / 180, dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
  }

  function counted() {
    const sent = Number(document.body.getAttribute("data-sent") || 0) + 1;
    document.body.setAttribute("data-sent", String(sent));
    if (box) box.setAttribute("data-sent", String(sent));
  }

  function send(position) {
    window.plazaNoteFix(position);
    const point = { latitude: position.coords.latitude, longitude: position.coords.longitude,
      accuracy: position.coords.accuracy, recordedAt: new Date(position.timestamp || Date.now()).toISOString() };
    if (last && distance(last, point) < 10 && Date.now() - last.sent < 20000) return;
    last = Object.assign({ sent: Date.now() }, point);
    fetch(endpoint, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ points: [point] }),
    }).then((response) => {
      if (response.ok) {
        counted();
        say(plazaSay("share.sent", { time: new Date().toLocaleTimeString(document.documentElement.lang, { hour: "numeric", minute: "2-digit" }) }));
      } else if (response.status === 409 || response.status === 403) {
        stop();
        say(plazaSay("share.off"));
      } else {
        say(plazaSay("share.refused", { status: response.status }));
      }
    }).catch(() => { last = null; say(plazaSay("share.offline")); });
  }

  function start() {
    if (!("geolocation" in navigator)) { say(plazaSay("share.unsupported")); return; }
    localStorage.setItem("plaza-share", "1");
    if (button) button.textContent = plazaSay("share.stop");
    if (indicator) indicator.hidden = false;
    say(plazaSay("share.waiting"));
    watch = navigator.geolocation.watchPosition(send, () => say(plazaSay("share.unavailable")),
      { enableHighAccuracy: true, maximumAge: 5000 });
  }

  function stop() {
    localStorage.removeItem("plaza-share");
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    watch = null;
    last = null;
    if (button) button.textContent = plazaSay("share.start");
    if (indicator) indicator.hidden = true;
    say(plazaSay("share.stopped"));
  }

  if (button) button.addEventListener("click", () => (watch === null ? start() : stop()));
  document.addEventListener("click", (event) => { if (event.target.closest("[data-sharing-stop]")) stop(); });
  if (localStorage.getItem("plaza-share") === "1") start();
})();

// One /v1/events socket per signed-in page (the session cookie authenticates it): parts of the page subscribe by
// event-type prefix, and every (re)connect tells them to catch up, so nothing missed while offline stays missing.
const plazaEvents = (() => {
  const listeners = [];
  const status = () => document.getElementById("live-status");
  let delay = 1000;
  let started = false;

  function connect() {
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/events");
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "ready") {
        delay = 1000;
        if (status()) status().textContent = plazaSay("live");
        document.body.setAttribute("data-live", "1");
        listeners.forEach((listener) => listener.ready());
        return;
      }
      for (const listener of listeners) {
        if (listener.prefixes.some((prefix) => prefix && event.type.startsWith(prefix))) listener.event(event);
      }
    });
    socket.addEventListener("close", () => {
      if (status()) status().textContent = "reconnecting…";
      document.body.removeAttribute("data-live");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }

  return {
    on(prefixes, event, ready) {
      listeners.push({ prefixes, event, ready: ready || (() => {}) });
      if (!started && document.body.hasAttribute("data-signed-in")) { started = true; connect(); }
    },
  };
})();

// The navigation's badges: charges waiting and inbox entries not seen yet, kept current by the events.
(() => {
  if (!document.body.hasAttribute("data-signed-in")) return;
  const places = { charges: ".tabs a[href='/wallet']", inbox: ".tabs a[href='/inbox']",
    chats: "nav[aria-label='Campus marketplace'] a[href='/market/conversations']" };
  function paint(name, count, label) {
    let badge = document.querySelector("[data-badge=" + name + "]");
    const link = document.querySelector(places[name]);
    if (!link) return;
    if (!count) { if (badge) badge.remove(); return; }
    if (!badge) {
      badge = document.createElement("b");
      badge.className = "badge";
      badge.setAttribute("data-badge", name);
      link.append(badge);
    }
    badge.textContent = count > 99 ? "99+" : String(count);
    badge.setAttribute("aria-label", badge.textContent + " " + label);
  }
  function refresh() {
    fetch("/home/badges.json", { credentials: "same-origin" }).then((response) => response.json())
      .then((badges) => {
        paint("charges", badges.charges, "waiting");
        paint("inbox", badges.inbox, "new");
        paint("chats", badges.chats, "unread");
      }).catch(() => {});
  }
  plazaEvents.on(["charge.", "transfer.", "payment_request.", "top_up.", "withdrawal.", "loyalty.redeemed", "market.message"],
    refresh, refresh);
})();

// Arrivals (a charge to answer, a chat message, a punch, a decision about the reader) show as a banner on whatever page
// is open, worded by the server; a page that is itself about it shows it already, so it gets none there. At most three.
(() => {
  const region = document.querySelector("[data-arrivals]");
  if (!region) return;
  plazaEvents.on(["notification.arrived"], (event) => {
    const notice = event.data || {};
    if (!notice.title || (notice.link && new URL(notice.link, location.href).pathname === location.pathname)) return;
    const banner = document.createElement("div");
    banner.className = "arrival";
    banner.setAttribute("data-arrival", "");
    const link = document.createElement("a");
    link.href = notice.link || "/inbox";
    const title = document.createElement("strong");
    title.textContent = notice.title;
    link.append(title);
    if (notice.body) {
      const body = document.createElement("span");
      body.textContent = notice.body;
      link.append(body);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.setAttribute("aria-label", region.getAttribute("data-dismiss") || "Dismiss");
    close.addEventListener("click", () => banner.remove());
    banner.append(link, close);
    region.prepend(banner);
    while (region.children.length > 3) region.lastElementChild.remove();
  });
})();

// The merchant's presence list follows the events live.
(() => {
  const list = document.getElementById("presence");
  if (!list) return;
  // UUIDs arrive upper-case in JSON and lower-case in URLs: compare them lower-cased.
  const business = list.getAttribute("data-business").toLowerCase();
  const names = JSON.parse(list.getAttribute("data-locations") || "{}");

  function render(items) {
    list.replaceChildren(...items.map((item) => {
      const li = document.createElement("li");
      li.setAttribute("data-username", item.username);
      const name = document.createElement("strong");
      name.textContent = item.displayName;
      const detail = document.createElement("span");
      detail.className = "muted";
      detail.textContent = " @" + item.username + " · " + (names[String(item.locationId).toLowerCase()] || "") + " · since "
        + new Date(item.since).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
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
  plazaEvents.on(["presence."], (event) => { if (String(event.data.businessId).toLowerCase() === business) refresh(); }, refresh);
})();

// Live fragments: a [data-live-fragment] region reloads its server-rendered HTML from that URL whenever an event
// arrives whose type starts with one of its [data-live-events] prefixes. Forms outside the region keep what is typed.
(() => {
  const regions = Array.from(document.querySelectorAll("[data-live-fragment]"));
  if (!regions.length) return;

  function refresh(region) {
    return fetch(region.getAttribute("data-live-fragment"), {
      credentials: "same-origin", headers: { Accept: "text/html", "X-Plaza-Fragment": "1" },
    })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        // The same answer again (two events of one change) leaves the region alone: nothing flickers or goes stale.
        region.setAttribute("data-refreshed", String(Date.now()));
        if (html === region.plazaLast) return;
        region.plazaLast = html;
        // Punches added since the last look pop in (a loyalty card filling up as the counter punches it).
        const before = region.querySelectorAll(".punches i.on").length;
        const focused = region.contains(document.activeElement) ? document.activeElement : null;
        region.innerHTML = html;
        if (focused) keepFocus(region, focused);
        if (window.plazaMaps) window.plazaMaps(region);
        region.querySelectorAll(".punches i.on").forEach((dot, index) => { if (index >= before) dot.classList.add("pop"); });
        // A card that stopped collecting (filled at the counter just now) hides what only a collecting card offers.
        const card = region.querySelector("[data-card-state]");
        if (card) document.querySelectorAll("[data-while-active]").forEach((part) => { part.hidden = card.getAttribute("data-card-state") !== "Active"; });
      })
      .catch(() => {});
  }
  // Someone on the keyboard had focus inside the region: it stays on the same control drawn again (same id, or same
  // kind, name and words), or, when that control went (the charge just paid), on the region, never lost to the page.
  function keepFocus(region, old) {
    const same = (element) => element.tagName === old.tagName && element.getAttribute("name") === old.getAttribute("name")
      && element.getAttribute("href") === old.getAttribute("href") && element.textContent.trim() === old.textContent.trim();
    const again = (old.id && document.getElementById(old.id))
      || Array.from(region.querySelectorAll(old.tagName)).find(same);
    if (again && region.contains(again)) return again.focus();
    if (!region.hasAttribute("tabindex")) region.tabIndex = -1;
    region.focus();
  }
  window.plazaRefreshLive = () => Promise.all(regions.map(refresh));
  for (const region of regions) {
    const prefixes = (region.getAttribute("data-live-events") || "").split(",");
    // Reconnecting catches up on what was missed, except in a region that shows a refused form or is being typed in
    // (it was rendered just now, and reloading would lose the error or the text).
    const busy = () => region.querySelector("[aria-invalid='true'], .form-error")
      || (region.contains(document.activeElement) && document.activeElement.matches("input, textarea, select"));
    if (prefixes[0]) plazaEvents.on(prefixes, () => refresh(region), () => { if (!busy()) refresh(region); });
    // A region that turns by the clock (the loyalty counter's code) reloads at each turn, on the 30-second mark.
    const every = Number(region.getAttribute("data-refresh-every")) * 1000;
    if (every) {
      const turn = () => { if (!busy()) refresh(region); setTimeout(turn, every - (Date.now() % every) + 50); };
      setTimeout(turn, every - (Date.now() % every) + 50);
    }
  }
})();

// Forms marked [data-async] post without leaving the page: the answer is JSON (a problem names what went wrong),
// then the live regions reload. Without this script the same forms post and redirect as usual.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-async]");
  if (!form || event.defaultPrevented || !window.fetch) return;
  event.preventDefault();
  // A form with its own status element (a refund beside its row) says its errors there; others at the page's.
  const status = form.querySelector("[data-async-status]") || document.querySelector("[data-async-status]");
  const done = document.querySelector("[data-async-done]");
  const button = form.querySelector("button[type=submit]");
  // Disabling the focused button drops focus to the page: it comes back to the button when nothing else took it.
  const pressed = button && document.activeElement === button;
  if (button) button.disabled = true;
  fetch(form.action, {
    method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
    body: new URLSearchParams(new FormData(form)),
  }).then((response) => response.json().then((body) => ({ ok: response.ok, body })))
    .then(({ ok, body }) => {
      if (!ok && secondFactorStep(form, body)) return;
      if (status) {
        status.hidden = ok;
        status.textContent = ok ? "" : [body.title, body.detail].concat((body.errors || []).map((e) => e.message)).filter(Boolean).join(" ");
      }
      if (done) {
        done.hidden = !(ok && body.message);
        done.textContent = ok && body.message ? body.message : "";
      }
      if (ok && form.hasAttribute("data-fresh-key")) {
        form.reset();
        const key = form.querySelector("[name=idempotencyKey]");
        if (key && window.crypto && crypto.randomUUID) key.value = crypto.randomUUID();
      }
      if (ok && window.plazaRefreshLive) return window.plazaRefreshLive().then(() => tellWhatHappened(done));
      tellWhatHappened(ok ? done : status);
    })
    .catch(() => { if (status) { status.hidden = false; status.textContent = plazaSay("offline"); } })
    .finally(() => {
      if (!button) return;
      button.disabled = false;
      if (pressed && button.isConnected && document.activeElement === document.body) button.focus();
    });
});

// After an async form, focus that was on a control now gone (or parked on its redrawn region) moves to the message
// saying what happened, so a keyboard user goes on from there and a screen reader reads it.
function tellWhatHappened(message) {
  if (!message || message.hidden) return;
  const at = document.activeElement;
  if (at && at !== document.body && !at.matches("[data-live-fragment]")) return;
  message.tabIndex = -1;
  message.focus();
}

// Money waiting for a second factor (403 second_factor_required or invalid_code): the form's second step, a field for
// the authenticator app's code (as the server renders it without this script). False when the form has no place for it.
function secondFactorStep(form, body) {
  const slot = form.querySelector("[data-second-factor-slot]");
  if (!slot || (body.code !== "second_factor_required" && body.code !== "invalid_code")) return false;
  slot.textContent = "";
  if (body.code === "second_factor_required" && body.factors && body.factors.length === 0) {
    const box = document.createElement("div");
    box.className = "notice second-factor";
    box.setAttribute("role", "alert");
    box.append(plazaSay("second_factor.none") + " ");
    const link = document.createElement("a");
    link.href = "/account/security";
    link.textContent = plazaSay("second_factor.where");
    box.append(link, ".");
    slot.append(box);
    return true;
  }
  const id = "second-factor-code-" + Math.random().toString(36).slice(2, 8);
  const box = document.createElement("div");
  box.className = "second-factor";
  const lead = document.createElement("p");
  lead.setAttribute("role", "status");
  lead.textContent = plazaSay("second_factor.step");
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = plazaSay("second_factor.code");
  const input = document.createElement("input");
  Object.assign(input, { id, name: "secondFactor", inputMode: "numeric", autocomplete: "one-time-code", required: true, maxLength: 20 });
  box.append(lead);
  // An account with a passkey may answer with it (passkeys.js); an invalid code's problem names no factors again.
  const factors = body.factors || JSON.parse(form.dataset.factors || "[]");
  form.dataset.factors = JSON.stringify(factors);
  if (factors.some((factor) => factor.kind === "passkey")) {
    const words = document.querySelector("[data-passkey-words]");
    const use = Object.assign(document.createElement("button"), { type: "button", className: "secondary" });
    use.setAttribute("data-passkey-answer", "");
    use.textContent = (words && words.getAttribute("data-use")) || plazaSay("second_factor.passkey");
    const said = Object.assign(document.createElement("p"), { className: "field-error", hidden: true });
    said.setAttribute("data-passkey-error", "");
    box.append(use, said);
    if (!factors.some((factor) => factor.kind === "totp")) label.textContent = (words && words.getAttribute("data-recovery")) || label.textContent;
  }
  box.append(label, input);
  if (body.code === "invalid_code") {
    const error = document.createElement("p");
    error.className = "field-error";
    error.id = id + "-error";
    error.textContent = (body.errors && body.errors[0] && body.errors[0].message) || body.title;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", error.id);
    box.append(error);
  }
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.textContent = plazaSay("second_factor.lost");
  box.append(hint);
  slot.append(box);
  input.focus();
  return true;
}

// "Charge" next to a customer in the shop fills the counter's form.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-pick]");
  if (!button) return;
  const input = document.getElementById("customer");
  input.value = button.getAttribute("data-pick");
  document.getElementById("payCode").value = "";
  document.getElementById("amount").focus();
});

// The server writes times in the reader's time zone: tell it the browser's (an account's own setting wins).
(() => {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !document.cookie.split("; ").includes("plaza_tz=" + encodeURIComponent(zone))) {
      document.cookie = "plaza_tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax";
    }
  } catch (error) { /* an old browser: times stay in UTC */ }
})();

// A wizard ([data-wizard]) shows one step at a time; the step with an error opens first. Without this script
// every step shows at once and the form works the same.
(() => {
  const wizard = document.querySelector("[data-wizard]");
  if (!wizard) return;
  const steps = Array.from(wizard.querySelectorAll("[data-step]"));
  const invalid = steps.findIndex((step) => step.querySelector("[aria-invalid=true], .field-error"));
  let current = invalid >= 0 ? invalid : 0;
  function show(index) {
    current = index;
    steps.forEach((step, i) => step.classList.toggle("current", i === index));
    const first = steps[index].querySelector("input:not([type=hidden]), select");
    if (first && index > 0) first.focus();
    window.dispatchEvent(new Event("resize"));
  }
  wizard.addEventListener("click", (event) => {
    if (event.target.closest("[data-next]")) show(Math.min(current + 1, steps.length - 1));
    if (event.target.closest("[data-back]")) show(Math.max(current - 1, 0));
  });
  show(current);
})();

// "Use my location" beside a map: fills the form's latitude and longitude without submitting it.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-fill-location]");
  if (!button) return;
  const form = document.getElementById(button.getAttribute("data-fill-location"));
  const status = button.parentElement.querySelector("[data-locate-status]");
  status.textContent = plazaSay("locate.finding");
  window.plazaLocate((fix) => {
    form.querySelector("[name=latitude]").value = fix.latitude.toFixed(6);
    form.querySelector("[name=longitude]").value = fix.longitude.toFixed(6);
    form.querySelector("[name=latitude]").dispatchEvent(new Event("change", { bubbles: true }));
    status.textContent = plazaSay("locate.placed");
  }, (message) => { status.textContent = message.replace(plazaSay("locate.search_by_name"), plazaSay("locate.tap_the_map")); });
});

// Push notifications on this device: the permission prompt comes only from the person's tap on the button, never on
// page load. The browser's subscription (to the key the button carries) is handed to Plaza, which encrypts each alert
// for it; the service worker shows them.
(() => {
  const button = document.querySelector("[data-push-enable]");
  if (!button) return;
  const status = document.querySelector("[data-push-status]");
  const say = (text) => { if (status) status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(plazaSay("push.unsupported"));
    button.hidden = true;
    return;
  }
  if (Notification.permission === "denied") say(plazaSay("push.blocked"));
  const applicationServerKey = () => {
    const text = button.getAttribute("data-key").replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(plazaSay("push.refused"));
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = (await registration.pushManager.getSubscription())
        || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey() }));
      const csrf = document.querySelector("main").getAttribute("data-csrf");
      const response = await fetch(button.getAttribute("data-endpoint"), {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ platform: "webpush", subscription: subscription.toJSON() }),
      });
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        throw new Error([problem.title].concat((problem.errors || []).map((e) => e.message)).filter(Boolean).join(" ") || response.status);
      }
      location.assign(location.pathname + "?notice=device-added#devices");
    } catch (error) {
      say(plazaSay("push.failed", { reason: error && error.message ? error.message : error }));
    } finally {
      button.disabled = false;
    }
  });
})();

// The campaign editor ([data-campaign-editor]) shows the offer card as customers will see it while the merchant types,
// and the coupon's fields only for a coupon. Without this script the server's preview shows what was last saved.
(() => {
  const form = document.querySelector("form[data-campaign-editor]");
  if (!form) return;
  const preview = form.querySelector("[data-campaign-preview]");
  const couponPart = form.querySelector("[data-coupon-only]");
  const locale = form.getAttribute("data-locale") || "en-US";
  const currency = form.getAttribute("data-currency") || "USD";
  const value = (name) => { const field = form.elements.namedItem(name); return field && field.value ? field.value.trim() : ""; };
  const put = (name, text) => {
    const part = preview.querySelector("[data-preview-" + name + "]");
    if (!part) return;
    part.textContent = text;
    part.hidden = !text;
  };
  const amount = (text) => {
    const number = Number(text.replace(/[^0-9.,]/g, "").replace(/,(\d{1,2})$/, ".$1").replace(/,/g, ""));
    if (!text || !(number > 0)) return "";
    try { return new Intl.NumberFormat(locale, { style: "currency", currency }).format(number); } catch (error) { return number.toFixed(2); }
  };
  function kind() {
    const checked = form.querySelector("input[name=kind]:checked");
    return checked ? checked.value : (couponPart && !couponPart.hidden ? "coupon" : "ad");
  }
  function update() {
    const coupon = kind() === "coupon";
    if (couponPart) couponPart.hidden = !coupon;
    put("title", value("title"));
    put("body", value("body"));
    const percent = value("percentOff");
    const off = percent ? plazaSay("campaign.percent_off", { percent }) : (amount(value("amountOff")) ? plazaSay("campaign.amount_off", { amount: amount(value("amountOff")) }) : "");
    put("discount", coupon ? off : "");
    const terms = [];
    if (coupon && amount(value("minimumSpend"))) terms.push(plazaSay("campaign.minimum", { amount: amount(value("minimumSpend")) }));
    if (coupon && amount(value("maxDiscount"))) terms.push(plazaSay("campaign.at_most", { amount: amount(value("maxDiscount")) }));
    put("terms", terms.join(", "));
    // The typed end is a wall-clock time in the reader's zone: written as typed, whatever the browser's zone.
    const end = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value("endsAt"));
    let ends = "";
    if (end) {
      const moment = new Date(Date.UTC(+end[1], +end[2] - 1, +end[3], +end[4], +end[5]));
      ends = plazaSay("campaign.ends", { date: new Intl.DateTimeFormat(locale, {
        day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC",
      }).format(moment) });
    }
    put("ends", ends);
  }
  // Who the target can reach: asked again a moment after the merchant last changed it.
  const reach = form.querySelector("[data-campaign-reach]");
  const reachText = reach && reach.querySelector("[data-reach-text]");
  const targetFields = /^(kind|ageMin|ageMax|female|male|other|studentsOnly|subscribersOnly|pastCustomers)$/;
  let asked = "", timer = 0;
  function estimate() {
    const body = new URLSearchParams(new FormData(form));
    const question = ["kind", "ageMin", "ageMax", "female", "male", "other", "studentsOnly", "subscribersOnly", "pastCustomers"]
      .map((name) => name + "=" + (body.get(name) || "")).join("&");
    if (!reach || question === asked) return;
    asked = question;
    fetch(reach.getAttribute("data-campaign-reach"), {
      method: "POST", credentials: "same-origin", headers: { Accept: "application/json" }, body,
    }).then((response) => response.ok ? response.json() : null)
      .then((answer) => { if (answer && question === asked) reachText.textContent = answer.text; })
      .catch(() => {});
  }
  function changed(event) {
    update();
    if (event && event.target && targetFields.test(event.target.name || "")) {
      clearTimeout(timer);
      timer = setTimeout(estimate, 300);
    }
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  update();
})();

// The new-listing form ([data-listing-form]) and the profile form ([data-photo-form]) upload each chosen photo at once
// (while the rest is filled in) and keep their ids in the form; a refused photo says why beside the photos. A form with
// data-photo-max="1" keeps only the newest.
document.querySelectorAll("form[data-listing-form], form[data-photo-form]").forEach((form) => {
  const max = Number(form.getAttribute("data-photo-max")) || 10;
  const input = form.querySelector("[data-photo-input]");
  const ids = form.querySelector("[data-photo-ids]");
  const previews = form.querySelector("[data-photo-previews]");
  const status = form.querySelector("[data-photo-status]");
  const csrf = form.querySelector("input[name=_csrf]").value;
  const list = () => ids.value.split(",").filter(Boolean);
  function show(id, url) {
    const item = document.createElement("li");
    const image = document.createElement("img");
    image.src = url;
    image.alt = "";
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "small secondary";
    remove.textContent = plazaSay("photos.remove");
    remove.addEventListener("click", () => { ids.value = list().filter((other) => other !== id).join(","); item.remove(); });
    item.append(image, remove);
    previews.append(item);
  }
  input.addEventListener("change", async () => {
    const files = Array.from(input.files || []);
    input.value = "";
    for (const file of files) {
      if (max === 1) { ids.value = ""; previews.replaceChildren(); }
      if (list().length >= max) { status.textContent = plazaSay("photos.at_most", { count: max }); break; }
      status.textContent = plazaSay("upload.uploading", { file: file.name });
      try {
        const response = await fetch("/market/photos", {
          method: "POST", credentials: "same-origin", body: file,
          headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrf, Accept: "application/json" },
        });
        const body = await response.json().catch(() => ({}));
        if (!response.ok) { status.textContent = file.name + ": " + [body.title, body.detail].filter(Boolean).join(" "); continue; }
        ids.value = list().concat([body.id]).join(",");
        show(body.id, body.thumbnailUrl);
        status.textContent = plazaSay("photos.ready", { count: list().length });
      } catch (error) {
        status.textContent = plazaSay("offline");
      }
    }
  });
});

// The counter as a point of sale: tapping an item adds one (its quantity field says how many), "−" takes one off,
// the keypad types the amount in cents as a till does (1, 2, 5, 0 is 12.50), and the total with the chosen tip is
// shown before asking to pay. Without the script the quantities and the amount are typed, and the server adds up.
(() => {
  const form = document.getElementById("charge-form");
  if (!form) return;
  const amount = form.querySelector("[data-keypad-target]");
  const keypad = form.querySelector("[data-keypad]");
  const totalLine = form.querySelector("[data-sale-total-line]");
  const digits = keypad ? Number(keypad.getAttribute("data-digits")) : 2;
  const quantities = () => Array.from(form.querySelectorAll("input[data-price]"));
  const minor = (text) => {
    const clean = String(text || "").replace(/[^0-9.,]/g, "").replace(",", ".");
    const value = Number(clean);
    return clean && isFinite(value) ? Math.round(value * Math.pow(10, digits)) : 0;
  };
  const money = (cents, currency) => {
    try {
      return new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "currency", currency })
        .format(cents / Math.pow(10, digits));
    } catch (error) { return (cents / Math.pow(10, digits)).toFixed(digits) + " " + currency; }
  };
  function update() {
    if (!totalLine) return;
    let goods = quantities().reduce((sum, input) => sum + (Number(input.value) || 0) * Number(input.getAttribute("data-price")), 0);
    goods += amount ? minor(amount.value) : 0;
    const choice = form.querySelector("input[name=tip]:checked");
    let tip = 0;
    if (choice && choice.value === "other") tip = minor((form.querySelector("#tipOther") || {}).value);
    else if (choice && choice.value) tip = Math.floor((goods * Number(choice.value) + 50) / 100);
    const total = totalLine.querySelector("[data-sale-total]");
    const currency = total.getAttribute("data-currency");
    totalLine.hidden = goods <= 0;
    total.textContent = money(goods + tip, currency);
    totalLine.querySelector("[data-sale-tip]").textContent = tip > 0 ? "(tip " + money(tip, currency) + ")" : "";
  }
  form.addEventListener("click", (event) => {
    const add = event.target.closest("[data-sale-add], [data-sale-less]");
    if (add) {
      const input = document.getElementById(add.getAttribute("data-sale-add") || add.getAttribute("data-sale-less"));
      const step = add.hasAttribute("data-sale-add") ? 1 : -1;
      input.value = String(Math.min(999, Math.max(0, (Number(input.value) || 0) + step)) || "");
      update();
      return;
    }
    const key = event.target.closest("[data-key]");
    if (!key || !amount) return;
    let cents = String(minor(amount.value));
    const pressed = key.getAttribute("data-key");
    if (pressed === "clear") cents = "0";
    else if (pressed === "back") cents = cents.slice(0, -1) || "0";
    else if (cents.length < 9) cents = cents === "0" ? pressed : cents + pressed;
    const value = Number(cents);
    amount.value = value ? (value / Math.pow(10, digits)).toFixed(digits) : "";
    update();
  });
  form.addEventListener("input", (event) => {
    if (event.target.id === "tipOther") {
      const other = form.querySelector("input[name=tip][value=other]");
      if (other) other.checked = true;
    }
    update();
  });
  form.addEventListener("change", update);
  form.addEventListener("reset", () => setTimeout(update, 0));
  if (keypad) keypad.hidden = false;
  update();
})();

// "Share" a receipt: the phone's share sheet with the PDF itself, where the browser can share files.
(() => {
  const button = document.querySelector("[data-share-file]");
  if (!button || !navigator.canShare || !window.File) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    fetch(button.getAttribute("data-share-file"), { credentials: "same-origin" })
      .then((response) => (response.ok ? response.blob() : Promise.reject(response.status)))
      .then((blob) => {
        const file = new File([blob], button.getAttribute("data-share-name"), { type: "application/pdf" });
        const title = button.getAttribute("data-share-title");
        return navigator.canShare({ files: [file] }) ? navigator.share({ files: [file], title }) : navigator.share({ title, url: location.href });
      })
      .catch(() => {});
  });
})();
// The pay and request forms' "To" suggests people as it is typed ([data-people-combobox]): the ARIA combobox pattern,
// arrow keys move through the list, Enter or a tap picks, Escape closes. Without this script a name that matches nobody
// is answered beside the field with the same suggestions as links.
document.querySelectorAll("[data-people-combobox]").forEach((box) => {
  const input = box.querySelector("[role=combobox]");
  const list = box.querySelector("[role=listbox]");
  const status = box.querySelector("[data-combobox-status]");
  let people = [];
  let active = -1;
  let timer = null;
  let asked = 0;
  const show = (open) => {
    list.hidden = !open;
    input.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) { active = -1; input.removeAttribute("aria-activedescendant"); }
  };
  const highlight = (index) => {
    active = index;
    list.querySelectorAll("[role=option]").forEach((option, at) => option.setAttribute("aria-selected", at === index ? "true" : "false"));
    if (index >= 0) {
      const option = list.children[index];
      input.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };
  const pick = (index) => {
    const person = people[index];
    if (!person) return;
    input.value = "@" + person.username;
    show(false);
    status.textContent = plazaSay("people.chosen", { name: person.name, username: person.username });
  };
  const render = () => {
    list.replaceChildren();
    people.forEach((person, index) => {
      const option = document.createElement("li");
      option.id = input.id + "-option-" + index;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.dataset.username = person.username;
      const handle = document.createElement("span");
      handle.className = "muted";
      handle.textContent = "@" + person.username;
      option.append(document.createTextNode(person.name), handle);
      option.addEventListener("mousedown", (event) => { event.preventDefault(); pick(index); });
      list.append(option);
    });
    show(people.length > 0 && document.activeElement === input);
    status.textContent = input.value.trim() === "" ? "" : people.length === 0 ? plazaSay("people.none")
      : plazaSay("people.some", { count: people.length });
  };
  const lookUp = async () => {
    const typed = input.value.trim();
    const ticket = ++asked;
    if (typed.replace(/^[@$]/, "") === "") { people = []; render(); return; }
    try {
      const response = await fetch("/wallet/people?q=" + encodeURIComponent(typed), { credentials: "same-origin", headers: { Accept: "application/json" } });
      const found = response.ok ? await response.json() : [];
      if (ticket !== asked) return;  // a newer look-up answers instead
      people = Array.isArray(found) ? found : [];
      render();
    } catch (error) {
      // No connection: the form still works with a typed username.
    }
  };
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(lookUp, 150); });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (list.hidden) { if (people.length) show(true); else return; }
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      highlight((active + step + people.length) % people.length);
    } else if (event.key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault();
      pick(active);
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      show(false);
    }
  });
  input.addEventListener("blur", () => show(false));
});

// A [data-print] button prints the page (the shop's QR poster).
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});

// Recovery codes shown once: copy them, or save them as a text file.
document.addEventListener("click", (event) => {
  const copy = event.target.closest("[data-copy-codes]");
  const save = event.target.closest("[data-download-codes]");
  const button = copy || save;
  if (!button) return;
  const source = document.getElementById(button.getAttribute(copy ? "data-copy-codes" : "data-download-codes"));
  if (!source) return;
  const text = plazaSay("codes.file") + "\n" + source.value + "\n";
  if (copy) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => { button.textContent = plazaSay("codes.copied"); });
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = "plaza-recovery-codes.txt";
  document.body.append(link);
  link.click();
  link.remove();
});
