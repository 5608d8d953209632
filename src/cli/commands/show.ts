/**
 * `skilldex show SKILL_ID`: one skill's identity, location, state, revisions and usage examples,
 * for a person (with `--body`, its body verified as fetch verifies it). Operator-side: never
 * served over MCP. The router loads inside the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import type { ExampleSource, SkillDetail } from '../../internal.js';
import { escapeInvisible } from '../../text/index.js';
import { action, parseIntOption, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, checkOneId, type CatalogFlag } from '../options.js';
import { shellWord } from '../render/shell.js';
import { oneLine, relPath } from '../render/text.js';

/** Every flag of `show`. */
type ShowFlags = CatalogFlag & { body?: boolean; revisions?: number };

/** Registers `show`. */
export function registerShow(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('show <skill_id>')
      .summary(
        'describe one skill for a person: identity, path, scope, state, revisions (operator-side)',
      )
      .description(
        "Print SKILL_ID's published identity (version, revision, generation), its file and scope, its\n" +
          'state (with the reason and replacement of a deprecation), its most recent revisions, and how many usage\n' +
          'examples it has of each source (import, host, fetch, author).\n' +
          '--body also prints the body, verified against the published revision as fetch does.\n' +
          'An unknown id suggests the closest ids. For people and operators; never served over MCP.',
      ),
  )
    .option('--body', 'also print the body (verified against the published revision)')
    .option(
      '--revisions <n>',
      'how many recent revisions to list (1-100, default 5)',
      parseIntOption('--revisions', 1, 100),
    )
    .option('--json', 'print the record as JSON (with the body under --body)')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex show pdf-toolkit\n  skilldex show pdf-toolkit --body\n  skilldex show pdf-tolkit          # did you mean pdf-toolkit?\n  skilldex show -odd-id --json',
    )
    .action(
      action(ctx, async (id: string, o: ShowFlags, cmd: Command): Promise<ExitCode> => {
        checkOneId(cmd);
        const { Router, describeSkill, exampleCountsOf } = await import('../../router/index.js');
        const catalog = catalogOf(ctx, o);
        const detail = describeSkill(catalog, id, o.revisions);
        const usage = exampleCountsOf(catalog, id);
        let body: string | undefined;
        if (o.body && detail.published) {
          const router = new Router({ catalog, telemetry: false });
          try {
            body = router.fetch({
              skill_id: id,
              expected_revision: detail.published.revision_id,
              catalog_generation: detail.catalog_generation,
              context: '',
            }).body;
          } finally {
            router.close();
          }
        }
        if (o.json)
          ctx.json({ ...detail, usage_examples: usage, ...(body !== undefined ? { body } : {}) });
        else ctx.out(renderShow(detail, body, o.body === true, ctx.io.cwd, usage));
        return 0;
      }),
    );
}

/** Human rendering of `show`. */
export function renderShow(
  d: SkillDetail,
  body: string | undefined,
  askedBody: boolean,
  cwd: string,
  usage?: Readonly<Record<ExampleSource, number>>,
): string {
  const lines = [`${escapeInvisible(d.skill_id)}`, ...identityLines(d, cwd)];
  lines.push(
    `  revisions:   ${d.revisions_total} seen${d.revisions_total > d.revisions.length ? `, the ${d.revisions.length} most recent:` : ':'}`,
  );
  for (const v of d.revisions)
    lines.push(
      `    r${v.seq}  ${v.revision_id}  ${escapeInvisible(v.version ?? '-')}  ${v.first_seen}`,
    );
  if (usage)
    lines.push(
      `  examples:    ${usage.import} import, ${usage.host} host, ${usage.fetch} fetch, ${usage.author} author (skilldex usage list --skill ${shellWord(d.skill_id)})`,
    );
  if (d.published)
    lines.push(
      `  fetch:       skilldex fetch ${shellWord(d.skill_id)} --revision ${d.published.revision_id} --generation ${d.catalog_generation}`,
    );
  if (askedBody) {
    // The body is data: invisible and control characters are shown escaped, never interpreted.
    lines.push(
      '',
      body !== undefined
        ? escapeInvisible(body)
        : '(no body: the skill is not in the published generation)',
    );
  }
  return lines.join('\n');
}

// The published identity, state and location of a skill.
function identityLines(d: SkillDetail, cwd: string): string[] {
  const lines: string[] = [];
  if (d.published) {
    lines.push(`  name:        ${escapeInvisible(d.published.name)}`);
    lines.push(`  version:     ${escapeInvisible(d.published.skill_version)}`);
    lines.push(`  revision:    ${d.published.revision_id}`);
    lines.push(`  generation:  ${d.catalog_generation}`);
    lines.push(`  description: ${escapeInvisible(oneLine(d.published.description, 200))}`);
  } else lines.push(`  not in the published generation ${d.catalog_generation}`);
  lines.push(
    `  state:       ${d.state}${d.reason ? ` (${escapeInvisible(d.reason)})` : ''}${d.replacement ? `; use ${escapeInvisible(d.replacement)} instead` : ''}`,
  );
  if (d.location)
    lines.push(
      `  path:        ${escapeInvisible(relPath(d.location.path, cwd))}`,
      `  scope:       ${escapeInvisible(d.location.scope)} ${escapeInvisible(relPath(d.location.scope_path, cwd))}`,
    );
  return lines;
}
