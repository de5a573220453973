// The card editor: the preview follows what is typed (the server lays the text out: the page never wraps or kerns
// it), a movable text can be dragged, the preview zooms, and the pay form shows the card's fields when paying by card.
(() => {
  "use strict";

  const editor = document.querySelector("[data-editor]");
  if (editor) {
    const form = document.getElementById("design-form");
    const preview = editor.querySelector("[data-preview]");
    const frame = editor.querySelector("[data-preview-frame]");
    const findings = editor.querySelector("[data-findings]");
    const movable = new Set((editor.dataset.movable || "").split(" ").filter(Boolean));
    const url = "/cards/designs/" + editor.dataset.editor + "/live";
    let timer = 0, controller = null, sequence = 0;

    function mark() {
      preview.querySelectorAll("[data-label]").forEach((label) => {
        if (movable.has(label.getAttribute("data-label"))) label.setAttribute("data-movable", "");
      });
    }

    function refresh() {
      if (controller) controller.abort();
      controller = new AbortController();
      const mine = ++sequence;
      const body = new URLSearchParams(new FormData(form));
      body.set("autosave", "1");
      fetch(url, { method: "POST", body, credentials: "same-origin", signal: controller.signal,
        headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
        .then((answer) => {
          if (mine !== sequence) return;
          preview.innerHTML = answer.svg;
          mark();
          findings.replaceChildren(...answer.findings.map((finding) => {
            const li = document.createElement("li");
            li.className = finding.severity === "error" ? "finding-error" : "finding-warning";
            li.textContent = finding.message;
            return li;
          }));
          // Each label's own note sits in its fields; ordering opens once nothing blocks it.
          form.querySelectorAll("[data-label]").forEach((fields) => {
            const mine = answer.findings.filter((finding) => finding.labelId === fields.dataset.label);
            const worst = mine.find((finding) => finding.severity === "error") || mine[0];
            const note = fields.querySelector("[data-label-finding]");
            const text = fields.querySelector("[name^='text-']");
            if (note) {
              note.hidden = !worst;
              note.textContent = worst ? worst.message : "";
              note.className = worst && worst.severity === "error" ? "field-error" : "hint";
            }
            if (text) {
              if (worst && worst.severity === "error") text.setAttribute("aria-invalid", "true");
              else text.removeAttribute("aria-invalid");
            }
          });
          // A change a label refuses (a size past its largest) is said beside its own field, and left unsaved.
          showRefused(answer.refused || []);
          const ready = editor.querySelector("[data-order-ready]");
          const blocked = editor.querySelector("[data-not-orderable]");
          if (ready) ready.hidden = !answer.orderable;
          if (blocked) blocked.hidden = answer.orderable;
          const status = editor.querySelector("[data-save-status]");
          if (status) {
            const refused = (answer.refused || []).length;
            status.textContent = refused ? window.plazaSay(answer.saved ? "cards.saved_except" : "cards.not_saved")
              : answer.saved ? window.plazaSay("cards.saved") : "";
          }
          editor.dataset.refreshed = String(Date.now());
        })
        .catch(() => {});
    }

    function showRefused(refused) {
      form.querySelectorAll("[data-live-refusal]").forEach((note) => {
        const input = form.elements[note.dataset.liveRefusal];
        if (input && input.removeAttribute) {
          input.removeAttribute("aria-invalid");
          const rest = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== note.id);
          if (rest.length) input.setAttribute("aria-describedby", rest.join(" "));
          else input.removeAttribute("aria-describedby");
        }
        note.remove();
      });
      refused.forEach((problem) => {
        const input = form.elements[problem.field];
        if (!input || !input.insertAdjacentElement) return;
        const note = document.createElement("p");
        note.className = "field-error";
        note.id = problem.field + "-refused";
        note.dataset.liveRefusal = problem.field;
        note.textContent = problem.message;
        input.insertAdjacentElement("afterend", note);
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", ((input.getAttribute("aria-describedby") || "") + " " + note.id).trim());
      });
    }

    function soon() {
      clearTimeout(timer);
      timer = setTimeout(refresh, 90);
    }

    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
    mark();

    // Zoom: 100 %, 150 %, 200 %, 300 % to read small text.
    const levels = ["100%", "150%", "200%", "300%"];
    let zoom = 1;
    editor.querySelectorAll("[data-zoom]").forEach((button) => {
      button.addEventListener("click", () => {
        zoom = Math.max(1, Math.min(levels.length, zoom + Number(button.getAttribute("data-zoom"))));
        frame.setAttribute("data-zoom", String(zoom));
        editor.querySelector("[data-zoom-level]").textContent = levels[zoom - 1];
      });
    });

    // Dragging a movable text moves its box by the same millimetres (the SVG's units).
    let drag = null;
    preview.addEventListener("pointerdown", (event) => {
      const text = event.target.closest && event.target.closest("[data-movable]");
      if (!text) return;
      const id = text.getAttribute("data-label");
      const x = document.getElementById("x-" + id), y = document.getElementById("y-" + id);
      const svg = preview.querySelector("svg");
      if (!x || !y || !svg) return;
      const matrix = svg.getScreenCTM().inverse();
      const point = (e) => new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix);
      drag = { text, x, y, start: point(event), x0: Number(x.value), y0: Number(y.value), point, dx: 0, dy: 0 };
      preview.classList.add("dragging");
      text.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    preview.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const now = drag.point(event);
      drag.dx = now.x - drag.start.x;
      drag.dy = now.y - drag.start.y;
      drag.text.setAttribute("transform", "translate(" + drag.dx + " " + drag.dy + ")");
    });
    const drop = () => {
      if (!drag) return;
      const round = (v) => Math.round(v * 2) / 2;
      drag.x.value = String(round(drag.x0 + drag.dx));
      drag.y.value = String(round(drag.y0 + drag.dy));
      preview.classList.remove("dragging");
      drag = null;
      refresh();
    };
    preview.addEventListener("pointerup", drop);
    preview.addEventListener("pointercancel", drop);
  }

  // An order page whose card payment settled: the "being charged" notice has served its purpose.
  const status = document.querySelector("[data-live-fragment] [data-order-status]")?.closest("[data-live-fragment]");
  // Only a payment that settled while the page was open clears it; other notices (a new proof approved) stay.
  const waiting = (region) => region.querySelector("[data-order-status]")?.getAttribute("data-order-status") === "pending_payment";
  const paying = (region) => region.querySelector("[data-order-status]")?.hasAttribute("data-paying");
  if (status && waiting(status)) {
    const wasPaying = paying(status);
    new MutationObserver(() => {
      if (!waiting(status)) document.querySelector(".notice")?.remove();
      // A card payment that failed: the page opens its pay form again, saying why.
      else if (wasPaying && !paying(status)) location.replace(location.pathname + "#pay");
    }).observe(status, { childList: true });
  }

  // Paying by card shows the card's fields; the wallet needs none.
  const pay = document.querySelector("[data-pay-form]");
  if (pay) {
    const fields = pay.querySelector("[data-card-fields]");
    const sync = () => { fields.hidden = !pay.querySelector("[data-card-choice]").checked; };
    pay.addEventListener("change", sync);
    if (!pay.querySelector("[aria-invalid='true']")) sync();
  }
})();

// The card shop's own navigation marks the page it is on.
document.querySelectorAll(".cards-nav a").forEach((link) => {
  if (link.getAttribute("href") === location.pathname) link.setAttribute("aria-current", "page");
});

// The catalogue's Quick Look: a card's pages, colours and papers in a dialog over the grid (the tile's link opens the
// template's page without a script, or with a modifier key).
(() => {
  const dialog = document.querySelector("[data-quick-look-dialog]");
  if (!dialog || typeof dialog.showModal !== "function") return;
  let opener = null;
  const close = () => { dialog.close(); };
  dialog.addEventListener("close", () => { dialog.replaceChildren(); opener?.focus(); });
  const load = async (url) => {
    const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    dialog.innerHTML = await response.text();
  };
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog || event.target.closest("[data-quick-look-close]")) return close();
    // Another colour of the card, in the same look.
    const colour = event.target.closest("[data-quick-colour]");
    if (colour) {
      event.preventDefault();
      load(colour.dataset.quickColour).then(() => dialog.querySelector("[data-quick-colour][aria-current]")?.focus())
        .catch(() => { location.href = colour.href; });
    }
  });
  for (const button of document.querySelectorAll("[data-quick-look]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      opener = button;
      button.disabled = true;
      try {
        await load(button.dataset.quickLook);
        dialog.showModal();
        dialog.querySelector("[data-quick-look-close]")?.focus();
      } catch {
        location.href = button.previousElementSibling?.href ?? location.href;
      } finally {
        button.disabled = false;
      }
    });
  }
})();

// The studio's art uploads: each file goes up as it is picked, and its id waits in the form for Save.
(() => {
  "use strict";
  const form = document.querySelector("[data-art-form]");
  if (!form) return;
  const csrf = form.querySelector("input[name=_csrf]").value;
  const status = form.querySelector("[data-art-status]");
  form.querySelectorAll("input[type=file][data-art-for]").forEach((input) => {
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      status.textContent = window.plazaSay("upload.uploading", { file: file.name });
      try {
        const response = await fetch("/cards/studio/art", {
          method: "POST", body: file, credentials: "same-origin",
          headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrf, Accept: "application/json" },
        });
        const body = await response.json();
        if (!response.ok) throw new Error(body.title || window.plazaSay("upload.refused"));
        document.getElementById(input.getAttribute("data-art-for")).value = body.id;
        status.textContent = window.plazaSay("upload.ready", { file: file.name });
      } catch (error) {
        input.value = "";
        status.textContent = error.message;
      }
    });
  });
})();
