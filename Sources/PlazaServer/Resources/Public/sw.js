// Plaza's service worker: caches the shell (style, script, icons) so that pages load fast and an
// offline visit shows a clear page. Pages and the API are never cached: they are personal.
// The server writes a hash of every static file into the name, so a release with new files installs a new worker,
// which fills a new cache and drops the old one.
const CACHE = "plaza-shell-ASSETS_VERSION";
const SHELL = ["/static/app.css", "/static/app.js", "/static/scan.js", "/static/icons/icon.svg", "/static/offline.html"];

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
