// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_FIXTURES } from './api-fixtures.js';
import { OPERATOR_SESSION, okList, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

const SINGLE = {
  id: 1,
  created_at: '2024-05-01T12:00:05Z',
  user: 'olivia',
  via: 'http',
  remote_address: '192.0.2.1',
  method: 'POST',
  path: '/api/v1/hosts',
  action: 'hosts.create',
  resource_type: 'hosts',
  resource_id: null,
  outcome: 'success',
  status: 201,
  request_id: 'req-1',
  authenticated: true,
  count: 1,
  aggregate: null,
};

const AGGREGATE = {
  ...SINGLE,
  id: 2,
  user: 'anonymous',
  remote_address: '198.51.100.7',
  method: '*',
  path: '*',
  action: 'unauthenticated',
  resource_type: 'api',
  outcome: 'failure',
  status: 401,
  authenticated: false,
  count: 412,
  aggregate: {
    window_start: '2024-05-01T12:04:00Z',
    last_at: '2024-05-01T12:04:59Z',
    breakdown: [
      { method: 'POST', route: '/api/v1/hosts', status: 401, count: 400 },
      { method: 'DELETE', route: '/api/v1/hosts/:id', status: 401, count: 12 },
    ],
    other: 0,
  },
};

describe('audit page', () => {
  it('shows an aggregate row as a count of unauthenticated requests with its breakdown', async () => {
    renderApp('/audit', { ...API_FIXTURES, 'GET /api/v1/audit-logs': () => okList([AGGREGATE, SINGLE]) }, { session: OPERATOR_SESSION });
    const main = await screen.findByRole('main');
    expect(await within(main).findByText(/412 unauthenticated requests in the minute from/)).toBeTruthy();
    expect(within(main).getByText(/400× POST \/api\/v1\/hosts → 401/)).toBeTruthy();
    expect(within(main).getByText('POST /api/v1/hosts')).toBeTruthy();
  });
});
