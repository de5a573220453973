// Plaza's maps, drawn by Leaflet (served by Plaza from /static/vendor/leaflet, with its licence): every `.plaza-map`
// element becomes a map. What a map shows comes from its data attributes:
//   data-center="lat,lon" data-zoom        where it opens
//   data-tiles, data-attribution            the operator's base tiles (PLAZA_MAP_TILES); else data-basemap, a GeoJSON
//                                           base drawn for the demo town, or a plain background
//   data-source="/v1/map"                   shops coloured by how busy they are and blurred people, refreshed live
//   data-list="id"                          a list of those shops in words, nearest first (the map's text twin)
//   data-refresh="ms"                       how often the live map reloads (10 s)
//   data-zones='[...]', data-circle         private zones, a presence radius
//   data-markers='[{id,name,latitude,longitude}]'  named points (a campus's safe spots), each labelled
//   data-marker-select="id"                 a tap on a named point picks it in that <select>; a tap elsewhere, "a point"
//   data-person="lat,lon", data-person-label  one person's dot (the other side of a meetup who shows where they are)
//   data-pick-latitude/-longitude="id"      a tap (or an address search) fills those inputs
//   data-geocode="/places/geocode"          an address search box above the map (PLAZA_GEOCODER_URL)
//   data-address-field="id"                 the chosen address also fills this input
// No inline script or style attributes (the CSP forbids them): Leaflet sets element styles through the DOM.
"use strict";

(() => {
  if (!window.L) return;
  const REFRESH_MS = 10000;
  const say = window.plazaSay;
  const BUSY = {
    quieter: say("map.busy.quieter"), usual: say("map.busy.usual"),
    busier: say("map.busy.busier"), not_enough_data: say("map.busy.not_enough_data"),
  };

  function numbers(text, count) {
    if (!text) return null;
    const parts = text.split(",").map((s) => Number(s.trim()));
    return parts.length >= count && parts.slice(0, count).every(Number.isFinite) ? parts : null;
  }

  function element(tag, className, parent, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // A name (a shop's, a street's, a person's) as a node: never parsed as HTML (Leaflet would set a string as
  // innerHTML) and never translated (`translate="no"`), followed by words of ours when given.
  function label(name, words) {
    const node = element("span");
    element("span", "", node, String(name || "")).translate = false;
    if (words) node.append(words);
    return node;
  }

  // The demo town's own base layer: streets, squares, parks and water, each with its name.
  function drawBasemap(map, url) {
    fetch(url, { headers: { Accept: "application/geo+json" } }).then((r) => r.json()).then((data) => {
      L.geoJSON(data, {
        interactive: false,
        style: (f) => ({ className: "pm-base pm-base-" + ((f.properties && f.properties.kind) || "street") }),
        onEachFeature: (f, layer) => {
          const name = f.properties && f.properties.name;
          if (name) layer.bindTooltip(label(name), { permanent: true, direction: "center", className: "pm-base-label pm-base-label-" + f.properties.kind });
        },
      }).addTo(map);
    }).catch(() => {});
  }

  function createMap(el) {
    const d = el.dataset;
    const center = numbers(d.center, 2) || [0, 0];
    // Less motion when the reader asks for it: no zoom, fade or marker animation.
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const map = L.map(el, {
      zoomControl: false, attributionControl: true, minZoom: 3, maxZoom: 19, worldCopyJump: true,
      zoomAnimation: !still, fadeAnimation: !still, markerZoomAnimation: !still,
    })
      .setView([center[0], center[1]], Number(d.zoom) || 15);
    L.control.zoom({ zoomInTitle: say("map.zoom_in"), zoomOutTitle: say("map.zoom_out") }).addTo(map);
    map.attributionControl.setPrefix('<a href="/static/vendor/leaflet/COPYRIGHT-leaflet.txt" translate="no">Leaflet</a>');
    L.control.scale({ imperial: false }).addTo(map);
    if (d.tiles) {
      L.tileLayer(d.tiles, { maxZoom: 19, attribution: d.attribution || "" }).addTo(map);
    } else if (d.basemap) {
      el.classList.add("pm-drawn");
      drawBasemap(map, d.basemap);
      map.attributionControl.addAttribution(say("map.demo_basemap"));
    }

    // Zones and a presence circle.
    let zones = [];
    try { zones = JSON.parse(d.zones || "[]"); } catch (error) { zones = []; }
    for (const zone of zones) {
      if (!Number.isFinite(+zone.latitude) || !Number.isFinite(+zone.longitude)) continue;
      L.circle([+zone.latitude, +zone.longitude], { radius: +zone.radiusMeters || 150, className: "pm-zone", interactive: false })
        .bindTooltip(zone.name ? label(zone.name) : say("map.zone"), { permanent: true, direction: "top", className: "pm-zone-label" }).addTo(map);
    }
    named(map, d);
    const person = numbers(d.person, 2);
    if (person) {
      L.circleMarker([person[0], person[1]], { radius: 8, className: "pm-other", interactive: false })
        .bindTooltip(label(d.personLabel), { permanent: true, direction: "bottom", className: "pm-label" }).addTo(map);
      const center = numbers(d.center, 2);
      if (center) map.fitBounds([[center[0], center[1]], [person[0], person[1]]], { padding: [40, 40], maxZoom: 17 });
    }
    const circle = numbers(d.circle, 3);
    if (circle) L.circle([circle[0], circle[1]], { radius: circle[2], className: "pm-circle", interactive: false }).addTo(map);

    if (d.source) showLive(map, el);
    if (d.pickLatitude && d.pickLongitude) picking(map, el);
    if (d.geocode) addressSearch(map, el);
    legend(el, d.source, zones.length > 0, !!circle);
    // A map inside a step that was hidden learns its size when shown.
    new ResizeObserver(() => map.invalidateSize()).observe(el);
    d.ready = "1";
    return map;
  }

  // Named points, labelled; with a <select> to pick one of them (its other option, "", is a tapped point).
  function named(map, d) {
    let points = [];
    try { points = JSON.parse(d.markers || "[]"); } catch (error) { points = []; }
    const select = d.markerSelect ? document.getElementById(d.markerSelect) : null;
    for (const point of points) {
      if (!Number.isFinite(+point.latitude) || !Number.isFinite(+point.longitude)) continue;
      const marker = L.marker([+point.latitude, +point.longitude], { title: String(point.name || ""), keyboard: true })
        .on("add", (event) => event.target.getElement()?.setAttribute("translate", "no"))
        .bindTooltip(label(point.name), { permanent: true, direction: "top", className: "pm-zone-label" }).addTo(map);
      if (select && point.id) marker.on("click", () => { select.value = point.id; select.dispatchEvent(new Event("change")); });
    }
    if (select) map.on("click", () => { select.value = ""; });
  }

  // Shops (clustered when zoomed out, labelled when close) and people who share, reloaded as the view moves and every
  // 10 s. Shops are updated in place, keyed by location id, so an open popup stays open through a refresh (issue 39:
  // clearing the layer closed it after 7–10 s). Without enough people sharing now to compare with the usual, a shop
  // says how busy it usually is at this hour, as its page does. A list beside the map says the same in words.
  const USUAL = { quiet: say("map.usual.quiet"), moderate: say("map.usual.moderate"), busy: say("map.usual.busy") };
  const USUAL_CLASS = { quiet: "quieter", moderate: "usual", busy: "busier" };

  function metres(a, b) {
    const rad = Math.PI / 180, dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
  }

  function distanceWords(m) {
    const format = (value, unit) => new Intl.NumberFormat(undefined, { style: "unit", unit, maximumFractionDigits: unit === "kilometer" ? 1 : 0 }).format(value);
    return m < 1000 ? format(Math.round(m / 10) * 10, "meter") : format(m / 1000, "kilometer");
  }

  // How a shop reads in its popup and in the list: live level first, else its usual at this hour.
  function shopState(p) {
    const live = BUSY[p.busyNow] && p.busyNow !== "not_enough_data" ? p.busyNow : null;
    const usual = !live && USUAL[p.usualNow] ? p.usualNow : null;
    return {
      className: live ? "pm-" + live : usual ? "pm-" + USUAL_CLASS[usual] + " pm-usually" : "pm-not_enough_data",
      busy: live ? BUSY[live] : usual ? USUAL[usual] : BUSY.not_enough_data,
      open: p.openNow === true ? say("map.open") : p.openNow === false ? say("map.closed") : "",
      wait: Number.isFinite(p.lineWaitMinutes) ? say("map.line", { minutes: Math.round(p.lineWaitMinutes) }) : "",
    };
  }

  // "You are here": the person's own fix (from sharing, or from "Use my location"), never sent anywhere by the map.
  function youAreHere(map, onFix) {
    let dot = null, ring = null;
    function show(fix) {
      if (!fix || !Number.isFinite(fix.latitude) || !Number.isFinite(fix.longitude)) return;
      const at = [fix.latitude, fix.longitude];
      if (!dot) {
        ring = L.circle(at, { radius: Math.min(fix.accuracy || 0, 500), className: "pm-you-ring", interactive: false }).addTo(map);
        dot = L.circleMarker(at, { radius: 7, className: "pm-you", interactive: false })
          .bindTooltip(say("map.you_are_here"), { permanent: true, direction: "bottom", className: "pm-label" }).addTo(map);
      } else {
        dot.setLatLng(at);
        ring.setLatLng(at).setRadius(Math.min(fix.accuracy || 0, 500));
      }
      map.getContainer().dataset.you = fix.latitude.toFixed(5) + "," + fix.longitude.toFixed(5);
      onFix(at);
    }
    document.addEventListener("plaza:fix", (event) => show(event.detail));
    if (window.plazaFix) show(window.plazaFix);
    const button = document.querySelector("[data-map-locate]");
    if (button && window.plazaLocate) {
      const status = document.querySelector("[data-map-locate-status]");
      button.addEventListener("click", () => {
        if (status) status.textContent = say("locate.finding");
        window.plazaLocate((fix) => {
          show(fix);
          map.setView([fix.latitude, fix.longitude], Math.max(map.getZoom(), 16));
          if (status) status.textContent = say("map.blue_dot");
        }, (message) => { if (status) status.textContent = message; });
      });
    }
  }

  function showLive(map, el) {
    const d = el.dataset;
    const shops = L.markerClusterGroup ? L.markerClusterGroup({
      showCoverageOnHover: false, maxClusterRadius: 40, disableClusteringAtZoom: 16,
      animate: !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches),
    })
      : L.layerGroup();
    const people = L.layerGroup();
    shops.addTo(map);
    people.addTo(map);
    const status = element("div", "pm-status", el, say("map.offline"));
    status.hidden = true;
    const live = element("p", "visually-hidden", el);
    live.setAttribute("aria-live", "polite");
    const list = d.list ? document.getElementById(d.list) : null;
    const markers = new Map();
    let you = null;
    let last = [];
    let controller = null;
    let timer = 0;

    function popupContent(p, state) {
      const popup = element("div", "pm-popup");
      const link = element("a", "", popup, String(p.name || say("map.place")));
      link.translate = false;
      link.href = "/places/businesses/" + encodeURIComponent(p.businessId || "");
      element("div", "muted", popup, [state.open, state.busy, state.wait, p.category].filter(Boolean).join(" · "));
      return popup;
    }

    function upsert(f) {
      const [lon, lat] = f.geometry.coordinates, p = f.properties || {};
      const key = p.locationId || p.businessId || lat + "," + lon;
      const state = shopState(p);
      const signature = JSON.stringify([lat, lon, p.name, p.businessId, p.category, state]);
      const known = markers.get(key);
      if (known && known.signature === signature) return key;
      const icon = L.divIcon({ className: "pm-shop " + state.className, iconSize: [18, 18], iconAnchor: [9, 9] });
      const tooltip = () => label(p.name || say("map.place"), state.wait ? " · " + state.wait : "");
      if (known) {
        // In place: the marker (and an open popup) stays; only what changed is redrawn.
        if (!known.marker.getLatLng().equals([lat, lon])) known.marker.setLatLng([lat, lon]);
        known.marker.setIcon(icon);
        known.marker.setPopupContent(popupContent(p, state));
        known.marker.setTooltipContent(tooltip());
        known.marker.getElement()?.setAttribute("translate", "no");
        known.signature = signature;
        return key;
      }
      const marker = L.marker([lat, lon], { title: String(p.name || say("map.place")), keyboard: true, icon });
      marker.bindPopup(popupContent(p, state), { autoPan: true, autoPanPadding: [24, 24], autoPanPaddingTopLeft: [56, 24],
        maxWidth: Math.max(160, Math.min(280, el.clientWidth - 80)) });
      marker.bindTooltip(tooltip(), { direction: "right", offset: [10, 0], className: "pm-label" });
      marker.on("popupopen", () => { d.openPopup = key; });
      marker.on("popupclose", () => { if (d.openPopup === key) delete d.openPopup; });
      marker.on("add", () => marker.getElement()?.setAttribute("translate", "no"));
      marker.addTo(shops);
      markers.set(key, { marker, signature });
      return key;
    }

    // The list beside the map: the same shops, nearest first, in words (the map's text twin).
    function drawList(places) {
      if (!list) return;
      const from = you || numbers(d.center, 2);
      const rows = places.map((f) => {
        const [lon, lat] = f.geometry.coordinates;
        return { p: f.properties || {}, distance: from ? metres(from, [lat, lon]) : null };
      }).sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0) || String(a.p.name).localeCompare(String(b.p.name)));
      const items = rows.slice(0, 50).map(({ p, distance }) => {
        const state = shopState(p);
        const li = element("li", "pm-list-item");
        li.dataset.mapPlace = p.locationId || "";
        element("span", "pm-key " + state.className, li).setAttribute("aria-hidden", "true");
        const text = element("span", "", li);
        const link = element("a", "", text, String(p.name || say("map.place")));
        link.translate = false;
        link.href = "/places/businesses/" + encodeURIComponent(p.businessId || "");
        if (distance != null) element("span", "muted", text, " · " + (you ? distanceWords(distance) : say("map.from_centre", { distance: distanceWords(distance) })));
        element("br", "", text);
        if (state.open) element("span", "open-state" + (p.openNow ? " open" : ""), text, state.open + " · ");
        element("span", "muted", text, [state.busy, state.wait].filter(Boolean).join(" · "));
        return li;
      });
      if (!items.length) items.push(element("li", "muted", null, say("map.no_shops")));
      const ul = list.querySelector("ul") || element("ul", "list pm-list", list);
      ul.replaceChildren(...items);
      const heading = list.querySelector("[data-map-list-count]");
      if (heading) heading.textContent = say(you ? "map.shops_nearest" : "map.shops", { count: places.length });
    }

    async function load() {
      const b = map.getBounds();
      const box = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((v) => Math.max(-180, Math.min(180, v)).toFixed(6));
      const url = d.source + (d.source.includes("?") ? "&" : "?") + "bbox=" + box.join(",");
      if (controller) controller.abort();
      const mine = controller = new AbortController();
      try {
        const response = await fetch(url, { signal: mine.signal, credentials: "same-origin", headers: { Accept: "application/geo+json" } });
        if (!response.ok) throw new Error("HTTP " + response.status);
        const body = await response.json();
        if (mine !== controller) return;
        const features = (body.features || []).filter((f) => f && f.geometry && f.geometry.type === "Point");
        const places = features.filter((f) => (f.properties || {}).kind === "business");
        const seen = new Set(places.map(upsert));
        for (const [key, known] of markers) {
          if (!seen.has(key)) { shops.removeLayer(known.marker); markers.delete(key); }
        }
        people.clearLayers();
        let personCount = 0;
        for (const f of features) {
          if ((f.properties || {}).kind !== "person") continue;
          const [lon, lat] = f.geometry.coordinates;
          personCount += 1;
          L.circleMarker([lat, lon], { radius: 5, className: "pm-person", interactive: false }).addTo(people);
        }
        last = places;
        drawList(places);
        status.hidden = true;
        d.features = String(features.length);
        d.loads = String(Number(d.loads || 0) + 1);
        live.textContent = say("map.shown", { places: say("map.places", { count: places.length }), people: say("map.people", { count: personCount }) });
      } catch (error) {
        if (error.name !== "AbortError") status.hidden = false;
      } finally {
        if (mine === controller) controller = null;
      }
    }
    youAreHere(map, (at) => { you = at; drawList(last); });
    map.on("moveend", () => { clearTimeout(timer); timer = setTimeout(load, 250); });
    setInterval(() => { if (!document.hidden) load(); }, Number(d.refresh) || REFRESH_MS);
    load();
  }

  // A tap places the point (a draggable marker); typed coordinates move it.
  function picking(map, el) {
    const d = el.dataset;
    const latInput = document.getElementById(d.pickLatitude), lonInput = document.getElementById(d.pickLongitude);
    if (!latInput || !lonInput) return;
    el.classList.add("pm-picking");
    let marker = null;
    function place(lat, lon, pan) {
      if (!marker) {
        marker = L.marker([lat, lon], { draggable: true, keyboard: true, title: say("map.chosen") }).addTo(map);
        marker.on("dragend", () => { const p = marker.getLatLng(); write(p.lat, p.lng); });
      } else {
        marker.setLatLng([lat, lon]);
      }
      if (pan) map.setView([lat, lon], Math.max(map.getZoom(), 16));
    }
    function write(lat, lon) {
      latInput.value = lat.toFixed(6);
      lonInput.value = lon.toFixed(6);
      el.dataset.picked = latInput.value + "," + lonInput.value;
    }
    map.on("click", (event) => { place(event.latlng.lat, event.latlng.lng, false); write(event.latlng.lat, event.latlng.lng); });
    function fromInputs(pan) {
      const lat = parseFloat(latInput.value), lon = parseFloat(lonInput.value);
      if (Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) place(lat, lon, pan);
    }
    latInput.addEventListener("change", () => fromInputs(true));
    lonInput.addEventListener("change", () => fromInputs(true));
    fromInputs(true);
    el.plazaPlace = (lat, lon) => { place(lat, lon, true); write(lat, lon); };
  }

  // "Search for an address": Plaza asks the operator's geocoder; a chosen result places the point.
  function addressSearch(map, el) {
    const d = el.dataset;
    const box = element("div", "pm-search");
    el.before(box);
    const label = element("label", "", box, say("map.find_address"));
    const row = element("div", "pm-search-row", box);
    const input = element("input", "", row);
    input.type = "search";
    input.id = el.id ? el.id + "-search" : "map-search-" + Math.random().toString(36).slice(2);
    input.autocomplete = "off";
    input.setAttribute("data-address-search", "");
    label.htmlFor = input.id;
    const button = element("button", "secondary small", row, say("map.search"));
    button.type = "button";
    const results = element("ul", "pm-results", box);
    const message = element("p", "hint", box);
    message.setAttribute("aria-live", "polite");
    async function search() {
      const q = input.value.trim();
      if (q.length < 3) { message.textContent = say("map.search.too_few"); return; }
      message.textContent = say("map.search.searching");
      results.replaceChildren();
      try {
        const response = await fetch(d.geocode + "?q=" + encodeURIComponent(q), { credentials: "same-origin", headers: { Accept: "application/json" } });
        const body = await response.json();
        if (!response.ok) { message.textContent = body.title || say("map.search.unavailable"); return; }
        message.textContent = body.items.length ? "" : say("map.search.none");
        for (const item of body.items) {
          const li = element("li", "", results);
          const choose = element("button", "link", li, item.label);
          choose.type = "button";
          choose.setAttribute("data-address-result", "");
          choose.addEventListener("click", () => {
            if (el.plazaPlace) el.plazaPlace(item.latitude, item.longitude); else map.setView([item.latitude, item.longitude], 17);
            const field = d.addressField && document.getElementById(d.addressField);
            if (field && !field.value) field.value = item.label;
            results.replaceChildren();
            message.textContent = say("map.search.placed", { address: item.label });
          });
        }
      } catch (error) {
        message.textContent = say("map.search.offline");
      }
    }
    button.addEventListener("click", search);
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); search(); } });
  }

  function legend(el, live, zones, circle) {
    if (!live && !zones && !circle) return;
    const list = element("ul", "plaza-map-legend");
    list.setAttribute("aria-label", say("map.legend"));
    const item = (cls, text) => { const li = element("li", "", list); element("span", "pm-key " + cls, li); element("span", "", li, text); };
    if (live) {
      for (const k of Object.keys(BUSY)) item("pm-key-" + k, BUSY[k]);
      item("pm-key-usual pm-usually", say("map.legend.usual"));
      item("pm-key-you", say("map.legend.you"));
      item("pm-key-person", say("map.legend.person"));
    }
    if (zones) item("pm-key-zone", say("map.legend.zone"));
    if (circle) item("pm-key-circle", say("map.legend.circle"));
    el.after(list);
  }

  document.querySelectorAll(".plaza-map").forEach(createMap);
  // Maps inside a live region (a meetup on the deal card) are drawn again each time the region reloads.
  window.plazaMaps = (root) => root.querySelectorAll(".plaza-map:not([data-ready])").forEach(createMap);
})();
