import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

// The templates area owns the renderer of user templates (src-main/templates/index.ts).
describe('templates area wiring', () => {
  let t: TestCore;
  beforeEach(async () => {
    t = await createTestCore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('renders user templates in its worker', async () => {
    await expect(t.core.area('templates').render('#!ipxe\necho {{ server.name }}\n', { server: { name: 'bootwright' } })).resolves.toBe('#!ipxe\necho bootwright\n');
  });

  it('closes the template renderer when the core stops', async () => {
    const templates = t.core.area('templates');
    await t.close();
    await expect(templates.render('#!ipxe\n', {})).rejects.toThrow(/stopped/);
  });
});
