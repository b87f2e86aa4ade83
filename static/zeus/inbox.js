// /inbox: new notifications appear without a reload (the page polls its JSON feed while it is visible), and the
// Inbox count in the navigation follows. Without this file the page is complete; a reload shows new ones.
(function () {
  "use strict";
  const list = document.getElementById("inbox-list");
  if (!list) return;
  const status = document.getElementById("inbox-status");
  const badge = document.getElementById("nav-unread");
  const gettext = (text) => (window.django ? window.django.gettext(text) : text);
  const ngettext = (one, many, n) => (window.django ? window.django.ngettext(one, many, n) : n === 1 ? one : many);
  const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  const EVERY = 20000;

  function button(label, title, extra) {
    const b = document.createElement("button");
    b.type = "submit";
    b.className = extra;
    b.textContent = label;
    const sr = document.createElement("span");
    sr.className = "sr-only";
    sr.textContent = ": " + title;
    b.append(sr);
    return b;
  }

  function item(note) {
    const li = document.createElement("li");
    li.id = "note-" + note.id;
    li.className = note.read_at ? "" : "unread";
    const head = document.createElement("div");
    head.className = "row-split";
    const title = document.createElement("span");
    title.className = "note-title";
    title.textContent = note.title;
    const when = document.createElement("time");
    when.className = "muted";
    when.dateTime = note.created_at;
    when.textContent = new Date(note.created_at).toLocaleString(document.documentElement.lang);
    head.append(title, when);
    li.append(head);
    if (note.body) {
      const body = document.createElement("p");
      body.className = "muted";
      body.textContent = note.body;
      li.append(body);
    }
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/inbox/" + note.id + "/read";
    form.className = "form-actions";
    const token = document.createElement("input");
    token.type = "hidden";
    token.name = "csrfmiddlewaretoken";
    token.value = csrf;
    form.append(token);
    if (note.cta_url) {
      const open = button(gettext("Open"), note.title, "small");
      open.name = "open";
      open.value = "1";
      form.append(open);
    }
    if (!note.read_at) form.append(button(gettext("Mark read"), note.title, "secondary small"));
    li.append(form);
    return li;
  }

  function setCount(n) {
    if (!badge) return;
    badge.hidden = n === 0;
    badge.dataset.count = String(n);
    const label = badge.querySelector(".sr-only");
    badge.replaceChildren(...(label ? [label] : []), document.createTextNode(String(n)));
  }

  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch(list.dataset.feed, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return;
      const feed = await response.json();
      const fresh = feed.results.filter((note) => !document.getElementById("note-" + note.id)).reverse();
      for (const note of fresh) list.prepend(item(note));
      if (fresh.length) {
        const empty = document.getElementById("inbox-empty");
        if (empty) empty.remove();
        const count = ngettext("%(count)s new notification", "%(count)s new notifications", fresh.length);
        status.textContent = count.replace("%(count)s", String(fresh.length));
      }
      setCount(feed.unread);
    } catch (error) {
      // Offline for a moment: the next round tries again.
    }
  }

  setInterval(refresh, EVERY);
  document.addEventListener("visibilitychange", refresh);
})();
