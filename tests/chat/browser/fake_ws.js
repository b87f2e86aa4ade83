// Replaces window.WebSocket before the page's scripts run: a scripted chat server speaking the frames of
// docs/contract/websocket.md. It records every frame the page sends (window.__fake.sent) and answers user_message /
// ui_event frames with the next queued script (window.__fake.replies) or, when none is queued, a short
// default reply. Script steps are frames, or {"$delay": ms}; the strings "$ID" and "$TEXT" are replaced by
// the id and text of the frame being answered. `stop` cancels the script and answers STOPPED.
// Persisted messages (the user's on ack, the assistant's on done) go to window.__zeusPersist when the test
// exposed it, so a reload sees them through the faked REST history.
(() => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const fake = {
    sockets: [],
    sent: [],
    replies: [],
    connects: 0,
    refuseConnections: false,
    tokenDelay: 25,
  };
  window.__fake = fake;

  const substitute = (value, frame) => {
    if (typeof value === "string") return value.replaceAll("$ID", frame.id || "").replaceAll("$TEXT", frame.text || "");
    if (Array.isArray(value)) return value.map((v) => substitute(v, frame));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, frame)]));
    }
    return value;
  };

  const persist = (socket, message) => {
    const match = /\/ws\/chat\/([^/]+)\//.exec(socket.url);
    if (match && window.__zeusPersist) window.__zeusPersist(match[1], message);
  };

  const defaultReply = (frame) => {
    const text = frame.type === "user_message" ? `You said: **${frame.text}**` : `Got ${frame.event}.`;
    const words = text.split(/(?<= )/);
    return [
      { type: "ack", id: "$ID" },
      { type: "phase", phase: "thinking" },
      { type: "phase", phase: "generating" },
      ...words.flatMap((w) => [{ $delay: fake.tokenDelay }, { type: "token", text: w }]),
      {
        type: "done",
        message: {
          id: `a-${frame.id}`,
          role: "assistant",
          parts: [{ type: "text", text }],
          metadata: { workflow: "coach" },
          created_at: new Date().toISOString(),
        },
        tools_used: [],
        workflow: "coach",
      },
    ];
  };

  class FakeWebSocket {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;

    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      this.playing = null;
      fake.sockets.push(this);
      fake.connects += 1;
      setTimeout(() => {
        if (fake.refuseConnections) return this._close(1006);
        this.readyState = 1;
        this.onopen?.(new Event("open"));
      }, 15);
    }

    send(data) {
      if (this.readyState !== 1) throw new DOMException("not open", "InvalidStateError");
      const frame = JSON.parse(data);
      fake.sent.push(frame);
      if (frame.type === "stop") {
        if (this.playing) {
          this.playing.cancelled = true;
          this.playing = null;
          this._recv({ type: "error", code: "STOPPED", message: "Stopped by the user." });
        }
        return;
      }
      if (frame.type !== "user_message" && frame.type !== "ui_event") return;
      const script = fake.replies.length ? fake.replies.shift() : defaultReply(frame);
      this._play(script, frame);
    }

    async _play(script, frame) {
      const run = { cancelled: false };
      this.playing = run;
      for (const step of script) {
        if (run.cancelled || this.readyState !== 1) return;
        if (step.$delay !== undefined) {
          await sleep(step.$delay);
          continue;
        }
        const out = substitute(step, frame);
        if (out.type === "ack") {
          const text = frame.type === "user_message" ? frame.text : `[${frame.event}] ${JSON.stringify(frame.payload)}`;
          persist(this, { id: frame.id, role: "user", parts: [{ type: "text", text }], metadata: {}, created_at: new Date().toISOString() });
        }
        if (out.type === "done" && out.message) persist(this, out.message);
        this._recv(out);
        if (out.type === "done" || out.type === "error") break;
      }
      if (this.playing === run) this.playing = null;
    }

    _recv(frame) {
      if (this.readyState !== 1) return;
      this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(frame) }));
    }

    _close(code) {
      if (this.readyState === 3) return;
      this.readyState = 3;
      if (this.playing) this.playing.cancelled = true;
      this.onclose?.(new CloseEvent("close", { code, wasClean: code === 1000 }));
    }

    close(code = 1000) {
      this._close(code);
    }

    addEventListener() {
      throw new Error("the page is expected to use on* handlers");
    }
  }

  fake.current = () => fake.sockets.filter((s) => s.readyState === 1).pop() || null;
  fake.emit = async (frames) => {
    for (const step of frames) {
      if (step.$delay !== undefined) await sleep(step.$delay);
      else fake.current()?._recv(step);
    }
  };
  fake.drop = () => fake.current()?._close(1006);
  fake.sentOf = (type) => fake.sent.filter((f) => f.type === type);
  window.WebSocket = FakeWebSocket;
})();
