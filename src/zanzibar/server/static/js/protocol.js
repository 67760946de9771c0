// The salon's WebSocket protocol (docs/protocol.md, version 2), client side:
// one socket to /ws, `hello` first, requests matched to their `ok`/`error`
// replies by `id`, and a socket that comes back by itself after a drop (with
// a growing delay). What to re-subscribe after a reconnection is the
// application's business: it gets an `onReady(reconnected)` call each time
// the server has said `welcome`.
//
// Version 2 is asked for with the WebSocket subprotocol `zanzibar.v2`: each
// frame the server sends is then an array of messages (what one step put on
// this socket). A server that does not speak it sends one message per frame
// (version 1); both are read. The messages themselves, ours included, keep
// `v: 1`: version 2 changes the framing only.

export const PROTOCOL_VERSION = 1;
export const SUBPROTOCOL = "zanzibar.v2";

export class ProtocolError extends Error {
  constructor(reply) {
    super(reply.message || reply.code || "error");
    this.code = reply.code;
    this.reply = reply;
  }
}

export class Connection {
  /**
   * @param {object} opts
   * @param {() => string} opts.token   the session token (read at every connection)
   * @param {() => string} opts.lang    the user's language
   * @param {(msg: object) => void} opts.onMessage  every message that is not a reply
   * @param {(reconnected: boolean, welcome: object) => void} opts.onReady
   * @param {(state: string) => void} opts.onStatus  "connecting", "open", "closed"
   * @param {(error: ProtocolError) => void} opts.onAuthFailed
   */
  constructor(opts) {
    this.opts = opts;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.ready = false;
    this.everReady = false;
    this.closedByUs = false;
    this.retryDelay = 250;
    this.retryTimer = null;
    this.queue = [];
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws`;
  }

  open() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    this.opts.onStatus?.("connecting");
    const socket = new WebSocket(this.url(), [SUBPROTOCOL]);
    this.socket = socket;
    // The messages received and not handled yet, in order (see drain).
    const inbox = [];
    let waiting = false;
    // Hand the messages over one by one. After a reply that settles a request,
    // the rest waits for the next task, so that the code awaiting the reply runs
    // first, as it did when every message was a frame (an event) of its own.
    const drain = () => {
      waiting = false;
      while (inbox.length && socket === this.socket) {
        let settled = false;
        try {
          settled = this.receive(inbox.shift());
        } catch (error) {
          console.error(error); // one message's fault: the others are still handled
        }
        if (settled && inbox.length) {
          waiting = true;
          setTimeout(drain, 0);
          return;
        }
      }
    };
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.retryDelay = 250;
      this.sendRaw({ type: "hello", token: this.opts.token(), lang: this.opts.lang(), id: "hello" });
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const msg of Array.isArray(data) ? data : [data]) {
        if (msg && typeof msg === "object") inbox.push(msg);
      }
      if (!waiting) drain();
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.dropped();
    });
  }

  /** Handle one message; true when it settled a pending request (its code runs next). */
  receive(msg) {
    if (msg.type === "welcome") {
      const reconnected = this.everReady;
      this.ready = true;
      this.everReady = true;
      this.opts.onStatus?.("open");
      const queued = this.queue;
      this.queue = [];
      for (const item of queued) this.sendRaw(item);
      this.opts.onReady?.(reconnected, msg);
      return true; // what onReady starts runs before the messages after the welcome
    }
    if (msg.id === "hello" && msg.type === "error") {
      this.closedByUs = true;
      this.socket?.close();
      this.opts.onAuthFailed?.(new ProtocolError(msg));
      return;
    }
    if (msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === "error") {
        reject(new ProtocolError(msg));
        return true;
      }
      resolve(msg);
      // A reply that is also data (`history` answers with the request's id).
      if (msg.type !== "ok") this.opts.onMessage?.(msg);
      return true;
    }
    this.opts.onMessage?.(msg);
    return false;
  }

  dropped() {
    this.ready = false;
    for (const { reject } of this.pending.values()) {
      reject(new ProtocolError({ code: "disconnected", message: "connection lost" }));
    }
    this.pending.clear();
    this.queue = [];
    if (this.closedByUs) {
      this.opts.onStatus?.("closed");
      return;
    }
    this.opts.onStatus?.("reconnecting");
    this.retryTimer = setTimeout(() => this.open(), this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, 5000);
  }

  sendRaw(message) {
    const text = JSON.stringify({ v: PROTOCOL_VERSION, ...message });
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /** Send a request; resolves with the `ok` reply, rejects with a ProtocolError. */
  request(type, fields = {}) {
    const id = this.nextId++;
    const message = { type, id, ...fields };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.ready) this.sendRaw(message);
      else this.queue.push(message);
    });
  }

  /** Close for good (signing out). */
  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
    this.ready = false;
  }

  /** Test hook: drop the socket as a network failure would. */
  simulateDrop() {
    this.socket?.close();
  }
}

/** HTTP JSON helper for /api routes. */
export async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ProtocolError(data && typeof data === "object" ? data : { code: String(response.status), message: response.statusText });
  }
  return data;
}
