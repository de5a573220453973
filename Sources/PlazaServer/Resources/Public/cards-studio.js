// The studio's label editor: a page of the template drawn at its trim size over the first colour's art, with the
// bleed and the safe area, and each label as a box to tap, drag, resize and nudge; a panel edits every field.
// The labels JSON in the form stays the source of truth: the editor reads it, writes it back on every change, and
// re-draws when it is edited by hand, so the form saves the same with or without this script.
(() => {
  "use strict";

  const root = document.querySelector("[data-label-editor]");
  const textarea = document.getElementById("t-labels");
  if (!root || !textarea) return;

  const BLEED = 3, SAFE = 4, STEP = 0.5, SMALLEST_BOX = 2, MAX_LABELS = 40;
  const PAGES = ["front", "inside", "back"];
  const PAGE_NAMES = { front: "Front", inside: "Inside", back: "Back" };
  const EDITABLE = ["text", "font", "size", "colour", "position"];
  const ALIGNS = ["left", "center", "right"];
  const form = textarea.form;
  const stage = root.querySelector("[data-stage]");
  const art = root.querySelector("[data-stage-art]");
  const trimGuide = root.querySelector(".label-trim");
  const safeGuide = root.querySelector(".label-safe");
  const status = root.querySelector("[data-editor-status]");
  const panel = root.querySelector("[data-label-panel]");
  const fields = panel.querySelector("[data-panel-fields]");
  const addButton = root.querySelector("[data-add-label]");
  const details = document.querySelector("[data-labels-json]");
  const jsonStatus = details.querySelector("[data-json-status]");
  const FONTS = [...panel.querySelectorAll("[data-field=font] option")].map((option) => option.value);

  let labels = [];
  let selected = null;
  let page = "front";
  let drag = null;
  const boxes = new Map();

  // MARK: The JSON

  const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

  // The labels in the textarea, each with the defaults the server fills in, or why they cannot be read.
  function parse(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return { error: "The JSON does not parse: " + error.message };
    }
    if (!Array.isArray(data)) return { error: "The JSON must be a list of labels: [{…}, {…}]." };
    const parsed = [];
    for (const [index, raw] of data.entries()) {
      const name = "Label " + (index + 1);
      if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: name + " is not an object {…}." };
      for (const key of ["id", "page", "text", "font", "colour"]) {
        if (typeof raw[key] !== "string") return { error: `${name} needs "${key}" as a string.` };
      }
      for (const key of ["size", "x", "y", "width", "height"]) {
        if (!isNumber(raw[key])) return { error: `${name} needs "${key}" as a number.` };
      }
      if (!PAGES.includes(raw.page)) return { error: `${name}: "page" is front, inside or back.` };
      if (raw.align !== undefined && !ALIGNS.includes(raw.align)) return { error: `${name}: "align" is left, center or right.` };
      if (raw.maxLines !== undefined && !Number.isInteger(raw.maxLines)) return { error: `${name}: "maxLines" is a whole number.` };
      if (raw.required !== undefined && typeof raw.required !== "boolean") return { error: `${name}: "required" is true or false.` };
      for (const key of ["minSize", "maxSize"]) {
        if (raw[key] !== undefined && !isNumber(raw[key])) return { error: `${name}: "${key}" is a number.` };
      }
      for (const key of ["editable", "fonts", "colours"]) {
        if (raw[key] !== undefined && !(Array.isArray(raw[key]) && raw[key].every((item) => typeof item === "string"))) {
          return { error: `${name}: "${key}" is a list of strings.` };
        }
      }
      if (raw.editable && !raw.editable.every((item) => EDITABLE.includes(item))) {
        return { error: `${name}: "editable" may hold ${EDITABLE.join(", ")}.` };
      }
      parsed.push({
        id: raw.id, page: raw.page, text: raw.text, font: raw.font, size: raw.size, colour: raw.colour,
        x: raw.x, y: raw.y, width: raw.width, height: raw.height, align: raw.align ?? "center", maxLines: raw.maxLines ?? 0,
        required: raw.required ?? false, editable: raw.editable ?? ["text"],
        fonts: raw.fonts && raw.fonts.length ? raw.fonts : [raw.font],
        colours: raw.colours && raw.colours.length ? raw.colours : [raw.colour],
        minSize: raw.minSize ?? raw.size, maxSize: raw.maxSize ?? raw.size,
      });
    }
    return { labels: parsed };
  }

  function write() {
    textarea.value = JSON.stringify(labels, null, 2);
    jsonStatus.textContent = "";
    textarea.removeAttribute("aria-invalid");
  }

  // MARK: The card

  function trim() {
    const [width, height] = (form.elements.trim?.value || "127x177.8").split("x").map(Number);
    return { width: width || 127, height: height || 177.8 };
  }

  function pages() {
    return PAGES.filter((name) => name === "front" || form.elements[name]?.checked);
  }

  const snap = (value) => Math.round(value / STEP) * STEP;
  const clamp = (value, low, high) => Math.min(Math.max(value, low), Math.max(low, high));
  const percent = (value) => value * 100 + "%";

  // Boxes stay on the card: the server refuses a label whose box reaches into the bleed.
  function keepOnCard(label) {
    const card = trim();
    label.width = clamp(label.width, SMALLEST_BOX, card.width);
    label.height = clamp(label.height, SMALLEST_BOX, card.height);
    label.x = clamp(label.x, 0, card.width - label.width);
    label.y = clamp(label.y, 0, card.height - label.height);
  }

  function drawCard() {
    const card = trim();
    const width = card.width + 2 * BLEED, height = card.height + 2 * BLEED;
    root.style.setProperty("--ratio", String(width / height));
    const frame = (element, inset) => {
      element.style.left = percent((BLEED + inset) / width);
      element.style.top = percent((BLEED + inset) / height);
      element.style.width = percent((card.width - 2 * inset) / width);
      element.style.height = percent((card.height - 2 * inset) / height);
    };
    frame(trimGuide, 0);
    frame(safeGuide, SAFE);
    const artId = document.getElementById("art-" + page + "-0")?.value;
    if (artId) {
      const source = "/cards/art/" + encodeURIComponent(artId);
      if (art.getAttribute("src") !== source) art.src = source;
      art.hidden = false;
    } else {
      art.removeAttribute("src");
      art.hidden = true;
    }
    const shown = pages();
    root.querySelectorAll("[data-show-page]").forEach((button) => {
      const name = button.getAttribute("data-show-page");
      const count = labels.filter((label) => label.page === name).length;
      button.hidden = !shown.includes(name);
      button.textContent = PAGE_NAMES[name] + (count ? ` (${count})` : "");
      button.setAttribute("aria-pressed", String(name === page));
    });
    panel.querySelectorAll("[data-field=page] option").forEach((option) => { option.disabled = !shown.includes(option.value); });
  }

  // Whether the box reaches nearer the trim than `margin` (0: off the card).
  function beyond(label, margin) {
    const card = trim();
    return label.x < margin || label.y < margin || label.x + label.width > card.width - margin + 1e-9
      || label.y + label.height > card.height - margin + 1e-9;
  }

  function describe(label) {
    return `Label ${label.id}: ${label.text.trim() || "no text"}`;
  }

  function place(label) {
    const box = boxes.get(label);
    if (!box) return;
    const card = trim();
    const width = card.width + 2 * BLEED, height = card.height + 2 * BLEED;
    box.style.left = percent((label.x + BLEED) / width);
    box.style.top = percent((label.y + BLEED) / height);
    box.style.width = percent(label.width / width);
    box.style.height = percent(label.height / height);
    const text = box.querySelector(".label-text");
    text.textContent = label.text;
    // cqw: a hundredth of the stage's width, so the type scales with the drawing (points to millimetres to the stage).
    text.style.fontSize = ((label.size * 25.4) / 72 / width) * 100 + "cqw";
    text.style.color = /^#[0-9a-f]{6}$/i.test(label.colour) ? label.colour : "";
    text.style.textAlign = label.align;
    box.setAttribute("data-font", label.font);
    box.setAttribute("aria-label", describe(label));
    const off = beyond(label, 0);
    box.classList.toggle("off-card", off);
    box.classList.toggle("unsafe", !off && beyond(label, SAFE));
  }

  function drawBoxes() {
    boxes.forEach((box) => box.remove());
    boxes.clear();
    for (const label of labels) {
      if (label.page !== page) continue;
      const box = document.createElement("button");
      box.type = "button";
      box.className = "label-box";
      const text = document.createElement("span");
      text.className = "label-text";
      box.append(text);
      for (const corner of ["nw", "ne", "sw", "se"]) {
        const handle = document.createElement("span");
        handle.className = "label-handle";
        handle.setAttribute("data-corner", corner);
        handle.setAttribute("aria-hidden", "true");
        box.append(handle);
      }
      box.setAttribute("aria-pressed", String(label === selected));
      stage.append(box);
      boxes.set(label, box);
      place(label);
    }
  }

  function say() {
    const shown = pages();
    const notes = [];
    if (selected) {
      notes.push(`${selected.id}: left ${selected.x} mm, top ${selected.y} mm, ${selected.width} × ${selected.height} mm.`);
      if (boxes.get(selected)?.classList.contains("unsafe")) notes.push("It reaches past the dashed line, where the cut may graze it.");
    }
    const stray = labels.filter((label) => !shown.includes(label.page));
    if (stray.length) notes.push(`${stray.map((label) => label.id).join(", ")}: on a page this card does not have.`);
    const off = labels.filter((label) => beyond(label, 0));
    if (off.length) notes.push(`${off.map((label) => label.id).join(", ")}: reaches off the card (drag it back).`);
    status.textContent = notes.join(" ");
  }

  function draw() {
    if (!pages().includes(page)) page = "front";
    drawCard();
    drawBoxes();
    fill();
    say();
  }

  // MARK: The panel

  function field(name) {
    return fields.querySelector(`[data-field="${name}"]`);
  }

  function showError(name, message) {
    const error = fields.querySelector(`[data-field-error="${name}"]`);
    error.textContent = message;
    error.hidden = !message;
    field(name).setAttribute("aria-invalid", String(Boolean(message)));
  }

  // Puts the selected label's values in the panel (except in the field being typed in: the typist keeps their text).
  function fill(except) {
    const empty = panel.querySelector("[data-panel-empty]");
    fields.hidden = !selected;
    empty.hidden = Boolean(selected);
    addButton.disabled = labels.length >= MAX_LABELS;
    if (!selected) return;
    panel.querySelector("[data-panel-title]").textContent = "Label " + selected.id;
    for (const input of fields.querySelectorAll("[data-field]")) {
      if (input === except) continue;
      const name = input.getAttribute("data-field");
      const value = selected[name];
      if (name === "editable" || name === "fonts") {
        input.checked = value.includes(input.value);
        if (name === "fonts") input.disabled = input.value === selected.font;
      } else if (name === "required") {
        input.checked = value;
      } else if (name === "colours") {
        input.value = value.join(" ");
      } else if (name === "colour") {
        input.value = /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : "#000000";
      } else {
        input.value = String(value);
      }
    }
    if (except?.getAttribute("data-field") !== "id") showError("id", "");
    if (except?.getAttribute("data-field") !== "colours") showError("colours", "");
  }

  const inOrder = (all, chosen) => all.filter((item) => chosen.includes(item));

  // One field typed into: the label changes when the value is one it can take; a finished edit (`change`) also
  // snaps the field back to what the label holds.
  function edit(input, finished) {
    const label = selected;
    if (!label) return;
    const name = input.getAttribute("data-field");
    const number = Number(input.value);
    const numeric = input.value.trim() !== "" && Number.isFinite(number);
    switch (name) {
      case "id": {
        const id = input.value.trim();
        const problem = !/^[A-Za-z0-9_-]{1,40}$/.test(id)
          ? "Use letters, digits, - or _ (at most 40)."
          : labels.some((other) => other !== label && other.id === id) ? "Another label has this id." : "";
        showError("id", problem);
        if (problem) return;
        label.id = id;
        break;
      }
      case "page":
        label.page = input.value;
        page = input.value;
        break;
      case "text":
        label.text = input.value;
        break;
      case "font":
        label.font = input.value;
        label.fonts = inOrder(FONTS, [...label.fonts, input.value]);
        break;
      case "size":
        if (!numeric || number < 4 || number > 144) break;
        label.size = number;
        label.minSize = Math.min(label.minSize, number);
        label.maxSize = Math.max(label.maxSize, number);
        break;
      case "minSize":
      case "maxSize":
        if (!numeric || number < 4 || number > 144) break;
        label[name] = number;
        break;
      case "colour":
        label.colour = input.value.toLowerCase();
        if (!label.colours.includes(label.colour)) label.colours = [label.colour, ...label.colours];
        break;
      case "colours": {
        const words = input.value.toLowerCase().split(/[\s,]+/).filter(Boolean);
        const bad = words.filter((word) => !/^#[0-9a-f]{6}$/.test(word));
        showError("colours", bad.length ? `Not a #rrggbb colour: ${bad.join(", ")}.` : "");
        if (bad.length) return;
        label.colours = [...new Set([label.colour, ...words])];
        break;
      }
      case "align":
        label.align = input.value;
        break;
      case "maxLines":
        if (numeric && Number.isInteger(number) && number >= 0 && number <= 50) label.maxLines = number;
        break;
      case "required":
        label.required = input.checked;
        break;
      case "editable":
      case "fonts": {
        const chosen = [...fields.querySelectorAll(`[data-field="${name}"]:checked`)].map((box) => box.value);
        label[name] = inOrder(name === "fonts" ? FONTS : EDITABLE, chosen);
        break;
      }
      default: // x, y, width, height
        if (!numeric) break;
        label[name] = finished ? snap(number) : number;
        if (finished) keepOnCard(label);
    }
    write();
    if (name === "page" || name === "id") {
      draw();
    } else {
      place(label);
      drawCard();
      say();
    }
    fill(finished ? undefined : input);
  }

  fields.addEventListener("input", (event) => {
    if (event.target.matches("[data-field]") && event.target.type !== "checkbox") edit(event.target, false);
  });
  fields.addEventListener("change", (event) => {
    if (event.target.matches("[data-field]")) edit(event.target, true);
  });
  // Enter in a field would save the whole form mid-edit.
  fields.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("input")) event.preventDefault();
  });

  // MARK: Choosing, moving and resizing

  function select(label, focus) {
    selected = label;
    boxes.forEach((box, owner) => box.setAttribute("aria-pressed", String(owner === label)));
    fill();
    say();
    if (focus && label) boxes.get(label)?.focus({ preventScroll: true });
  }

  function millimetres(event) {
    const card = trim();
    const rect = stage.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * (card.width + 2 * BLEED),
      y: ((event.clientY - rect.top) / rect.height) * (card.height + 2 * BLEED),
    };
  }

  stage.addEventListener("pointerdown", (event) => {
    const box = event.target.closest(".label-box");
    if (!box || event.button > 0) return;
    const label = [...boxes].find(([, element]) => element === box)?.[0];
    if (!label) return;
    // Without this the browser would scroll or pick text instead; focus is given back by hand.
    event.preventDefault();
    select(label, true);
    drag = {
      label, box, pointer: event.pointerId, from: { x: label.x, y: label.y, width: label.width, height: label.height },
      start: millimetres(event), corner: event.target.closest("[data-corner]")?.getAttribute("data-corner"), moved: false,
    };
    box.setPointerCapture(event.pointerId);
  });

  stage.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const now = millimetres(event);
    const dx = now.x - drag.start.x, dy = now.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < STEP / 2) return;
    drag.moved = true;
    const { label, from, corner } = drag;
    const card = trim();
    if (!corner) {
      label.x = clamp(snap(from.x + dx), 0, card.width - label.width);
      label.y = clamp(snap(from.y + dy), 0, card.height - label.height);
    } else {
      const right = from.x + from.width, bottom = from.y + from.height;
      if (corner.includes("w")) {
        label.x = clamp(snap(from.x + dx), 0, right - SMALLEST_BOX);
        label.width = right - label.x;
      } else {
        label.width = clamp(snap(from.width + dx), SMALLEST_BOX, card.width - from.x);
      }
      if (corner.includes("n")) {
        label.y = clamp(snap(from.y + dy), 0, bottom - SMALLEST_BOX);
        label.height = bottom - label.y;
      } else {
        label.height = clamp(snap(from.height + dy), SMALLEST_BOX, card.height - from.y);
      }
    }
    place(label);
    fill();
    write();
  });

  const drop = (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    drag = null;
    say();
  };
  stage.addEventListener("pointerup", drop);
  stage.addEventListener("pointercancel", drop);

  // A tap on the card away from every label lets go of the selected one.
  stage.addEventListener("click", (event) => {
    if (!event.target.closest(".label-box")) select(null, false);
  });

  stage.addEventListener("focusin", (event) => {
    const box = event.target.closest(".label-box");
    const label = [...boxes].find(([, element]) => element === box)?.[0];
    if (label && label !== selected) select(label, false);
  });

  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  stage.addEventListener("keydown", (event) => {
    const step = ARROWS[event.key];
    if (!step || !selected || !event.target.closest(".label-box") || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const distance = event.shiftKey ? 5 : STEP;
    selected.x = snap(selected.x + step[0] * distance);
    selected.y = snap(selected.y + step[1] * distance);
    keepOnCard(selected);
    place(selected);
    fill();
    write();
    say();
  });

  // MARK: Pages, adding and removing

  root.querySelectorAll("[data-show-page]").forEach((button) => {
    button.addEventListener("click", () => {
      page = button.getAttribute("data-show-page");
      if (selected && selected.page !== page) selected = null;
      draw();
    });
  });

  addButton.addEventListener("click", () => {
    if (labels.length >= MAX_LABELS) return;
    const card = trim();
    let number = 1;
    while (labels.some((label) => label.id === "label-" + number)) number += 1;
    const width = snap(Math.min(80, card.width - 2 * SAFE)), height = 15;
    const label = {
      id: "label-" + number, page, text: "Your words", font: FONTS[0] || "serif", size: 16, colour: "#333333",
      x: snap((card.width - width) / 2), y: snap((card.height - height) / 2), width, height, align: "center", maxLines: 0,
      required: false, editable: ["text"], fonts: [FONTS[0] || "serif"], colours: ["#333333"], minSize: 16, maxSize: 16,
    };
    labels.push(label);
    selected = label;
    write();
    draw();
    boxes.get(label)?.focus({ preventScroll: true });
  });

  panel.querySelector("[data-remove-label]").addEventListener("click", () => {
    if (!selected) return;
    labels = labels.filter((label) => label !== selected);
    selected = null;
    write();
    draw();
    addButton.focus();
  });

  // MARK: Following the rest of the form

  // The JSON typed by hand: the editor follows whenever it parses, and says what is wrong when it does not.
  textarea.addEventListener("input", () => {
    const result = parse(textarea.value);
    jsonStatus.textContent = result.error || "";
    if (result.error) return;
    const id = selected?.id;
    labels = result.labels;
    selected = labels.find((label) => label.id === id) ?? null;
    draw();
  });

  form.addEventListener("change", (event) => {
    const name = event.target.name;
    if (name === "trim" || name === "inside" || name === "back") draw();
  });

  // cards.js sets an uploaded art's id in its hidden input, then reports it in the status line: redraw on the report.
  const artStatus = form.querySelector("[data-art-status]");
  if (artStatus) new MutationObserver(drawCard).observe(artStatus, { childList: true, characterData: true, subtree: true });
  art.addEventListener("error", () => { art.hidden = true; });

  // MARK: Start

  const first = parse(textarea.value);
  if (first.error) {
    jsonStatus.textContent = first.error;
  } else {
    labels = first.labels;
  }
  root.hidden = false;
  // The JSON folds away under the editor, unless it is what the designer must fix.
  if (!first.error && textarea.getAttribute("aria-invalid") !== "true") details.open = false;
  page = labels.some((label) => label.page === "front") || !labels.length ? "front" : labels[0].page;
  draw();
})();
