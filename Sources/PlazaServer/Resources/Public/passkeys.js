// Passkeys (issue 40). The security page makes one: its form asks Plaza for options (with the code of a factor the
// account has, or its current passkey first), the browser makes the passkey, and the form posts it. A money form's
// "Use your passkey" signs a challenge from Plaza and sends the proof as the form's second factor.
(() => {
  const main = document.querySelector("main[data-csrf]");
  const csrf = main ? main.getAttribute("data-csrf") : "";
  const words = document.querySelector("[data-passkey-words]");
  const word = (name) => (words && words.getAttribute("data-" + name)) || name;
  const supported = !!(window.PublicKeyCredential && navigator.credentials);

  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const descriptors = (list) => (list || []).map((item) => ({ type: item.type, id: bytes(item.id) }));

  async function post(url, fields) {
    const body = new URLSearchParams(Object.assign({ _csrf: csrf }, fields || {}));
    const answer = await fetch(url, { method: "POST", body, headers: { Accept: "application/json", "X-CSRF-Token": csrf } });
    const json = await answer.json().catch(() => ({}));
    if (!answer.ok) throw Object.assign(new Error(json.title || word("failed")), { problem: json });
    return json;
  }

  // The proof of the account's passkey over a fresh challenge, as `Plaza-Second-Factor` takes it.
  async function proof() {
    const options = await post("/account/security/challenge");
    const credential = await navigator.credentials.get({ publicKey: {
      challenge: bytes(options.challenge), rpId: options.rpId, allowCredentials: descriptors(options.allowCredentials),
      userVerification: options.userVerification, timeout: options.timeout } });
    const response = credential.response;
    const assertion = { id: credential.id, type: credential.type, response: {
      clientDataJSON: text(response.clientDataJSON), authenticatorData: text(response.authenticatorData),
      signature: text(response.signature), userHandle: response.userHandle ? text(response.userHandle) : null } };
    return "passkey " + text(new TextEncoder().encode(JSON.stringify(assertion)));
  }

  function say(scope, message) {
    const box = scope.querySelector("[data-passkey-error]");
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
  }

  const refusal = (error) => error && error.name === "NotAllowedError" ? word("cancelled")
    : error && error.problem ? ((error.problem.errors || [])[0] || {}).message || error.problem.detail || error.message
    : word("failed");

  // Sends the form with the passkey's proof in place of the typed code.
  function answerWith(form, value) {
    form.querySelectorAll("input[name='secondFactor']").forEach((input) => {
      if (input.type === "hidden") input.remove(); else input.disabled = true;
    });
    const hidden = Object.assign(document.createElement("input"), { type: "hidden", name: "secondFactor", value });
    form.append(hidden);
    form.requestSubmit();
    // An asynchronous form (a waiting charge) stays on the page: the typed field comes back for a next try.
    setTimeout(() => { hidden.remove(); form.querySelectorAll("input[name='secondFactor']").forEach((i) => { i.disabled = false; }); }, 0);
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-passkey-answer]");
    if (!button) return;
    const form = button.closest("form");
    const scope = button.closest(".second-factor") || form;
    if (!supported) { say(scope, word("unsupported")); return; }
    button.disabled = true;
    try {
      say(scope, "");
      answerWith(form, await proof());
    } catch (error) {
      say(scope, refusal(error));
    } finally {
      button.disabled = false;
    }
  });

  const register = document.querySelector("form[data-passkey-register]");
  if (!register) return;
  if (!supported) {
    register.hidden = true;
    document.querySelectorAll("[data-passkey-unsupported]").forEach((note) => { note.hidden = false; });
    return;
  }
  register.addEventListener("submit", async (event) => {
    if (register.elements.credential.value) return;
    event.preventDefault();
    const button = register.querySelector("button[type='submit']");
    button.disabled = true;
    try {
      say(register, "");
      const code = register.elements.secondFactor;
      let options;
      try {
        options = await post(register.getAttribute("data-passkey-register"), { secondFactor: code ? code.value : "" });
      } catch (error) {
        // With a passkey on the account and no code typed, the current passkey answers first.
        const factors = error.problem && error.problem.factors;
        if (!(code && !code.value && factors && factors.some((factor) => factor.kind === "passkey"))) throw error;
        options = await post(register.getAttribute("data-passkey-register"), { secondFactor: await proof() });
      }
      const credential = await navigator.credentials.create({ publicKey: {
        challenge: bytes(options.challenge), rp: options.rp,
        user: { id: bytes(options.user.id), name: options.user.name, displayName: options.user.displayName },
        pubKeyCredParams: options.pubKeyCredParams, timeout: options.timeout, attestation: options.attestation,
        excludeCredentials: descriptors(options.excludeCredentials), authenticatorSelection: options.authenticatorSelection } });
      register.elements.credential.value = JSON.stringify({ id: credential.id, type: credential.type, response: {
        clientDataJSON: text(credential.response.clientDataJSON),
        attestationObject: text(credential.response.attestationObject),
        transports: credential.response.getTransports ? credential.response.getTransports() : [] } });
      if (code) code.disabled = true;
      register.submit();
    } catch (error) {
      say(register, refusal(error));
      button.disabled = false;
    }
  });
})();
