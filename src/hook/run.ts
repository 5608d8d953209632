/**
 * One run of a prompt hook, start to answer, that never gets in the person's way (issue 23 §1): any
 * error — a missing or corrupt catalog, bad input, the deadline passed — yields no output and one
 * line in the hook's log (`$XDG_STATE_HOME/skilldex/hook/hook.log`, kept under MAX_LOG_BYTES), so
 * the host goes on with the prompt as typed. The caller exits 0 either way (unless asked to be
 * strict). Suggestions are recorded as telemetry events of source `hook` (not counted: see
 * Router.recordHookSuggestions), the session's state is written after the answer.
 */
import { SkilldexError, isSkilldexError } from '../errors.js';
import { Router, processSession } from '../router/index.js';
import { MAX_HOOK_QUERY_CHARS, hookQuery, parseHookInput, type HookHost } from './input.js';
import { logHookError } from './log.js';
import { hookOutput } from './output.js';
import { nextSessionState, readSessionState, writeSessionState } from './state.js';
import { suggest, type HookAnswer } from './suggest.js';

export { DEFAULT_HOOK_DEADLINE_MS } from './input.js';

/** What a hook run needs. */
export interface HookRunOptions {
  readonly host: HookHost;
  readonly catalog: string;
  readonly telemetry: boolean;
  readonly usage: boolean;
  readonly max?: number;
  readonly minConfidence?: number;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The hook's state folder (hookStateDir). */
  readonly stateDir: string;
  /** Milliseconds left until the deadline, read after the work (negative: passed). */
  readonly remaining: () => number;
  /**
   * Where the run gets its router (default: a new one, closed after the run). The hook server
   * passes a pool that keeps one open per catalog (src/cli/hook-server.ts); the run names its own
   * client and session in every call, so a router may serve many runs.
   */
  readonly routers?: HookRouters;
  /**
   * Given, what the run records once it has its answer — the suggestions as telemetry, the
   * session's state — is handed to it instead of done before the answer: the hook server answers
   * first and records after, before the next run (a failure there is logged, the answer stands).
   * Without it the run records before it answers, and a failure to record prints nothing.
   */
  readonly afterAnswer?: (work: () => void) => void;
}

/** What a run needs to open (and put back) a router: see HookRunOptions.routers. */
export interface HookRouters {
  open(o: { readonly catalog: string; readonly telemetry: boolean; readonly usage: boolean }): {
    readonly router: Router;
    readonly done: () => void;
  };
}

/** A router per run, closed after it: how a hook in its own process runs. */
const FRESH_ROUTERS: HookRouters = {
  open: (o) => {
    const router = new Router({ ...o, recordSuggestions: false });
    return { router, done: () => router.close() };
  },
};

/** The outcome of a run: what to print, and the error when there was one. */
export interface HookRunResult {
  readonly stdout: string;
  readonly answer?: HookAnswer;
  readonly error?: SkilldexError;
}

/** Runs the hook on the text the host wrote on stdin; never throws (see the file header). */
export function runHook(inputText: string, o: HookRunOptions): HookRunResult {
  try {
    return answerHook(inputText, o);
  } catch (err) {
    return { stdout: '', error: asCoded(err) };
  }
}

function asCoded(err: unknown): SkilldexError {
  if (isSkilldexError(err)) return err;
  return new SkilldexError(
    'INTERNAL',
    `the hook failed: ${String((err as Error)?.message ?? err)}`,
  );
}

function answerHook(inputText: string, o: HookRunOptions): HookRunResult {
  const input = parseHookInput(o.host, inputText);
  // A sub-agent's event or a host-made delivery is not a person asking: nothing to suggest.
  if (input.notPerson !== undefined) return { stdout: '' };
  const query =
    o.host === 'generic'
      ? input.prompt.trim().slice(0, MAX_HOOK_QUERY_CHARS)
      : hookQuery(input.prompt);
  if (query === undefined) return { stdout: '' };
  const origin = {
    client: o.host,
    // A run without a host session gets one of its own, named as a Router's default session.
    session: input.session ? input.session.slice(0, 200) : processSession(o.host, Date.now()),
  };
  const { router, done } = (o.routers ?? FRESH_ROUTERS).open({
    catalog: o.catalog,
    telemetry: o.telemetry,
    usage: o.usage,
  });
  let handedOver = false;
  try {
    const state = input.session ? readSessionState(o.stateDir, o.host, input.session) : undefined;
    const answer = suggest(router, query, {
      host: o.host,
      ...(o.max === undefined ? {} : { max: o.max }),
      ...(o.minConfidence === undefined ? {} : { minConfidence: o.minConfidence }),
      ...(state ? { state } : {}),
      ...(input.cwd ? { cwd: input.cwd } : {}),
      home: o.home,
      env: o.env,
    });
    if (o.remaining() < 0)
      throw new SkilldexError('HOOK_DEADLINE', 'the hook passed its deadline; it printed nothing');
    const shown = answer.suggestions.map((s) => s.skill_id);
    const record = (): void => {
      router.recordHookSuggestions(query, answer.catalog_generation, shown, origin);
      if (input.session) {
        const next = nextSessionState(state, answer.above, shown, answer.same_topic);
        if (next !== undefined && next !== state) {
          try {
            writeSessionState(o.stateDir, o.host, input.session, next);
          } catch {
            // The state only spares repeats: a folder that cannot be written costs nothing else.
          }
        }
      }
    };
    const stdout = hookOutput(o.host, answer);
    if (o.afterAnswer === undefined) record();
    else {
      o.afterAnswer(() => {
        try {
          record();
        } catch (err) {
          logHookError(o.stateDir, o.host, asCoded(err));
        } finally {
          done();
        }
      });
      handedOver = true;
    }
    return { stdout, answer };
  } finally {
    if (!handedOver) done();
  }
}
