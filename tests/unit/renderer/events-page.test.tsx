// @vitest-environment jsdom
import './dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { API_FIXTURES } from './api-fixtures.js';
import { okList, renderApp } from './render-app.js';

afterEach(cleanup);

const event = (id: number, message: string) => ({ id, kind: 'dhcp.ack', level: 'info', message, mac: '52:54:00:00:00:05', ip: '10.0.0.5', host_id: null, detail: null, created_at: new Date().toISOString() });

describe('Events page', () => {
  it('reads its table again as the live tail brings events, on the first page, at most once a second', async () => {
    const stored = [event(1, 'dns started')];
    const fake = renderApp('/events', { ...API_FIXTURES, 'GET /api/v1/events': () => okList([...stored].reverse()) });
    const table = await screen.findByRole('table', { name: 'Events' });
    expect(within(table).getByText('dns started')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Live tail'));
    const tail = await waitFor(() => {
      const found = fake.streams.find((entry) => entry.request.stream === 'events' && entry.request.params !== undefined && !entry.closed);
      if (!found) throw new Error('no live tail stream yet');
      return found;
    });
    const reads = () => fake.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/v1/events')).length;
    const before = reads();
    // A burst of three events: one read of the table, which then shows them.
    for (const id of [2, 3, 4]) {
      stored.push(event(id, `ACK ${id}`));
      act(() => tail.handlers.onMessage({ id, event: 'dhcp.ack', data: stored.at(-1)! }));
    }
    expect(await within(table).findByText('ACK 4', {}, { timeout: 3000 })).toBeTruthy();
    expect(reads()).toBe(before + 1);
  });
});
