import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-renderer/src/api/api-error.js';
import { explicitPorts, exportSaveErrors, exportsWith, lanHost, mountCommand, parseSubnets, sourceLabel, subnetProblem, subnetsProblem } from '../../../../src-renderer/src/pages/nfs/nfs-model.js';
import { NFS_SETTINGS } from './nfs-fixtures.js';

describe('nfs-model', () => {
  it('reads subnet lists separated by commas, spaces or lines and checks each entry', () => {
    expect(parseSubnets(' 10.0.0.0/24,fd00::/64\n192.168.1.7  ')).toEqual(['10.0.0.0/24', 'fd00::/64', '192.168.1.7']);
    expect(subnetProblem('10.0.0.0/24')).toBeNull();
    expect(subnetProblem('fd00::/64')).toBeNull();
    expect(subnetProblem('10.0.0.256/24')).toMatch(/no IPv4 or IPv6 subnet/);
    expect(subnetProblem('10.0.0.0/33')).toMatch(/prefix length 0–32/);
    expect(subnetProblem('fd00::/129')).toMatch(/prefix length 0–128/);
    expect(subnetProblem('10.0.0.0/8/8')).toMatch(/no subnet/);
    expect(subnetsProblem('', true)).toMatch(/At least one/);
    expect(subnetsProblem('', false)).toBeNull();
  });

  it('takes the mount host from the first LAN URL, IPv6 in brackets', () => {
    expect(lanHost(['http://192.168.50.1:8080'])).toBe('192.168.50.1');
    expect(lanHost(['not a url', 'http://[fd00::1]:8080/'])).toBe('[fd00::1]');
    expect(lanHost([])).toBeNull();
    expect(mountCommand('[fd00::1]', '/live')).toBe('mount -t nfs -o vers=3,proto=tcp,nolock [fd00::1]:/live /mnt');
    expect(mountCommand(null, '/live')).toBe('mount -t nfs -o vers=3,proto=tcp,nolock <server address>:/live /mnt');
    expect(mountCommand('10.0.0.1', '/live', { nfs: 2049, mount: 20048 })).toBe('mount -t nfs -o vers=3,proto=tcp,nolock,port=2049,mountport=20048 10.0.0.1:/live /mnt');
  });

  it('names the ports only when clients cannot ask a portmapper for them', () => {
    const settings = { portmapper: 'auto' as const, nfs_port: 2049, mount_port: 20048 };
    expect(explicitPorts(settings, 'own')).toBeNull();
    expect(explicitPorts(settings, 'rpcbind')).toBeNull();
    expect(explicitPorts(settings, null)).toBeNull();
    expect(explicitPorts(settings, 'none')).toEqual({ nfs: 2049, mount: 20048 });
    expect(explicitPorts({ ...settings, portmapper: 'off' }, null)).toEqual({ nfs: 2049, mount: 20048 });
  });

  it('rebuilds the exports list with ids kept, one replaced, added or removed', () => {
    const added = exportsWith(NFS_SETTINGS.exports, null, { path: '/new', folder: '/srv/new', image_id: null, clients: ['10.0.0.0/8'] });
    expect(added.map((entry) => [entry.id, entry.path])).toEqual([
      [1, '/live'],
      [2, '/debian'],
      [undefined, '/new'],
    ]);
    expect(added[0]).not.toHaveProperty('problem');
    expect(exportsWith(NFS_SETTINGS.exports, 0, null).map((entry) => entry.id)).toEqual([2]);
    expect(exportsWith(NFS_SETTINGS.exports, 1, { id: 2, path: '/deb', image_id: 1, clients: ['0.0.0.0/0'] }).map((entry) => entry.path)).toEqual(['/live', '/deb']);
  });

  it('tells a 400 for the edited export by field and the rest as a message', () => {
    const error = new ApiError({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'invalid',
      details: [
        { field: 'body.exports[1].clients[0]', message: 'is not a subnet' },
        { field: 'body.exports.1.path', message: 'is taken' },
        { field: 'body.exports[0].folder', message: 'is missing' },
      ],
    });
    expect(exportSaveErrors(error, 1)).toEqual({ fields: { clients: 'is not a subnet', path: 'is taken' }, message: 'body.exports[0].folder: is missing' });
    expect(exportSaveErrors(new Error('offline'), 0)).toEqual({ fields: {}, message: 'offline' });
  });

  it('names images by name, by id while the name is unknown', () => {
    const names = new Map([[1, 'Debian 12']]);
    expect(sourceLabel({ folder: null, image_id: 1 }, names)).toBe('image Debian 12');
    expect(sourceLabel({ folder: null, image_id: 9 }, names)).toBe('image #9');
    expect(sourceLabel({ folder: '/srv/live', image_id: null }, names)).toBe('folder /srv/live');
  });
});
