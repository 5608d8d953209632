/**
 * The byte-preserving edits of `skilldex init` (src/cli/init/json-edit.ts, toml-edit.ts): adding a
 * JSON member or element changes the file by one inserted piece of text, and removing it again
 * gives back the original bytes, whatever the file's layout (property tests over generated
 * documents, indentations and one-line containers); shapes that cannot take the edit are refused;
 * TOML strings with control, bidi and tag characters parse back to themselves; a TOML edit that
 * would change other values (an inline table) is refused.
 */
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  JsonShapeError,
  addMember,
  appendElement,
  parseJsonText,
  removeElement,
  removeMember,
} from '../../src/cli/init/json-edit.js';
import {
  TomlShapeError,
  addTomlEntries,
  removeTomlInsertion,
  tomlString,
} from '../../src/cli/init/toml-edit.js';

// JSON values as a person's config holds them.
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const doc = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== 'mcpServers'),
  value,
  { maxKeys: 4 },
);
// A layout: indentation (none: one line), and whether the file ends with a newline.
const layout = fc.record({
  indent: fc.constantFrom(undefined, 2, 4, '\t'),
  newline: fc.boolean(),
});
const render = (d: unknown, l: { indent: number | string | undefined; newline: boolean }): string =>
  JSON.stringify(d, null, l.indent) + (l.newline ? '\n' : '');

/** True when `after` is `before` with one piece of text inserted at one place. */
function isOneInsertion(before: string, after: string): boolean {
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s])
    s++;
  return p + s === before.length;
}

describe('JSON edits', () => {
  it('add then remove a member gives back the original bytes; the rest of the document is kept', () => {
    fc.assert(
      fc.property(doc, layout, value, fc.boolean(), (d, l, v, nested) => {
        const text = render(nested ? { ...d, mcpServers: { other: 1 } } : d, l);
        const added = addMember(text, ['mcpServers'], 'skilldex', v);
        expect(isOneInsertion(text, added.text)).toBe(true);
        const parsed = parseJsonText(added.text) as Record<string, Record<string, unknown>>;
        expect(parsed['mcpServers']!['skilldex']).toEqual(v);
        const back =
          added.text.slice(0, added.at) + added.text.slice(added.at + added.inserted.length);
        expect(back).toBe(text);
        // Removing by position (as undo does when the text around it changed) parses back equal.
        const removed = removeMember(added.text, ['mcpServers', 'skilldex'])!;
        const expected = JSON.parse(text) as Record<string, unknown>;
        if (!nested) expected['mcpServers'] = {};
        expect(parseJsonText(removed)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('append then remove an array element gives back an equal document', () => {
    fc.assert(
      fc.property(doc, layout, fc.array(value, { maxLength: 3 }), value, (d, l, arr, v) => {
        const text = render({ ...d, hooks: { UserPromptSubmit: arr } }, l);
        const added = appendElement(text, ['hooks', 'UserPromptSubmit'], v);
        expect(isOneInsertion(text, added.text)).toBe(true);
        const parsed = parseJsonText(added.text) as { hooks: { UserPromptSubmit: unknown[] } };
        expect(parsed.hooks.UserPromptSubmit).toEqual([...arr, v]);
        expect(
          added.text.slice(0, added.at) + added.text.slice(added.at + added.inserted.length),
        ).toBe(text);
        // The first equal element goes: the same multiset of elements is left.
        const removed = parseJsonText(
          removeElement(added.text, ['hooks', 'UserPromptSubmit'], v)!,
        ) as { hooks: { UserPromptSubmit: unknown[] } };
        expect(removed.hooks.UserPromptSubmit).toHaveLength(arr.length);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps an array laid out on one line as it is, and indents like the file', () => {
    const text =
      '{\n    "mcpServers": {\n        "other": { "command": "x", "args": ["a", "b"] }\n    }\n}\n';
    const added = addMember(text, ['mcpServers'], 'skilldex', { command: 'n', args: ['m'] });
    expect(added.text).toBe(
      '{\n    "mcpServers": {\n        "other": { "command": "x", "args": ["a", "b"] },\n        "skilldex": {\n            "command": "n",\n            "args": [\n                "m"\n            ]\n        }\n    }\n}\n',
    );
  });

  it('writes CRLF line ends into a CRLF file, never a mix (issue 35)', () => {
    const text = '{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"Stop": []\r\n\t}\r\n}\r\n';
    const hook = { hooks: [{ type: 'command', command: 'a\nb', timeout: 5 }] };
    const lone = (t: string): number => (t.match(/(?<!\r)\n/g) ?? []).length;
    for (const added of [
      appendElement(text, ['hooks', 'UserPromptSubmit'], hook),
      appendElement(text, ['hooks', 'Stop'], hook),
      addMember(text, ['mcpServers'], 'skilldex', { command: 'n' }),
    ]) {
      expect(lone(added.text), added.text).toBe(0);
      expect(added.text.startsWith('{\r\n\t"model": "opus",\r\n')).toBe(true);
    }
    expect(parseJsonText(appendElement(text, ['hooks', 'Stop'], hook).text)).toEqual({
      model: 'opus',
      hooks: { Stop: [hook] },
    });
    // A file with LF line ends keeps LF only.
    expect(appendElement('{\n  "a": 1\n}\n', ['b'], 1).text).not.toContain('\r');
  });

  it('creates the missing objects on the path', () => {
    const added = addMember('{"a": 1}', ['mcpServers'], 'skilldex', { c: 'n' });
    expect(parseJsonText(added.text)).toEqual({ a: 1, mcpServers: { skilldex: { c: 'n' } } });
    const element = appendElement('{}', ['hooks', 'UserPromptSubmit'], { h: 1 });
    expect(parseJsonText(element.text)).toEqual({ hooks: { UserPromptSubmit: [{ h: 1 }] } });
  });

  it('refuses what it cannot merge into: another type on the path, comments, broken JSON, a key already there', () => {
    const reason = (f: () => unknown): string => {
      try {
        f();
      } catch (err) {
        if (err instanceof JsonShapeError) return err.reason;
        throw err;
      }
      return 'none';
    };
    expect(reason(() => addMember('{"mcpServers": "str"}', ['mcpServers'], 'k', 1))).toBe('shape');
    expect(reason(() => addMember('[]', ['mcpServers'], 'k', 1))).toBe('shape');
    expect(reason(() => addMember('{"hooks": {"U": {}}}', ['hooks', 'U'], 'k', 1))).toBe('none');
    expect(reason(() => appendElement('{"hooks": {"U": {}}}', ['hooks', 'U'], 1))).toBe('shape');
    expect(reason(() => addMember('{\n  // mine\n  "a": 1\n}', [], 'k', 1))).toBe('comments');
    expect(reason(() => addMember('{"a": 1,}', [], 'k', 1))).toBe('syntax');
    expect(reason(() => addMember('{"k": 1}', [], 'k', 2))).toBe('shape');
    // A "//" inside a string is not a comment.
    expect(reason(() => addMember('{"url": "http://x"}', [], 'k', 1))).toBe('none');
  });
});

describe('TOML edits', () => {
  it('writes strings with controls, DEL, bidi and tag characters that parse back to themselves', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (s) => {
        // Lone surrogates are not text a path can hold.
        fc.pre(!/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')));
        expect((parseToml(`k = ${tomlString(s)}`) as { k: string }).k).toBe(s);
      }),
      { numRuns: 500 },
    );
    expect(tomlString('/a\u007fb\u202e\u{e0041}')).toBe('"/a\\u007Fb\\u202E\\U000E0041"');
  });

  it('appends a table, inserts under a header or at the top, and removing the insertion gives back the bytes', () => {
    const cases: [string, string[], Record<string, string | string[]>][] = [
      [
        '# mine\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n',
        ['mcp_servers', 'skilldex'],
        { command: 'n', args: ['a'] },
      ],
      ['model = "o4"', ['mcp_servers', 'skilldex'], { command: 'n' }],
      ['# header\n\n[library]\nprefer = []\n', ['library'], { scopes: ['/x'] }],
      ['# header\n[other]\na = 1\n', [], { catalog: '/c' }],
      ['', [], { catalog: '/c' }],
    ];
    for (const [text, table, entries] of cases) {
      const added = addTomlEntries(text, table, entries);
      expect(isOneInsertion(text, added.text), text).toBe(true);
      const keys = Object.keys(entries).map((k) => [...table, k]);
      const created = table.map((_, i) => table.slice(0, i + 1));
      expect(removeTomlInsertion(added.text, added.inserted, keys, created)).toBe(text);
    }
  });

  it('writes CRLF line ends into a CRLF TOML file, never a mix, and removes them again (issue 35)', () => {
    const cases: [string, string[], Record<string, string | string[]>][] = [
      ['# mine\r\nmodel = "o4"\r\n', ['mcp_servers', 'skilldex'], { command: 'n', args: ['a'] }],
      ['# header\r\n\r\n[library]\r\nprefer = []\r\n', ['library'], { scopes: ['/x'] }],
      ['# header\r\n[other]\r\na = 1\r\n', [], { catalog: '/c' }],
    ];
    for (const [text, table, entries] of cases) {
      const added = addTomlEntries(text, table, entries);
      expect(added.inserted, text).toContain('\r\n');
      expect(added.text, text).not.toMatch(/(^|[^\r])\n/);
      const keys = Object.keys(entries).map((k) => [...table, k]);
      const created = table.map((_, i) => table.slice(0, i + 1));
      expect(removeTomlInsertion(added.text, added.inserted, keys, created)).toBe(text);
    }
  });

  it('refuses a table whose parent is written inline, and a value of another type', () => {
    for (const text of ['mcp_servers = { other = { command = "x" } }\n', 'mcp_servers = "str"\n']) {
      expect(() => addTomlEntries(text, ['mcp_servers', 'skilldex'], { command: 'n' })).toThrow(
        TomlShapeError,
      );
    }
    expect(() => addTomlEntries('a = [', [], { b: 'c' })).toThrow(TomlShapeError);
  });

  it('leaves an insertion the user changed around alone', () => {
    const added = addTomlEntries('a = 1\n', ['library'], { scopes: ['/x'] });
    // A key the user added under the inserted table would move to the wrong table: not removed.
    const edited = added.text + 'prefer = ["/y"]\n';
    expect(
      removeTomlInsertion(edited, added.inserted, [['library', 'scopes']], [['library']]),
    ).toBe(undefined);
  });
});
