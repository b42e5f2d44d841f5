import { describe, expect, it } from 'vitest';
import { externalUrlToOpen, isAppUrl } from '../../../src-main/desktop/navigation-policy.js';

describe('isAppUrl', () => {
  it.each([
    ['app://bootwright/', true],
    ['app://bootwright/services/dns?x=1#y', true],
    ['app://bootwright.evil/', false],
    ['app://user@bootwright/', false],
    ['app://other/', false],
    ['https://bootwright/', false],
    ['file:///opt/bootwright/dist/renderer/index.html', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAppUrl(url)).toBe(expected);
  });
});

describe('externalUrlToOpen', () => {
  it.each([
    ['https://example.org/docs', 'https://example.org/docs'],
    ['http://192.0.2.10/', 'http://192.0.2.10/'],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['smb://server/share', null],
    ['app://bootwright/', null],
    ['::not a url', null],
  ])('%s → %s', (url, expected) => {
    expect(externalUrlToOpen(url)).toBe(expected);
  });
});
