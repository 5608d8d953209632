/**
 * init's `config` step: `catalog` and `library.scopes` set in the user's own config file (never a
 * project's), added as lines when missing with every other line kept, `unchanged` when the file
 * already says so, refused (or replaced with --force) when it says otherwise; plus the header line
 * of a config file init creates and the read of the current config the step starts from.
 */
import { SkilldexError } from '../../errors.js';
import { readConfigFile, renderConfig, type ConfigFile } from '../config.js';
import { jsonSetMember, tomlAddEntries } from './edits.js';
import { readClientFile } from './files.js';
import {
  planEdits,
  planWholeFile,
  type AnyEdit,
  type PlannedStep,
  type StepContext,
} from './steps.js';

/** The first line of a user config init creates. */
export const CONFIG_HEADER =
  '# skilldex configuration, written by skilldex init (see skilldex config --help;\n# skilldex init --undo removes what init added).\n';

/**
 * The user config step: `catalog` and `library.scopes` set in the user's config file (never a
 * project's), added as lines when missing and every other line kept; a file that already says so
 * is `unchanged`; one that says otherwise is FILE_EXISTS, or replaced with --force.
 */
export function planConfig(
  sc: StepContext,
  file: string,
  current: ConfigFile | undefined,
  catalog: string,
  library: readonly string[],
): PlannedStep {
  const detail = `catalog = ${catalog}, library.scopes = [${library.join(', ')}]`;
  const catalogSet = current?.catalog !== undefined;
  const scopes = current?.library?.scopes;
  const differs =
    (catalogSet && current.catalog !== catalog) ||
    (scopes !== undefined && JSON.stringify(scopes) !== JSON.stringify(library));
  if (differs) {
    if (!sc.force)
      throw new SkilldexError(
        'FILE_EXISTS',
        `${file} sets ${catalogSet && current.catalog !== catalog ? `catalog = ${current.catalog}` : `library.scopes = ${JSON.stringify(scopes)}`}, not what init would write (${detail})`,
        { file },
      );
    const wanted: ConfigFile = {
      ...(current ?? {}),
      catalog,
      library: { ...(current?.library ?? {}), scopes: [...library] },
    };
    return planWholeFile(sc, 'config', file, renderConfig(wanted), detail, true);
  }
  const json = file.endsWith('.json');
  const edits: ((text: string | undefined) => AnyEdit)[] = [];
  if (!catalogSet)
    edits.push((t) =>
      json
        ? jsonSetMember(file, t, ['catalog'], catalog, false)
        : tomlAddEntries(file, t, [], { catalog }, CONFIG_HEADER),
    );
  if (scopes === undefined)
    edits.push((t) =>
      json
        ? jsonSetMember(file, t, ['library', 'scopes'], [...library], false)
        : tomlAddEntries(file, t, ['library'], { scopes: [...library] }, CONFIG_HEADER),
    );
  return planEdits(sc, 'config', file, detail, edits, true);
}

/** Checks a config file before init adds to it: its parsed settings, or undefined when absent. */
export function currentConfig(file: string, home: string): ConfigFile | undefined {
  return readClientFile(file) === undefined ? undefined : readConfigFile(file, home);
}
