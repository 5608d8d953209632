/** Public surface of src/skills: SKILL.md parsing, validation, scopes and discovery. */
export { parseFrontmatter, splitFrontmatter, yamlLib } from './frontmatter.js';
export { SPEC_FIELDS } from './validate.js';
export {
  resolvePluginScopes,
  resolveScopes,
  scopeOptionsOf,
  type PluginFilter,
  type Scope,
  type ScopeKind,
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
