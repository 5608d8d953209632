/**
 * The HTTP face's shared server (issue #16): SharedHttpTransport carries every POST's messages to
 * one McpServer and back, and parsePost refuses what the SDK's own transport refuses. In process:
 * many exchanges in flight at once, all with the same client id, each answered with its own
 * result under its own id; a hung-up client's answer dropped; a client's cancellation never
 * reaching the server; and the POST checks (Accept, Content-Type, batch size, initialize alone,
 * protocol version, duplicate ids).
 */
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../src/internal.js';
import { createServer } from '../../src/mcp/server.js';
import { parsePost, type PostMessages, type PostRefusal } from '../../src/mcp/http-post.js';
import { SharedHttpTransport } from '../../src/mcp/http-transport.js';
import { EXAMPLE_QUERIES, makeCatalog, type TestCatalog } from './support.js';

const ACCEPT = 'application/json, text/event-stream';
const JSON_POST = { accept: ACCEPT, 'content-type': 'application/json' } as const;

function searchCall(id: number | string, query: string): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'skill_search', arguments: { query, limit: 3 } },
  };
}

describe('SharedHttpTransport with the real server', () => {
  let cat: TestCatalog;
  let router: Router;
  let transport: SharedHttpTransport;
  let close: () => Promise<void>;

  beforeAll(async () => {
    cat = await makeCatalog();
    router = new Router({ catalog: cat.catalog, telemetry: false });
    const server = createServer({ router, cascadeRoots: [], log: () => undefined });
    transport = new SharedHttpTransport();
    await server.connect(transport);
    close = async () => {
      await server.close();
      router.close();
    };
  });

  afterAll(() => close());

  it('answers 40 exchanges in flight at once, all with client id 0, each with its own result', async () => {
    const exchanges = Array.from({ length: 40 }, (_, i) => {
      const query = EXAMPLE_QUERIES[i % EXAMPLE_QUERIES.length]!;
      return {
        query,
        ex: transport.exchange([searchCall(0, query)], { requestInfo: { headers: {} } }),
      };
    });
    expect(transport.pending).toBe(40);
    const answers = await Promise.all(exchanges.map((e) => e.ex.answers));
    answers.forEach((a, i) => {
      expect(a).toHaveLength(1);
      const msg = a[0] as unknown as { id: unknown; result: { structuredContent: object } };
      expect(msg.id).toBe(0);
      expect(msg.result.structuredContent).toEqual(
        JSON.parse(JSON.stringify(router.search({ query: exchanges[i]!.query, limit: 3 }))),
      );
    });
    expect(transport.pending).toBe(0);
  });

  it('answers a batch in the order of its requests, under the ids the client gave', async () => {
    const [a, b] = await transport.exchange(
      [searchCall('second', EXAMPLE_QUERIES[1]!), searchCall(7, EXAMPLE_QUERIES[0]!)],
      {},
    ).answers;
    expect(a).toMatchObject({
      id: 'second',
      result: { structuredContent: { query: EXAMPLE_QUERIES[1] } },
    });
    expect(b).toMatchObject({
      id: 7,
      result: { structuredContent: { query: EXAMPLE_QUERIES[0] } },
    });
  });

  it('drops the answer of an abandoned exchange and keeps serving', async () => {
    const gone = transport.exchange([searchCall(1, EXAMPLE_QUERIES[2]!)], {});
    gone.abandon();
    expect(transport.pending).toBe(0);
    const [next] = await transport.exchange([searchCall(1, EXAMPLE_QUERIES[3]!)], {}).answers;
    expect(next).toMatchObject({
      id: 1,
      result: { structuredContent: { query: EXAMPLE_QUERIES[3] } },
    });
    expect(transport.pending).toBe(0);
  });

  it('answers initialize with the version each client asked for, whoever asked before', async () => {
    const init = (id: number, protocolVersion: string): JSONRPCRequest => ({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: `c${id}`, version: '1' } },
    });
    const [x, y] = await Promise.all([
      transport.exchange([init(0, '2025-03-26')], {}).answers,
      transport.exchange([init(0, '2025-06-18')], {}).answers,
    ]);
    expect(x![0]).toMatchObject({ id: 0, result: { protocolVersion: '2025-03-26' } });
    expect(y![0]).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18' } });
  });
});

describe('SharedHttpTransport routing', () => {
  it('hands requests on under ids of its own and gives answers back under the client ids', async () => {
    const t = new SharedHttpTransport();
    const seen: JSONRPCMessage[] = [];
    t.onmessage = (m) => {
      seen.push(m);
    };
    const a = t.exchange([searchCall(0, 'a')], {});
    const b = t.exchange([searchCall(0, 'b')], {});
    const ids = seen.map((m) => (m as JSONRPCRequest).id);
    expect(new Set(ids).size).toBe(2);
    // The server answers b first: each answer goes to its own exchange.
    await t.send({ jsonrpc: '2.0', id: ids[1]!, result: { which: 'b' } });
    await t.send({ jsonrpc: '2.0', id: ids[0]!, result: { which: 'a' } });
    expect(await a.answers).toEqual([{ jsonrpc: '2.0', id: 0, result: { which: 'a' } }]);
    expect(await b.answers).toEqual([{ jsonrpc: '2.0', id: 0, result: { which: 'b' } }]);
  });

  it('never delivers a client cancellation (its id names another client’s request here)', () => {
    const t = new SharedHttpTransport();
    const seen: JSONRPCMessage[] = [];
    t.onmessage = (m) => {
      seen.push(m);
    };
    const inFlight = t.exchange([searchCall(0, 'a')], {});
    const ourId = (seen[0] as JSONRPCRequest).id;
    const cancel: JSONRPCNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ourId },
    };
    const initialized: JSONRPCNotification = {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    };
    void t.exchange([cancel, initialized], {}).answers;
    expect(seen.map((m) => ('method' in m ? m.method : ''))).toEqual([
      'tools/call',
      'notifications/initialized',
    ]);
    inFlight.abandon();
  });

  it('drops server notifications and answers nobody asked for', async () => {
    const t = new SharedHttpTransport();
    t.onmessage = () => undefined;
    await t.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } });
    await t.send({ jsonrpc: '2.0', id: 999, result: {} });
    expect(t.pending).toBe(0);
  });

  it('fails the exchanges still waiting when it closes, and refuses new ones', async () => {
    const t = new SharedHttpTransport();
    t.onmessage = () => undefined;
    const waiting = t.exchange([searchCall(0, 'a')], {});
    await t.close();
    await expect(waiting.answers).rejects.toThrow();
    await expect(t.exchange([searchCall(1, 'b')], {}).answers).rejects.toThrow();
  });
});

describe('parsePost', () => {
  const refusal = (r: PostRefusal | PostMessages): PostRefusal => {
    expect('status' in r).toBe(true);
    return r as PostRefusal;
  };
  const accepted = (r: PostRefusal | PostMessages): PostMessages => {
    expect('status' in r, JSON.stringify(r)).toBe(false);
    return r as PostMessages;
  };

  it('refuses a client that does not accept both JSON and event streams (406)', () => {
    for (const accept of [undefined, 'application/json', 'text/event-stream']) {
      const r = refusal(
        parsePost(
          { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
          searchCall(1, 'x'),
        ),
      );
      expect(r).toMatchObject({ status: 406, code: -32000 });
    }
  });

  it('refuses a body that is not declared JSON (415), and takes parameters after the type', () => {
    for (const ct of [undefined, 'text/plain', 'application/jsonx']) {
      const r = refusal(parsePost({ accept: ACCEPT, ...(ct ? { 'content-type': ct } : {}) }, {}));
      expect(r).toMatchObject({ status: 415, code: -32000 });
    }
    accepted(
      parsePost(
        { accept: ACCEPT, 'content-type': 'application/json; charset=utf-8' },
        searchCall(1, 'x'),
      ),
    );
  });

  it('refuses JSON that is not JSON-RPC, a batch over 100, and a batch holding initialize', () => {
    expect(refusal(parsePost(JSON_POST, { hello: 'world' }))).toMatchObject({
      status: 400,
      code: -32700,
    });
    expect(
      refusal(
        parsePost(
          JSON_POST,
          Array.from({ length: 101 }, (_, i) => searchCall(i, 'x')),
        ),
      ),
    ).toMatchObject({ status: 400, code: -32600 });
    const init: JSONRPCRequest = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    };
    expect(refusal(parsePost(JSON_POST, [init, searchCall(1, 'x')]))).toMatchObject({
      status: 400,
      code: -32600,
    });
    expect(accepted(parsePost(JSON_POST, init)).requests).toBe(1);
  });

  it('refuses an unsupported MCP-Protocol-Version, except on initialize (which negotiates)', () => {
    const headers = { ...JSON_POST, 'mcp-protocol-version': '1999-01-01' };
    expect(refusal(parsePost(headers, searchCall(1, 'x')))).toMatchObject({
      status: 400,
      code: -32000,
    });
    accepted(
      parsePost(headers, {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '1999-01-01',
          capabilities: {},
          clientInfo: { name: 'c', version: '1' },
        },
      }),
    );
    accepted(parsePost({ ...JSON_POST, 'mcp-protocol-version': '2025-06-18' }, searchCall(1, 'x')));
  });

  it('refuses two requests with one id in a batch; ids 1 and "1" are two ids', () => {
    expect(refusal(parsePost(JSON_POST, [searchCall(1, 'x'), searchCall(1, 'y')]))).toMatchObject({
      status: 400,
      code: -32600,
    });
    expect(
      accepted(parsePost(JSON_POST, [searchCall(1, 'x'), searchCall('1', 'y')])).requests,
    ).toBe(2);
  });

  it('sorts a batch: requests and notifications kept in order, client responses only counted', () => {
    const note: JSONRPCNotification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const r = accepted(
      parsePost(JSON_POST, [note, searchCall(2, 'x'), { jsonrpc: '2.0', id: 5, result: {} }]),
    );
    expect(r.messages).toEqual([note, searchCall(2, 'x')]);
    expect(r).toMatchObject({ requests: 1, responses: 1 });
  });
});
