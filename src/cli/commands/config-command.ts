/**
 * `skilldex config`: prints the effective settings and where each came from (issue #12). Reads the
 * config files and, for the library scopes, the catalog's memory of its last index; writes nothing.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { escapeInvisible } from '../../text/index.js';
import { action, type CliContext } from '../context.js';

/** Registers `config`. */
export function registerConfig(program: Command, ctx: CliContext): void {
  program
    .command('config')
    .summary('print the effective settings and where each came from')
    .description(
      'Print every setting (catalog, policy, telemetry, library.*, mcp.*) with its value and its\n' +
        'source. Precedence: flags > environment (SKILLDEX_CATALOG, SKILLDEX_TELEMETRY=on|off) >\n' +
        'project config (.skilldex/config.toml or skilldex.toml at or above the current folder) >\n' +
        'user config (--config FILE, $SKILLDEX_CONFIG, else $XDG_CONFIG_HOME/skilldex/config.toml,\n' +
        'default ~/.config/skilldex/config.toml) > defaults. Without a configured library.scopes, a\n' +
        'bare `skilldex index` re-indexes the scopes the catalog remembers from its last index.\n\n' +
        'Config file (TOML; a .json file is read as JSON with the same keys):\n' +
        '  catalog = "~/.local/share/skilldex/catalog.sqlite"\n' +
        '  policy = "tf.skillrouter.bm25f.v5"\n' +
        '  telemetry = true\n' +
        '  [library]\n' +
        '  scopes = ["~/.local/share/skilldex/library"]\n' +
        '  prefer = []        # folders whose skills win when two files define one id\n' +
        '  [mcp]\n' +
        '  cascade_roots = []\n' +
        '  substrate = "substrate"\n' +
        '  host = "127.0.0.1"\n' +
        '  trust_project_config = ["~/work/team-repo"]   # user config only\n' +
        'Relative paths are relative to the config file; unknown keys are refused (CONFIG_INVALID).\n\n' +
        'A project config is untrusted (it may come with a cloned repository). The walk for it stops\n' +
        'below the home folder and at a repository root (.git). From a project it may set policy only\n' +
        'beside its own catalog (never for yours); turn telemetry off (not on when the user config turns\n' +
        'it off); set catalog to a SQLite file inside the project (never a postgres:// URL); set\n' +
        'library.scopes, mcp.cascade_roots and mcp.substrate to folders inside the project, and\n' +
        'library.prefer only beside its own library.scopes; and never mcp.host. Your catalog never\n' +
        "remembers a project's scopes. Other keys are ignored with a warning\n" +
        '(PROJECT_CONFIG_IGNORED) naming the file and key, and listed here; a project the user config\n' +
        'names in trust_project_config is read whole. A project config of another user is not read.',
    )
    .option('--json', 'print the settings as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex config\n  skilldex --config ./team.toml config --json\n  SKILLDEX_TELEMETRY=off skilldex config',
    )
    .action(
      action(ctx, (o: { json?: boolean }) => {
        const layers = ctx.configLayers();
        const settings = ctx.settings({}, true);
        const files = {
          user: { path: layers.userPath, exists: existsSync(layers.userPath) },
          project: layers.projectPath ?? null,
          project_trusted: layers.projectTrusted === true,
        };
        if (o.json) {
          // Unset values print as null, so every key is present in the JSON.
          ctx.json({
            files,
            ignored: layers.ignored.map((i) => ({
              code: i.code,
              file: i.file,
              key: i.key,
              reason: i.reason,
            })),
            settings: Object.fromEntries(
              Object.entries(settings).map(([k, v]) => [
                k,
                { value: v.value ?? null, source: v.source },
              ]),
            ),
          });
          return 0;
        }
        const show = (v: unknown): string =>
          v === undefined ? '(not set)' : escapeInvisible(JSON.stringify(v));
        const lines = [
          `user config:    ${escapeInvisible(files.user.path)}${files.user.exists ? '' : ' (not present)'}`,
          `project config: ${files.project === null ? '(none found)' : escapeInvisible(files.project)}${files.project_trusted ? ' (trusted by trust_project_config)' : ''}`,
          '',
        ];
        const width = Math.max(...Object.keys(settings).map((k) => k.length));
        for (const [key, s] of Object.entries(settings) as [
          string,
          { value: unknown; source: string },
        ][]) {
          lines.push(`${key.padEnd(width)}  ${show(s.value)}  [${escapeInvisible(s.source)}]`);
        }
        if (layers.ignored.length > 0) {
          lines.push('', 'ignored project keys (a project config is untrusted):');
          for (const i of layers.ignored)
            lines.push(
              `  ${i.key === '*' ? '(the whole file)' : i.key}: ${escapeInvisible(i.reason)}`,
            );
        }
        ctx.out(lines.join('\n'));
        return 0;
      }),
    );
}
