import { describe, expect, it } from 'vitest';
import type { LocalBoot, LocalBootFinding, LocalBootSource, ResolvedEntry } from '../../../../src-main/netboot/netboot-ports.js';
import { debianMirror, imageAwareFiles, imageUrls, localMirrorUrl, LocalBootSources, plannedFiles, substituteImageUrls } from '../../../../src-main/netboot/tasks/task-boot-plan.js';
import { fakeCatalog } from '../../../helpers/netboot-fakes.js';

/* The task's boot plan: a local image's boot when a source has one, else the entry's own files, with the reason a linked image was skipped. */

const BOOT_URL = 'http://10.0.0.1:8080/boot';

function rockyBoot(patch: Partial<LocalBoot> = {}): LocalBoot {
  return {
    image: { id: 3, name: 'Rocky 9.4', slug: 'rocky-9.4' },
    files: [
      { role: 'kernel', name: 'vmlinuz', served_path: 'iso/rocky-9.4/images/pxeboot/vmlinuz' },
      { role: 'initrd', name: 'initrd.img', served_path: 'iso/rocky-9.4/images/pxeboot/initrd.img' },
    ],
    cmdline: 'inst.repo={{ image_url }} ip=dhcp quiet',
    repo_path: 'iso/rocky-9.4/',
    debian_mirror: false,
    network: '',
    ...patch,
  };
}

class Source implements LocalBootSource {
  readonly asked: { mount: boolean }[] = [];
  constructor(public answer: LocalBootFinding | Error) {}
  async find(_query: unknown, options: { mount: boolean }): Promise<LocalBootFinding> {
    this.asked.push(options);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

function resolved(): ResolvedEntry {
  return fakeCatalog().resolve('debian', '12', 'x86_64');
}

describe('LocalBootSources.plan', () => {
  it('takes the image\'s boot and says where the files come from', async () => {
    const sources = new LocalBootSources();
    const source = new Source({ boot: rockyBoot(), skipped: null });
    sources.add(source);
    const plan = await sources.plan(resolved(), { mount: true });
    expect(plan.local?.image.id).toBe(3);
    expect(plan.source).toEqual({ kind: 'image', image_id: 3, image_name: 'Rocky 9.4', message: 'kernel and initrd from OS image 3 (Rocky 9.4) at /boot/iso/rocky-9.4/; packages from the image', network: '', fallback: null });
    expect(source.asked).toEqual([{ mount: true }]);
    expect(plannedFiles(resolved(), plan).map((file) => file.served_path)).toEqual(['iso/rocky-9.4/images/pxeboot/vmlinuz', 'iso/rocky-9.4/images/pxeboot/initrd.img']);
  });

  it('without an image: the entry\'s files; a skipped image or a failing source is the fallback reason, never a failed boot', async () => {
    const sources = new LocalBootSources();
    expect((await sources.plan(resolved(), { mount: false })).source).toMatchObject({ kind: 'catalog', fallback: null });
    const skipped = new Source({ boot: null, skipped: 'OS image 4 (old) is error' });
    sources.add(skipped);
    sources.add(new Source(new Error('store closed')));
    const plan = await sources.plan(resolved(), { mount: false });
    expect(plan.local).toBeNull();
    expect(plan.source.fallback).toBe('OS image 4 (old) is error; the OS image could not be used: store closed: using the download cache and the mirror instead');
    expect(plannedFiles(resolved(), plan)).toEqual(resolved().files);
  });

  it('remembers the image an entry booted from, so its disappearance is a fallback with a reason', async () => {
    const sources = new LocalBootSources();
    const source = new Source({ boot: rockyBoot(), skipped: null });
    sources.add(source);
    await sources.plan(resolved(), { mount: true });
    source.answer = { boot: null, skipped: null };
    const plan = await sources.plan(resolved(), { mount: true });
    expect(plan.source.kind).toBe('catalog');
    expect(plan.source.fallback).toMatch(/^OS image 3 \(Rocky 9\.4\), which debian\/12\/x86_64 booted from before, is no longer there/);
  });
});

describe('the image\'s URLs in the command line and the answer', () => {
  it('fills {{ image_url }} and {{ iso_url }} plainly (the ISO\'s text is not rendered as a template)', () => {
    const urls = imageUrls(rockyBoot(), BOOT_URL);
    expect(urls).toEqual({ image_url: 'http://10.0.0.1:8080/boot/iso/rocky-9.4/', iso_url: 'http://10.0.0.1:8080/boot/iso/rocky-9.4.iso' });
    expect(substituteImageUrls('inst.repo={{image_url}} x={{ iso_url }} {% raw %}', urls)).toBe('inst.repo=http://10.0.0.1:8080/boot/iso/rocky-9.4/ x=http://10.0.0.1:8080/boot/iso/rocky-9.4.iso {% raw %}');
  });

  it('names the image\'s repository as the answer\'s mirror; Debian gets mirror arguments and preset variables', () => {
    expect(localMirrorUrl(rockyBoot(), BOOT_URL)).toBe('http://10.0.0.1:8080/boot/iso/rocky-9.4/');
    expect(localMirrorUrl(rockyBoot({ repo_path: null }), BOOT_URL)).toBeNull();
    const debian = rockyBoot({ image: { id: 5, name: 'Debian 12.5 DVD', slug: 'debian-12.5' }, files: null, cmdline: null, repo_path: null, debian_mirror: true });
    expect(localMirrorUrl(debian, BOOT_URL)).toBe('http://10.0.0.1:8080/boot/iso/debian-12.5/');
    expect(debianMirror(debian, BOOT_URL)).toEqual({
      args: 'mirror/country=manual mirror/http/hostname=10.0.0.1:8080 mirror/http/directory=/boot/iso/debian-12.5 mirror/http/proxy=',
      variables: { mirror: '10.0.0.1:8080', mirror_directory: '/boot/iso/debian-12.5' },
    });
    expect(debianMirror(rockyBoot(), BOOT_URL)).toBeNull();
  });
});

describe('imageAwareFiles', () => {
  it('asks nothing of the download cache for an entry an image boots, and everything otherwise', async () => {
    const asked: string[] = [];
    const files = { problem: async () => (asked.push('problem'), 'not cached'), prefetch: async () => void asked.push('prefetch') };
    const sources = new LocalBootSources();
    const source = new Source({ boot: rockyBoot(), skipped: null });
    sources.add(source);
    const aware = imageAwareFiles(files, sources);
    expect(await aware.problem(resolved())).toBeNull();
    await aware.prefetch(resolved());
    expect(asked).toEqual([]);
    expect(source.asked.every((options) => !options.mount)).toBe(true);
    // Debian from an image still boots the catalog's netboot files: those are checked and prefetched.
    source.answer = { boot: rockyBoot({ files: null, cmdline: null, repo_path: null, debian_mirror: true }), skipped: null };
    expect(await aware.problem(resolved())).toBe('not cached');
    await aware.prefetch(resolved());
    expect(asked).toEqual(['problem', 'prefetch']);
  });
});
