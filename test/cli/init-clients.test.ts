/**
 * Where each client loads skills from, keeps its MCP configuration and takes the prompt hook
 * (src/cli/init/clients.ts `clientPaths`): every client's own folder (where init installs the
 * router skill) is the first folder it lists skills from, and the paths are the hosts' documented
 * ones (sources in clients.ts), CODEX_HOME honoured.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientPaths } from '../../src/cli/init/clients.js';

const H = path.join(path.sep, 'home', 'u');
const j = (...p: string[]): string => path.join(H, ...p);

describe('clientPaths', () => {
  it("gives each client's documented folders and files", () => {
    expect(clientPaths('claude-code', H, {})).toEqual({
      skills: j('.claude', 'skills'),
      native: [j('.claude', 'skills'), j('.agents', 'skills')],
      hooks: j('.claude', 'settings.json'),
    });
    expect(clientPaths('cursor', H, {})).toEqual({
      skills: j('.cursor', 'skills'),
      native: [j('.cursor', 'skills'), j('.claude', 'skills'), j('.codex', 'skills')],
      mcp: j('.cursor', 'mcp.json'),
    });
    expect(clientPaths('codex', H, {})).toEqual({
      skills: j('.codex', 'skills'),
      native: [j('.codex', 'skills'), j('.agents', 'skills')],
      mcp: j('.codex', 'config.toml'),
      hooks: j('.codex', 'hooks.json'),
    });
    expect(clientPaths('gemini-cli', H, {})).toEqual({
      skills: j('.gemini', 'skills'),
      native: [j('.gemini', 'skills'), j('.agents', 'skills')],
      mcp: j('.gemini', 'settings.json'),
      hooks: j('.gemini', 'settings.json'),
    });
    expect(clientPaths('vscode', H, {})).toEqual({
      skills: j('.copilot', 'skills'),
      native: [j('.copilot', 'skills'), j('.claude', 'skills'), j('.agents', 'skills')],
      hooks: j('.copilot', 'hooks', 'skilldex.json'),
    });
    expect(clientPaths('generic', H, {})).toEqual({ native: [] });
  });

  it('reads CODEX_HOME for Codex and for the Codex folder Cursor also reads', () => {
    const env = { CODEX_HOME: path.join(path.sep, 'opt', 'cx') };
    expect(clientPaths('codex', H, env).skills).toBe(path.join(env.CODEX_HOME, 'skills'));
    expect(clientPaths('codex', H, env).mcp).toBe(path.join(env.CODEX_HOME, 'config.toml'));
    expect(clientPaths('cursor', H, env).native[2]).toBe(path.join(env.CODEX_HOME, 'skills'));
    // An empty CODEX_HOME is unset.
    expect(clientPaths('codex', H, { CODEX_HOME: '' }).skills).toBe(j('.codex', 'skills'));
  });

  it("lists each client's own folder first among those it reads", () => {
    for (const c of ['claude-code', 'cursor', 'codex', 'gemini-cli', 'vscode'] as const) {
      const p = clientPaths(c, H, {});
      expect(p.native[0], c).toBe(p.skills);
    }
  });
});
