/**
 * The command line of `skilldex hook <host> …` as the hook's fast entries read it (hook-main.ts,
 * and hook-client.ts, which must not load the hook's code): the host, `--catalog`, `--max`,
 * `--min-confidence`, `--deadline-ms` (each `--opt value` or `--opt=value`), `--no-telemetry`,
 * `--no-usage`; undefined for anything else, which the full CLI's commander parser then reads.
 */
import type { HookFlags } from './commands/hook.js';

/** The parsed hook command line: the host argument and the flags as commander would give them. */
export interface FastHookArgs {
  readonly host: string | undefined;
  readonly flags: HookFlags;
}

// The options that take a value, and the HookFlags key each fills.
const VALUE_OPTIONS: Readonly<Record<string, 'catalog' | 'max' | 'minConfidence' | 'deadlineMs'>> =
  {
    '--catalog': 'catalog',
    '--max': 'max',
    '--min-confidence': 'minConfidence',
    '--deadline-ms': 'deadlineMs',
  };

/**
 * `argv` (without node and script) parsed as commander parses `skilldex hook …`, or undefined when
 * it holds anything this parser does not know for sure (the full CLI then runs it).
 */
export function parseFastHookArgv(argv: readonly string[]): FastHookArgs | undefined {
  if (argv[0] !== 'hook') return undefined;
  const flags: Omit<HookFlags, 'strict' | 'json'> = {};
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--no-telemetry') flags.telemetry = false;
    else if (a === '--no-usage') flags.usage = false;
    else if (a.startsWith('-')) {
      const eq = a.indexOf('=');
      const name = eq === -1 ? a : a.slice(0, eq);
      const key = Object.hasOwn(VALUE_OPTIONS, name) ? VALUE_OPTIONS[name] : undefined;
      if (key === undefined) return undefined;
      if (eq !== -1) flags[key] = a.slice(eq + 1);
      else {
        const next = argv[i + 1];
        // Commander takes the next word as an optional value unless it looks like an option.
        if (next === undefined) flags[key] = true;
        else if (next.startsWith('-')) return undefined;
        else {
          flags[key] = next;
          i++;
        }
      }
    } else operands.push(a);
  }
  // Commander's defaults for the negatable options: true unless --no-… was given.
  return {
    host: operands[0],
    flags: { telemetry: true, usage: true, ...flags },
  };
}
