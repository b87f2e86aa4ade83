// The /chat page: threads, history, the live turn over the websocket (docs/contract/websocket.md), notifications.

import { ApiError, api, setCsrfToken } from "./api.js";
import { el, settleAnswered } from "./cards.js";
import { initConsent, watchSentDisclosures } from "./consent.js";
import { formatDate, formatMoney, formatTime, humanize } from "./format.js";
import { TurnView, renderMessage, renderUserText } from "./messages.js";
import { gettext, interpolate } from "./i18n.js";
import { ChatSocket } from "./socket.js";

const config = JSON.parse(document.getElementById("chat-config").textContent);
const $ = (id) => document.getElementById(id);
const ui = {
  app: $("chat-app"),
  sidebar: $("sidebar"),
  backdrop: $("backdrop"),
  openSidebar: $("open-sidebar"),
  closeSidebar: $("close-sidebar"),
  threadList: $("thread-list"),
  newThread: $("new-thread"),
  title: $("thread-title"),
  conn: $("conn-status"),
  banner: $("banner"),
  log: $("log"),
  newBelow: $("new-below"),
  messages: $("messages"),
  older: $("load-older"),
  composer: $("composer"),
  input: $("input"),
  send: $("send"),
  stop: $("stop"),
  counter: $("counter"),
  bell: $("bell"),
  bellCount: $("bell-count"),
  inbox: $("inbox"),
  inboxList: $("inbox-list"),
  readAll: $("read-all"),
  toasts: $("toasts"),
  recentPanel: $("recent-panel"),
  recentList: $("recent-list"),
  keyDialog: $("key-dialog"),
  keyForm: $("key-form"),
  keyInput: $("key-input"),
  keyError: $("key-error"),
  keyCancel: $("key-cancel"),
};
setCsrfToken(ui.app.dataset.csrf);

const PAGE_SIZE = 30;
const RENDER_CHUNK = 40;
const MAX_TEXT = 4000;
const MUTATION_TOOLS = new Set([
  "create_goal",
  "create_manual_transaction",
  "update_manual_transaction",
  "delete_manual_transaction",
  "create_manual_asset",
  "update_manual_asset",
  "delete_manual_asset",
]);
const STARTERS = [
  "KFC 150k",
  gettext("How much did I spend this month?"),
  gettext("I want to buy a house in 10 years"),
  gettext("Show my assets"),
];
const ERROR_TEXT = {
  AI_PROVIDER_REQUIRED: gettext("Zeus needs an AI key before it can answer."),
  CONSENT_REQUIRED: gettext("Zeus needs your consent before it sends anything to the model."),
  PROVIDER_UNAVAILABLE: gettext("The AI provider is not answering right now."),
  INTERNAL_ERROR: gettext("Something went wrong on our side. Try again."),
  RATE_LIMITED: gettext("That was a lot of messages in a minute. Wait a moment, then retry."),
  USAGE_LIMIT: gettext("The usage limit has been reached."),
  TURN_IN_PROGRESS: gettext("Zeus is still answering in this chat."),
  MESSAGE_TOO_LONG: gettext("That message is too long (4,000 characters at most)."),
  TIMEOUT: gettext("The reply took too long and was stopped."),
  STOPPED: gettext("Stopped."),
  BAD_FRAME: gettext("The server did not understand that request."),
};
const SERVER_WORDED = new Set(["USAGE_LIMIT", "BAD_FRAME"]);

const state = {
  threadId: null,
  threads: [],
  prevCursor: null,
  hasMore: false,
  loadingOlder: false,
  turn: null, // {view, frame, dispatched, stopping}
  lastFrame: null,
  unread: [],
  hasMoreUnread: false,
  historyToken: 0,
};

// ---------- small helpers ----------

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const nearBottom = () => ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 120;
const scrollToBottom = () => {
  ui.log.scrollTop = ui.log.scrollHeight;
  ui.newBelow.hidden = true;
};
// A streaming reply is followed while the reader is at the bottom; once they have scrolled up to read,
// the view stays put and a "new messages" pill offers the way back down. `following` changes only on scroll
// events (the reader's, or ours reaching the bottom), never because the reply grew.
let following = true;
function follow() {
  if (following) {
    requestAnimationFrame(() => {
      if (following) scrollToBottom();
    });
  } else {
    ui.newBelow.hidden = false;
  }
}
function appendToLog(node, { force = false } = {}) {
  ui.messages.append(node);
  if (force) {
    following = true;
    scrollToBottom();
  } else {
    follow();
  }
}

function safeUrl(raw) {
  if (!raw) return null;
  try {
    const url = new URL(raw, window.location.origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function toast(title, body, { tone = "info", timeout = 8000 } = {}) {
  const close = el("button", { type: "button", class: "icon toast-close", "aria-label": gettext("Dismiss"), text: "×" });
  const node = el(
    "div",
    { class: `toast ${tone}` },
    el("div", {}, el("strong", { text: title }), body ? el("p", { text: body }) : null),
    close,
  );
  const remove = () => node.remove();
  close.addEventListener("click", remove);
  ui.toasts.append(node);
  if (timeout) setTimeout(remove, timeout);
}

// ---------- cards → ui_event ----------

const cardCtx = {
  currency: config.currency,
  send(event, payload, label) {
    return sendFrame({ type: "ui_event", id: uuid(), event, payload }, label, { viaCard: true });
  },
};

// ---------- turns ----------

function setBusy(busy) {
  ui.stop.hidden = !busy;
  ui.send.disabled = busy;
  ui.app.classList.toggle("busy", busy);
}

// The server ends every turn within its 60 s deadline; if nothing at all arrives for longer than this, the
// page stops waiting rather than leaving the composer locked.
const SILENCE_LIMIT_MS = 90000;

function startTurn(frame) {
  const view = new TurnView(cardCtx);
  state.turn = { view, frame, dispatched: socket.isOpen, stopping: false, watchdog: null };
  appendToLog(view.article, { force: true });
  setBusy(true);
  heartbeat();
  return state.turn;
}

function heartbeat() {
  const turn = state.turn;
  if (!turn) return;
  clearTimeout(turn.watchdog);
  turn.watchdog = setTimeout(() => {
    if (state.turn === turn) failTurn("TIMEOUT");
  }, SILENCE_LIMIT_MS);
}

function endTurn() {
  if (state.turn) clearTimeout(state.turn.watchdog);
  state.turn = null;
  setBusy(false);
}

function liveTurn() {
  // frames of a turn this tab did not start (another tab, a reconnect) still get a bubble
  return state.turn || startTurn(null);
}

/** Sends a user_message or ui_event frame and shows it; false when a turn is already running. */
function sendFrame(frame, label, { viaCard = false } = {}) {
  if (state.turn) {
    toast(gettext("One moment"), gettext("Zeus is still answering. Stop the reply or wait for it to finish."), { timeout: 4000 });
    return false;
  }
  if (!state.threadId) return false;
  appendToLog(renderUserText(label, { id: frame.id, pending: true, viaCard }), { force: true });
  state.lastFrame = frame;
  startTurn(frame);
  socket.send(frame);
  return true;
}

async function sendText(text) {
  const trimmed = text.trim();
  if (!trimmed) return;
  if (trimmed.length > MAX_TEXT) {
    toast(gettext("Too long"), ERROR_TEXT.MESSAGE_TOO_LONG, { tone: "bad" });
    return;
  }
  if (!state.threadId) await newThread();
  if (sendFrame({ type: "user_message", id: uuid(), text: trimmed }, trimmed)) {
    ui.input.value = "";
    autoGrow();
    clearEmptyState();
  }
}

function retry(noteArticle) {
  const frame = state.lastFrame;
  if (!frame || state.turn) return;
  noteArticle?.remove();
  // a fresh id: the failed attempt's id may already be stored, and a repeated id starts no turn
  const again = { ...frame, id: uuid() };
  state.lastFrame = again;
  startTurn(again);
  socket.send(again);
}

function errorNote(code, message) {
  const note = el("div", { class: "error-note", role: "alert" });
  // The server words its frames in the reader's language; where its message carries facts the table cannot
  // (when the allowance resets, which field of a form is wrong) it is shown rather than the code's words.
  const told = SERVER_WORDED.has(code) && message;
  note.append(el("p", { text: told || ERROR_TEXT[code] || message || gettext("Something went wrong.") }));
  const actions = el("div", { class: "form-actions" });
  if (code === "AI_PROVIDER_REQUIRED") {
    actions.append(el("button", { type: "button", class: "primary", text: gettext("Add a key"), onclick: openKeyDialog }));
  }
  if (code !== "BAD_FRAME" && code !== "MESSAGE_TOO_LONG" && state.lastFrame) {
    const retryButton = el("button", { type: "button", class: "secondary", text: gettext("Retry") });
    retryButton.addEventListener("click", () => retry(note.closest(".msg")));
    actions.append(retryButton);
  }
  if (actions.childElementCount) note.append(actions);
  return note;
}

function failTurn(code, message) {
  const note = errorNote(code, message);
  if (state.turn) {
    state.turn.view.fail(note);
    endTurn();
  } else {
    const article = el("article", { class: "msg msg-assistant failed" });
    article.append(el("div", { class: "bubble" }, note));
    appendToLog(article, { force: true });
  }
}

function markSent(id) {
  const node = id && ui.messages.querySelector(`.msg-user.pending[data-id="${CSS.escape(id)}"]`);
  if (node) node.classList.remove("pending");
}

function onFrame(frame) {
  heartbeat();
  switch (frame.type) {
    case "ack":
      markSent(frame.id);
      break;
    case "phase":
      liveTurn().view.phase(frame.phase);
      break;
    case "tool":
      liveTurn().view.tool(frame);
      break;
    case "token":
      if (typeof frame.text === "string") {
        liveTurn().view.token(frame.text);
        follow();
      }
      break;
    case "spec":
      liveTurn().view.spec(frame.spec);
      follow();
      break;
    case "done":
      onDone(frame);
      break;
    case "error":
      onError(frame);
      break;
    case "notification":
      onNotification(frame.notification);
      break;
    case "message":
      onStaffMessage(frame.message);
      break;
    default:
      break;
  }
}

function onDone(frame) {
  const turn = liveTurn();
  if (turn.frame) markSent(turn.frame.id);
  for (const node of ui.messages.querySelectorAll(".msg-user.pending")) node.classList.remove("pending");
  turn.view.done(frame.message);
  if (frame.message?.metadata?.aborted) turn.view.article.classList.add("aborted");
  endTurn();
  follow();
  const used = (frame.tools_used || []).map((t) => (typeof t === "string" ? t : t?.name));
  if (used.some((name) => MUTATION_TOOLS.has(name))) refreshRecent();
  refreshThreads();
}

function onError(frame) {
  if (frame.code === "AI_PROVIDER_REQUIRED") openKeyDialog();
  if (frame.code === "CONSENT_REQUIRED") consent.show();
  if (frame.code === "TURN_IN_PROGRESS" && state.turn && !state.turn.frame) return;
  failTurn(frame.code, frame.message);
}

function onStaffMessage(message) {
  if (!message || (message.id && ui.messages.querySelector(`[data-id="${CSS.escape(String(message.id))}"]`))) return;
  appendToLog(renderMessage(message, cardCtx));
  if (message.metadata?.admin_initiated) toast(gettext("New reply"), gettext("The Zeus team answered in this chat."));
}

function stopTurn() {
  const turn = state.turn;
  if (!turn) return;
  if (socket.isOpen && !turn.stopping) {
    socket.send({ type: "stop" });
    turn.stopping = true;
    turn.view.setStatus(gettext("Stopping…"));
  } else {
    failTurn("STOPPED");
  }
  ui.input.focus();
}

// ---------- socket ----------

function onSocketStatus(status, info = {}) {
  ui.conn.dataset.state = status;
  if (status === "open") {
    ui.conn.textContent = "";
    ui.banner.hidden = true;
    if (info.reconnected && !state.turn) loadHistory({ quiet: true });
  } else if (status === "down" && info.tooLarge) {
    ui.conn.textContent = gettext("Reconnecting…");
    showBanner(
      interpolate(gettext("That was too large to send (64 KiB at most). Reconnecting in %(seconds)s s…"), {
        seconds: Math.ceil(info.wait / 1000),
      }),
    );
    if (state.turn?.dispatched) failTurn("BAD_FRAME", gettext("That was too large to send (64 KiB at most)."));
  } else if (status === "down" && info.unavailable) {
    ui.conn.textContent = gettext("Reconnecting…");
    showBanner(
      interpolate(gettext("Zeus is briefly unavailable. Reconnecting in %(seconds)s s…"), {
        seconds: Math.ceil(info.wait / 1000),
      }),
    );
    if (state.turn?.dispatched) failTurn("DISCONNECTED", gettext("The connection dropped while Zeus was answering."));
  } else if (status === "down") {
    ui.conn.textContent = gettext("Offline");
    showBanner(interpolate(gettext("Connection lost. Reconnecting in %(seconds)s s…"), { seconds: Math.ceil(info.wait / 1000) }));
    if (info.attempt === 3) probeThread();
    // a turn whose frame reached the server was aborted by the disconnect; one still queued goes out later
    if (state.turn?.dispatched) failTurn("DISCONNECTED", gettext("The connection dropped while Zeus was answering."));
  } else if (status === "reconnecting") {
    ui.conn.textContent = gettext("Reconnecting…");
  } else {
    ui.conn.textContent = gettext("Connecting…");
  }
}

function showBanner(text) {
  ui.banner.replaceChildren(
    el("span", { text }),
    el("button", { type: "button", class: "link", text: gettext("Retry now"), onclick: () => socket.retryNow() }),
  );
  ui.banner.hidden = false;
}

const socket = new ChatSocket({ onFrame, onStatus: onSocketStatus });

// ---------- a thread that is gone, a session that ended ----------

function isLoggedOut(err) {
  return err instanceof ApiError && (err.status === 401 || err.code === "NOT_AUTHENTICATED");
}

function toLogin() {
  window.location.assign(`/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`);
}

async function leaveMissingThread() {
  toast(gettext("Chat not found"), gettext("That conversation is not available; opening another one."), { tone: "bad" });
  await refreshThreads();
  const other = state.threads.find((t) => t.id !== state.threadId);
  if (other) await switchThread(other.id, { replace: true });
  else await newThread({ replace: true });
}

// A websocket refusal (403: logged out, or not this user's thread) looks like any dropped connection in a
// browser, so after a few failed attempts the REST history tells which it is.
async function probeThread() {
  const threadId = state.threadId;
  try {
    await api("GET", `/api/v1/chat/threads/${threadId}/messages?limit=1`);
  } catch (err) {
    if (threadId !== state.threadId) return;
    if (isLoggedOut(err)) toLogin();
    else if (err.status === 404) leaveMissingThread();
  }
}

// ---------- threads ----------

const listOf = (data, key) => (Array.isArray(data) ? data : data?.[key] || data?.results || []);

function threadLabel(thread) {
  return thread.title || interpolate(gettext("Chat of %(day)s"), { day: formatDate(thread.created_at) || gettext("today") });
}

function renderThreads() {
  const frag = document.createDocumentFragment();
  for (const thread of state.threads) {
    const current = thread.id === state.threadId;
    const link = el(
      "a",
      { href: `/chat/${thread.id}`, class: "thread-link", "aria-current": current ? "page" : null },
      el("span", { class: "thread-name", text: threadLabel(thread) }),
      el("span", {
        class: "thread-time",
        text: formatTime(thread.last_activity_at || thread.updated_at || thread.created_at),
      }),
    );
    link.addEventListener("click", (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      switchThread(thread.id, { push: true });
      closeSidebar();
    });
    frag.append(el("li", {}, link));
  }
  ui.threadList.replaceChildren(frag);
  const current = state.threads.find((t) => t.id === state.threadId);
  ui.title.textContent = current ? threadLabel(current) : gettext("New chat");
}

async function refreshThreads() {
  try {
    state.threads = listOf(await api("GET", "/api/v1/chat/threads"), "threads");
  } catch {
    return;
  }
  renderThreads();
}

async function newThread({ replace = false } = {}) {
  if (state.turn) {
    toast(gettext("One moment"), gettext("Zeus is still answering. Stop the reply or wait for it to finish."), { timeout: 4000 });
    return;
  }
  try {
    const thread = await api("POST", "/api/v1/chat/threads", {});
    state.threads = [thread, ...state.threads.filter((t) => t.id !== thread.id)];
    await switchThread(thread.id, { push: !replace, replace });
    closeSidebar();
    ui.input.focus();
  } catch (err) {
    toast(gettext("Could not start a chat"), err.message, { tone: "bad" });
  }
}

async function switchThread(threadId, { push = false, replace = false } = {}) {
  if (state.turn) endTurn();
  state.threadId = threadId;
  state.lastFrame = null;
  const url = `/chat/${threadId}${window.location.search}`;
  if (push) history.pushState({ threadId }, "", url);
  else if (replace) history.replaceState({ threadId }, "", url);
  renderThreads();
  socket.open(threadId);
  await loadHistory();
}

// ---------- history ----------

function messagesUrl(before) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (before) params.set("before", before);
  return `/api/v1/chat/threads/${state.threadId}/messages?${params}`;
}

function historyNode(message, { answered = true } = {}) {
  const node = renderMessage(message, cardCtx);
  node.classList.add("from-history");
  // Only the newest message's cards still wait for an answer: picking an asset or submitting a form of an
  // earlier one again would record it twice.
  if (answered) for (const card of node.querySelectorAll(".zcard")) settleAnswered(card);
  return node;
}

/** Renders messages in chunks so a long page never blocks input for long. */
function renderChunked(messages, into, token, newest) {
  return new Promise((resolve) => {
    let index = 0;
    const step = () => {
      if (token !== state.historyToken) return resolve(false);
      const frag = document.createDocumentFragment();
      const end = Math.min(messages.length, index + RENDER_CHUNK);
      for (; index < end; index += 1) {
        frag.append(historyNode(messages[index], { answered: messages[index] !== newest }));
      }
      into(frag);
      if (index < messages.length) setTimeout(step, 0);
      else resolve(true);
    };
    step();
  });
}

function clearEmptyState() {
  ui.messages.querySelector(".empty-state")?.remove();
}

let suggestionStarters = null;

/** Starter prompts from the user's active suggestions (docs/contract/rest.md), when that API answers. */
function fetchSuggestionStarters() {
  suggestionStarters ??= api("GET", "/api/v1/suggestions?page_size=3")
    .then((data) =>
      listOf(data, "results")
        .filter((s) => s && typeof s.prompt === "string" && s.prompt.trim() && (!s.status || s.status === "active"))
        .slice(0, 3)
        .map((s) => ({ label: s.title || s.prompt, prompt: s.prompt })),
    )
    .catch(() => []);
  return suggestionStarters;
}

const starterChip = ({ label, prompt }) =>
  el("button", { type: "button", class: "chip", text: label, onclick: () => sendText(prompt) });

function renderEmptyState() {
  const list = el("div", { class: "prompt-list" }, STARTERS.map((prompt) => starterChip({ label: prompt, prompt })));
  fetchSuggestionStarters().then((starters) => {
    if (list.isConnected && starters.length) list.prepend(...starters.map((s) => starterChip(s)));
  });
  ui.messages.append(
    el(
      "section",
      { class: "empty-state" },
      el("h2", { text: gettext("Hi, I’m Zeus.") }),
      el("p", {
        text: gettext("Tell me what you spent, ask where your money went, or plan a goal. I can add and fix your manual records too."),
      }),
      list,
    ),
  );
}

async function loadHistory({ quiet = false } = {}) {
  const token = ++state.historyToken;
  if (!quiet) {
    ui.messages.replaceChildren(el("p", { class: "muted loading", text: gettext("Loading…") }));
    ui.older.hidden = true;
  }
  let data;
  try {
    data = await api("GET", messagesUrl(null));
  } catch (err) {
    if (token !== state.historyToken || quiet) return;
    if (isLoggedOut(err)) return toLogin();
    if (err.status === 404) return leaveMissingThread();
    ui.messages.replaceChildren(
      el(
        "div",
        { class: "error-note", role: "alert" },
        el("p", { text: interpolate(gettext("Could not load this chat: %(reason)s"), { reason: err.message }) }),
        el("button", { type: "button", class: "secondary", text: gettext("Retry"), onclick: () => loadHistory() }),
      ),
    );
    return;
  }
  if (token !== state.historyToken) return;
  // a quiet refresh (after a reconnect) must not wipe a turn the user started meanwhile
  if (quiet && state.turn) return;
  const messages = data?.messages || [];
  state.prevCursor = data?.prev_cursor || null;
  state.hasMore = Boolean(data?.has_more && state.prevCursor);
  ui.older.hidden = !state.hasMore;
  ui.messages.replaceChildren();
  if (!messages.length) {
    renderEmptyState();
    return;
  }
  // newest first on screen: the last chunk is drawn first so the bottom of the thread shows at once
  const tail = messages.slice(-RENDER_CHUNK);
  const head = messages.slice(0, -RENDER_CHUNK);
  await renderChunked(tail, (frag) => ui.messages.append(frag), token, messages[messages.length - 1]);
  scrollToBottom();
  if (head.length) await prependChunked(head, token);
}

async function prependChunked(messages, token) {
  // chunks are drawn from the newest backwards; each is inserted at the top with the scroll anchored
  for (let end = messages.length; end > 0; end -= RENDER_CHUNK) {
    if (token !== state.historyToken) return;
    const chunk = messages.slice(Math.max(0, end - RENDER_CHUNK), end);
    const frag = document.createDocumentFragment();
    for (const message of chunk) frag.append(historyNode(message));
    const before = ui.log.scrollHeight;
    ui.messages.prepend(frag);
    ui.log.scrollTop += ui.log.scrollHeight - before;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function loadOlder() {
  if (state.loadingOlder || !state.hasMore) return;
  state.loadingOlder = true;
  ui.older.disabled = true;
  ui.older.textContent = gettext("Loading…");
  const token = state.historyToken;
  try {
    const data = await api("GET", messagesUrl(state.prevCursor));
    if (token !== state.historyToken) return;
    state.prevCursor = data?.prev_cursor || null;
    state.hasMore = Boolean(data?.has_more && state.prevCursor);
    await prependChunked(data?.messages || [], token);
  } catch (err) {
    toast(gettext("Could not load older messages"), err.message, { tone: "bad" });
  } finally {
    state.loadingOlder = false;
    ui.older.disabled = false;
    ui.older.textContent = gettext("Load older messages");
    ui.older.hidden = !state.hasMore;
    if (!state.hasMore) ui.input.focus();
  }
}

// ---------- recent transactions (refreshed after a turn that changed data) ----------

async function refreshRecent() {
  let data;
  try {
    data = await api("GET", "/api/v1/transactions?page_size=5");
  } catch {
    // the ledger API may be absent: the panel simply stays hidden
    ui.recentPanel.hidden = true;
    return;
  }
  const rows = listOf(data, "results").slice(0, 5);
  const frag = document.createDocumentFragment();
  for (const tx of rows) {
    const sign = tx.direction === "income" ? "+" : "−";
    frag.append(
      el(
        "li",
        { class: "recent-item" },
        el(
          "span",
          { class: "recent-main" },
          el("span", { class: "recent-desc", text: tx.description || humanize(tx.category) }),
          el("span", { class: "recent-sub", text: [humanize(tx.category), formatDate(tx.occurred_on)].join(" · ") }),
        ),
        el("span", {
          class: `amount ${tx.direction === "income" ? "income" : "expense"}`,
          text: `${sign}${formatMoney(tx.amount, tx.currency || config.currency)}`,
        }),
      ),
    );
  }
  if (!rows.length) frag.append(el("li", { class: "muted", text: gettext("No transactions yet.") }));
  ui.recentList.replaceChildren(frag);
  ui.recentPanel.hidden = false;
}

// ---------- notifications ----------

function renderBell() {
  const n = state.unread.length;
  ui.bellCount.hidden = n === 0;
  ui.bellCount.textContent = state.hasMoreUnread ? `${n}+` : String(n);
  ui.bell.setAttribute(
    "aria-label",
    n ? interpolate(gettext("Notifications, %(count)s unread"), { count: ui.bellCount.textContent }) : gettext("Notifications"),
  );
  const frag = document.createDocumentFragment();
  for (const note of state.unread) {
    const href = safeUrl(note.cta_url);
    frag.append(
      el(
        "li",
        { class: "inbox-item" },
        el("strong", { text: note.title || humanize(note.kind) }),
        note.body ? el("p", { text: note.body }) : null,
        el(
          "span",
          { class: "inbox-meta" },
          formatTime(note.created_at),
          href ? el("a", { href, text: gettext("Open") }) : null,
        ),
      ),
    );
  }
  if (!state.unread.length) frag.append(el("li", { class: "muted", text: gettext("You are all caught up.") }));
  ui.inboxList.replaceChildren(frag);
  ui.readAll.hidden = state.unread.length === 0;
}

async function refreshNotifications() {
  try {
    const data = await api("GET", "/api/v1/notifications?unread=true");
    state.unread = listOf(data, "results");
    state.hasMoreUnread = Boolean(data?.next);
  } catch {
    return;
  }
  renderBell();
}

function onNotification(note) {
  if (!note) return;
  if (!state.unread.some((n) => n.id === note.id)) state.unread.unshift(note);
  renderBell();
  toast(note.title || gettext("Notification"), note.body || "");
  // a bank feed delivery: the recent-transactions panel shows it at once
  if (note.kind === "transaction_synced") refreshRecent();
}

function toggleInbox(open = ui.inbox.hidden) {
  ui.inbox.hidden = !open;
  ui.bell.setAttribute("aria-expanded", String(open));
  if (open) (ui.readAll.hidden ? ui.inbox.querySelector("a, button") : ui.readAll)?.focus();
}

async function markAllRead() {
  try {
    await api("POST", "/api/v1/notifications/read-all", {});
    state.unread = [];
    state.hasMoreUnread = false;
    renderBell();
    ui.bell.focus();
  } catch (err) {
    toast(gettext("Could not mark as read"), err.message, { tone: "bad" });
  }
}

// ---------- personal key ----------

function openKeyDialog() {
  if (ui.keyDialog.open) return;
  ui.keyError.hidden = true;
  ui.keyInput.value = "";
  ui.keyDialog.showModal();
  ui.keyInput.focus();
}

async function saveKey(event) {
  event.preventDefault();
  const key = ui.keyInput.value.trim();
  if (!key) {
    ui.keyInput.reportValidity();
    return;
  }
  try {
    await api("PUT", "/api/v1/chat/provider-key", { api_key: key });
  } catch (err) {
    ui.keyError.textContent =
      (err instanceof ApiError && Object.values(err.fields || {}).flat()[0]) || err.message || gettext("Could not save the key.");
    ui.keyError.hidden = false;
    return;
  }
  ui.keyInput.value = "";
  ui.keyDialog.close();
  toast(gettext("Key saved"), gettext("Zeus will use your key from now on."), { tone: "good", timeout: 4000 });
  const failed = [...ui.messages.querySelectorAll(".msg.failed")].pop();
  retry(failed);
}

// ---------- consent ----------

const consent = initConsent($("consent-panel"), {
  onAgreed() {
    toast(gettext("Thank you"), gettext("The assistant may now answer you."), { tone: "good", timeout: 4000 });
    const failed = [...ui.messages.querySelectorAll(".msg.failed")].pop();
    if (failed) retry(failed);
    ui.input.focus();
  },
  onError(err) {
    toast(gettext("Could not save your choice"), err.message, { tone: "bad" });
  },
});
watchSentDisclosures(ui.messages, () => state.threadId);

// ---------- phone sidebar ----------

function openSidebar() {
  ui.app.classList.add("sidebar-open");
  ui.backdrop.hidden = false;
  ui.openSidebar.setAttribute("aria-expanded", "true");
  ui.newThread.focus();
}

function closeSidebar() {
  if (!ui.app.classList.contains("sidebar-open")) return;
  ui.app.classList.remove("sidebar-open");
  ui.backdrop.hidden = true;
  ui.openSidebar.setAttribute("aria-expanded", "false");
  if (ui.sidebar.contains(document.activeElement)) ui.openSidebar.focus();
}

// ---------- composer ----------

function autoGrow() {
  ui.input.style.height = "auto";
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 200)}px`;
  const n = ui.input.value.length;
  ui.counter.textContent = n > MAX_TEXT * 0.8 ? `· ${n.toLocaleString()}/${MAX_TEXT.toLocaleString()}` : "";
}

ui.composer.addEventListener("submit", (event) => {
  event.preventDefault();
  sendText(ui.input.value);
});
ui.input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    if (!state.turn) sendText(ui.input.value);
  }
});
ui.input.addEventListener("input", autoGrow);
ui.stop.addEventListener("click", stopTurn);
ui.older.addEventListener("click", loadOlder);
ui.newBelow.addEventListener("click", () => {
  scrollToBottom();
  ui.input.focus();
});
ui.log.addEventListener(
  "scroll",
  () => {
    following = nearBottom();
    if (following) ui.newBelow.hidden = true;
  },
  { passive: true },
);
ui.newThread.addEventListener("click", () => newThread());
ui.bell.addEventListener("click", (event) => {
  event.stopPropagation();
  toggleInbox();
});
ui.readAll.addEventListener("click", markAllRead);
ui.openSidebar.addEventListener("click", openSidebar);
ui.closeSidebar.addEventListener("click", closeSidebar);
ui.backdrop.addEventListener("click", closeSidebar);
ui.keyForm.addEventListener("submit", saveKey);
ui.keyCancel.addEventListener("click", () => ui.keyDialog.close());
document.addEventListener("click", (event) => {
  if (!ui.inbox.hidden && !ui.inbox.contains(event.target)) toggleInbox(false);
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (!ui.inbox.hidden) {
    toggleInbox(false);
    ui.bell.focus();
  } else if (ui.app.classList.contains("sidebar-open")) {
    closeSidebar();
  } else if (state.turn && document.activeElement === ui.input) {
    stopTurn();
  }
});
window.addEventListener("popstate", () => {
  const match = /^\/chat\/([0-9a-f-]{36})/.exec(window.location.pathname);
  if (match && match[1] !== state.threadId) switchThread(match[1]);
});

// ---------- start ----------

async function start() {
  const params = new URLSearchParams(window.location.search);
  const prompt = params.get("prompt");
  if (prompt) {
    ui.input.value = prompt.slice(0, MAX_TEXT);
    autoGrow();
  }
  ui.input.focus();
  refreshNotifications();
  refreshRecent();
  await refreshThreads();
  let threadId = config.threadId;
  if (!threadId && state.threads.length) threadId = state.threads[0].id;
  if (threadId) await switchThread(threadId, { replace: true });
  else await newThread({ replace: true });
  ui.input.focus();
  ui.app.dataset.ready = "true";
}

start();
