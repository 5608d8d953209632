/**
 * What a POST to the stateless Streamable HTTP endpoint must be before its messages reach the
 * server (MCP transports spec, "Sending Messages to the Server"): an Accept header naming both
 * `application/json` and `text/event-stream`, a JSON Content-Type, at most MAX_BATCH_SIZE
 * JSON-RPC messages, one initialize at most (and alone), and a supported `MCP-Protocol-Version`
 * on every other request. The same refusals, statuses and codes as the SDK's own
 * StreamableHTTPServerTransport (406, 415, 400), so a client sees no difference. A pure function of
 * the headers and the parsed body; it never reads the socket and never answers a request.
 *
 * Owned here, not imported: the SDK's own checks live in modules outside its documented surface
 * (`server/requestBody.js`, `shared/mediaType.js`), which an SDK upgrade may move or change
 * silently. Only the documented `types.js` (message schemas, protocol versions) is used.
 */
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** Why a POST is refused: its HTTP status and the JSON-RPC error it is answered with. */
export interface PostRefusal {
  readonly status: 400 | 406 | 415;
  readonly code: number;
  readonly message: string;
}

/** The messages of an accepted POST. */
export interface PostMessages {
  /** Requests and notifications, in the order they came; each request gets one response. */
  readonly messages: readonly (JSONRPCRequest | JSONRPCNotification)[];
  /** How many of `messages` are requests (0: the POST is answered 202 with no body). */
  readonly requests: number;
  /** Responses from the client (to requests this server never sends over HTTP): counted, dropped. */
  readonly responses: number;
}

/** The headers a POST is judged by (lower-case names, as node:http gives them). */
export interface PostHeaders {
  readonly accept?: string;
  readonly 'content-type'?: string;
  readonly 'mcp-protocol-version'?: string;
}

/**
 * Most JSON-RPC messages in one POST: 100, the SDK's own bound (`MAX_BATCH_SIZE`,
 * modelcontextprotocol/typescript-sdk `src/server/requestBody.ts`), so a batch the SDK's transport
 * accepts is accepted here too.
 */
export const MAX_BATCH_SIZE = 100;

/**
 * True when a `Content-Type` value's media type is `application/json` (parameters such as
 * `charset` ignored, any case). The media type is the part before the first `;`; a comma outside
 * a quoted parameter means joined duplicate headers and is refused, as the SDK's
 * `isJsonContentType` refuses it (`src/shared/mediaType.ts`). A substring test would take
 * `text/plain; a=application/json` for JSON.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (header === 'application/json') return true;
  const cut = header.indexOf(';');
  const essence = (cut < 0 ? header : header.slice(0, cut)).trim().toLowerCase();
  const params = cut < 0 ? '' : header.slice(cut).replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return essence === 'application/json' && !params.includes(',');
}

/** JSON-RPC code the SDK answers transport-level refusals with. */
const TRANSPORT_ERROR = -32000;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * Checks one POST (its headers and its body, already parsed as JSON) and sorts its JSON-RPC
 * messages; a PostRefusal when it must be refused before any message is delivered.
 */
export function parsePost(headers: PostHeaders, body: unknown): PostRefusal | PostMessages {
  // Accept is a comma-separated list: a substring check is what the SDK does.
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      code: TRANSPORT_ERROR,
      message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  }
  if (!isJsonContentType(headers['content-type'])) {
    return {
      status: 415,
      code: TRANSPORT_ERROR,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  const raw = Array.isArray(body) ? (body as unknown[]) : [body];
  if (raw.length > MAX_BATCH_SIZE) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`,
    };
  }
  const messages: JSONRPCMessage[] = [];
  for (const m of raw) {
    const parsed = JSONRPCMessageSchema.safeParse(m);
    if (!parsed.success) {
      return {
        status: 400,
        code: PARSE_ERROR,
        message: 'Parse error: Invalid JSON-RPC message',
      };
    }
    messages.push(parsed.data);
  }
  const kept: (JSONRPCRequest | JSONRPCNotification)[] = [];
  const requests: JSONRPCRequest[] = [];
  let responses = 0;
  for (const m of messages) {
    // The schemas are strict: a request has a method and an id, a notification a method only.
    if (!('method' in m)) responses++;
    else {
      kept.push(m);
      if ('id' in m) requests.push(m);
    }
  }
  const initialize = requests.filter((r) => r.method === 'initialize').length;
  if (initialize > 0 && messages.length > 1) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message: 'Invalid Request: Only one initialization request is allowed',
    };
  }
  // Version negotiation happens in initialize itself; every later request names a version the
  // server speaks, or none (the negotiated default).
  const version = headers['mcp-protocol-version'];
  if (initialize === 0 && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return {
      status: 400,
      code: TRANSPORT_ERROR,
      message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  }
  // Duplicate ids in one batch could not be told apart in the answer.
  if (new Set(requests.map((r) => r.id)).size !== requests.length) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message: 'Invalid Request: two requests in one batch share an id',
    };
  }
  return { messages: kept, requests: requests.length, responses };
}
