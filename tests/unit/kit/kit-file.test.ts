import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { exportKey, readKit, writeKit, type KitDocument } from '../../../src-main/kit/kit-file.js';
import { fieldChanges } from '../../../src-main/kit/kit-diff.js';

/** The kit file's own rules (docs/kit.md, "The file", "Encryption"): no core needed. */

const PASS = 'a long enough passphrase';

function documentWith(sections: Record<string, unknown>, secrets: KitDocument['secrets'] = null): KitDocument {
  return { format: 'bootwright-kit', version: 1, exported_at: '2026-01-01T00:00:00.000Z', exported_by: 'admin', source: { server_name: 'lab', version: '1.0.0' }, warnings: [], secrets, sections };
}

describe('kit file', () => {
  it('seals secrets and the whole file under the passphrase; a wrong one or a changed byte fails alike', async () => {
    const key = await exportKey(PASS);
    if (!key) throw new Error('no key');
    const sealed = key.codec.seal('Bmc-P4ss', 'bmc_configs.password');
    const whole = writeKit(documentWith({ bmc_configs: [{ name: 'x', password: sealed }] }, key.params), { params: key.params, key: key.key });
    expect(whole).not.toContain('Bmc-P4ss');
    expect(whole).not.toContain('bmc_configs');
    const opened = await readKit(whole, PASS);
    expect(opened.secrets?.open(sealed, 'bmc_configs.password')).toBe('Bmc-P4ss');
    // The purpose is bound: a value moved to another field does not open.
    expect(() => opened.secrets?.open(sealed, 'answer_templates.secrets')).toThrow(/cannot be decrypted/);
    await expect(readKit(whole, 'another passphrase')).rejects.toThrow(/wrong passphrase, or the file was changed/);
    const file = parseYaml(whole) as { payload: string };
    const bytes = Buffer.from(file.payload, 'base64');
    bytes.writeUInt8(bytes.readUInt8(20) ^ 0x40, 20);
    await expect(readKit(stringifyYaml({ ...file, payload: bytes.toString('base64') }), PASS)).rejects.toThrow(/wrong passphrase, or the file was changed/);
  });

  it('refuses other versions, unknown sections and hostile scrypt parameters', async () => {
    await expect(readKit(stringifyYaml({ ...documentWith({}), version: 3 }), undefined)).rejects.toThrow(/version 3 is not supported/);
    await expect(readKit(stringifyYaml(documentWith({ users: [] })), undefined)).rejects.toThrow(/unknown section "users"/);
    const key = await exportKey(PASS);
    if (!key) throw new Error('no key');
    const greedy = stringifyYaml(documentWith({}, { ...key.params, N: 2 ** 24 }));
    await expect(readKit(greedy, PASS)).rejects.toThrow(/out of bounds/);
  });

  it('diffs only the fields the file sets, masking secrets', () => {
    expect(fieldChanges({ name: 'a', linux: { cmdline: 'x', kernel: 'k' }, password: 'new' }, { name: 'a', linux: { cmdline: 'y', kernel: 'k' }, password: 'old', extra: 1 }, ['password'])).toEqual([
      { path: 'linux.cmdline', from: 'y', to: 'x' },
      { path: 'password', from: '(secret)', to: '(secret)' },
    ]);
    expect(fieldChanges({ tags: ['a', 'b'] }, { tags: ['b', 'a'] })).toEqual([{ path: 'tags', from: ['b', 'a'], to: ['a', 'b'] }]);
  });
});
