// How messages look: stored messages (REST history, `done`, `message` frames) and the live turn that
// streams in. The live turn appends tokens to one text segment and re-renders only that segment, at most
// once per animation frame, so a long reply never re-renders the thread.

import { el, renderCard } from "./cards.js";
import { sentDisclosure } from "./consent.js";
import { formatTime, humanize } from "./format.js";
import { gettext, interpolate } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";

const TOOL_LABELS = {
  list_transactions: gettext("Transactions"),
  list_linked_accounts: gettext("Linked accounts"),
  list_assets: gettext("Assets"),
  list_budgets: gettext("Budgets"),
  list_goals: gettext("Goals"),
  list_smart_suggestions: gettext("Suggestions"),
  summarize_spending: gettext("Spending summary"),
  create_goal: gettext("Create goal"),
  create_manual_transaction: gettext("Add transaction"),
  update_manual_transaction: gettext("Edit transaction"),
  delete_manual_transaction: gettext("Delete transaction"),
  create_manual_asset: gettext("Add asset"),
  update_manual_asset: gettext("Edit asset"),
  delete_manual_asset: gettext("Delete asset"),
};
export const toolLabel = (name) => TOOL_LABELS[name] || humanize(name);

export function toolBadge(name, status) {
  const badge = el("span", { class: `tool-badge ${status}`, "data-tool": name });
  setBadge(badge, name, status);
  return badge;
}

function setBadge(badge, name, status) {
  badge.className = `tool-badge ${status}`;
  const mark = status === "calling" ? "…" : status === "error" ? "✕" : "✓";
  badge.textContent = `${toolLabel(name)} ${mark}`;
  badge.title = status === "calling" ? "working" : status === "error" ? "failed" : "done";
}

function textOf(message) {
  return (message.parts || [])
    .filter((p) => p && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n\n");
}

function metaLine(message) {
  const bits = [formatTime(message.created_at)];
  const meta = message.metadata || {};
  if (meta.admin_initiated) bits.push("from the Zeus team");
  if (meta.aborted) bits.push("stopped");
  const footer = el("footer", { class: "msg-meta", text: bits.filter(Boolean).join(" · ") });
  const marker = unverifiedMarker(meta.unverified_figures);
  if (marker) footer.append(" · ", marker);
  const sent = sentDisclosure(message);
  if (sent) footer.append(sent);
  return footer;
}

/** A quiet note when the reply states money figures or percentages that no tool result of its turn gave
 * (metadata.unverified_figures): the figures themselves are in the tooltip. Not an alarm. */
function unverifiedMarker(figures) {
  if (!Array.isArray(figures) || !figures.length) return null;
  const list = figures.filter((f) => typeof f === "string").join(", ");
  const tip = interpolate(gettext("Not found in your data: %(figures)s. Check these figures before relying on them."), { figures: list });
  return el("span", {
    class: "unverified",
    title: tip,
    tabindex: "0",
    "aria-label": tip,
    "data-unverified": String(figures.length),
    text: gettext("figures not checked"),
  });
}

export function messageShell(role, id) {
  const article = el("article", { class: `msg msg-${role}`, "data-role": role });
  if (id) article.dataset.id = id;
  const bubble = el("div", { class: "bubble" });
  article.append(bubble);
  return { article, bubble };
}

export function renderUserText(text, { id, pending = false, viaCard = false } = {}) {
  const { article, bubble } = messageShell("user", id);
  bubble.append(el("p", { class: "user-text", text }));
  if (pending) article.classList.add("pending");
  if (viaCard) article.classList.add("via-card");
  return article;
}

/** A stored message as a DOM node. */
export function renderMessage(message, cardCtx) {
  if (message.role === "user") {
    const article = renderUserText(textOf(message), { id: message.id });
    article.append(metaLine(message));
    return article;
  }
  const { article, bubble } = messageShell("assistant", message.id);
  if (message.metadata?.admin_initiated) article.classList.add("from-staff");
  let badges = null;
  let text = [];
  const flushText = () => {
    if (!text.length) return;
    const md = el("div", { class: "md" });
    md.append(renderMarkdown(text.join("\n\n")));
    bubble.append(md);
    text = [];
  };
  for (const part of message.parts || []) {
    if (!part || typeof part !== "object") continue;
    if (part.type === "text") {
      if (part.text) text.push(part.text);
      continue;
    }
    flushText();
    if (part.type === "tool") {
      if (!badges) {
        badges = el("div", { class: "tool-row", "aria-label": gettext("Tools used") });
        bubble.append(badges);
      }
      badges.append(toolBadge(part.name, part.is_error ? "error" : "done"));
    } else if (part.type === "spec") {
      const card = renderCard(part.spec, cardCtx);
      if (card) bubble.append(card);
    }
  }
  flushText();
  article.append(metaLine(message));
  return article;
}

/** The assistant bubble of the turn in flight. */
export class TurnView {
  constructor(cardCtx) {
    this.cardCtx = cardCtx;
    const { article, bubble } = messageShell("assistant");
    this.article = article;
    this.bubble = bubble;
    article.classList.add("live");
    this.status = el("div", { class: "turn-status" }, el("span", { class: "spinner", "aria-hidden": "true" }));
    this.statusText = el("span", { text: gettext("Sending…") });
    this.status.append(this.statusText);
    this.bubble.append(this.status);
    this.badges = new Map();
    this.badgeRow = null;
    this.segment = null;
    this.pending = false;
    this.hasContent = false;
    this.streamedText = false;
  }

  setStatus(text) {
    this.statusText.textContent = text;
  }

  phase(phase) {
    this.setStatus(phase === "generating" ? gettext("Writing…") : gettext("Thinking…"));
  }

  tool(frame) {
    const key = frame.call_id || frame.name;
    let badge = this.badges.get(key);
    if (!badge) {
      if (!this.badgeRow || this.bubble.lastElementChild !== this.badgeRow) {
        this.badgeRow = el("div", { class: "tool-row", "aria-label": gettext("Tools") });
        this.bubble.insertBefore(this.badgeRow, this.status);
      }
      badge = toolBadge(frame.name, frame.status);
      this.badges.set(key, badge);
      this.badgeRow.append(badge);
    } else setBadge(badge, frame.name, frame.status);
    if (frame.status === "calling") this.setStatus(interpolate(gettext("Checking %(tool)s…"), { tool: toolLabel(frame.name).toLowerCase() }));
    // The text so far is painted now: the next frame's repaint would find a new segment and drop it.
    this.flush();
    this.segment = null;
  }

  token(text) {
    if (!this.segment) {
      const node = el("div", { class: "md", "aria-busy": "true" });
      this.bubble.insertBefore(node, this.status);
      this.segment = { node, text: "" };
    }
    this.segment.text += text;
    this.hasContent = true;
    this.streamedText = true;
    this.setStatus(gettext("Writing…"));
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.flush());
  }

  flush() {
    this.pending = false;
    const segment = this.segment;
    if (!segment) return;
    segment.node.replaceChildren(renderMarkdown(segment.text));
  }

  spec(card) {
    const node = renderCard(card, this.cardCtx);
    if (node) {
      this.flush();
      this.segment = null;
      this.bubble.insertBefore(node, this.status);
      this.hasContent = true;
    }
  }

  finishSegments() {
    this.flush();
    for (const node of this.bubble.querySelectorAll(".md[aria-busy]")) node.removeAttribute("aria-busy");
    this.segment = null;
  }

  /** The turn ended with its stored message: keep what streamed, fill in what did not. */
  done(message) {
    this.finishSegments();
    this.status.remove();
    this.article.classList.remove("live");
    if (message?.id) this.article.dataset.id = message.id;
    if (!this.hasContent && message) {
      const stored = renderMessage(message, this.cardCtx);
      this.article.replaceWith(stored);
      this.article = stored;
      return stored;
    }
    if (message && !this.streamedText) {
      // cards came as frames but the text did not stream: take it from the stored message
      const text = textOf(message);
      if (text) {
        const md = el("div", { class: "md" });
        md.append(renderMarkdown(text));
        this.bubble.append(md);
      }
    }
    if (message) this.article.append(metaLine(message));
    return this.article;
  }

  /** The turn ended without a message (error, stop, dropped socket): what streamed stays, the note follows. */
  fail(note) {
    this.finishSegments();
    this.status.remove();
    this.article.classList.remove("live");
    this.article.classList.add("failed");
    this.bubble.append(note);
    return this.article;
  }
}
