// Plaza's service worker: caches the shell (style, script, icons) so that pages load fast and an
// offline visit shows a clear page. Pages and the API are never cached: they are personal.
// The server writes a hash of every static file into the name, so a release with new files installs a new worker,
// which fills a new cache and drops the old one.
const CACHE = "plaza-shell-ASSETS_VERSION";
const SHELL = ["/static/app.css", "/static/app.js", "/static/scan.js", "/static/punches.js", "/static/icons/icon.svg", "/static/offline.html"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.registration.navigationPreload && self.registration.navigationPreload.enable())
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    // The browser's own request (navigation preload) carries the navigation's headers, which the server reads.
    event.respondWith(
      Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(request))
        .catch(() => caches.match("/static/offline.html"))
    );
  }
});

// A push message (decrypted by the browser): show it; a repeat with the same id replaces the shown one.
self.addEventListener("push", (event) => {
  let alert = {};
  try { alert = event.data ? event.data.json() : {}; } catch (error) { alert = { title: "Plaza", body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(alert.title || "Plaza", {
    body: alert.body || "",
    tag: alert.id,
    icon: "/static/icons/icon.svg",
    data: { link: alert.link || "/" },
  }));
});

// A tap opens the page the alert names, in a Plaza window already open if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = new URL((event.notification.data && event.notification.data.link) || "/", self.location.origin);
  if (link.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).origin === link.origin && "navigate" in client);
    return open ? open.navigate(link.href).then((client) => (client || open).focus()) : self.clients.openWindow(link.href);
  }));
});

// Offline punches (issue 40): a punch typed or scanned while the connection is down is handed here by the card page,
// kept in IndexedDB sealed with AES-GCM under the person's key (which arrives with each page message and is never
// stored), and sent to Plaza when the connection returns: the page asks on load and when the browser is online again,
// and Background Sync asks where the browser has it. Each punch keeps the id made when it was kept, so a sync cut
// off or sent twice still counts it once; a punch leaves the store only once Plaza has answered for it.
const PUNCHES = "punches";
let lastPage = null;
let flushing = null;

function punchDatabase() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("plaza-offline", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(PUNCHES, { keyPath: "id" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

function punchStore(mode, work) {
  return punchDatabase().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction(PUNCHES, mode);
    const request = work(transaction.objectStore(PUNCHES));
    transaction.oncomplete = () => { db.close(); resolve(request && request.result); };
    transaction.onerror = () => { db.close(); reject(transaction.error); };
  }));
}

const hexBytes = (hex) => new Uint8Array((hex.match(/../g) || []).map((pair) => parseInt(pair, 16)));

function sealingKey(hex) {
  return crypto.subtle.importKey("raw", hexBytes(hex), "AES-GCM", false, ["encrypt", "decrypt"]);
}

// Which person's key sealed a record, without keeping the key: a hash of it.
function owner(hex) {
  return crypto.subtle.digest("SHA-256", hexBytes(hex)).then((digest) =>
    Array.from(new Uint8Array(digest).slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join(""));
}

async function keepPunch(hex, punch) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(hex),
    new TextEncoder().encode(JSON.stringify(punch)));
  const record = { id: punch.id, owner: await owner(hex), iv, sealed };
  await punchStore("readwrite", (store) => store.put(record));
  if (self.registration.sync) self.registration.sync.register("plaza-punches").catch(() => {});
}

// The punches this key can open (another person's stay sealed and untouched).
async function keptPunches(hex) {
  const [key, mine, records] = await Promise.all([sealingKey(hex), owner(hex), punchStore("readonly", (store) => store.getAll())]);
  const punches = [];
  for (const record of records || []) {
    if (record.owner !== mine) continue;
    try {
      const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: record.iv }, key, record.sealed);
      punches.push(JSON.parse(new TextDecoder().decode(opened)));
    } catch (error) { /* not this key's: left alone */ }
  }
  return punches.sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
}

// Sends what this key can open, 100 at a time, and what was kept meanwhile; answers each punch's result with its card.
async function sendPunches(page) {
  const results = [];
  const tried = new Set();
  for (;;) {
    const batch = (await keptPunches(page.key)).filter((punch) => !tried.has(punch.id)).slice(0, 100);
    if (!batch.length) return results;
    batch.forEach((punch) => tried.add(punch.id));
    let answer;
    try {
      const response = await fetch("/loyalty/punches", {
        method: "POST", credentials: "same-origin", signal: AbortSignal.timeout(30000),
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": page.csrf },
        body: JSON.stringify({ punches: batch }),
      });
      // Signed out, throttled or Plaza unwell: what is left stays for the next try.
      if (!response.ok) return results;
      answer = await response.json();
    } catch (error) {
      return results;  // still offline, or the answer was lost: sent again next time, counted once
    }
    // Plaza writes ids in capitals; the page made them in lower case.
    const sent = new Map(batch.map((punch) => [punch.id.toLowerCase(), punch]));
    const answered = answer.results.map((result) => sent.get(String(result.id).toLowerCase())).filter(Boolean);
    await punchStore("readwrite", (store) => answered.forEach((punch) => store.delete(punch.id)));
    answer.results.forEach((result) => {
      const punch = sent.get(String(result.id).toLowerCase());
      if (punch) results.push(Object.assign({}, result, { cardId: punch.cardId }));
    });
  }
}

function flushPunches(page) {
  if (!flushing) flushing = sendPunches(page).catch(() => []).finally(() => { flushing = null; });
  return flushing;
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const port = event.ports && event.ports[0];
  if (!port || typeof message.key !== "string" || !/^[0-9a-f]{64}$/.test(message.key)) return;
  lastPage = { key: message.key, csrf: message.csrf };
  const answer = (work) => event.waitUntil(work.then((value) => port.postMessage(value), () => port.postMessage({ failed: true })));
  if (message.type === "punch-keep") answer(keepPunch(message.key, message.punch).then(() => ({ kept: true })));
  else if (message.type === "punches-waiting") answer(keptPunches(message.key).then((waiting) => ({ waiting })));
  else if (message.type === "punches-sync") answer(flushPunches(lastPage).then((results) => ({ results })));
});

self.addEventListener("sync", (event) => {
  if (event.tag === "plaza-punches" && lastPage) event.waitUntil(flushPunches(lastPage));
});
