import { describe, expect, it } from 'vitest';
import { describeAuditAction } from '../../../src-main/audit/audit-action.js';

/** The collections of a small route table: POST to these creates. */
const COLLECTIONS = new Set(['/hosts', '/dns/records', '/auth/tokens']);
const isCollection = (pattern: string) => COLLECTIONS.has(pattern);

function name(method: string, pattern: string, params: Record<string, unknown> = {}) {
  return describeAuditAction(method, pattern, params, isCollection);
}

describe('audit action names', () => {
  it('substitutes :action and takes the first other param as the resource', () => {
    expect(name('POST', '/services/:name/:action', { name: 'dns', action: 'start' })).toEqual({
      action: 'services.start',
      resource_type: 'services',
      resource_id: 'dns',
    });
    expect(name('POST', '/services/batch/:action', { action: 'stop' })).toEqual({
      action: 'services.batch.stop',
      resource_type: 'services.batch',
      resource_id: null,
    });
  });

  it('adds create/update/delete for collection routes', () => {
    expect(name('POST', '/hosts')).toEqual({ action: 'hosts.create', resource_type: 'hosts', resource_id: null });
    expect(name('POST', '/dns/records')).toEqual({ action: 'dns.records.create', resource_type: 'dns.records', resource_id: null });
    expect(name('PUT', '/dns/records/:id', { id: 4 })).toEqual({ action: 'dns.records.update', resource_type: 'dns.records', resource_id: '4' });
    expect(name('DELETE', '/hosts/:id', { id: '12' })).toEqual({ action: 'hosts.delete', resource_type: 'hosts', resource_id: '12' });
    expect(name('PUT', '/services/:name/auto-start', { name: 'tftp' })).toEqual({
      action: 'services.auto-start.update',
      resource_type: 'services',
      resource_id: 'tftp',
    });
    expect(name('PUT', '/settings/general')).toEqual({ action: 'settings.general.update', resource_type: 'settings.general', resource_id: null });
  });

  it('uses the last word as the verb of other POSTs', () => {
    expect(name('POST', '/auth/login')).toEqual({ action: 'auth.login', resource_type: 'auth', resource_id: null });
    expect(name('POST', '/leases/prune')).toEqual({ action: 'leases.prune', resource_type: 'leases', resource_id: null });
    expect(name('POST', '/hosts/:id/wake', { id: '3' })).toEqual({ action: 'hosts.wake', resource_type: 'hosts', resource_id: '3' });
    expect(name('POST', '/profiles/:profileId/script-rollback/:verId', { profileId: '2', verId: '9' })).toEqual({
      action: 'profiles.script-rollback',
      resource_type: 'profiles',
      resource_id: '2',
    });
  });

  it('keeps client text out of names and bounds ids; MACs are canonical', () => {
    expect(name('POST', '/services/:name/:action', { name: 'x', action: 'Drop Table' }).action).toBe('services.unknown');
    expect(name('DELETE', '/leases/:mac', { mac: '52-54-00-AA-BB-CC' }).resource_id).toBe('52:54:00:aa:bb:cc');
    expect(name('DELETE', '/hosts/:id', { id: 'x'.repeat(500) }).resource_id).toHaveLength(128);
  });
});
