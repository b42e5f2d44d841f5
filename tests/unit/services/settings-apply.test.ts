import { describe, expect, it } from 'vitest';
import type { ServiceState, ServiceStatus } from '../../../src-main/services/service-manager.js';
import { applyServiceSettings, type ServiceControl, type ServiceSettingsChange } from '../../../src-main/services/settings-apply.js';

/** A service manager stand-in with one service: records the calls the policy makes. */
function fakeServices(state: ServiceState, autoStart: boolean) {
  const calls: string[] = [];
  const current = { state, autoStart };
  const status = (): ServiceStatus => ({
    name: 'svc',
    description: 'test service',
    state: current.state,
    auto_start: current.autoStart,
    protected: false,
    listen: [],
    started_at: null,
    uptime_seconds: null,
    last_error: null,
    notice: null,
  });
  const services: ServiceControl = {
    get: () => status(),
    autoStart: () => current.autoStart,
    setAutoStart: async (_name, value) => {
      calls.push(`auto-start ${String(value)}`);
      current.autoStart = value;
      return status();
    },
    start: async () => {
      calls.push('start');
      current.state = 'running';
      return status();
    },
    stop: async () => {
      calls.push('stop');
      current.state = 'stopped';
      return status();
    },
    reload: async () => {
      calls.push('reload');
      return status();
    },
  };
  return { services, calls, current };
}

async function apply(state: ServiceState, autoStart: boolean, change: Omit<ServiceSettingsChange, 'services' | 'name'>) {
  const fake = fakeServices(state, autoStart);
  await applyServiceSettings({ services: fake.services, name: 'svc', ...change });
  return fake;
}

describe('applyServiceSettings', () => {
  describe('enabled sent', () => {
    it('false turns auto-start off and stops the service, changed or not', async () => {
      expect((await apply('running', true, { enabled: false, changed: true })).calls).toEqual(['auto-start false', 'stop']);
      expect((await apply('running', true, { enabled: false, changed: false })).calls).toEqual(['auto-start false', 'stop']);
    });

    it('false with auto-start already off still stops a manually started service', async () => {
      expect((await apply('running', false, { enabled: false, changed: false })).calls).toEqual(['stop']);
    });

    it('true after a manual stop starts the service and turns auto-start on', async () => {
      expect((await apply('stopped', false, { enabled: true, changed: false })).calls).toEqual(['auto-start true', 'start']);
    });

    it('true with auto-start already on starts a stopped or failed service', async () => {
      expect((await apply('stopped', true, { enabled: true, changed: false })).calls).toEqual(['start']);
      expect((await apply('failed', true, { enabled: true, changed: false })).calls).toEqual(['start']);
    });

    it('true on a running service restarts it only when the settings changed', async () => {
      expect((await apply('running', true, { enabled: true, changed: false })).calls).toEqual([]);
      expect((await apply('running', true, { enabled: true, changed: true })).calls).toEqual(['reload']);
      expect((await apply('running', false, { enabled: true, changed: true })).calls).toEqual(['auto-start true', 'reload']);
    });
  });

  describe('enabled not sent', () => {
    it('a change reloads (the manager restarts a running or failed service, leaves a stopped one)', async () => {
      for (const state of ['running', 'failed', 'stopped'] as const) {
        expect((await apply(state, true, { changed: true })).calls).toEqual(['reload']);
      }
    });

    it('no change does nothing, and auto-start is never touched', async () => {
      for (const state of ['running', 'failed', 'stopped'] as const) {
        expect((await apply(state, false, { changed: false })).calls).toEqual([]);
      }
    });
  });

  describe('settings that decide whether there is anything to serve', () => {
    it('nothing left to serve stops a running or failed service and leaves auto-start alone', async () => {
      expect((await apply('running', true, { changed: true, runnable: { before: true, now: false } })).calls).toEqual(['stop']);
      expect((await apply('failed', true, { changed: true, runnable: { before: true, now: false } })).calls).toEqual(['stop']);
      expect((await apply('stopped', true, { changed: true, runnable: { before: true, now: false } })).calls).toEqual([]);
    });

    it('becoming runnable starts a stopped service whose auto-start is on', async () => {
      expect((await apply('stopped', true, { changed: true, runnable: { before: false, now: true } })).calls).toEqual(['start']);
    });

    it('becoming runnable leaves a service stopped whose auto-start is off', async () => {
      expect((await apply('stopped', false, { changed: true, runnable: { before: false, now: true } })).calls).toEqual(['reload']);
    });

    it('staying runnable reloads on a change, like any service', async () => {
      expect((await apply('running', true, { changed: true, runnable: { before: true, now: true } })).calls).toEqual(['reload']);
      expect((await apply('stopped', true, { changed: true, runnable: { before: true, now: true } })).calls).toEqual(['reload']);
    });

    it('enabled sent wins over runnable', async () => {
      expect((await apply('stopped', false, { enabled: true, changed: true, runnable: { before: false, now: true } })).calls).toEqual(['auto-start true', 'start']);
    });
  });
});
