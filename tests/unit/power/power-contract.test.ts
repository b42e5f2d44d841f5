import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import {
  BmcConfigCreateSchema,
  BmcConfigPatchSchema,
  BmcConfigSchema,
  BmcImportResultSchema,
  HOST_POWER_ACTIONS,
  POWER_ACTIONS,
  PowerOutcomeSchema,
} from '../../../src-main/power/power-contract.js';

const SECRET_FIELDS = ['password', 'password_secret'];

// The BMC password is write-only (docs/power.md): fastify serialises every read through these
// schemas, so a field they do not name can never reach a client.
describe('power contract: the BMC password is write-only', () => {
  it('no read shape has a password field, only has_password', () => {
    for (const schema of [BmcConfigSchema, PowerOutcomeSchema.properties.config, BmcImportResultSchema.properties.imported.items]) {
      expect(Object.keys(schema.properties).filter((key) => SECRET_FIELDS.includes(key))).toEqual([]);
      expect(schema.properties).toHaveProperty('has_password');
    }
  });

  it('create and update take the password, and nothing but the known fields', () => {
    expect(BmcConfigCreateSchema.properties).toHaveProperty('password');
    expect(BmcConfigPatchSchema.properties).toHaveProperty('password');
    expect(Value.Check(BmcConfigPatchSchema, { password: 'x', password_secret: 'sealed' })).toBe(false);
    expect(Value.Check(BmcConfigPatchSchema, {})).toBe(false);
    expect(Value.Check(BmcConfigCreateSchema, { name: 'n', address: '10.0.0.5', username: 'admin', cipher_suite: 17 })).toBe(true);
    expect(Value.Check(BmcConfigCreateSchema, { name: 'n', address: '10.0.0.5', username: 'admin', cipher_suite: 1 })).toBe(false);
  });

  it('host power takes every power action and status', () => {
    expect(HOST_POWER_ACTIONS).toEqual([...POWER_ACTIONS, 'status']);
  });
});
