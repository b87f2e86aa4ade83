// Renderers of the looking-ahead cards (chat/cards_ahead.py, docs/contract/cards.md): `plan`, `forecast`,
// `debt` and `vietqr`. As in cards.js, every field is read defensively and every string goes into the page as
// text; the only markup is the VietQR's SVG, which Zeus drew itself and which is shown as an <img> (no script
// in an image runs, and the page's CSP allows data: images).

import { conversionNote, el } from "./cards.js";
import { formatDate, formatMoney } from "./format.js";
import { gettext, interpolate } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const str = (v) => (v === null || v === undefined ? "" : String(v));
const list = (v) => (Array.isArray(v) ? v : []);
const LOCALE = document.documentElement.lang || undefined;

function shell(card, kindClass, title, ...body) {
  return el(
    "section",
    { class: `zcard zcard-${kindClass}`, "data-kind": card.kind },
    el("h3", { class: "card-title", text: title }),
    ...body,
  );
}

// Only Zeus's own pages: a path on this site, never another origin.
function pageLink(url, text) {
  const href = str(url);
  if (!href.startsWith("/") || href.startsWith("//")) return null;
  return el("p", { class: "card-link" }, el("a", { href, text }));
}

function formatMonth(value) {
  const m = /^(\d{4})-(\d{2})$/.exec(str(value));
  if (!m) return str(value);
  return new Date(Number(m[1]), Number(m[2]) - 1, 1).toLocaleDateString(LOCALE, { month: "long", year: "numeric" });
}

function shortDay(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str(value));
  return m ? `${Number(m[3])}/${Number(m[2])}` : str(value);
}

function figures(rows) {
  const shown = rows.filter(([, value]) => value !== "");
  if (!shown.length) return null;
  return el(
    "dl",
    { class: "details" },
    shown.map(([label, value, cls]) => [el("dt", { text: label }), el("dd", { class: cls, text: value })]),
  );
}

function table(caption, headings, rows, cls) {
  return el(
    "table",
    { class: `card-table ${cls}` },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col", text: h })))),
    el(
      "tbody",
      {},
      rows.map(([head, ...cells]) =>
        el("tr", {}, el("th", { scope: "row", text: head }), cells.map((c) => el("td", { class: c.cls, text: c.text }))),
      ),
    ),
  );
}

// ---------- plan ----------

function warningText(code, fallback) {
  switch (code) {
    case "on_track":
      return gettext("On track");
    case "spend_pace":
      return gettext("Spending faster than planned");
    case "overspent":
      return gettext("Over the safe-to-spend money");
    case "goal_drift":
      return gettext("Behind on the goal");
    default:
      return str(fallback || code);
  }
}

export function planCard(card, ctx) {
  if (card.plan === null || card.safe_to_spend_today === undefined) {
    return shell(
      card,
      "plan",
      gettext("No plan this month"),
      el("p", { class: "muted", text: gettext("Make a plan to see what is safe to spend each day.") }),
      pageLink(card.cta_url, gettext("Make a plan")),
    );
  }
  const currency = card.currency || ctx.currency;
  const root = shell(card, "plan", interpolate(gettext("Plan for %(month)s"), { month: formatMonth(card.month) }));
  root.append(
    el(
      "p",
      { class: "plan-today" },
      el("span", { class: "plan-today-label", text: gettext("Safe to spend today") }),
      el("strong", { class: "amount plan-safe", text: formatMoney(card.safe_to_spend_today, currency) }),
    ),
  );
  const warning = str(card.warning);
  if (warning) {
    root.append(
      el("p", {
        class: `plan-warning ${warning === "on_track" ? "good" : "bad"}`,
        "data-warning": warning,
        text: warningText(warning, card.warning_title),
      }),
    );
  }
  root.append(
    figures([
      [gettext("Daily guide"), formatMoney(card.daily_guide, currency), "amount plan-guide"],
      [gettext("Days left"), card.days_left === undefined ? "" : str(card.days_left), "plan-days"],
    ]),
  );
  const bills = list(card.bills_still_due);
  if (bills.length) {
    const rows = bills.map((b) => [
      str(b?.name),
      { text: formatDate(b?.due_on) },
      { cls: "amount", text: formatMoney(b?.amount, b?.currency || currency) },
    ]);
    root.append(table(gettext("Bills still due"), [gettext("Bill"), gettext("Due"), gettext("Amount")], rows, "plan-bills"));
  } else {
    root.append(el("p", { class: "muted plan-no-bills", text: gettext("No bills left to pay this month.") }));
  }
  const conversions = conversionNote(card);
  if (conversions) root.append(conversions);
  root.append(pageLink(card.cta_url, gettext("Open the plan")));
  return root;
}

// ---------- forecast ----------

function eventKind(kind) {
  switch (kind) {
    case "income":
      return gettext("Income");
    case "bill":
      return gettext("Bill");
    case "subscription":
      return gettext("Subscription");
    case "debt":
      return gettext("Debt instalment");
    case "fixed":
      return gettext("Fixed expense");
    case "card":
      return gettext("Card payment");
    default:
      return str(kind);
  }
}

// The days' balances as a line, drawn at the pixel width it gets (as cards.js's charts): zero is marked when the
// line goes below it, the lowest point is ringed and labelled, and each day with an event gets a tick.
function forecastChart(points, events, lowest, currency, width) {
  const height = 200;
  const pad = { left: 12, right: 12, top: 28, bottom: 30 };
  const values = points.map((p) => p.amount);
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (points.length === 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (v) => pad.top + innerH - ((v - min) / span) * innerH;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart chart-forecast", role: "img" });
  root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis zero" }));
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.amount).toFixed(1)}`).join(" ");
  root.append(svg("path", { d: path, class: "line" }));
  const byDate = new Map(points.map((p, i) => [p.date, i]));
  for (const event of events) {
    const i = byDate.get(event.date);
    if (i === undefined) continue;
    const g = svg("g", { class: `event event-${event.kind}` });
    g.append(
      svg("title", {}, `${shortDay(event.date)} · ${event.label}: ${formatMoney(event.amount, currency)}`),
      svg("line", { x1: x(i).toFixed(1), x2: x(i).toFixed(1), y1: pad.top, y2: pad.top + innerH, class: "event-tick" }),
    );
    root.append(g);
  }
  const low = byDate.get(lowest?.date);
  if (low !== undefined) {
    const anchor = x(low) < width * 0.2 ? "start" : x(low) > width * 0.8 ? "end" : "middle";
    const below = y(points[low].amount) < pad.top + 18;
    root.append(
      svg("circle", { cx: x(low).toFixed(1), cy: y(points[low].amount).toFixed(1), r: 5, class: "lowest" }),
      svg(
        "text",
        { x: x(low).toFixed(1), y: (y(points[low].amount) + (below ? 18 : -10)).toFixed(1), "text-anchor": anchor, class: "chart-amount lowest-label" },
        formatMoney(points[low].raw, currency, { compact: true }),
      ),
    );
  }
  const every = Math.ceil(points.length / 7);
  points.forEach((p, i) => {
    if (i % every !== 0 && i !== points.length - 1) return;
    const anchor = i === 0 ? "start" : i === points.length - 1 ? "end" : "middle";
    root.append(svg("text", { x: x(i).toFixed(1), y: height - 10, "text-anchor": anchor, class: "chart-label" }, shortDay(p.date)));
  });
  return root;
}

export function forecastCard(card, ctx) {
  const points = list(card.series)
    .map((p) => ({ date: str(p?.key ?? p?.label), amount: Number(p?.amount), raw: p?.amount }))
    .filter((p) => p.date && Number.isFinite(p.amount));
  if (card.empty === true || !points.length) {
    return shell(
      card,
      "forecast",
      gettext("Nothing to project yet"),
      el("p", { class: "muted", text: gettext("Add an account with its balance to see the days ahead.") }),
      pageLink(card.cta_url, gettext("Add an account")),
    );
  }
  const currency = card.currency || ctx.currency;
  const title = gettext("Spendable money, the days ahead");
  const root = shell(card, "forecast", title);
  const lowest = card.lowest && typeof card.lowest === "object" ? card.lowest : null;
  const events = list(card.events)
    .filter((e) => e && typeof e === "object")
    .map((e) => ({ date: str(e.date), kind: str(e.kind), label: str(e.label) || eventKind(str(e.kind)), amount: e.amount }));
  if (lowest) {
    const values = { amount: formatMoney(lowest.balance, currency), date: formatDate(lowest.date) };
    root.append(
      el("p", {
        class: `forecast-lowest ${card.shortfall === true ? "bad" : "good"}`,
        text:
          card.shortfall === true
            ? interpolate(gettext("Running short: the lowest point is %(amount)s on %(date)s."), values)
            : interpolate(gettext("The lowest point is %(amount)s on %(date)s."), values),
      }),
    );
  }
  root.append(
    figures([
      [gettext("Today"), formatMoney(card.start_balance, currency), "amount forecast-start"],
      [gettext("Cushion"), Number(card.cushion) ? formatMoney(card.cushion, currency) : "", "amount"],
    ]),
  );
  const label = `${title}. ${points.map((p) => `${shortDay(p.date)}: ${formatMoney(p.raw, currency)}`).join("; ")}`;
  const frame = el("div", { class: "chart-frame" });
  let drawnWidth = 0;
  const draw = (width) => {
    drawnWidth = width;
    const figure = forecastChart(points, events, lowest, currency, width);
    figure.setAttribute("aria-label", label);
    frame.replaceChildren(figure);
  };
  draw(360);
  new ResizeObserver(([entry]) => {
    const width = Math.round(Math.min(entry.contentRect.width, 560));
    if (width >= 200 && Math.abs(width - drawnWidth) >= 4) draw(width);
  }).observe(frame);
  root.append(frame);
  if (events.length) {
    const rows = events.map((e) => [
      formatDate(e.date),
      { text: `${e.label} · ${eventKind(e.kind)}` },
      { cls: "amount", text: formatMoney(e.amount, currency) },
    ]);
    root.append(table(gettext("What comes and goes"), [gettext("Day"), gettext("What"), gettext("Amount")], rows, "forecast-events"));
  }
  // The chart's text equivalent: every day's balance, folded away.
  const days = points.map((p) => [formatDate(p.date), { cls: "amount", text: formatMoney(p.raw, currency) }]);
  root.append(
    el(
      "details",
      { class: "forecast-days" },
      el("summary", { text: gettext("Every day's balance") }),
      table(title, [gettext("Day"), gettext("Balance")], days, "forecast-days-table"),
    ),
  );
  return root;
}

// ---------- debt ----------

function debtTitle(card) {
  switch (str(card.title)) {
    case "Who owes you":
      return gettext("Who owes you");
    case "What you owe":
      return gettext("What you owe");
    case "Debt recorded":
      return gettext("Debt recorded");
    case "Payment recorded":
      return gettext("Payment recorded");
    default:
      return str(card.title) || gettext("Debts and IOUs");
  }
}

function debtItem(item, ctx) {
  const currency = item.currency || ctx.currency;
  const owedToMe = item.direction === "owed_to_me";
  const root = el(
    "li",
    { class: `debt-item${item.overdue ? " overdue" : ""}`, "data-debt-id": str(item.id), "data-direction": str(item.direction) },
    el(
      "p",
      { class: "debt-head" },
      el("strong", { class: "debt-counterparty", text: str(item.counterparty) }),
      el("span", { class: "debt-direction", text: owedToMe ? gettext("owes you") : gettext("you owe") }),
      item.overdue ? el("span", { class: "debt-overdue", text: gettext("Overdue") }) : null,
      item.status === "settled" ? el("span", { class: "debt-settled", text: gettext("Settled") }) : null,
    ),
  );
  const next = item.next_due && typeof item.next_due === "object" ? item.next_due : null;
  root.append(
    figures([
      [gettext("Outstanding"), formatMoney(item.outstanding, currency), "amount debt-outstanding"],
      [gettext("In all"), formatMoney(item.total, currency), "amount debt-total"],
      [
        gettext("Next due"),
        next ? interpolate(gettext("%(amount)s on %(date)s"), { amount: formatMoney(next.amount, currency), date: formatDate(next.due_on) }) : "",
        "debt-next",
      ],
      [gettext("Transfer code"), owedToMe ? str(item.code) : "", "debt-code"],
    ]),
  );
  const schedule = list(item.schedule).filter((r) => r && typeof r === "object");
  if (schedule.length > 1) {
    const rows = schedule.map((r) => [
      formatDate(r.due_on),
      { cls: "amount", text: formatMoney(r.amount, currency) },
      { cls: "amount", text: formatMoney(r.remaining, currency) },
    ]);
    root.append(table(gettext("Next instalments"), [gettext("Due"), gettext("Amount"), gettext("Still to pay")], rows, "debt-schedule"));
  }
  return root;
}

export function debtCard(card, ctx) {
  const root = shell(card, "debt", debtTitle(card));
  const items = list(card.items).filter((d) => d && typeof d === "object");
  const creditCards = list(card.cards).filter((c) => c && typeof c === "object");
  if (!items.length && !creditCards.length) {
    root.append(el("p", { class: "muted", text: gettext("No open debts.") }));
  }
  if (items.length) root.append(el("ul", { class: "debt-list" }, items.map((item) => debtItem(item, ctx))));
  for (const total of list(card.totals)) {
    if (!total || typeof total !== "object") continue;
    const amount = formatMoney(total.outstanding, total.currency || ctx.currency);
    root.append(
      el("p", {
        class: "debt-total-line",
        "data-direction": str(total.direction),
        text:
          total.direction === "owed_to_me"
            ? interpolate(gettext("Owed to you in all: %(amount)s"), { amount })
            : interpolate(gettext("You owe in all: %(amount)s"), { amount }),
      }),
    );
  }
  if (creditCards.length) {
    const rows = creditCards.map((c) => [
      str(c.name),
      { text: formatDate(c.due_on) + (c.overdue ? ` · ${gettext("Overdue")}` : "") },
      { cls: "amount", text: formatMoney(c.amount_due, c.currency || ctx.currency) },
    ]);
    root.append(table(gettext("Credit cards"), [gettext("Card"), gettext("Due"), gettext("Amount due")], rows, "debt-cards"));
  }
  root.append(pageLink(card.cta_url || "/debts", gettext("Open debts")));
  return root;
}

// ---------- vietqr ----------

// The card's SVG is segno's drawing of the payload Zeus encoded (chat/cards_ahead.py). It becomes an image's
// data URL, never markup in the page; anything that is not an <svg> document is not shown at all.
function qrImage(card) {
  const source = str(card.svg).trim();
  if (!/^<svg[\s>]/.test(source) || !source.endsWith("</svg>")) return null;
  return el("img", {
    class: "vietqr-image",
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`,
    width: 240,
    height: 240,
    alt: interpolate(gettext("VietQR code: %(amount)s to %(account)s"), {
      amount: formatMoney(card.amount, card.currency || "VND"),
      account: str(card.account?.name),
    }),
  });
}

export function vietqrCard(card, ctx) {
  const who = str(card.counterparty);
  const root = shell(card, "vietqr", who ? interpolate(gettext("VietQR for %(name)s"), { name: who }) : gettext("VietQR"));
  const image = qrImage(card);
  if (image) root.append(el("div", { class: "vietqr-frame" }, image));
  root.append(
    figures([
      [gettext("Amount"), formatMoney(card.amount, card.currency || ctx.currency), "amount vietqr-amount"],
      [gettext("To"), str(card.account?.name), "vietqr-account"],
      [gettext("Transfer code"), str(card.code), "vietqr-code"],
    ]),
  );
  root.append(
    el("p", { class: "muted", text: gettext("Scan it in any banking app. When the transfer arrives with this code, the debt is settled.") }),
  );
  const payload = str(card.payload);
  if (payload) {
    root.append(
      el(
        "details",
        { class: "vietqr-payload" },
        el("summary", { text: gettext("The code as text") }),
        el("code", { text: payload }),
      ),
    );
  }
  return root;
}
