import { describe, expect, it } from 'vitest';
import { missingFileAlerts, MISSING_FILE_REPEATS, serviceAlerts } from '../../../src-main/alerts/core-sources.js';
import { guardAlerts } from '../../../src-main/dhcp/guard-alerts.js';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { bmcAlerts } from '../../../src-main/power/bmc-alerts.js';
import type { ServiceStatus } from '../../../src-main/services/services-contract.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

function service(name: string, fields: Partial<ServiceStatus>): ServiceStatus {
  return { name, description: '', state: 'running', auto_start: true, protected: false, listen: [], started_at: null, uptime_seconds: null, last_error: null, notice: null, ...fields };
}

let nextId = 1;
function tftpFailure(ip: string, file: string, secondsAgo: number, detail: Record<string, unknown> = { error_code: 1, error: 'File not found' }): AppEvent {
  const at = new Date(NOW - secondsAgo * 1000).toISOString();
  return { id: nextId++, created_at: at, updated_at: at, kind: 'tftp.transfer.failed', level: 'warn', message: '', mac: null, host_id: null, ip, detail: { file, ...detail } };
}

describe('service alerts', () => {
  it('a failed service is an error with its last error in full; a running one with a notice a warning; stopped ones nothing', () => {
    const alerts = serviceAlerts([
      service('dns', { state: 'failed', last_error: 'udp 0.0.0.0:53: address in use (EADDRINUSE): another DNS server (systemd-resolved?) holds the port' }),
      service('dhcp', { notice: 'br0: no link (cable unplugged?)' }),
      service('tftp', { state: 'stopped' }),
      service('http', { state: 'failed', last_error: null }),
    ]);
    expect(alerts).toEqual([
      { id: 'service.dns', severity: 'error', source: 'services', title: 'DNS failed', message: 'udp 0.0.0.0:53: address in use (EADDRINUSE): another DNS server (systemd-resolved?) holds the port', since: null, link: '/services/dns' },
      { id: 'service.dhcp.notice', severity: 'warning', source: 'services', title: 'DHCP: br0: no link (cable unplugged?)', message: 'br0: no link (cable unplugged?)', since: null, link: '/services/dhcp' },
      expect.objectContaining({ id: 'service.http', link: '/services', message: expect.stringContaining('without saying why') }),
    ]);
  });
});

describe('clients stuck on a missing TFTP file', () => {
  it(`alerts after ${MISSING_FILE_REPEATS} requests for the same missing file within the window, one alert per client`, () => {
    const events = [
      tftpFailure('10.0.0.5', 'boot/vmlinuz', 500),
      tftpFailure('10.0.0.5', 'boot/vmlinuz', 300),
      tftpFailure('10.0.0.5', 'boot/vmlinuz', 100),
      tftpFailure('10.0.0.6', 'boot/vmlinuz', 100),
      tftpFailure('10.0.0.6', 'boot/vmlinuz', 90),
    ];
    const alerts = missingFileAlerts(events, NOW);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: 'tftp.missing.10.0.0.5', severity: 'warning', source: 'tftp', since: events[0]!.created_at });
    expect(alerts[0]!.message).toContain('boot/vmlinuz');
  });

  it('ignores old requests, other failures, and the files boot loaders probe for and do without', () => {
    const events = [
      ...[1300, 1200, 1100].map((ago) => tftpFailure('10.0.0.7', 'old/kernel', ago)),
      ...[30, 20, 10].map((ago) => tftpFailure('10.0.0.8', 'big.iso', ago, { error: 'timed out after 5 retransmits' })),
      ...[30, 20, 10].flatMap((ago) => ['grub/x86_64-efi/command.lst', 'grub/x86_64-efi/grub.cfg', 'revocations_sbat.efi', 'shim_certificate_0.efi', 'pxelinux.cfg/01-52-54-00-00-00-01'].map((file) => tftpFailure('10.0.0.9', file, ago))),
    ];
    expect(missingFileAlerts(events, NOW)).toEqual([]);
  });
});

describe('DHCP guard alerts', () => {
  const foreign = { server_id: '192.168.88.1', source_ip: '192.168.88.1', mac: null, offered_ip: '192.168.88.120', subnet_mask: '255.255.255.0', router: '192.168.88.1', lease_seconds: 3600 };
  it('a blocked interface is an error with the guard\'s advice; a sighting elsewhere a warning', () => {
    const alerts = guardAlerts({
      interfaces: [
        { interface: 'eth0', state: 'blocked', probed_at: '2026-11-24T11:00:00.000Z', foreign: [foreign], message: 'switch eth0 to proxy mode' },
        { interface: 'eth1', state: 'clear', probed_at: null, foreign: [], message: '' },
      ],
      sightings: [
        { interface: 'eth0', server_id: '192.168.88.1', how: 'probe', client_mac: null, server: foreign, first_seen: '2026-11-24T11:00:00.000Z', last_seen: '2026-11-24T11:30:00.000Z', count: 3 },
        { interface: 'eth1', server_id: '10.1.0.254', how: 'client_request', client_mac: '52:54:00:00:00:01', server: null, first_seen: '2026-11-24T11:10:00.000Z', last_seen: '2026-11-24T11:10:00.000Z', count: 1 },
      ],
    });
    expect(alerts.map((alert) => [alert.id, alert.severity])).toEqual([
      ['dhcp.foreign.eth0', 'error'],
      ['dhcp.sighting.10.1.0.254', 'warning'],
    ]);
    expect(alerts[0]!.message).toBe('192.168.88.1: switch eth0 to proxy mode');
  });
});

describe('BMC alerts', () => {
  it('one per BMC whose last conversation failed, naming it', () => {
    expect(
      bmcAlerts([
        { id: 4, name: 'rack-a-01', address: '10.9.9.9', port: 623, last_error: 'BMC unreachable: no route', last_checked_at: '2026-11-24T11:00:00.000Z' },
        { id: 5, name: 'ok', address: '10.9.9.10', port: 623, last_error: null, last_checked_at: null },
      ]),
    ).toEqual([{ id: 'bmc.4', severity: 'warning', source: 'power', title: 'BMC "rack-a-01" (10.9.9.9) does not answer as it should', message: 'BMC unreachable: no route', since: '2026-11-24T11:00:00.000Z', link: '/bmc' }]);
  });
});
