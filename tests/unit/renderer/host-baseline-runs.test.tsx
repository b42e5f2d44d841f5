// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BaselineRun, BaselineTokenCreated } from '@contracts/baselines';
import { API_FIXTURES } from './api-fixtures.js';
import { ok, type Route } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

const RUN: BaselineRun = {
  id: 5,
  host_id: 1,
  task_id: 12,
  baseline_id: 3,
  baseline_name: 'web servers',
  status: 'succeeded',
  started_at: '2024-05-01T10:00:00Z',
  finished_at: '2024-05-01T10:01:00Z',
  results: [
    { position: 1, script_id: 7, name: 'apt upgrade', status: 'failed', exit_code: 100, duration_ms: 4200, output_tail: 'E: Unable to locate package nope\n' },
    { position: 2, script_id: 8, name: 'motd', status: 'ok', exit_code: 0, duration_ms: 12, output_tail: '' },
  ],
};

const routes = (runs: BaselineRun[]): Record<string, Route> => ({ ...API_FIXTURES, 'GET /api/v1/baselines/runs': (_body, query) => okList(query.host_id === '1' ? runs : []) });

describe('the host page\'s Post-install panel', () => {
  it('lists the host\'s baseline runs with each script\'s status, exit code and output tail', async () => {
    const fake = renderApp('/hosts/1', routes([RUN]));
    const table = await screen.findByRole('table', { name: 'Scripts of baseline run 5' });
    const failed = within(table).getByText('apt upgrade').closest('tr');
    expect(failed?.textContent).toContain('failed');
    expect(failed?.textContent).toContain('100');
    expect(screen.getByRole('link', { name: 'task #12' }).getAttribute('href')).toBe('/netboot/tasks/12');
    fireEvent.click(within(table).getByRole('button', { name: /Show the last 33 characters/ }));
    expect(screen.getByLabelText('Output tail of apt upgrade').textContent).toBe('E: Unable to locate package nope\n');
    expect(callsTo(fake.calls, 'GET', '/baselines/runs')[0]?.query).toMatchObject({ host_id: '1' });
  });

  it('says when nothing ran, and gives an operator the runner command once', async () => {
    const created: BaselineTokenCreated = {
      token_info: { id: 1, host_id: 1, task_id: null, created_by: 'admin', created_at: '2024-05-01T00:00:00Z', expires_at: '2024-05-02T00:00:00Z', revoked_at: null, last_used_at: null },
      token: 'bwb_secret',
      runner_url_sh: 'http://10.0.0.1:8080/api/v1/baselines/runtime/bwb_secret/run.sh',
      runner_url_ps1: 'http://10.0.0.1:8080/api/v1/baselines/runtime/bwb_secret/run.ps1',
    };
    const fake = renderApp('/hosts/1', { ...routes([]), 'POST /api/v1/baselines/tokens': () => ok(created) });
    expect(await screen.findByText(/No baseline run reported/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Runner command' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Linux (as root) runner command').textContent).toBe(`wget -qO- '${created.runner_url_sh}' | sh`);
    expect(callsTo(fake.calls, 'POST', '/baselines/tokens')[0]?.body).toEqual({ host_id: 1 });
  });

  it('has no runner command for viewers', async () => {
    renderApp('/hosts/1', routes([RUN]), { session: VIEWER_SESSION });
    expect(await screen.findByRole('table', { name: 'Scripts of baseline run 5' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Runner command' })).toBeNull();
  });
});

describe('the host page\'s Hardware inventory panel', () => {
  it('says when the host never reported one (the API answers null)', async () => {
    renderApp('/hosts/1', { ...routes([]), 'GET /api/v1/hosts/1/inventory': () => ok(null) });
    expect(await screen.findByText(/No inventory reported/)).toBeTruthy();
  });

  it('shows the summary and, on request, the document as posted', async () => {
    const inventory = {
      host_id: 1,
      received_at: '2024-05-01T10:02:00Z',
      bytes: 2048,
      summary: { vendor: 'QEMU', product: 'Standard PC', serial: 'SN-1', uuid: null, cpu: 'Virtual CPU', cpu_count: 2, memory_bytes: 2147483648, disks: [{ name: 'vda', size_bytes: 8589934592, model: null, serial: null }], nics: [{ name: 'ens3', mac: '52:54:00:00:00:01' }] },
      data: { serial: 'SN-1' },
    };
    renderApp('/hosts/1', { ...routes([]), 'GET /api/v1/hosts/1/inventory': () => ok(inventory) });
    const table = await screen.findByRole('table', { name: 'Hardware summary' });
    expect(within(table).getByText('QEMU Standard PC')).toBeTruthy();
    expect(within(table).getByText('2 × Virtual CPU')).toBeTruthy();
    expect(within(table).getByText('ens3 52:54:00:00:00:01')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show the document as posted' }));
    expect(screen.getByLabelText('Inventory document').textContent).toContain('"serial": "SN-1"');
  });
});
