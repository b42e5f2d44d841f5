import { describe, expect, it } from 'vitest';
import { supportsReusePort } from '../../../../src-main/dns/server/runtime-support.js';

describe('supportsReusePort', () => {
  it('is true from Node 22.12 and 23.1 on Linux and FreeBSD only', () => {
    expect(supportsReusePort('20.20.2', 'linux')).toBe(false);
    expect(supportsReusePort('22.11.0', 'linux')).toBe(false);
    expect(supportsReusePort('22.12.0', 'linux')).toBe(true);
    expect(supportsReusePort('23.0.0', 'linux')).toBe(false);
    expect(supportsReusePort('23.1.0', 'freebsd')).toBe(true);
    expect(supportsReusePort('24.11.1', 'linux')).toBe(true);
    expect(supportsReusePort('24.11.1', 'win32')).toBe(false);
    expect(supportsReusePort('24.11.1', 'darwin')).toBe(false);
  });
});
