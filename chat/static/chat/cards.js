// Renderers for the structured cards of docs/contract/cards.md. Cards are built by server code, but their shapes
// beyond {"kind", "version"} are read defensively: every field is optional, lists may come under a few
// names, and every string goes into the page as text. A click or submit calls ctx.send(event, payload,
// label), which sends a `ui_event` frame; it returns false when the page cannot send right now.
// The shapes read here are listed in docs/chat-page.md.

import { debtCard, planCard, vietqrCard } from "./cards_ahead.js";
import { forecastCard } from "./cards_forecast.js";
import { formatDate, formatMoney, humanize } from "./format.js";
import { gettext, interpolate } from "./i18n.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const str = (v) => (v === null || v === undefined ? "" : String(v));
const firstList = (card, ...names) => {
  for (const name of names) if (Array.isArray(card[name])) return card[name];
  return [];
};
const firstText = (obj, ...names) => {
  for (const name of names) if (typeof obj?.[name] === "string" && obj[name].trim()) return obj[name];
  return "";
};

export const GOAL_KINDS = ["house", "retirement", "savings", "education", "emergency_fund", "other"];

function shell(card, kindClass, title, ...body) {
  const heading = title ? el("h3", { class: "card-title", text: title }) : null;
  return el("section", { class: `zcard zcard-${kindClass}`, "data-kind": card.kind }, heading, ...body);
}

// Once a card has sent its event its controls are disabled, so a double click cannot start a second turn;
// the chosen control keeps a mark.
function settle(root, chosen) {
  for (const control of root.querySelectorAll("button, input, select, textarea")) control.disabled = true;
  root.classList.add("zcard-used");
  if (chosen) chosen.classList.add("chosen");
}

/** Settles a rendered card that a later turn already answered (history), so a click cannot repeat it. */
export function settleAnswered(root) {
  if (root.querySelector("button, input, select, textarea")) settle(root, null);
}

function promptButtons(card, ctx, items, cls) {
  return el(
    "div",
    { class: `prompt-list ${cls}` },
    items
      .map((item) => {
        const prompt = typeof item === "string" ? item : firstText(item, "prompt", "text", "label", "title");
        const label = typeof item === "string" ? item : firstText(item, "label", "title", "prompt", "text");
        if (!prompt) return null;
        return el("button", {
          type: "button",
          class: "chip",
          text: label,
          onclick: () => ctx.send("action_selected", { prompt }, prompt),
        });
      })
      .filter(Boolean),
  );
}

function welcome(card, ctx) {
  const items = firstList(card, "prompts", "starters", "suggestions", "actions");
  return shell(
    card,
    "welcome",
    firstText(card, "title") || gettext("What can I help with?"),
    firstText(card, "message", "body", "text") ? el("p", { text: firstText(card, "message", "body", "text") }) : null,
    promptButtons(card, ctx, items, "welcome-prompts"),
  );
}

function smartActions(card, ctx) {
  return shell(
    card,
    "smart-actions",
    firstText(card, "title"),
    promptButtons(card, ctx, firstList(card, "actions", "items", "prompts"), "smart-actions"),
  );
}

function quickCreate(card, ctx, fallbackTitle) {
  const items = firstList(card, "items", "suggestions", "options", "assets");
  const root = shell(card, card.kind === "quick_create" ? "quick-create" : "asset-suggestions", "");
  root.prepend(el("h3", { class: "card-title", text: firstText(card, "title") || fallbackTitle }));
  if (firstText(card, "message", "body")) root.append(el("p", { text: firstText(card, "message", "body") }));
  const list = el("div", { class: "option-grid" });
  for (const item of items) {
    const kind = str(item.kind || item.asset_kind);
    const name = str(item.name || item.label);
    if (!kind && !name) continue;
    const button = el(
      "button",
      { type: "button", class: "option" },
      el("span", { class: "option-name", text: str(item.label || name || humanize(kind)) }),
      el("span", { class: "option-meta", text: firstText(item, "description") || humanize(kind) }),
    );
    button.addEventListener("click", () => {
      if (ctx.send("quick_create_selected", { kind, name }, interpolate(gettext("Create %(name)s"), { name: name || humanize(kind) }))) settle(root, button);
    });
    list.append(button);
  }
  root.append(list);
  return root;
}

function assetSelector(card, ctx) {
  const root = shell(card, "asset-selector", firstText(card, "title") || gettext("Which asset?"));
  const prompt = firstText(card, "message", "prompt", "body");
  if (prompt) root.append(el("p", { text: prompt }));
  const pending = card.pending;
  if (pending && typeof pending === "object") {
    const what = [str(pending.description), formatMoney(pending.amount, pending.currency || ctx.currency)];
    root.append(el("p", { class: "pending-line", text: what.filter(Boolean).join(" · ") }));
  }
  const list = el("div", { class: "option-grid", role: "group", "aria-label": gettext("Assets") });
  for (const asset of firstList(card, "assets", "options", "items")) {
    if (asset?.id === undefined || asset?.id === null) continue;
    const currency = asset.currency || ctx.currency;
    const button = el(
      "button",
      { type: "button", class: "option", "data-asset-id": str(asset.id) },
      el("span", { class: "option-name", text: str(asset.name) || `#${asset.id}` }),
      el("span", { class: "option-meta", text: str(asset.kind_label) || humanize(asset.kind) }),
      asset.balance !== undefined && asset.balance !== null
        ? el("span", { class: "option-amount amount", text: formatMoney(asset.balance, currency) })
        : null,
    );
    button.addEventListener("click", () => {
      if (ctx.send("existing_asset_selected", { asset_id: asset.id }, interpolate(gettext("Use %(name)s"), { name: asset.name || interpolate(gettext("asset #%(id)s"), { id: asset.id }) }))) {
        settle(root, button);
      }
    });
    list.append(button);
  }
  root.append(list);
  return root;
}

function fieldControl(field, value) {
  const name = str(field.name);
  const id = `f-${Math.random().toString(36).slice(2, 9)}-${name}`;
  const type = str(field.type || "text");
  let control;
  if (type === "select") {
    control = el("select", { id, name });
    if (!field.required) control.append(el("option", { value: "", text: "—" }));
    for (const option of Array.isArray(field.options) ? field.options : []) {
      const optionValue = typeof option === "object" ? str(option.value ?? option.name) : str(option);
      const optionLabel = typeof option === "object" ? str(option.label ?? optionValue) : humanize(option);
      control.append(el("option", { value: optionValue, text: optionLabel }));
    }
    if (value !== undefined && value !== null) control.value = str(value);
  } else if (type === "date" && value && !/^\d{4}-\d{2}-\d{2}$/.test(str(value))) {
    // a relative deadline ("10 years") cannot live in a date input; the server understands it as text
    control = el("input", { id, name, type: "text", value: str(value) });
  } else {
    const attrs = { id, name, type: type === "date" ? "date" : "text", value: value ?? undefined };
    // shorthand such as 150k or 2tr is valid money input, so numbers stay text with a numeric keyboard
    if (type === "number") attrs.inputmode = "decimal";
    control = el("input", attrs);
  }
  if (field.required) control.required = true;
  if (field.placeholder) control.placeholder = str(field.placeholder);
  return el(
    "label",
    { class: "field", for: id },
    el("span", { class: "field-label", text: str(field.label) || humanize(name) }),
    control,
  );
}

function formCard(card, ctx, { kindClass, title, fields, intent, submitLabel }) {
  const root = shell(card, kindClass, title);
  if (firstText(card, "message", "body", "description"))
    root.append(el("p", { text: firstText(card, "message", "body", "description") }));
  const form = el("form", { class: "card-form", novalidate: false });
  for (const field of fields) form.append(fieldControl(field, field.value));
  const error = el("p", { class: "form-error", role: "alert", hidden: true });
  const submit = el("button", { type: "submit", class: "primary", text: submitLabel });
  form.append(error, el("div", { class: "form-actions" }, submit));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const values = {};
    for (const field of fields) {
      const raw = form.elements.namedItem(field.name)?.value?.trim() ?? "";
      if (raw !== "") values[field.name] = raw;
    }
    const label = `${title}: ${Object.values(values).join(", ")}`;
    if (ctx.send("form_submit", { intent, values }, label)) settle(root, submit);
  });
  root.append(form);
  return root;
}

function quickForm(card, ctx) {
  const fields = firstList(card, "fields").filter((f) => f && f.name);
  const defaults = card.values && typeof card.values === "object" ? card.values : {};
  return formCard(card, ctx, {
    kindClass: "quick-form",
    title: firstText(card, "title") || gettext("A few details"),
    fields: fields.map((f) => ({ ...f, value: f.value ?? defaults[f.name] })),
    intent: str(card.intent),
    submitLabel: firstText(card, "submit_label") || gettext("Send"),
  });
}

function goalForm(card, ctx) {
  const given = firstList(card, "fields").filter((f) => f && f.name);
  if (given.length) {
    return formCard(card, ctx, {
      kindClass: "goal-form",
      title: firstText(card, "title") || gettext("Plan a goal"),
      fields: given,
      intent: str(card.intent) || "create_goal",
      submitLabel: firstText(card, "submit_label") || gettext("Create goal"),
    });
  }
  return goalFormFromValues(card, ctx);
}

function goalFormFromValues(card, ctx) {
  // the card's own "kind" is "goal_form", so the goal's kind comes as goal_kind or inside values/defaults
  const given = card.values || card.defaults || card.prefill || {};
  const v = { ...card, ...given, kind: card.goal_kind ?? given.goal_kind ?? given.kind };
  const currency = v.currency || ctx.currency;
  const fields = [
    { name: "name", label: gettext("Goal name"), type: "text", required: true, value: v.name, placeholder: gettext("Buy a house") },
    {
      name: "kind",
      label: gettext("Kind"),
      type: "select",
      required: true,
      value: GOAL_KINDS.includes(v.kind) ? v.kind : "savings",
      options: GOAL_KINDS.map((k) => ({ value: k, label: humanize(k) })),
    },
    {
      name: "target_amount",
      label: interpolate(gettext("Target amount (%(currency)s)"), { currency }),
      type: "number",
      required: true,
      value: v.target_amount,
      placeholder: "2 tỷ, 500m, 150000",
    },
    { name: "deadline", label: gettext("Deadline"), type: "date", required: true, value: v.deadline },
    {
      name: "current_amount",
      label: interpolate(gettext("Saved so far (%(currency)s)"), { currency }),
      type: "number",
      value: v.current_amount,
      placeholder: gettext("optional"),
    },
  ];
  return formCard(card, ctx, {
    kindClass: "goal-form",
    title: firstText(card, "title") || gettext("Plan a goal"),
    fields,
    intent: str(card.intent) || "create_goal",
    submitLabel: gettext("Create goal"),
  });
}

function detailList(details, currency) {
  const rows = [];
  if (Array.isArray(details)) {
    for (const item of details) {
      if (item && typeof item === "object") {
        const value =
          item.amount !== undefined ? formatMoney(item.amount, item.currency || currency) : str(item.value ?? item.text);
        rows.push([str(item.label ?? item.name), value]);
      } else rows.push(["", str(item)]);
    }
  } else if (details && typeof details === "object") {
    for (const [key, value] of Object.entries(details)) {
      if (value === null || typeof value === "object" || key === "currency") continue;
      const shown = /amount|balance|total/.test(key) ? formatMoney(value, details.currency || currency) : str(value);
      rows.push([humanize(key), shown]);
    }
  }
  if (!rows.length) return null;
  return el(
    "dl",
    { class: "details" },
    rows.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]),
  );
}

function confirmCard(card, ctx) {
  const approvalId = str(card.approval_id);
  const isDelete = /delete/.test(str(card.tool || card.action || card.summary));
  const root = shell(card, "confirm", firstText(card, "title") || gettext("Please confirm"));
  root.classList.toggle("danger", isDelete);
  root.append(
    el("p", { class: "confirm-summary", text: firstText(card, "summary", "message", "description", "body") }),
  );
  const details = detailList(card.details ?? card.arguments ?? card.item ?? card.target, ctx.currency);
  if (details) root.append(details);
  const decide = (decision, button) => {
    const label = decision === "approve" ? gettext("Approved") : gettext("Rejected");
    if (ctx.send("confirm", { approval_id: approvalId, decision }, label)) settle(root, button);
  };
  const approve = el("button", {
    type: "button",
    class: isDelete ? "danger" : "primary",
    text: firstText(card, "confirm_label", "approve_label") || (isDelete ? gettext("Delete") : gettext("Approve")),
  });
  const reject = el("button", {
    type: "button",
    class: "secondary",
    text: firstText(card, "reject_label") || gettext("Cancel"),
  });
  approve.addEventListener("click", () => decide("approve", approve));
  reject.addEventListener("click", () => decide("reject", reject));
  root.append(el("div", { class: "form-actions" }, reject, approve));
  const expires = card.expires_at ? new Date(card.expires_at) : null;
  if (expires && !Number.isNaN(expires.getTime())) {
    const time = expires.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
    root.append(el("p", { class: "card-note", text: interpolate(gettext("This confirmation expires at %(time)s."), { time }) }));
  }
  if (!approvalId) settle(root);
  return root;
}

function chartPoints(card) {
  return firstList(card, "series", "data", "points", "items", "totals")
    .map((p) => ({
      label: str(p?.label ?? p?.category ?? p?.period ?? p?.week ?? p?.day ?? p?.date ?? ""),
      amount: Number(p?.amount ?? p?.total ?? p?.value ?? 0),
      raw: p?.amount ?? p?.total ?? p?.value ?? 0,
    }))
    .filter((p) => Number.isFinite(p.amount));
}

const truncate = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// Charts are drawn at the pixel width they get (1 unit = 1 px), so their text stays the same size on a
// phone and on a desktop; a ResizeObserver redraws them when that width changes.
function barChart(points, currency, width) {
  const rowH = 30;
  const labelW = Math.min(130, Math.round(width * 0.3));
  const amountW = 84;
  const barMax = width - labelW - amountW - 8;
  const max = Math.max(...points.map((p) => p.amount), 0) || 1;
  const height = points.length * rowH + 4;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart chart-bar", role: "img" });
  points.forEach((p, i) => {
    const y = i * rowH + 4;
    const w = Math.max(2, (Math.max(p.amount, 0) / max) * barMax);
    const g = svg("g", { class: "bar-row" });
    g.append(
      svg("title", {}, `${p.label}: ${formatMoney(p.raw, currency)}`),
      svg(
        "text",
        { x: labelW - 8, y: y + 15, "text-anchor": "end", class: "chart-label" },
        truncate(humanize(p.label), Math.floor(labelW / 7.5)),
      ),
      svg("rect", { x: labelW, y: y + 3, width: w.toFixed(1), height: rowH - 12, rx: 4, class: "bar" }),
      svg(
        "text",
        { x: labelW + w + 6, y: y + 15, class: "chart-amount" },
        formatMoney(p.raw, currency, { compact: true }),
      ),
    );
    root.append(g);
  });
  return root;
}

function lineChart(points, currency, width) {
  const height = 190;
  const pad = { left: 12, right: 12, top: 26, bottom: 30 };
  const max = Math.max(...points.map((p) => p.amount), 0) || 1;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (points.length === 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (v) => pad.top + innerH - (Math.max(v, 0) / max) * innerH;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart chart-line", role: "img" });
  root.append(
    svg("line", { x1: pad.left, x2: width - pad.right, y1: pad.top + innerH, y2: pad.top + innerH, class: "axis" }),
  );
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.amount).toFixed(1)}`).join(" ");
  root.append(svg("path", { d: path, class: "line" }));
  const every = Math.ceil(points.length / 7);
  points.forEach((p, i) => {
    const g = svg("g", {});
    g.append(
      svg("title", {}, `${p.label}: ${formatMoney(p.raw, currency)}`),
      svg("circle", { cx: x(i).toFixed(1), cy: y(p.amount).toFixed(1), r: 4, class: "dot" }),
    );
    if (i % every === 0 || i === points.length - 1) {
      const anchor = i === 0 ? "start" : i === points.length - 1 ? "end" : "middle";
      g.append(
        svg(
          "text",
          { x: x(i).toFixed(1), y: y(p.amount) - 9, "text-anchor": anchor, class: "chart-amount" },
          formatMoney(p.raw, currency, { compact: true }),
        ),
        svg(
          "text",
          { x: x(i).toFixed(1), y: height - 10, "text-anchor": anchor, class: "chart-label" },
          truncate(p.label, 12),
        ),
      );
    }
    root.append(g);
  });
  return root;
}

// What a figure converted from other currencies, with the rate used, and what no rate converts (never counted
// at 1:1): the same words as the pages' zeus/conversions.html.
export function conversionNote(card) {
  const parts = [];
  for (const c of Array.isArray(card.converted) ? card.converted : []) {
    const values = {
      amount: formatMoney(c.amount, c.currency),
      converted: formatMoney(c.converted, c.to_currency),
      rate: str(c.rate),
      from: str(c.currency),
      to: str(c.to_currency),
      on: formatDate(c.rate_date),
    };
    parts.push(interpolate(gettext("%(amount)s = %(converted)s at %(rate)s %(to)s/%(from)s (%(on)s)"), values));
  }
  for (const m of Array.isArray(card.rate_missing) ? card.rate_missing : []) {
    parts.push(interpolate(gettext("Rate missing: %(amount)s not counted"), { amount: formatMoney(m.amount, m.currency) }));
  }
  return parts.length ? el("p", { class: "muted conversions", text: parts.join(" · ") }) : null;
}

function chart(card, ctx) {
  const currency = card.currency || ctx.currency;
  const points = chartPoints(card);
  const style = str(card.chart || card.chart_type || card.style || card.type);
  const line = style === "line" || (!style && ["week", "day"].includes(str(card.group_by)));
  const total = card.total ?? points.reduce((sum, p) => sum + p.amount, 0);
  const root = shell(card, "chart", firstText(card, "title") || gettext("Spending"));
  const sub = [str(card.period_label) || humanize(card.period), interpolate(gettext("Total %(amount)s"), { amount: formatMoney(total, currency) })].filter(Boolean).join(" · ");
  root.append(el("p", { class: "chart-sub", text: sub }));
  const conversions = conversionNote(card);
  if (conversions) root.append(conversions);
  if (!points.length) {
    root.append(el("p", { class: "muted", text: gettext("Nothing to chart for this period.") }));
    return root;
  }
  const label = `${firstText(card, "title") || gettext("Spending")}. ${points
    .map((p) => `${humanize(p.label)}: ${formatMoney(p.raw, currency)}`)
    .join("; ")}`;
  const frame = el("div", { class: "chart-frame" });
  let drawnWidth = 0;
  const draw = (width) => {
    drawnWidth = width;
    const figure = line ? lineChart(points, currency, width) : barChart(points, currency, width);
    figure.setAttribute("aria-label", label);
    frame.replaceChildren(figure);
  };
  draw(360);
  new ResizeObserver(([entry]) => {
    const width = Math.round(Math.min(entry.contentRect.width, line ? 520 : 480));
    if (width >= 200 && Math.abs(width - drawnWidth) >= 4) draw(width);
  }).observe(frame);
  root.append(frame);
  return root;
}

function resultSummary(card, ctx) {
  const failed = card.is_error === true || card.ok === false || ["error", "failed"].includes(str(card.status));
  const root = shell(card, "result", firstText(card, "title") || (failed ? gettext("Not done") : gettext("Done")));
  root.classList.add(failed ? "bad" : ["cancelled", "rejected"].includes(str(card.status)) ? "neutral" : "good");
  const text = firstText(card, "summary", "message", "body", "text");
  if (text) root.append(el("p", { text }));
  const details = detailList(card.items ?? card.details ?? card.fields ?? card.record, ctx.currency);
  if (details) root.append(details);
  return root;
}

// A bank text read into a draft: its details, and Save / Discard as a `draft_decision` ui_event. A draft the
// ledger already holds (duplicate_of) offers only Discard.
function transactionDraft(card, ctx) {
  const root = shell(card, "draft", firstText(card, "title") || gettext("Save this transaction?"));
  if (card.duplicate_of) {
    root.classList.add("neutral");
    root.append(el("p", { text: gettext("Your bank feed or a statement already brought this payment into Zeus.") }));
  }
  const details = detailList(card.items, card.currency || ctx.currency);
  if (details) root.append(details);
  const draftId = card.draft_id;
  const decisions = Array.isArray(card.decisions) ? card.decisions : ["save", "discard"];
  const buttons = [];
  for (const decision of ["discard", "save"]) {
    if (!decisions.includes(decision)) continue;
    const button = el("button", {
      type: "button",
      class: decision === "save" ? "primary" : "secondary",
      text: decision === "save" ? gettext("Save") : gettext("Discard"),
    });
    button.addEventListener("click", () => {
      const label = decision === "save" ? gettext("Saved the draft") : gettext("Discarded the draft");
      if (ctx.send("draft_decision", { draft_id: draftId, decision }, label)) settle(root, button);
    });
    buttons.push(button);
  }
  root.append(el("div", { class: "form-actions" }, ...buttons));
  return root;
}

// A list of recurring money: what is due and when, each with what it costs a month and a year, then the
// totals of what goes out. A table, so a screen reader reads it as one.
function recurringCard(card, ctx) {
  const root = shell(card, "recurring", firstText(card, "title") || gettext("Recurring payments"));
  const items = Array.isArray(card.items) ? card.items : [];
  if (!items.length) {
    root.append(el("p", { class: "muted", text: gettext("Nothing recurring found.") }));
    return root;
  }
  const head = el(
    "tr",
    {},
    ...["", gettext("Next"), gettext("Amount"), gettext("A month"), gettext("A year")].map((h) =>
      el("th", { scope: "col", text: h }),
    ),
  );
  const rows = items.map((item) => {
    const currency = item.currency || ctx.currency;
    return el(
      "tr",
      { "data-kind": str(item.kind) },
      el("th", { scope: "row", text: `${str(item.merchant)} · ${str(item.interval_label) || humanize(item.interval)}` }),
      el("td", { text: formatDate(item.next_on) }),
      el("td", { class: "amount", text: formatMoney(item.amount, currency) }),
      el("td", { class: "amount", text: formatMoney(item.monthly_cost, currency) }),
      el("td", { class: "amount", text: formatMoney(item.yearly_cost, currency) }),
    );
  });
  root.append(el("table", { class: "recurring-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  for (const total of Array.isArray(card.totals) ? card.totals : []) {
    root.append(
      el("p", {
        class: "recurring-total",
        text: interpolate(gettext("Going out: %(month)s a month, %(year)s a year"), {
          month: formatMoney(total.monthly_cost, total.currency),
          year: formatMoney(total.yearly_cost, total.currency),
        }),
      }),
    );
  }
  return root;
}

const RENDERERS = {
  transaction_draft: transactionDraft,
  welcome,
  smart_actions: smartActions,
  asset_suggestions: (card, ctx) => quickCreate(card, ctx, gettext("Add an asset")),
  quick_create: (card, ctx) => quickCreate(card, ctx, gettext("Quick create")),
  quick_form: quickForm,
  goal_form: goalForm,
  asset_selector: assetSelector,
  confirm: confirmCard,
  chart,
  recurring: recurringCard,
  result_summary: resultSummary,
  plan: planCard,
  forecast: forecastCard,
  debt: debtCard,
  vietqr: vietqrCard,
};

/** A DOM node for the card, or null for a kind this page does not know. */
export function renderCard(card, ctx) {
  if (!card || typeof card !== "object") return null;
  const render = RENDERERS[card.kind];
  if (!render) return null;
  try {
    return render(card, ctx);
  } catch (err) {
    console.error("card", card.kind, err);
    return null;
  }
}
