/**
 * One MCP server for every HTTP request (issue #16): an SDK `Transport` that the HTTP face connects
 * its single McpServer to once, and that carries each POST's messages to it and the responses back.
 *
 * The SDK's StreamableHTTPServerTransport serves one request in stateless mode and cannot be
 * reused ("Stateless transport cannot be reused across requests"), and a server connects to one
 * transport at a time; its pattern is a new server and transport per request, which cost more CPU
 * than the search itself (bench/results/load.md). Here the server and its tool registrations are
 * built once. Concurrent clients may all use the same JSON-RPC ids (every SDK client starts at 0),
 * so each request is handed to the server under an id of this transport's own, unique for the
 * process, and its response is given back the client's id: two clients' requests never collide in
 * the server's bookkeeping (in-flight handlers, abort controllers), and no answer reaches another
 * client.
 *
 * What a shared server cannot do, and skilldex never does: send requests or notifications to a
 * client (there is no stream to carry them in a JSON answer; they are dropped, as the SDK's
 * transport drops them in JSON-response mode), or keep per-client state across requests. The
 * client capabilities an `initialize` announces are kept by the server only for server-to-client
 * requests, which skilldex never makes. A client's `notifications/cancelled` names a request by the
 * client's own id, which names nothing here: it is dropped, as a fresh server per request ignored it.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** One POST's requests on their way through the server. */
export interface Exchange {
  /** The responses to the POST's requests, in the order the requests came. */
  readonly answers: Promise<JSONRPCMessage[]>;
  /**
   * Forgets the exchange (the client went away): responses that come later are dropped and
   * `answers` never settles (nothing holds it any more, so it is collected with the request).
   */
  abandon(): void;
}

interface InFlight {
  /** The id the client gave the request. */
  readonly clientId: RequestId;
  readonly answer: (message: JSONRPCMessage) => void;
  readonly fail: (err: Error) => void;
}

/** The transport of the HTTP face's one McpServer; see the file header. */
export class SharedHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private nextId = 0;
  private readonly inFlight = new Map<number, InFlight>();
  private closed = false;

  /** Nothing to start: messages arrive through exchange(). */
  async start(): Promise<void> {}

  /** Fails every exchange still waiting, then tells the server the transport is gone. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const waiting = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const w of waiting) w.fail(new Error('the MCP server closed'));
    this.onclose?.();
  }

  /**
   * Takes a message from the server: a response goes to the exchange of its request, under the
   * client's id; anything else (a notification or a request to the client) has no stream to go
   * to in a JSON answer and is dropped.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    const waiting = this.inFlight.get(message.id);
    if (!waiting) return; // abandoned, or not one of ours
    this.inFlight.delete(message.id);
    waiting.answer({ ...message, id: waiting.clientId });
  }

  /**
   * Hands one POST's messages to the server, in order, and collects the responses to its requests.
   * `extra` reaches the handlers as the SDK's transport passes it (request headers and URL).
   */
  exchange(
    messages: readonly (JSONRPCRequest | JSONRPCNotification)[],
    extra: MessageExtraInfo,
  ): Exchange {
    const ours: number[] = [];
    let abandon = (): void => undefined;
    const answers = new Promise<JSONRPCMessage[]>((resolve, reject) => {
      if (this.closed || this.onmessage === undefined) {
        reject(new Error('the MCP server is not connected'));
        return;
      }
      const deliver = this.onmessage.bind(this);
      const requests = messages.filter((m): m is JSONRPCRequest => 'id' in m);
      const out: JSONRPCMessage[] = new Array<JSONRPCMessage>(requests.length);
      let left = requests.length;
      const routed = new Map<JSONRPCRequest, number>();
      requests.forEach((r, slot) => {
        const id = ++this.nextId;
        ours.push(id);
        routed.set(r, id);
        this.inFlight.set(id, {
          clientId: r.id,
          answer: (m) => {
            out[slot] = m;
            if (--left === 0) resolve(out);
          },
          fail: reject,
        });
      });
      abandon = () => {
        for (const id of ours) this.inFlight.delete(id);
      };
      if (left === 0) resolve(out);
      for (const m of messages) {
        const id = routed.get(m as JSONRPCRequest);
        if (id !== undefined) deliver({ ...m, id }, extra);
        else if (m.method !== 'notifications/cancelled') deliver(m, extra);
      }
    });
    return { answers, abandon: () => abandon() };
  }

  /** Requests handed to the server whose responses have not come back yet. */
  get pending(): number {
    return this.inFlight.size;
  }
}
