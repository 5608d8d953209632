/**
 * doctor's `codex-project.*` checks (issue 35): what the current project's own Codex configuration
 * (`.codex/config.toml` and `.codex/hooks.json` from the project root down to here,
 * hosts/codex-project.ts) says about skilldex — an MCP server it declares under skilldex's name or
 * command, which Codex then uses instead of the user's; the skilldex MCP server turned off; a
 * skilldex prompt hook of its own, which Codex runs beside the user's (every layer's hooks run);
 * hooks turned off — and whether Codex applies the layer at all (a trusted project). The layer is
 * a repository's file: untrusted input, reported and never run; commands are shown sanitised.
 */
import { sanitizeField } from '../../text/index.js';
import type * as Hosts from '../../hosts/index.js';
import type { DoctorCheck, DoctorOptions } from './check.js';

const SKILLDEX_HOOK = /\bskilldex\b[\s\S]*\bhook\b|\bhook\s+['"]?codex\b/;

function trustText(f: Hosts.CodexProjectFacts): string {
  return f.trust === 'trusted'
    ? 'the project is trusted, so Codex applies it'
    : f.trust === 'untrusted'
      ? 'the project is untrusted, so Codex does not apply it'
      : 'Codex asks whether to trust the project before it applies it';
}

function commandText(command: string | null, args: readonly string[]): string {
  return sanitizeField([command ?? '(no command)', ...args].join(' '), 300);
}

/** The `codex-project.*` checks for `o.cwd`; none when no project layer exists there. */
export function codexProjectChecks(
  hosts: typeof Hosts,
  o: DoctorOptions,
  clients: readonly string[],
): DoctorCheck[] {
  const f = hosts.codexProjectFacts({ home: o.home, env: o.env, cwd: o.cwd });
  if (f.layers.length === 0 && f.problems.length === 0) return [];
  const checks: DoctorCheck[] = [];
  const files = f.layers.flatMap((l) => l.files);
  const trusted = f.trust === 'trusted';

  // MCP: the closest layer that declares skilldex's server wins (Codex: closest config wins).
  const mcpLayer = [...f.layers].reverse().find((l) => l.mcp !== undefined);
  if (mcpLayer?.mcp !== undefined) {
    const m = mcpLayer.mcp;
    const where = `${mcpLayer.dir}/.codex/config.toml [mcp_servers.${m.name}]`;
    if (!m.enabled)
      checks.push({
        id: 'codex-project.mcp',
        status: trusted ? 'fail' : 'warn',
        message: `${where} turns the skilldex MCP server off (enabled = false); ${trustText(f)}${trusted ? ': Codex has no skill_fetch in this project' : ''}`,
        fix: `remove [mcp_servers.${m.name}] from that file (a file of the project: ask its owners), or run Codex outside the project`,
      });
    else
      checks.push({
        id: 'codex-project.mcp',
        status: 'warn',
        message: `${where} declares its own skilldex MCP server, ${JSON.stringify(commandText(m.command, m.args))}; ${trustText(f)}${trusted ? ', instead of yours' : ''}. skilldex does not run it`,
        fix: 'check that command before you trust the project; remove the table to use your own registration (skilldex init --client codex)',
      });
  }

  // Hooks: every layer's UserPromptSubmit hooks run; project hooks only in a trusted project.
  const skilldexHooks = f.layers.flatMap((l) =>
    l.promptHooks.filter((h) => SKILLDEX_HOOK.test(h.command)),
  );
  const others = f.layers.flatMap((l) => l.promptHooks).length - skilldexHooks.length;
  const off = [...f.layers].reverse().find((l) => l.hooksFeature !== undefined);
  if (off?.hooksFeature === false)
    checks.push({
      id: 'codex-project.hooks-off',
      status: 'warn',
      message: `${off.dir}/.codex/config.toml sets [features] hooks = false; ${trustText(f)}${trusted ? ": skilldex's prompt hook does not run in this project" : ''}`,
      fix: 'remove that line (a file of the project: ask its owners) to have skilldex suggest skills here',
    });
  if (skilldexHooks.length > 0) {
    const h = skilldexHooks[0]!;
    const twice = clients.includes('codex');
    checks.push({
      id: 'codex-project.hooks',
      status: 'warn',
      message:
        `${h.file} has its own skilldex prompt hook, ${JSON.stringify(sanitizeField(h.command, 300))}` +
        `${skilldexHooks.length > 1 ? ` (and ${skilldexHooks.length - 1} more)` : ''}; ${trustText(f)}` +
        (trusted && twice
          ? ': Codex runs it beside the hook skilldex init installed, so each prompt is answered twice'
          : '') +
        '. skilldex does not run it',
      fix: twice
        ? 'remove one of the two: the project hook, or yours (skilldex init --undo --client codex)'
        : 'check that command before you trust the project',
    });
  }
  for (const p of f.problems)
    checks.push({
      id: 'codex-project.config',
      status: 'warn',
      message: `${sanitizeField(p, 300)} (Codex may refuse that layer)`,
      fix: 'fix or remove the file',
    });
  if (checks.length === 0)
    checks.push({
      id: 'codex-project',
      status: 'ok',
      message: `${files.join(', ')}: no skilldex MCP server or hook there${others > 0 ? ` (${others} other prompt hook(s))` : ''}; ${trustText(f)}`,
    });
  return checks;
}
