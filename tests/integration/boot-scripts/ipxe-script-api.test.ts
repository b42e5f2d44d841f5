import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { DEFAULT_ENTRY_TEMPLATE } from '../../../src-main/boot-scripts/entry-script.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
});
afterAll(async () => t.close());

async function call(method: 'GET' | 'PUT', payload?: unknown, role: Role = 'operator') {
  const res = await t.core.http.inject({ method, url: '/api/v1/services/ipxe-script', headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as { data: Record<string, unknown>; error?: string; details?: { field: string; message: string }[] } };
}

async function entryScript(): Promise<string> {
  const found = await t.core.area('boot-files').files.lookup('ipxe/entry.ipxe', { ip: '127.0.0.1', protocol: 'http', query: new URLSearchParams() });
  if (found.kind !== 'virtual') throw new Error('entry script is not served');
  return found.content.toString('utf8');
}

describe('GET/PUT /services/ipxe-script', () => {
  it('shows the built-in default until changed', async () => {
    const res = await call('GET', undefined, 'viewer');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ script: DEFAULT_ENTRY_TEMPLATE, is_default: true, default_script: DEFAULT_ENTRY_TEMPLATE, updated_at: null, updated_by: null });
  });

  it('stores a custom template that the entry script then uses, and resets to the default', async () => {
    const custom = '#!ipxe\r\necho Welcome to {{ server.name }}\r\nchain --autofree {{ server.script_url }}?mac=${mac:uristring}';
    const put = await call('PUT', { script: custom });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ is_default: false, updated_by: 'test-operator' });
    // Stored with Unix line endings and a final newline.
    expect(put.body.data.script).toBe('#!ipxe\necho Welcome to {{ server.name }}\nchain --autofree {{ server.script_url }}?mac=${mac:uristring}\n');
    const served = await entryScript();
    expect(served).toMatch(/^#!ipxe\necho Welcome to bootwright\nchain --autofree http:\/\/127\.0\.0\.1:\d+\/boot\/ipxe\/boot\.ipxe\?mac=\$\{mac:uristring\}\n$/);

    const reset = await call('PUT', { reset: true });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ script: DEFAULT_ENTRY_TEMPLATE, is_default: true, updated_by: 'test-operator' });
    expect(await entryScript()).toContain('chain --autofree ${bw-script}');
  });

  it('refuses a template that does not render or is no iPXE script, keeping the current one', async () => {
    await call('PUT', { script: '#!ipxe\necho kept\n' });
    const broken = await call('PUT', { script: '#!ipxe\necho ok\n{{ server.ip | nope }}\n' });
    expect(broken.status).toBe(400);
    expect(broken.body.details?.[0]).toMatchObject({ field: 'body.script' });
    expect(broken.body.details?.[0]?.message).toMatch(/^line 3: /);
    const shebang = await call('PUT', { script: 'chain http://x/\n' });
    expect(shebang.status).toBe(400);
    expect(shebang.body.error).toContain('#!ipxe');
    const include = await call('PUT', { script: "#!ipxe\n{% render 'x' %}\n" });
    expect(include.status).toBe(400);
    expect((await call('PUT', { script: '#!ipxe\n', reset: true })).status).toBe(400);
    expect((await call('PUT', { reset: false })).status).toBe(400);
    expect((await call('PUT', {})).status).toBe(400);
    expect((await call('GET', undefined, 'viewer')).body.data.script).toBe('#!ipxe\necho kept\n');
    expect(await entryScript()).toBe('#!ipxe\necho kept\n');
  });

  it('lets only operators change it', async () => {
    expect((await call('PUT', { reset: true }, 'viewer')).status).toBe(403);
  });
});
