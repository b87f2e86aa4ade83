// Renderers of the looking-ahead cards (chat/cards_ahead.py, docs/contract/cards.md): `plan`, `debt` and
// `vietqr` (and the helpers cards_forecast.js draws the `forecast` with). As in cards.js, every field is read defensively and every string goes into the page as
// text; the only markup is the VietQR's SVG, which Zeus drew itself and which is shown as an <img> (no script
// in an image runs, and the page's CSP allows data: images).

import { conversionNote, el } from "./cards.js";
import { formatDate, formatMoney } from "./format.js";
import { gettext, interpolate } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export const str = (v) => (v === null || v === undefined ? "" : String(v));
export const list = (v) => (Array.isArray(v) ? v : []);
const LOCALE = document.documentElement.lang || undefined;

export function shell(card, kindClass, title, ...body) {
  return el(
    "section",
    { class: `zcard zcard-${kindClass}`, "data-kind": card.kind },
    el("h3", { class: "card-title", text: title }),
    ...body,
  );
}

// Only Zeus's own pages: a path on this site, never another origin.
export function pageLink(url, text) {
  const href = str(url);
  if (!href.startsWith("/") || href.startsWith("//")) return null;
  return el("p", { class: "card-link" }, el("a", { href, text }));
}

function formatMonth(value) {
  const m = /^(\d{4})-(\d{2})$/.exec(str(value));
  if (!m) return str(value);
  return new Date(Number(m[1]), Number(m[2]) - 1, 1).toLocaleDateString(LOCALE, { month: "long", year: "numeric" });
}

export function shortDay(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str(value));
  return m ? `${Number(m[3])}/${Number(m[2])}` : str(value);
}

export function figures(rows) {
  const shown = rows.filter(([, value]) => value !== "");
  if (!shown.length) return null;
  return el(
    "dl",
    { class: "details" },
    shown.map(([label, value, cls]) => [el("dt", { text: label }), el("dd", { class: cls, text: value })]),
  );
}

export function table(caption, headings, rows, cls) {
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
