import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { bootOutcome, splitBoots, stepEventsByMac, stepSummary } from '../../../src-main/hosts/boot-timeline.js';

const MAC = '52:54:00:12:34:56';
const OTHER = '52:54:00:aa:bb:cc';
const T0 = Date.parse('2026-01-01T10:00:00.000Z');

let nextId = 1;
function event(seconds: number, kind: string, fields: Partial<Omit<AppEvent, 'id' | 'kind' | 'created_at' | 'updated_at'>> = {}): AppEvent {
  const at = new Date(T0 + seconds * 1000).toISOString();
  return { id: nextId++, kind, level: 'info', message: kind, mac: null, ip: null, host_id: null, detail: null, ...fields, created_at: at, updated_at: at };
}

/** A PXE boot: DHCP, the iPXE binary over TFTP, iPXE's own DHCP, the boot script, kernel and initrd over HTTP. */
function pxeBoot(start: number, mac = MAC, ip = '10.0.0.50'): AppEvent[] {
  return [
    event(start, 'dhcp.discover', { mac, detail: { arch_name: 'x86-64 UEFI', ipxe: false, mode: 'server' } }),
    event(start + 1, 'dhcp.offer', { mac, ip }),
    event(start + 2, 'dhcp.request', { mac, ip }),
    event(start + 2, 'dhcp.ack', { mac, ip }),
    event(start + 3, 'tftp.transfer.completed', { ip, detail: { file: 'ipxe.efi', bytes: 1_048_576, duration_ms: 120 } }),
    event(start + 5, 'dhcp.discover', { mac, detail: { arch_name: 'x86-64 UEFI', ipxe: true } }),
    event(start + 6, 'dhcp.ack', { mac, ip }),
    event(start + 7, 'boot.script_served', { mac, ip, detail: { action: 'boot', profile: 'debian', reason: 'host profile' } }),
    event(start + 9, 'http.transfer.completed', { ip, detail: { file: 'debian/linux', bytes: 8_000_000, duration_ms: 400 } }),
  ];
}

const at = (seconds: number) => new Date(T0 + seconds * 1000);

describe('stepEventsByMac', () => {
  it("gives TFTP and HTTP transfers (IP only) to the MAC last seen with that IP, and leaves other events out", () => {
    const events = [
      ...pxeBoot(0),
      event(10, 'settings.changed'),
      event(11, 'tftp.transfer.completed', { ip: '10.0.0.99', detail: { file: 'x', bytes: 1, duration_ms: 1 } }),
      ...pxeBoot(20, OTHER, '10.0.0.50'),
    ];
    const byMac = stepEventsByMac(events);
    expect(byMac.get(MAC)?.map((e) => e.kind)).toEqual(pxeBoot(0).map((e) => e.kind));
    // The address went to another machine: its transfers are that machine's.
    expect(byMac.get(OTHER)?.filter((e) => e.kind === 'http.transfer.completed')).toHaveLength(1);
    expect([...byMac.keys()].sort()).toEqual([MAC, OTHER]);
  });

  it('keeps only the wanted MACs', () => {
    const byMac = stepEventsByMac([...pxeBoot(0), ...pxeBoot(30, OTHER, '10.0.0.51')], (mac) => mac === OTHER);
    expect([...byMac.keys()]).toEqual([OTHER]);
  });
});

describe('splitBoots', () => {
  it('starts a boot at a DISCOVER after five minutes of silence, not before', () => {
    const events = [...pxeBoot(0), ...pxeBoot(200), ...pxeBoot(209 + 300)];
    const boots = splitBoots(events, { now: at(10_000) });
    // 200 s after the first boot's last step is not silence enough: one boot; 300 s is.
    expect(boots.map((boot) => boot.steps.length)).toEqual([18, 9]);
    expect(boots[0]?.started_at).toBe(at(0).toISOString());
    expect(boots[1]?.started_at).toBe(at(509).toISOString());
    expect(boots[0]?.last_at).toBe(at(209).toISOString());
  });

  it('keeps install steps after silence in the boot under way and leaves lease renewals after silence out', () => {
    const events = [
      ...pxeBoot(0),
      event(9 + 1200, 'netboot.callback', { mac: MAC, detail: { state: 'installing', message: 'packages' } }),
      event(9 + 1200 + 43_200, 'dhcp.request', { mac: MAC, ip: '10.0.0.50' }),
      event(9 + 1200 + 43_200, 'dhcp.ack', { mac: MAC, ip: '10.0.0.50' }),
    ];
    const boots = splitBoots(events, { now: at(100_000) });
    expect(boots).toHaveLength(1);
    expect(boots[0]?.steps.at(-1)?.kind).toBe('netboot.callback');
    expect(boots[0]?.outcome).toBe('installing');
  });

  it('shows sizes, durations and the boot decision in the steps, with the IP in the detail', () => {
    const [boot] = splitBoots(pxeBoot(0), { now: at(10_000) });
    const summaries = boot?.steps.map((step) => step.summary) ?? [];
    expect(summaries[0]).toBe('DHCP DISCOVER (x86-64 UEFI)');
    expect(summaries[4]).toBe('TFTP ipxe.efi: 1.0 MiB in 120 ms');
    expect(summaries[5]).toBe('DHCP DISCOVER (x86-64 UEFI, iPXE)');
    expect(summaries[7]).toBe('Boot script served: boot debian (host profile)');
    expect(boot?.steps[4]?.detail).toMatchObject({ file: 'ipxe.efi', ip: '10.0.0.50' });
  });

  it('names a GRUB configuration as such', () => {
    const served = pxeBoot(0).find((event) => event.kind === 'boot.script_served')!;
    expect(stepSummary({ ...served, detail: { ...served.detail, loader: 'grub' } })).toMatch(/^GRUB configuration served: boot debian/);
  });
});

describe('bootOutcome', () => {
  const outcome = (events: AppEvent[], recent = false) => bootOutcome(events, recent);

  it('is in progress while steps keep coming, then booted once the machine got its script, else unknown', () => {
    expect(outcome(pxeBoot(0), true)).toBe('in_progress');
    expect(outcome(pxeBoot(0))).toBe('booted');
    expect(outcome(pxeBoot(0).slice(0, 5))).toBe('unknown');
  });

  it('is failed when a transfer failed and nothing was fetched after it', () => {
    const failed = event(4, 'tftp.transfer.failed', { ip: '10.0.0.50', level: 'warn' });
    expect(outcome([...pxeBoot(0).slice(0, 4), failed], true)).toBe('failed');
    // PXE firmware aborts the first transfer once it knows the size, then fetches the file: not a failure.
    expect(outcome([...pxeBoot(0).slice(0, 4), failed, ...pxeBoot(0).slice(4)])).toBe('booted');
  });

  it('follows the install: answer fetched, then done or failed', () => {
    const answer = event(20, 'netboot.answer_fetched', { mac: MAC, detail: { file: 'preseed.cfg' } });
    expect(outcome([...pxeBoot(0), answer])).toBe('installing');
    expect(outcome([...pxeBoot(0), answer, event(900, 'netboot.task.state', { mac: MAC, detail: { from: 'installing', to: 'done' } })])).toBe('booted');
    expect(outcome([...pxeBoot(0), answer, event(900, 'netboot.callback', { mac: MAC, level: 'warn', detail: { state: 'failed' } })])).toBe('failed');
    expect(outcome([...pxeBoot(0), event(900, 'baseline.run.finished', { mac: MAC, detail: { status: 'failed' } })])).toBe('failed');
  });

  it('is failed for a denied machine and a boot script that failed to render', () => {
    expect(outcome([event(0, 'dhcp.denied', { mac: MAC, level: 'warn' })], true)).toBe('failed');
    expect(outcome([...pxeBoot(0).slice(0, 7), event(8, 'boot.script_failed', { mac: MAC, level: 'error' })])).toBe('failed');
  });
});

describe('stepSummary', () => {
  it("falls back to the event's message", () => {
    expect(stepSummary(event(0, 'host.discovered', { mac: MAC, message: 'discovered 52:54:00:12:34:56' }))).toBe('discovered 52:54:00:12:34:56');
  });
});
