// Offline punches (issue 40). With the connection down, a punch typed or scanned on a card's page is handed to the
// service worker, which keeps it sealed with this person's key (the page's `data-seal`, never stored) and sends it
// when the connection returns; the page lists what waits and says what each punch came to. Online, the form posts
// as always.
(() => {
  const box = document.querySelector("[data-offline-punches]");
  if (!box || !("serviceWorker" in navigator) || !window.indexedDB || !window.crypto || !crypto.subtle) return;
  const form = box.closest("section").querySelector("form");
  const status = box.querySelector("[data-offline-status]");
  const list = box.querySelector("[data-offline-list]");
  const card = box.getAttribute("data-card");
  const key = box.getAttribute("data-seal");
  const main = document.querySelector("main[data-csrf]");
  const csrf = main ? main.getAttribute("data-csrf") : "";
  const word = (name, values) => Object.entries(values || {}).reduce(
    (text, [field, value]) => text.replace("{" + field + "}", value), box.getAttribute("data-word-" + name) || "");
  const reason = (code) => {
    const template = box.querySelector("template[data-reason='" + code + "']");
    return template ? template.content.textContent : code;
  };
  const time = (iso) => new Date(iso).toLocaleTimeString(document.documentElement.lang || [], { hour: "numeric", minute: "2-digit" });

  function ask(message) {
    return navigator.serviceWorker.ready.then((registration) => new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data || {});
      registration.active.postMessage(Object.assign({ key, csrf }, message), [channel.port2]);
    }));
  }

  // What waits for this card, and a sentence about what just happened.
  async function show(sentence) {
    const waiting = ((await ask({ type: "punches-waiting" })).waiting || []).filter((punch) => punch.cardId === card);
    list.replaceChildren(...waiting.map((punch) => {
      const item = document.createElement("li");
      item.textContent = word(punch.token ? "scanned" : "typed", { time: time(punch.scannedAt) });
      return item;
    }));
    const count = waiting.length === 1 ? word("waiting-one") : waiting.length ? word("waiting-many", { n: waiting.length }) : "";
    status.textContent = [sentence, count].filter(Boolean).join(" ");
    box.hidden = !status.textContent;
    box.setAttribute("data-waiting", String(waiting.length));
  }

  async function sync() {
    const results = ((await ask({ type: "punches-sync" })).results || []).filter((result) => result.cardId === card);
    const said = results.map((result) => result.status === "refused"
      ? word("refused", { reason: reason(result.reason) }) : word("counted"));
    await show(said.join(" "));
    // The card's live part redraws itself from the punch event; say when the sync is over either way.
    box.setAttribute("data-synced", String(Number(box.getAttribute("data-synced") || 0) + 1));
  }

  form.addEventListener("submit", (event) => {
    if (navigator.onLine) return;
    event.preventDefault();
    const code = (form.elements.code.value || "").replace(/\D/g, "");
    const token = (form.elements.token.value || "").trim();
    if (code.length !== 6 && !token) {
      show(word("six"));
      return;
    }
    const punch = Object.assign({ id: crypto.randomUUID(), cardId: card, scannedAt: new Date().toISOString() },
      token ? { token: token.slice(0, 2000) } : { code });
    ask({ type: "punch-keep", punch }).then((answer) => {
      if (answer.failed) return;
      form.elements.code.value = "";
      form.elements.token.value = "";
      show(word("kept"));
    });
  });
  window.addEventListener("online", sync);
  if (navigator.onLine) sync(); else show();
})();
