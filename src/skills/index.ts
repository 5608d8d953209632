/** Public surface of src/skills: SKILL.md parsing, validation, scopes and discovery. */
export {
  MAX_ALIAS_COUNT,
  MAX_PARSED_FRONTMATTER_CHARS,
  checkParsedSize,
  parseFrontmatter,
  splitFrontmatter,
  yamlLib,
  type FrontmatterSplit,
} from './frontmatter.js';
export {
  KNOWN_FIELDS,
  SPEC_FIELDS,
  MAX_DESCRIPTION_CHARS,
  MAX_LIST_ITEMS,
  MAX_LIST_ITEM_CHARS,
  MAX_NAME_CHARS,
  MAX_VERSION_CHARS,
  validateFrontmatter,
  type SkillFields,
} from './validate.js';
export {
  resolvePluginScopes,
  resolveScopes,
  scopeOptionsOf,
  type PluginFilter,
  type ResolvedScopes,
  type Scope,
  type ScopeKind,
  type ScopeOptions,
} from './scopes.js';
export { loadSkillFile, type FileOrigin, type SkillRecord } from './record.js';
export {
  DISCOVER_OPTION_KEYS,
  SKILL_FILE,
  discoverOptionsOf,
  discoverSkills,
  enumerateSkillFiles,
  resolveIdentities,
  toSkipped,
  type DiscoverOptions,
  type DuplicateGroup,
  type NearDuplicateGroup,
  type ScanReport,
  type ShadowedSkill,
  type SkippedFile,
} from './discover.js';
