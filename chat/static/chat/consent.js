// The consent panel (zeus/consent.py) and, under each reply, what its turn sent to the model
// (chat/turn/sent.py). The panel's form posts to /settings/consent without JavaScript; here it goes through
// the REST API and the page stays. Everything shown from a record is text (textContent), never markup.

import { api } from "./api.js";
import { el } from "./cards.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

/** Wires the consent panel: `onAgreed` runs once consent holds (the page retries the refused message). */
export function initConsent(panel, { onAgreed, onError }) {
  const form = panel?.querySelector("[data-consent-form]");
  if (!form) return { show() {} };
  const status = el("p", { class: "consent-status", role: "status" });
  form.after(status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const agree = event.submitter?.value === "agree";
    try {
      const state = await api("POST", "/api/v1/account/consent", { model_provider: agree });
      panel.hidden = state.model_provider;
      status.textContent = state.model_provider ? "" : gettext("Nothing is sent to the model; the assistant stays off.");
      if (state.model_provider) onAgreed();
    } catch (err) {
      onError(err);
    }
  });
  return {
    show() {
      panel.hidden = false;
      status.textContent = "";
      panel.scrollIntoView({ block: "nearest" });
      form.querySelector('[value="agree"]')?.focus();
    },
  };
}

/** The disclosure under a reply whose turn sent something to the model; filled when first opened. */
export function sentDisclosure(message) {
  if (!message?.id || !message.metadata?.sent_to_model) return null;
  return el(
    "details",
    { class: "sent-disclosure", "data-message-id": String(message.id) },
    el("summary", { text: gettext("What was sent to the model?") }),
  );
}

/** Loads a disclosure's record the first time it is opened (toggle does not bubble: listened for in capture). */
export function watchSentDisclosures(container, threadId) {
  container.addEventListener(
    "toggle",
    (event) => {
      const details = event.target;
      if (!details.classList?.contains("sent-disclosure") || !details.open || details.dataset.loaded) return;
      details.dataset.loaded = "true";
      loadSent(details, threadId(), details.dataset.messageId);
    },
    true,
  );
}

async function loadSent(details, threadId, messageId) {
  const page = `/chat/${threadId}/messages/${messageId}/sent`;
  const body = el("div", { class: "sent-body" });
  details.append(body);
  try {
    const sent = await api("GET", `/api/v1/chat/threads/${threadId}/messages/${messageId}/sent`);
    body.append(...renderSent(sent));
  } catch (err) {
    body.append(el("p", { class: "form-error", text: err.message || gettext("Could not load it.") }));
  }
  body.append(el("p", {}, el("a", { href: page, target: "_blank", rel: "noopener", text: gettext("Open as a page") })));
}

const pretty = (value) => JSON.stringify(value, null, 2);

function renderSent(sent) {
  const out = [];
  if (sent.facts) out.push(el("h3", { text: gettext("About you") }), el("p", { class: "sent-text", text: sent.facts }));
  if (sent.router) {
    out.push(el("h3", { text: gettext("To choose how to answer") }), el("p", { class: "sent-text", text: sent.router }));
  }
  out.push(el("h3", { text: gettext("The conversation") }));
  if (sent.omitted_messages) {
    const n = sent.omitted_messages;
    const text = ngettext(
      "%(n)s earlier message, shown above in the conversation, is left out here.",
      "%(n)s earlier messages, shown above in the conversation, are left out here.",
      n,
    );
    out.push(el("p", { class: "muted", text: interpolate(text, { n }) }));
  }
  const list = el("ol", { class: "sent-messages" });
  for (const message of sent.messages || []) {
    const who = message.role === "user" ? gettext("You (and the results of Zeus's tools)") : gettext("The assistant");
    const item = el("li", { class: `sent-${message.role}` }, el("strong", { text: who }));
    for (const block of message.content || []) item.append(...renderBlock(block));
    list.append(item);
  }
  out.push(list);
  return out;
}

function renderBlock(block) {
  switch (block.type) {
    case "text":
      return [el("p", { class: "sent-text", text: block.text })];
    case "tool_use":
      return [
        el("p", { text: interpolate(gettext("Asked Zeus's tool %(name)s with:"), { name: block.name }) }),
        el("pre", { text: pretty(block.input) }),
      ];
    case "tool_result":
      return [
        el("p", { text: interpolate(gettext("The tool %(name)s answered (your data):"), { name: block.name || "?" }) }),
        el("pre", { text: pretty(block.output) }),
      ];
    case "thinking":
      return [el("p", { class: "muted", text: gettext("(The model's own reasoning, returned to it.)") })];
    case "staff_instruction":
      return [el("p", { class: "muted", text: gettext("(An instruction from the Zeus team, not shown.)") })];
    default:
      return [];
  }
}
