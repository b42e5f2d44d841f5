import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../../src-main/core/secret-box.js';
import { TOKEN_PATTERN, newTaskToken, openToken, sealToken, tokensEqual } from '../../../../src-main/netboot/tasks/task-token.js';
import { tempDir } from '../../../helpers/test-core.js';

let remove: (() => Promise<void>) | null = null;
afterEach(async () => {
  await remove?.();
  remove = null;
});

describe('install task tokens', () => {
  it('are 256 random bits in base64url, different every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newTaskToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(TOKEN_PATTERN.test(token)).toBe(true);
    }
  });

  it('compare equal only when identical, whatever the lengths', () => {
    const token = newTaskToken();
    expect(tokensEqual(token, token)).toBe(true);
    expect(tokensEqual(token, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(tokensEqual(token, token.slice(0, 10))).toBe(false);
    expect(tokensEqual(token, '')).toBe(false);
    expect(tokensEqual(token, `${token}x`)).toBe(false);
  });

  it('are sealed for one task: the sealed form holds no clear text and does not open for another task', async () => {
    const dir = await tempDir();
    remove = dir.remove;
    const box = new SecretBox(dir.dir);
    const token = newTaskToken();
    const sealed = await sealToken(box, 12, token);
    expect(sealed).not.toContain(token);
    expect(await openToken(box, 12, sealed)).toBe(token);
    await expect(openToken(box, 13, sealed)).rejects.toThrow(/cannot be decrypted/);
  });
});
