// Amounts arrive as decimal strings quantized to their currency ("150000", "12.50"); they are shown with
// Intl.NumberFormat so each currency gets its own digits and symbol. Number() is used for display only.

// The page's language (the <html lang> the server set), not the browser's: money reads as the page does.
const LOCALE = document.documentElement.lang || undefined;
const formatters = new Map();

function formatter(currency, compact) {
  const key = `${currency}|${compact}`;
  if (!formatters.has(key)) {
    let f;
    try {
      f = new Intl.NumberFormat(LOCALE, {
        style: "currency",
        currency,
        ...(compact ? { notation: "compact", maximumFractionDigits: 1 } : {}),
      });
    } catch {
      f = new Intl.NumberFormat(LOCALE, compact ? { notation: "compact", maximumFractionDigits: 1 } : {});
    }
    formatters.set(key, f);
  }
  return formatters.get(key);
}

export function formatMoney(amount, currency, { compact = false } = {}) {
  if (amount === null || amount === undefined || amount === "") return "";
  const n = Number(amount);
  if (!Number.isFinite(n)) return String(amount);
  // compact only pays off for big numbers: 450K reads well, $150.3 does not
  return formatter(currency || "VND", compact && Math.abs(n) >= 10000).format(n);
}

export function formatDate(value) {
  if (!value) return "";
  // A calendar date ("2026-11-29", a transaction's occurred_on) is that day wherever the reader is; Date()
  // would read it as UTC midnight, which is the day before west of Greenwich.
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleDateString(LOCALE, { day: "numeric", month: "short", year: "numeric" });
}

export function formatTime(value) {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(LOCALE, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

export function humanize(name) {
  return String(name ?? "")
    .replace(/_/g, " ")
    .replace(/^\w/, (c) => c.toUpperCase());
}
