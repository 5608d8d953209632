/**
 * The XDG base directories skilldex keeps its files under: the variable's value when it is set and
 * not empty, else its default below the home folder. Callers add `skilldex/...` themselves.
 */
import path from 'node:path';

/** Each base directory variable and its default, relative to the home folder. */
const XDG_DEFAULTS = {
  XDG_CONFIG_HOME: ['.config'],
  XDG_DATA_HOME: ['.local', 'share'],
  XDG_STATE_HOME: ['.local', 'state'],
} as const;

/** The base directory `variable` names in `env`, else its default under `home`. */
export function xdgBaseDir(
  variable: keyof typeof XDG_DEFAULTS,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  return env[variable] || path.join(home, ...XDG_DEFAULTS[variable]);
}
