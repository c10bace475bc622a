import { describe, expect, it } from 'vitest';
import { safeNext } from '../../web/features/auth/auth-api.ts';

describe('safeNext: only a same-origin path, read as a browser reads it', () => {
  it.each([
    ['a plain admin path', '/admin/scenes', '/admin/scenes'],
    ['query and hash kept', '/app?x=1#top', '/app?x=1#top'],
    ['nothing given', null, '/admin'],
    ['empty', '', '/admin'],
    ['an absolute URL', 'https://evil.example/', '/admin'],
    ['protocol-relative', '//evil.example', '/admin'],
    ['backslash trick', '/\\evil.example', '/admin'],
    ['tab between the slashes', '/\t/evil.example', '/admin'],
    ['newline between the slashes', '/\n/evil.example', '/admin'],
    ['carriage return and backslash', '/\r\\evil.example', '/admin'],
    ['javascript URL', 'javascript:alert(1)', '/admin'],
    ['leading space', ' /admin', '/admin'],
    ['a dot path staying on the site', '/admin/../app', '/app'],
  ])('%s', (_rule, input, expected) => {
    expect(safeNext(input)).toBe(expected);
  });
});
