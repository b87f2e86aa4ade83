// One websocket to /ws/chat/{thread}/ that comes back by itself: after an unexpected close it retries with
// exponential backoff (0.5 s doubling to 30 s, with jitter). Frames sent while it is down wait in an outbox.

const BASE_DELAY = 500;
const MAX_DELAY = 30000;
// The server accepted the socket, then closed it because PostgreSQL or Redis is down (docs/security.md):
// not a refusal (logged out answers the handshake with 403), so the page says "reconnecting" and retries.
export const CLOSE_UNAVAILABLE = 4503;
// A frame over the server's 64 KiB limit closes the socket with the websocket's "message too big".
export const CLOSE_TOO_LARGE = 1009;

export class ChatSocket {
  constructor({ onFrame, onStatus }) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.threadId = null;
    this.attempt = 0;
    this.timer = null;
    this.outbox = [];
    this.everOpened = false;
  }

  url(threadId) {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}/ws/chat/${threadId}/`;
  }

  open(threadId) {
    this.close();
    this.threadId = threadId;
    this.attempt = 0;
    this.everOpened = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    const threadId = this.threadId;
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url(threadId));
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.onStatus("open", { reconnected });
      const pending = this.outbox.splice(0);
      for (const frame of pending) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && typeof frame === "object") this.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.scheduleReconnect(event);
    };
  }

  scheduleReconnect(event) {
    const delay = Math.min(MAX_DELAY, BASE_DELAY * 2 ** this.attempt);
    this.attempt += 1;
    const wait = Math.round(delay / 2 + Math.random() * (delay / 2));
    const code = event?.code;
    this.onStatus("down", {
      wait,
      code,
      attempt: this.attempt,
      unavailable: code === CLOSE_UNAVAILABLE,
      tooLarge: code === CLOSE_TOO_LARGE,
    });
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnect now instead of waiting for the backoff timer. */
  retryNow() {
    if (!this.ws && this.threadId) this.connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(frame) {
    if (this.isOpen) this.ws.send(JSON.stringify(frame));
    else this.outbox.push(frame);
  }

  close() {
    clearTimeout(this.timer);
    this.timer = null;
    this.outbox = [];
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
  }
}
