/**
 * The two inputs of an enrichment run (issue #7): the task brief and the evidence target. Each comes
 * from its environment variable (`TASK_BRIEF`, `EVIDENCE_TARGET`) unless an explicit value
 * overrides it. A missing or blank input is MISSING_ENV naming every missing one; this runs before
 * anything is read or written. Pure: the environment is passed in, never read from the process.
 */
import { SkilldexError } from '../errors.js';

/** Environment variable holding the task brief. */
export const BRIEF_ENV = 'TASK_BRIEF';
/** Environment variable holding the evidence target folder. */
export const TARGET_ENV = 'EVIDENCE_TARGET';

/** Where the inputs may come from: explicit values win over the environment. */
export interface EnrichInputSources {
  /** Explicit brief (`--brief`); overrides `TASK_BRIEF`. */
  readonly brief?: string;
  /** Explicit target (`--out`); overrides `EVIDENCE_TARGET`. */
  readonly target?: string;
  /** The environment to read `TASK_BRIEF` and `EVIDENCE_TARGET` from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The resolved inputs. */
export interface EnrichInputs {
  readonly brief: string;
  /** As given: absolute, or relative to the caller's working folder. */
  readonly target: string;
}

/** Picks the brief and target, or throws MISSING_ENV naming each one that is missing or blank. */
export function resolveEnrichInputs(sources: EnrichInputSources): EnrichInputs {
  const env = sources.env ?? {};
  const brief = present(sources.brief) ?? present(env[BRIEF_ENV]);
  const target = present(sources.target) ?? present(env[TARGET_ENV]);
  const missing: string[] = [];
  if (brief === undefined) missing.push(BRIEF_ENV);
  if (target === undefined) missing.push(TARGET_ENV);
  if (brief === undefined || target === undefined) {
    const flags = missing.map((m) => (m === BRIEF_ENV ? `${m} (or --brief)` : `${m} (or --out)`));
    throw new SkilldexError(
      'MISSING_ENV',
      `${flags.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set; nothing was written`,
      {
        missing,
      },
    );
  }
  return { brief, target };
}

// A value that is only whitespace carries no brief and names no folder: it counts as missing.
function present(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}
