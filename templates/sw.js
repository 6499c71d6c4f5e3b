// Mậu Binh Online's service worker (maubinh_site/pwa.py). It keeps the offline page and
// the site's hashed static files, nothing else: pages are always fetched from the network
// and never stored (a shared device must not show another player's page), and API, JSON
// and socket traffic is left alone. Without a network, a page request gets the offline page.
const CACHE = "maubinh-{{ version }}";
const OFFLINE = "{{ offline_url }}";
const SHELL = {{ shell|safe }};
const STATIC = "{{ static_url }}";
// A hashed static name (site.3f2a9c1b7d4e.css) never changes: safe to serve from the cache.
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([new Request(OFFLINE, { credentials: "omit" }), ...SHELL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("maubinh-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith(STATIC) && (HASHED.test(url.pathname) || SHELL.includes(url.pathname))) {
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok && response.type === "basic" && HASHED.test(url.pathname)) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })),
    );
  }
});
