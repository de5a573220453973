// Plaza's service worker: caches the shell (style, script, icons) so that pages load fast and an
// offline visit shows a clear page. Pages and the API are never cached: they are personal.
// The server writes a hash of every static file into the name, so a release with new files installs a new worker,
// which fills a new cache and drops the old one.
const CACHE = "plaza-shell-ASSETS_VERSION";
const SHELL = ["/static/app.css", "/static/app.js", "/static/icons/icon.svg", "/static/offline.html"];

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
