import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { xdgBaseDir } from '../../src/fsx/index.js';
import { listingStateDir } from '../../src/hosts/listing-controls.js';

describe('xdgBaseDir', () => {
  it('uses the variable when it is set and not empty', () => {
    expect(xdgBaseDir('XDG_STATE_HOME', { XDG_STATE_HOME: '/s' }, '/home/u')).toBe('/s');
    expect(xdgBaseDir('XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '/c' }, '/home/u')).toBe('/c');
  });

  it('falls back to the default under home when the variable is unset or empty', () => {
    expect(xdgBaseDir('XDG_DATA_HOME', {}, '/home/u')).toBe(
      path.join('/home/u', '.local', 'share'),
    );
    expect(xdgBaseDir('XDG_DATA_HOME', { XDG_DATA_HOME: '' }, '/home/u')).toBe(
      path.join('/home/u', '.local', 'share'),
    );
    expect(xdgBaseDir('XDG_STATE_HOME', { XDG_STATE_HOME: '' }, '/home/u')).toBe(
      path.join('/home/u', '.local', 'state'),
    );
    expect(xdgBaseDir('XDG_CONFIG_HOME', {}, '/home/u')).toBe(path.join('/home/u', '.config'));
  });

  it('is the rule the listing state folder follows (an empty XDG_DATA_HOME counts as unset)', () => {
    expect(listingStateDir('/home/u', { XDG_DATA_HOME: '' })).toBe(
      path.join('/home/u', '.local', 'share', 'skilldex', 'listing'),
    );
    expect(listingStateDir('/home/u', { XDG_DATA_HOME: '/d' })).toBe(
      path.join('/d', 'skilldex', 'listing'),
    );
  });
});
