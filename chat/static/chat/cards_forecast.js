// The `forecast` card (chat/cards_ahead.py, docs/contract/cards.md): the days' spendable balance as an SVG line
// with zero, its lowest point and a tick per named event; the events as a table, and every day's balance as a
// folded table, the chart's text equivalent. Strings go into the page as text only.

import { el } from "./cards.js";
import { figures, list, pageLink, shell, shortDay, str, svg, table } from "./cards_ahead.js";
import { formatDate, formatMoney } from "./format.js";
import { gettext, interpolate } from "./i18n.js";

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
