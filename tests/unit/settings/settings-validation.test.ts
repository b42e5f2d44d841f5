import { describe, expect, it } from 'vitest';
import { settingsDefaults } from '../../../src-main/settings/settings-contract.js';
import { checkGeneral, checkInterfaces, checkNetboot } from '../../../src-main/settings/settings-validation.js';

const defaults = settingsDefaults({ logLevel: 'info' });
const field = (path: string) => `body.${path}`;

describe('checkGeneral', () => {
  it('accepts the defaults', () => {
    expect(checkGeneral(defaults.general, field)).toEqual({ value: defaults.general, errors: [] });
  });

  it('requires the server name to be one DNS label', () => {
    for (const bad of ['-pxe', 'pxe-', 'pxe.lab', 'pxe server', 'pxé']) {
      expect(checkGeneral({ ...defaults.general, server_name: bad }, field).errors.map((e) => e.field)).toEqual(['body.server_name']);
    }
    expect(checkGeneral({ ...defaults.general, server_name: 'PXE-01' }, field).errors).toEqual([]);
  });

  it('accepts only http(s) feed URLs without credentials', () => {
    const problem = (url: string) => checkGeneral({ ...defaults.general, update_feed_url: url }, field).errors[0]?.message;
    expect(problem('https://updates.example.com/feed.json')).toBeUndefined();
    expect(problem('ftp://updates.example.com/feed.json')).toMatch(/http/);
    expect(problem('updates.example.com/feed.json')).toMatch(/absolute URL/);
    expect(problem('https://user:secret@updates.example.com/feed.json')).toMatch(/user name or password/);
  });

  it('lower-cases allowed hosts, checks names and addresses, and rejects duplicates', () => {
    const ok = checkGeneral({ ...defaults.general, allowed_hosts: ['PXE.Lab.Example', '10.0.0.5', 'FD00::5'] }, field);
    expect(ok.errors).toEqual([]);
    expect(ok.value.allowed_hosts).toEqual(['pxe.lab.example', '10.0.0.5', 'fd00::5']);
    const bad = checkGeneral({ ...defaults.general, allowed_hosts: ['ok.example', 'pxe.lab:8080', '10.0.0.300', 'OK.example'] }, field);
    expect(bad.errors.map((e) => e.field)).toEqual(['body.allowed_hosts.1', 'body.allowed_hosts.2', 'body.allowed_hosts.3']);
  });
});

describe('checkInterfaces', () => {
  it('normalises valid overrides', () => {
    const result = checkInterfaces({ served: ['eth0'], server_addresses: [{ subnet: 'FD00:10::/64', address: 'FD00:10:0::2' }] }, field);
    expect(result.errors).toEqual([]);
    expect(result.value.server_addresses).toEqual([{ subnet: 'fd00:10::/64', address: 'fd00:10::2' }]);
  });

  it('names the entry and field of a bad subnet or address', () => {
    const result = checkInterfaces(
      {
        served: 'auto',
        server_addresses: [
          { subnet: '192.168.10.0/24', address: '192.168.11.1' },
          { subnet: '192.168.20.5/24', address: '192.168.20.1' },
          { subnet: '192.168.30.0/24', address: 'fd00::1' },
          { subnet: '192.168.40.0/24', address: 'nope' },
          { subnet: '192.168.10.0/24', address: '192.168.10.3' },
          { subnet: '192.168.50.0/24', address: '192.168.50.255' },
        ],
      },
      field,
    );
    expect(result.errors).toEqual([
      { field: 'body.server_addresses.0.address', message: '192.168.11.1 is not a host address inside 192.168.10.0/24' },
      { field: 'body.server_addresses.1.subnet', message: '"192.168.20.5/24" has host bits set; the subnet is 192.168.20.0/24' },
      { field: 'body.server_addresses.2.address', message: 'fd00::1 is not a host address inside 192.168.30.0/24' },
      { field: 'body.server_addresses.3.address', message: '"nope" is not an IPv4 or IPv6 address' },
      { field: 'body.server_addresses.4.subnet', message: '192.168.10.0/24 already has an override (entry 0)' },
      { field: 'body.server_addresses.5.address', message: '192.168.50.255 is not a host address inside 192.168.50.0/24' },
    ]);
  });

  it('rejects interface names with control characters or slashes', () => {
    expect(checkInterfaces({ served: ['eth0', 'a/b', 'x\ny'], server_addresses: [] }, field).errors.map((e) => e.field)).toEqual([
      'body.served.1',
      'body.served.2',
    ]);
  });
});

describe('checkNetboot', () => {
  it('requires a profile id when the default action is profile', () => {
    expect(checkNetboot({ ...defaults.netboot, default_action: 'profile' }, field).errors).toEqual([
      { field: 'body.default_profile_id', message: 'is required when default_action is "profile"' },
    ]);
    expect(checkNetboot({ ...defaults.netboot, default_action: 'profile', default_profile_id: 3 }, field).errors).toEqual([]);
  });
});
