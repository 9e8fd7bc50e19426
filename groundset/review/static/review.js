// groundset review: sends each action to the server as JSON with the page's CSRF token, and moves on.
// All text shown here comes from the server's JSON as textContent, never as markup.
"use strict";

(function () {
  const token = document.querySelector("meta[name='csrf-token']").content;
  const card = document.getElementById("sample");
  const message = document.getElementById("message");
  const forms = ["editor", "rejecter", "tagger", "noter"].map((id) => document.getElementById(id));

  function say(text, bad) {
    if (!message) return;
    message.textContent = text;
    message.className = bad ? "bad" : "good";
  }

  async function post(action, body) {
    say("saving…", false);
    let reply;
    try {
      reply = await fetch(`/api/samples/${encodeURIComponent(card.dataset.id)}/${action}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
        body: JSON.stringify(body),
      });
    } catch (error) {
      say("the review server does not answer (was it stopped?): nothing was saved", true);
      return null;
    }
    let data = {};
    try { data = await reply.json(); } catch (error) { data = {}; }
    if (!reply.ok) {
      say(data.error || `the server refused it (HTTP ${reply.status})`, true);
      return null;
    }
    say("saved", false);
    return data;
  }

  function reload() { window.location.reload(); }
  function next() {
    if (card.dataset.next) window.location.assign(card.dataset.next);
    else reload();
  }
  function hideForms() { forms.forEach((f) => { if (f) f.hidden = true; }); }
  function open(form, field) {
    hideForms();
    form.hidden = false;
    const input = document.getElementById(field);
    input.focus();
    if (input.select) input.select();
  }
  function click(id) { const el = document.getElementById(id); if (el && el.click) el.click(); }

  if (card) {
    const kept = document.getElementById("keep");
    if (kept) kept.addEventListener("click", async () => {
      const taking = kept.textContent.startsWith("take back");
      if (await post("keep", { keep: !taking })) { if (taking) reload(); else next(); }
    });
    const edit = document.getElementById("edit");
    if (edit) edit.addEventListener("click", () => open(forms[0], "edit-question"));
    const reject = document.getElementById("reject");
    if (reject) reject.addEventListener("click", () => open(forms[1], "reject-reason"));
    document.getElementById("tag").addEventListener("click", () => open(forms[2], "tag-input"));
    document.getElementById("note").addEventListener("click", () => open(forms[3], "note-input"));
    const restore = document.getElementById("restore");
    if (restore) restore.addEventListener("click", async () => { if (await post("restore", {})) reload(); });

    forms[0].addEventListener("submit", async (event) => {
      event.preventDefault();
      const q = document.getElementById("edit-question");
      const r = document.getElementById("edit-reference");
      const base = { question: q.defaultValue, reference: r.defaultValue };
      if (await post("edit", { question: q.value, reference: r.value, base: base })) reload();
    });
    forms[1].addEventListener("submit", async (event) => {
      event.preventDefault();
      if (await post("reject", { reason: document.getElementById("reject-reason").value })) next();
    });
    forms[2].addEventListener("submit", async (event) => {
      event.preventDefault();
      const words = document.getElementById("tag-input").value.split(/[\s,]+/).filter(Boolean);
      if (words.length && await post("tag", { add: words })) reload();
    });
    forms[3].addEventListener("submit", async (event) => {
      event.preventDefault();
      const note = document.getElementById("note-input").value;
      if (await post("note", { note: note, base: card.dataset.note })) reload();
    });
    forms.forEach((form) => {
      form.querySelector(".cancel").addEventListener("click", hideForms);
      form.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          form.requestSubmit();
        }
      });
    });
    document.querySelectorAll("button.untag").forEach((button) => {
      button.addEventListener("click", async () => {
        if (await post("tag", { remove: [button.dataset.tag] })) reload();
      });
    });
  }

  document.querySelectorAll("#filters select").forEach((select) => {
    select.addEventListener("change", () => document.getElementById("filters").requestSubmit());
  });
  const help = document.getElementById("help");
  const toggle = document.getElementById("help-toggle");
  if (toggle) toggle.addEventListener("click", () => { help.hidden = !help.hidden; });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { hideForms(); return; }
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = {
      k: () => click("keep"), e: () => click("edit"), r: () => click("reject"), t: () => click("tag"),
      n: () => click("note"), j: () => click("next"), ArrowRight: () => click("next"),
      h: () => click("previous"), ArrowLeft: () => click("previous"),
      s: () => window.location.assign("/summary"), "?": () => { if (help) help.hidden = !help.hidden; },
    };
    const run = keys[event.key];
    if (run) { event.preventDefault(); run(); }
  });
})();
