import { describe, expect, it } from 'vitest';
import { RenderedAnswers } from '../../../../src-main/netboot/answers/rendered-answers.js';
import type { RenderedAnswer } from '../../../../src-main/netboot/netboot-ports.js';

const answer = (content: string): RenderedAnswer => ({ content, content_type: 'text/plain', template_version: 1 });

describe('RenderedAnswers', () => {
  it('renders once per key: concurrent and later requests share it', async () => {
    const kept = new RenderedAnswers();
    let renders = 0;
    const render = async () => answer(`render ${(renders += 1)}`);
    const [a, b] = await Promise.all([kept.get('k', render), kept.get('k', render)]);
    expect([a.content, b.content, (await kept.get('k', render)).content]).toEqual(['render 1', 'render 1', 'render 1']);
    expect((await kept.get('other', render)).content).toBe('render 2');
  });

  it('forgets everything on clear (a template write) and does not keep a failed render', async () => {
    const kept = new RenderedAnswers();
    await kept.get('k', async () => answer('old'));
    kept.clear();
    expect((await kept.get('k', async () => answer('new'))).content).toBe('new');
    await expect(kept.get('bad', async () => Promise.reject(new Error('template broken')))).rejects.toThrow('template broken');
    expect((await kept.get('bad', async () => answer('fixed'))).content).toBe('fixed');
  });

  it('stays bounded: the oldest answers go first', async () => {
    const kept = new RenderedAnswers();
    for (let index = 0; index < 1100; index += 1) await kept.get(`k${index}`, async () => answer(String(index)));
    expect(kept.size).toBe(1024);
    expect((await kept.get('k0', async () => answer('again'))).content).toBe('again');
  });
});
