// A deliberately small markdown renderer that builds DOM nodes, never HTML strings: whatever the model
// writes ends up as text nodes, so no tag or attribute from it can ever reach the page. Supported:
// paragraphs, line breaks, # headings, - / 1. lists, ``` fences, `code`, **bold**, *italic*, and links
// whose target is http(s) only.

const INLINE = [
  { kind: "code", re: /`([^`\n]+)`/ },
  { kind: "link", re: /\[([^\]\n]+)\]\(([^)\s]+)\)/ },
  { kind: "strong", re: /\*\*([^*\n](?:[^\n]*?[^*\n])?)\*\*/ },
  { kind: "strong", re: /__([^_\n](?:[^\n]*?[^_\n])?)__/ },
  { kind: "em", re: /\*([^*\s](?:[^*\n]*?[^*\s])?)\*/ },
  { kind: "em", re: /(?<![\w])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![\w])/ },
  { kind: "autolink", re: /https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/ },
];

function safeHref(raw) {
  try {
    const url = new URL(raw, window.location.href);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  } catch {
    // not a URL: rendered as plain text below
  }
  return null;
}

function link(text, href) {
  const a = document.createElement("a");
  a.href = href;
  a.rel = "noopener noreferrer nofollow";
  a.target = "_blank";
  a.textContent = text;
  return a;
}

export function renderInline(text, parent) {
  let rest = text;
  while (rest) {
    let best = null;
    for (const rule of INLINE) {
      const m = rule.re.exec(rest);
      if (m && (best === null || m.index < best.m.index)) best = { rule, m };
    }
    if (!best) {
      parent.append(document.createTextNode(rest));
      return;
    }
    const { rule, m } = best;
    if (m.index > 0) parent.append(document.createTextNode(rest.slice(0, m.index)));
    if (rule.kind === "code") {
      const code = document.createElement("code");
      code.textContent = m[1];
      parent.append(code);
    } else if (rule.kind === "link") {
      const href = safeHref(m[2]);
      if (href) parent.append(link(m[1], href));
      else parent.append(document.createTextNode(m[1]));
    } else if (rule.kind === "autolink") {
      const href = safeHref(m[0]);
      parent.append(href ? link(m[0], href) : document.createTextNode(m[0]));
    } else {
      const el = document.createElement(rule.kind);
      renderInline(m[1], el);
      parent.append(el);
    }
    rest = rest.slice(m.index + m[0].length);
  }
}

function inlineWithBreaks(lines, el) {
  lines.forEach((line, i) => {
    if (i) el.append(document.createElement("br"));
    renderInline(line, el);
  });
  return el;
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const FENCE = /^\s*```/;

/** Renders markdown text into a DocumentFragment of safe nodes. */
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  const lines = String(text ?? "").replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    if (FENCE.test(line)) {
      const body = [];
      i += 1;
      while (i < lines.length && !FENCE.test(lines[i])) body.push(lines[i++]);
      i += 1;
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      code.textContent = body.join("\n");
      pre.append(code);
      frag.append(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1].length + 2);
      frag.append(inlineWithBreaks([heading[2]], document.createElement(`h${level}`)));
      i += 1;
      continue;
    }
    const listKind = BULLET.test(line) ? "ul" : ORDERED.test(line) ? "ol" : null;
    if (listKind) {
      const list = document.createElement(listKind);
      const re = listKind === "ul" ? BULLET : ORDERED;
      if (listKind === "ol") {
        const start = Number(ORDERED.exec(line)[1]);
        if (start !== 1) list.start = start;
      }
      while (i < lines.length && re.test(lines[i])) {
        const m = re.exec(lines[i]);
        const li = document.createElement("li");
        renderInline(listKind === "ul" ? m[1] : m[2], li);
        list.append(li);
        i += 1;
      }
      frag.append(list);
      continue;
    }
    const para = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !FENCE.test(lines[i]) &&
      !HEADING.test(lines[i]) &&
      !BULLET.test(lines[i]) &&
      !ORDERED.test(lines[i])
    ) {
      para.push(lines[i++]);
    }
    frag.append(inlineWithBreaks(para, document.createElement("p")));
  }
  return frag;
}
