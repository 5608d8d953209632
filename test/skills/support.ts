/**
 * Shared inputs for the skills tests: hostile frontmatter texts and a tiny SKILL.md writer.
 */

/** The classic "billion laughs": nine levels of nine aliases, 9^9 strings once expanded. */
export const ALIAS_BOMB = [
  'name: laughs',
  'description: boom',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'
    .split('')
    .map((c, i) => `${c}: &${c} [${Array<string>(9).fill(`*${'abcdefghi'[i]!}`).join(',')}]`),
].join('\n');

/** A SKILL.md with the given raw frontmatter lines and a short body. */
export function skillText(frontmatter: string, body = '# Skill\n\nBody.\n'): string {
  return `---\n${frontmatter.endsWith('\n') ? frontmatter : frontmatter + '\n'}---\n\n${body}`;
}

/** A SKILL.md with a name and a description (JSON-quoted) and a short body. */
export function skill(name: string, description = `Does ${name} things.`, extra = ''): string {
  return skillText(`name: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}`);
}
