// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WolSchedule } from '@contracts/power';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';

afterEach(cleanup);

const SCHEDULE: WolSchedule = {
  id: 3,
  name: 'Lab mornings',
  host_ids: [1],
  macs: null,
  cron: '0 7 * * 1-5',
  at: null,
  timezone: 'UTC',
  enabled: true,
  next_run_at: '2030-01-01T07:00:00Z',
  last_run_at: null,
  last_result: null,
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:00:00Z',
};

function routesWith(schedule: WolSchedule): Record<string, Route> {
  let current = schedule;
  return {
    ...API_FIXTURES,
    'GET /api/v1/wol/schedules': () => okList([current]),
    'PUT /api/v1/wol/schedule/3': (body) => {
      current = { ...current, ...(body as Partial<WolSchedule>) };
      return ok(current);
    },
  };
}

describe('WOL schedules', () => {
  it('pauses a schedule and resumes it', async () => {
    const fake = renderApp('/wol?tab=schedules', routesWith(SCHEDULE));
    fireEvent.click(await screen.findByRole('button', { name: 'Pause schedule Lab mornings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/wol/schedule/3')[0]?.body).toEqual({ enabled: false }));
    const table = screen.getByRole('table', { name: 'Wake schedules' });
    expect(await within(table).findByText('Paused')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Resume schedule Lab mornings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/wol/schedule/3')[1]?.body).toEqual({ enabled: true }));
  });

  it('edits a schedule in the dialog filled with its values', async () => {
    const fake = renderApp('/wol?tab=schedules', routesWith(SCHEDULE));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit schedule Lab mornings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit schedule Lab mornings' });
    expect((within(dialog).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Lab mornings');
    const cron = within(dialog).getByLabelText(/^Cron expression/) as HTMLInputElement;
    expect(cron.value).toBe('0 7 * * 1-5');
    fireEvent.change(cron, { target: { value: '30 6 * * *' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/wol/schedule/3')[0]?.body).toEqual({ name: 'Lab mornings', host_ids: [1], cron: '30 6 * * *', timezone: 'UTC', enabled: true }),
    );
    expect(callsTo(fake.calls, 'POST', '/wol/schedule')).toHaveLength(0);
    // The saved row is marked in the table (and scrolled to).
    await waitFor(() => expect(document.querySelector('tr[data-new]')?.textContent).toContain('Lab mornings'));
  });

  it('shows a viewer neither edit nor pause', async () => {
    renderApp('/wol?tab=schedules', routesWith(SCHEDULE), { session: VIEWER_SESSION });
    await screen.findByText('Lab mornings');
    expect(screen.queryByRole('button', { name: /schedule Lab mornings/ })).toBeNull();
  });
});
