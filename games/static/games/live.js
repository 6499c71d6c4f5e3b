// A websocket that reconnects with backoff and matches replies to requests by `ref`.
// The server re-sends a full snapshot on every (re)connect, so nothing is replayed here.

const LOGIN_RECHECK_MS = 1000;

export class Live {
  constructor(path, { onMessage, onStatus }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.refs = 0;
    this.pending = new Map();
    this.stopped = false;
    this.socket = null;
    // A 4401 is checked once more with the browser's cookie as it is then: changing the
    // password moves this browser's login to a new session, and the socket opened with the
    // old one is closed although the player is still logged in.
    this.loginRechecked = false;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${this.path}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.loginRechecked = false; // let in: a later 4401 is checked again
      const waiting = message.ref != null && this.pending.get(message.ref);
      if (waiting && (message.type === "ok" || message.type === "error")) {
        this.pending.delete(message.ref);
        clearTimeout(waiting.timer);
        waiting.resolve(message);
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      for (const [ref, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.resolve({ type: "error", code: "disconnected", ref });
      }
      this.pending.clear();
      if (this.stopped) return;
      if (event.code === 4401 && !this.loginRechecked) {
        // A second later: the socket is closed as the password changes, before the
        // response that carries the browser's new session cookie has arrived.
        this.loginRechecked = true;
        this.onStatus("closed", this.attempt);
        this.retry = setTimeout(() => this.connect(), LOGIN_RECHECK_MS);
        return;
      }
      // 4401: logged out (and so again with the cookie as it is now); 4403: a private table
      // without an invite; 4404: no such table. Retrying cannot help.
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) {
        this.onStatus("gone", event.code);
        return;
      }
      this.onStatus("closed", this.attempt);
      const delay = Math.min(8000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.retry = setTimeout(() => this.connect(), delay);
    });
  }

  get open() {
    return this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  /** A fresh `ref`, for a request that may be sent again (resend.js). */
  nextRef() {
    return ++this.refs;
  }

  /** Send a message; resolves with the server's ok/error reply (or a local error). */
  request(message, ref = this.nextRef()) {
    if (!this.open) return Promise.resolve({ type: "error", code: "disconnected", ref });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(ref);
        resolve({ type: "error", code: "timeout", ref });
      }, 10000);
      this.pending.set(ref, { resolve, timer });
      this.socket.send(JSON.stringify({ ...message, ref }));
    });
  }

  send(message) {
    if (this.open) this.socket.send(JSON.stringify(message));
  }

  /** Reconnect now (e.g. when the tab becomes visible after the socket died). */
  nudge() {
    if (!this.socket || this.socket.readyState === WebSocket.CLOSED) {
      clearTimeout(this.retry);
      this.connect();
    }
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close();
  }
}
