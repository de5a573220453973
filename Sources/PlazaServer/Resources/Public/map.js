// Plaza's map: every `.plaza-map` element becomes a pannable, zoomable SVG map.
// No libraries and no inline styles (the CSP forbids them): Web Mercator by hand.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const TILE = 256;
  const MIN_ZOOM = 3, MAX_ZOOM = 19;
  const MAX_LAT = 85.0511287798;
  const REFRESH_MS = 10000, DEBOUNCE_MS = 250;
  const BUSY = {
    quieter: "Quieter than usual", usual: "About as busy as usual",
    busier: "Busier than usual", not_enough_data: "Not enough data yet",
  };

  // ---- Projection: "world" coordinates are 0..1 on both axes (Web Mercator). ----
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const lonToX = (lon) => (lon + 180) / 360;
  const latToY = (lat) => {
    const s = Math.sin(clamp(lat, -MAX_LAT, MAX_LAT) * Math.PI / 180);
    return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
  };
  const xToLon = (x) => x * 360 - 180;
  const yToLat = (y) => Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI;
  // Any longitude into -180..180 (180 itself stays 180, so a bbox can end on the antimeridian).
  const normLon = (lon) => { const l = ((lon + 180) % 360 + 360) % 360 - 180; return l === -180 && lon > 0 ? 180 : l; };
  // Ground metres per CSS pixel at a latitude and (fractional) zoom.
  const metersPerPixel = (lat, zoom) => 40075016.686 * Math.cos(lat * Math.PI / 180) / (TILE * Math.pow(2, zoom));

  // "lat,lon[,r]" into numbers, or null when malformed.
  function numbers(text, count) {
    if (!text) return null;
    const parts = text.split(",").map((s) => Number(s.trim()));
    return parts.length >= count && parts.slice(0, count).every(Number.isFinite) ? parts : null;
  }

  // Small DOM helpers: SVG and HTML elements with attributes (never style strings).
  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, className, parent, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // Does the box [x0, y0, x1, y1] overlap any already placed box? (label collision test)
  const overlaps = (boxes, a) => boxes.some((b) => a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1]);

  // A round distance (1, 2, 3, 5 × 10ⁿ metres) no wider than maxPx.
  function scaleLength(mpp, maxPx) {
    let best = 1;
    for (let p = 0; p <= 7; p++) for (const m of [1, 2, 3, 5]) {
      const len = m * Math.pow(10, p);
      if (len / mpp <= maxPx) best = len;
    }
    return best;
  }

  // A graticule step (degrees) that puts lines roughly minPx apart.
  function gridStep(pxPerDegree, minPx) {
    for (let p = -5; p <= 2; p++) for (const m of [1, 2, 5]) {
      const step = m * Math.pow(10, p);
      if (step * pxPerDegree >= minPx) return step;
    }
    return 90;
  }

  function createMap(el) {
    const d = el.dataset;
    const center = numbers(d.center, 2) || [0, 0];
    const view = { x: lonToX(center[1]), y: latToY(center[0]), zoom: clamp(Number(d.zoom) || 15, MIN_ZOOM, MAX_ZOOM) };
    let zones = [];
    try { zones = JSON.parse(d.zones || "[]").filter((z) => z && Number.isFinite(+z.latitude) && Number.isFinite(+z.longitude)); } catch (e) { zones = []; }
    const circle = numbers(d.circle, 3);
    const tiles = (d.tiles || "").trim();
    const pickLat = d.pickLatitude ? document.getElementById(d.pickLatitude) : null;
    const pickLon = d.pickLongitude ? document.getElementById(d.pickLongitude) : null;
    let features = [], pick = null, width = 0, height = 0, frame = 0;

    // ---- DOM scaffold ----
    el.textContent = "";
    const root = svg("svg", { class: "pm-svg", role: "img", "aria-label": el.getAttribute("aria-label") || "Map" }, el);
    const layers = {};
    for (const name of ["base", "zones", "circle", "people", "places", "pick"]) layers[name] = svg("g", { class: "pm-" + name }, root);
    const tileCache = new Map();

    const controls = html("div", "pm-controls", el);
    const zoomIn = html("button", "pm-zoom", controls, "+");
    const zoomOut = html("button", "pm-zoom", controls, "\u2212");
    zoomIn.type = zoomOut.type = "button";
    zoomIn.setAttribute("aria-label", "Zoom in");
    zoomOut.setAttribute("aria-label", "Zoom out");
    const scale = html("div", "pm-scale", el);
    scale.setAttribute("aria-hidden", "true");
    const scaleBar = html("span", "pm-scale-bar", scale);
    const scaleText = html("span", "pm-scale-text", scale);
    const status = html("div", "pm-status", el, "Offline \u2014 showing last data");
    status.hidden = true;
    if (tiles) {
      const credit = html("div", "pm-credit", el);
      const link = html("a", "", credit, d.attribution || "\u00a9 OpenStreetMap contributors");
      link.href = d.attributionUrl || "https://www.openstreetmap.org/copyright";
      link.rel = "noopener";
    }
    const live = html("p", "pm-sr", el);
    live.setAttribute("aria-live", "polite");
    if (d.source || zones.length || circle) el.after(buildLegend());

    // Legend below the map: busy colours, people, zones.
    function buildLegend() {
      const list = html("ul", "plaza-map-legend");
      const item = (cls, text) => { const li = html("li", "", list); html("span", "pm-key " + cls, li); html("span", "", li, text); };
      if (d.source) {
        for (const k of ["quieter", "usual", "busier", "not_enough_data"]) item("pm-key-" + k, BUSY[k]);
        item("pm-key-person", "Person sharing location");
      }
      if (zones.length) item("pm-key-zone", "Zone");
      if (circle) item("pm-key-circle", "Presence radius");
      list.setAttribute("aria-label", "Map legend");
      return list;
    }

    // ---- View maths ----
    const worldPx = () => TILE * Math.pow(2, view.zoom);
    // Screen position of a coordinate, using the copy of the world nearest the centre.
    function toScreen(lat, lon) {
      let dx = lonToX(normLon(lon)) - view.x;
      dx -= Math.round(dx);
      return [width / 2 + dx * worldPx(), height / 2 + (latToY(lat) - view.y) * worldPx()];
    }
    function toLatLon(sx, sy) {
      const s = worldPx();
      return [yToLat(clamp(view.y + (sy - height / 2) / s, 0, 1)), normLon(xToLon(view.x + (sx - width / 2) / s))];
    }
    // Keep the centre's x in 0..1 and the view inside the world vertically.
    function normaliseView() {
      view.zoom = clamp(Math.round(view.zoom * 1e6) / 1e6, MIN_ZOOM, MAX_ZOOM);
      view.x = ((view.x % 1) + 1) % 1;
      const half = height / 2 / worldPx();
      view.y = half >= 0.5 ? 0.5 : clamp(view.y, half, 1 - half);
    }
    // west,south,east,north in degrees; west > east when the view crosses the antimeridian.
    function bbox() {
      const s = worldPx(), hw = width / 2 / s, hh = height / 2 / s;
      const south = yToLat(clamp(view.y + hh, 0, 1)), north = yToLat(clamp(view.y - hh, 0, 1));
      if (hw * 2 >= 1) return [-180, south, 180, north];
      return [normLon(xToLon(view.x - hw)), south, normLon(xToLon(view.x + hw)), north];
    }
    // Zoom to `zoom` keeping the point under screen position (sx, sy) fixed.
    function zoomAt(zoom, sx, sy) {
      const s0 = worldPx();
      const wx = view.x + (sx - width / 2) / s0, wy = view.y + (sy - height / 2) / s0;
      view.zoom = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
      const s1 = worldPx();
      view.x = wx - (sx - width / 2) / s1;
      view.y = wy - (sy - height / 2) / s1;
      changed();
    }
    function panBy(dx, dy) { view.x -= dx / worldPx(); view.y -= dy / worldPx(); changed(); }

    // ---- Drawing ----
    function schedule() { if (!frame) frame = requestAnimationFrame(() => { frame = 0; draw(); }); }
    function draw() {
      const rect = el.getBoundingClientRect();
      width = rect.width; height = rect.height;
      if (!width || !height) return;
      normaliseView();
      tiles ? drawTiles() : drawGrid();
      drawZones();
      drawPeopleAndPlaces();
      drawPick();
      drawScale();
      zoomIn.disabled = view.zoom >= MAX_ZOOM;
      zoomOut.disabled = view.zoom <= MIN_ZOOM;
      if (!d.ready) d.ready = "1";
    }

    // Raster tiles at the nearest integer zoom, scaled for fractional zooms; reused between frames.
    function drawTiles() {
      const z = clamp(Math.round(view.zoom), 0, MAX_ZOOM), n = Math.pow(2, z);
      const size = TILE * Math.pow(2, view.zoom - z);
      const ox = width / 2 - view.x * n * size, oy = height / 2 - view.y * n * size;
      const x0 = Math.floor(-ox / size), x1 = Math.floor((width - ox) / size);
      const y0 = Math.max(0, Math.floor(-oy / size)), y1 = Math.min(n - 1, Math.floor((height - oy) / size));
      const seen = new Set();
      for (let tx = x0; tx <= x1; tx++) for (let ty = y0; ty <= y1; ty++) {
        const key = z + "/" + tx + "/" + ty;
        seen.add(key);
        let img = tileCache.get(key);
        if (!img) {
          const wx = ((tx % n) + n) % n;
          img = svg("image", { href: tiles.replace("{z}", z).replace("{x}", wx).replace("{y}", ty), preserveAspectRatio: "none", class: "pm-tile" }, layers.base);
          tileCache.set(key, img);
        }
        // Half a pixel of overlap hides seams between tiles.
        img.setAttribute("x", ox + tx * size - 0.25); img.setAttribute("y", oy + ty * size - 0.25);
        img.setAttribute("width", size + 0.5); img.setAttribute("height", size + 0.5);
      }
      for (const [key, img] of tileCache) if (!seen.has(key)) { img.remove(); tileCache.delete(key); }
    }

    // Offline background: a subtle graticule every few degrees (or fractions of one).
    function drawGrid() {
      layers.base.textContent = "";
      const s = worldPx(), step = gridStep(s / 360, 64);
      const [west, south, , north] = bbox();
      const westUnwrapped = xToLon(view.x - width / 2 / s);
      const path = [];
      for (let lon = Math.ceil(westUnwrapped / step) * step; lon <= westUnwrapped + width / s * 360; lon += step) {
        const x = (lonToX(lon) - view.x) * s + width / 2;
        path.push("M" + x.toFixed(1) + " 0V" + height);
      }
      for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
        const y = toScreen(lat, west)[1];
        path.push("M0 " + y.toFixed(1) + "H" + width);
      }
      svg("path", { d: path.join(""), class: "pm-grid" }, layers.base);
    }

    // Zones: dashed circles with true metric radii, labelled; plus the optional highlighted circle.
    function drawZones() {
      layers.zones.textContent = "";
      layers.circle.textContent = "";
      const boxes = [];
      for (const z of zones) {
        const [x, y] = toScreen(+z.latitude, +z.longitude);
        const r = Math.max(2, (+z.radiusMeters || 0) / metersPerPixel(+z.latitude, view.zoom));
        if (x + r < 0 || x - r > width || y + r < 0 || y - r > height) continue;
        const g = svg("g", { class: "pm-zone" }, layers.zones);
        svg("circle", { cx: x, cy: y, r }, g);
        // Zone names overlap when zoomed far out: keep only the first of overlapping labels.
        const w = String(z.name || "").length * 6.6, box = [x - w / 2, y - r - 18, x + w / 2, y - r - 2];
        if (!w || overlaps(boxes, box)) continue;
        boxes.push(box);
        svg("text", { x, y: y - r - 6, "text-anchor": "middle", class: "pm-label" }, g).textContent = z.name;
      }
      if (circle) {
        const [x, y] = toScreen(circle[0], circle[1]);
        const r = Math.max(3, circle[2] / metersPerPixel(circle[0], view.zoom));
        svg("circle", { cx: x, cy: y, r, class: "pm-highlight" }, layers.circle);
        svg("circle", { cx: x, cy: y, r: 4, class: "pm-highlight-dot" }, layers.circle);
      }
    }

    // People as faint blue dots; businesses as coloured, labelled links (labels skip collisions).
    function drawPeopleAndPlaces() {
      layers.people.textContent = "";
      layers.places.textContent = "";
      const boxes = [];
      const inView = (x, y, pad) => x > -pad && x < width + pad && y > -pad && y < height + pad;
      for (const f of features) {
        const c = f.geometry.coordinates, p = f.properties || {};
        const [x, y] = toScreen(c[1], c[0]);
        if (!inView(x, y, 40)) continue;
        if (p.kind === "person") { svg("circle", { cx: x, cy: y, r: 4, class: "pm-person" }, layers.people); continue; }
        if (p.kind !== "business") continue;
        const busy = BUSY[p.busyNow] ? p.busyNow : "not_enough_data";
        const wait = typeof p.lineWaitMinutes === "number" && isFinite(p.lineWaitMinutes) ? " \u00b7 " + Math.round(p.lineWaitMinutes) + " min line" : "";
        const text = String(p.name || "Place") + wait;
        const a = svg("a", { href: "/places/businesses/" + encodeURIComponent(p.businessId || ""), class: "pm-place pm-" + busy }, layers.places);
        svg("title", {}, a).textContent = text + " \u2014 " + BUSY[busy] + (p.category ? " (" + p.category + ")" : "");
        svg("circle", { cx: x, cy: y, r: 12, class: "pm-hit" }, a);
        svg("circle", { cx: x, cy: y, r: 7, class: "pm-dot" }, a);
        // Labels go right of the dot, or left of it near the right edge; overlapping ones are skipped.
        const w = text.length * 6.6, left = x + 11 + w > width - 4 && x - 11 - w > 4;
        const box = left ? [x - 14 - w, y - 9, x - 10, y + 7] : [x + 10, y - 9, x + 14 + w, y + 7];
        if (overlaps(boxes, box)) continue;
        boxes.push(box);
        svg("text", { x: left ? x - 11 : x + 11, y: y + 4, "text-anchor": left ? "end" : "start", class: "pm-label" }, a).textContent = text;
      }
    }

    // The picked coordinate as a small crosshair.
    function drawPick() {
      layers.pick.textContent = "";
      if (!pick) return;
      const [x, y] = toScreen(pick[0], pick[1]);
      svg("path", { d: `M${x - 11} ${y}H${x - 3}M${x + 3} ${y}H${x + 11}M${x} ${y - 11}V${y - 3}M${x} ${y + 3}V${y + 11}`, class: "pm-cross" }, layers.pick);
      svg("circle", { cx: x, cy: y, r: 2, class: "pm-cross-dot" }, layers.pick);
    }

    // Scale bar for the centre latitude.
    function drawScale() {
      const mpp = metersPerPixel(yToLat(view.y), view.zoom);
      const len = scaleLength(mpp, 120);
      scaleBar.style.width = Math.round(len / mpp) + "px";
      scaleText.textContent = len >= 1000 ? len / 1000 + " km" : len + " m";
    }

    // ---- Data ----
    let debounce = 0, controller = null, lastUrl = "";
    function changed() { schedule(); if (d.source) { clearTimeout(debounce); debounce = setTimeout(load, DEBOUNCE_MS); } }
    async function load() {
      if (!d.source || !width) return;
      const url = d.source + (d.source.includes("?") ? "&" : "?") + "bbox=" + bbox().map((v) => v.toFixed(6)).join(",");
      if (controller) controller.abort();
      const mine = controller = new AbortController();
      try {
        const res = await fetch(url, { signal: mine.signal, credentials: "same-origin", headers: { Accept: "application/geo+json, application/json" } });
        if (!res.ok) throw new Error("HTTP " + res.status);
        const body = await res.json();
        if (mine !== controller) return;
        features = (Array.isArray(body.features) ? body.features : []).filter((f) =>
          f && f.geometry && f.geometry.type === "Point" && Array.isArray(f.geometry.coordinates) &&
          Number.isFinite(+f.geometry.coordinates[0]) && Number.isFinite(+f.geometry.coordinates[1]));
        lastUrl = url;
        status.hidden = true;
        d.features = String(features.length);
        const places = features.filter((f) => f.properties && f.properties.kind === "business").length;
        const people = features.filter((f) => f.properties && f.properties.kind === "person").length;
        live.textContent = `${places} ${places === 1 ? "place" : "places"}, ${people} ${people === 1 ? "person" : "people"} shown`;
        schedule();
      } catch (e) {
        if (e.name === "AbortError") return;
        status.hidden = false;
      } finally {
        if (mine === controller) controller = null;
      }
    }
    if (d.source) setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);

    // ---- Picking ----
    function readPick() {
      const lat = pickLat && parseFloat(pickLat.value), lon = pickLon && parseFloat(pickLon.value);
      pick = Number.isFinite(lat) && Number.isFinite(lon) ? [lat, lon] : null;
    }
    function setPick(sx, sy) {
      pick = toLatLon(sx, sy);
      for (const [input, v] of [[pickLat, pick[0]], [pickLon, pick[1]]]) {
        if (!input) continue;
        input.value = v.toFixed(6);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      schedule();
    }
    if (pickLat || pickLon) {
      el.classList.add("pm-picking");
      readPick();
      for (const input of [pickLat, pickLon]) if (input) input.addEventListener("change", () => { readPick(); schedule(); });
    }

    // ---- Pointer input: drag to pan, two fingers to pinch, tap to pick, double tap to zoom. ----
    const pointers = new Map();
    let gesture = null, lastTap = null, suppressClick = false;
    const local = (e) => { const r = el.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    root.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 && e.pointerType === "mouse") return;
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 1) gesture = { start: local(e), last: local(e), moved: false, time: Date.now(), link: !!e.target.closest("a") };
      else { gesture = gesture || {}; gesture.moved = true; gesture.pinch = pinchState(); }
    });
    root.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId) || !gesture) return;
      const p = local(e);
      pointers.set(e.pointerId, p);
      if (pointers.size >= 2 && gesture.pinch) {
        const now = pinchState();
        panBy(now.cx - gesture.pinch.cx, now.cy - gesture.pinch.cy);
        if (gesture.pinch.dist > 0) zoomAt(view.zoom + Math.log2(now.dist / gesture.pinch.dist), now.cx, now.cy);
        gesture.pinch = now;
        return;
      }
      if (!gesture.moved && Math.hypot(p[0] - gesture.start[0], p[1] - gesture.start[1]) < 6) return;
      if (!gesture.moved) { gesture.moved = true; root.setPointerCapture(e.pointerId); el.classList.add("pm-dragging"); }
      panBy(p[0] - gesture.last[0], p[1] - gesture.last[1]);
      gesture.last = p;
    });
    function pinchState() {
      const [a, b] = [...pointers.values()];
      return { cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2, dist: Math.hypot(a[0] - b[0], a[1] - b[1]) };
    }
    function pointerEnd(e) {
      if (!pointers.delete(e.pointerId) || !gesture) return;
      if (pointers.size === 1) { gesture.pinch = null; gesture.last = [...pointers.values()][0]; return; }
      if (pointers.size) return;
      el.classList.remove("pm-dragging");
      const g = gesture; gesture = null;
      if (g.moved) { suppressClick = true; setTimeout(() => { suppressClick = false; }, 0); return; }
      if (e.type !== "pointerup" || g.link || !g.start) return;
      const [x, y] = g.start, now = Date.now();
      if (lastTap && now - lastTap.time < 350 && Math.hypot(x - lastTap.x, y - lastTap.y) < 25) {
        lastTap = null;
        zoomAt(Math.floor(view.zoom + 1), x, y);
        return;
      }
      lastTap = { time: now, x, y };
      if (pickLat || pickLon) setPick(x, y);
    }
    root.addEventListener("pointerup", pointerEnd);
    root.addEventListener("pointercancel", pointerEnd);
    // A drag that ends over a place must not open it.
    root.addEventListener("click", (e) => { if (suppressClick) { e.preventDefault(); e.stopPropagation(); } }, true);
    root.addEventListener("dblclick", (e) => e.preventDefault());
    el.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = local(e);
      const delta = e.deltaMode === 1 ? e.deltaY * 40 : e.deltaY;
      zoomAt(view.zoom - clamp(delta, -200, 200) / 200, x, y);
    }, { passive: false });
    zoomIn.addEventListener("click", () => zoomAt(Math.floor(view.zoom + 1), width / 2, height / 2));
    zoomOut.addEventListener("click", () => zoomAt(Math.ceil(view.zoom - 1), width / 2, height / 2));

    // Keyboard: the map itself is focusable; arrows pan, + and − zoom.
    root.setAttribute("tabindex", "0");
    root.addEventListener("keydown", (e) => {
      const step = 80, keys = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (keys[e.key]) panBy(keys[e.key][0], keys[e.key][1]);
      else if (e.key === "+" || e.key === "=") zoomIn.click();
      else if (e.key === "-" || e.key === "_") zoomOut.click();
      else return;
      e.preventDefault();
    });

    // Redraw (and refetch) when the element changes size, e.g. on rotation.
    if ("ResizeObserver" in window) new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      if (r.width !== width || r.height !== height) changed();
    }).observe(el);
    draw();
    if (d.source) load();
    return { view, bbox, draw: schedule, reload: load, get url() { return lastUrl; } };
  }

  // Start every map on the page once; PlazaMap.init can be called again after adding maps.
  function init() {
    const maps = [];
    for (const el of document.querySelectorAll(".plaza-map")) {
      if (el.plazaMap) continue;
      el.plazaMap = createMap(el);
      maps.push(el.plazaMap);
    }
    return maps;
  }
  window.PlazaMap = { init, metersPerPixel };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
