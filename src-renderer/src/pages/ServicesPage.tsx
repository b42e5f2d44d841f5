import { useEffect, useState } from 'react';
import { describeError } from '../api/api-error.js';
import type { ServiceAction, ServiceStatus } from '../api/services-api.js';
import { useAppState, useServices } from '../app-state.js';
import { formatUptime } from '../format.js';
import { useNow } from '../hooks.js';

const ACTION_LABELS: Record<ServiceAction, string> = { start: 'Start', stop: 'Stop', restart: 'Restart' };

/** Which lifecycle buttons a row offers: the protected HTTP service serves this page and is never stopped from it. */
export function actionsFor(service: ServiceStatus): ServiceAction[] {
  if (service.protected) return [];
  return ['start', 'stop', 'restart'];
}

function actionDisabled(service: ServiceStatus, action: ServiceAction): boolean {
  if (service.state === 'starting' || service.state === 'stopping') return true;
  if (action === 'start') return service.state === 'running';
  if (action === 'stop') return service.state === 'stopped';
  return service.state !== 'running' && service.state !== 'failed';
}

function ServiceRow({ service, uptime }: { service: ServiceStatus; uptime: number | null }) {
  const pending = useServices((state) => state.pending[service.name]);
  const runAction = useServices((state) => state.runAction);
  const setAutoStart = useServices((state) => state.setAutoStart);
  const busy = pending !== undefined;

  return (
    <tr aria-busy={busy || undefined}>
      <th scope="row">
        <span className="service-name">{service.name}</span>{' '}
        <span className="service-description">{service.description}</span>
      </th>
      <td>
        <span className={`state state-${service.state}`}>{service.state}</span>
      </td>
      <td>{service.listen.length > 0 ? service.listen.map((address) => <div key={address}><code>{address}</code></div>) : <span className="muted">—</span>}</td>
      <td className="numeric">{formatUptime(uptime)}</td>
      <td className="last-error">{service.last_error ?? <span className="muted">—</span>}</td>
      <td>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={service.auto_start}
            disabled={busy}
            aria-label={`Auto-start ${service.name}`}
            onChange={(event) => void setAutoStart(service.name, event.target.checked)}
          />
          <span aria-hidden="true">{service.auto_start ? 'On' : 'Off'}</span>
        </label>
      </td>
      <td className="actions">
        {service.protected ? (
          <span className="muted" title="This service serves the API and web UI">
            Always on
          </span>
        ) : (
          actionsFor(service).map((action) => (
            <button
              key={action}
              type="button"
              className="button button-small"
              disabled={busy || actionDisabled(service, action)}
              aria-label={`${ACTION_LABELS[action]} ${service.name}`}
              onClick={() => void runAction(service.name, action)}
            >
              {pending === action ? `${ACTION_LABELS[action]}…` : ACTION_LABELS[action]}
            </button>
          ))
        )}
      </td>
    </tr>
  );
}

/** GET /services as a table with lifecycle buttons and the auto-start switch; refreshes on service events. */
export function ServicesPage() {
  const { client, services: store } = useAppState();
  const services = useServices((state) => state.services);
  const status = useServices((state) => state.status);
  const loadError = useServices((state) => state.loadError);
  const loadedAt = useServices((state) => state.loadedAt);
  const actionError = useServices((state) => state.actionError);
  const load = useServices((state) => state.load);
  const dismissActionError = useServices((state) => state.dismissActionError);
  const [streamError, setStreamError] = useState<string | null>(null);
  const now = useNow(1000);

  useEffect(() => {
    void store.getState().load();
    // Service transitions also come from elsewhere (auto-start, another user); follow them live.
    return client.subscribe(
      { stream: 'events', params: { kind: 'service.' } },
      {
        onMessage: () => {
          setStreamError(null);
          void store.getState().load();
        },
        onError: (error) => setStreamError(describeError(error)),
      },
    );
  }, [client, store]);

  const elapsed = Math.max(0, Math.floor((now - loadedAt) / 1000));

  return (
    <section aria-labelledby="services-title">
      <div className="page-header">
        <h1 id="services-title">Services</h1>
        <button type="button" className="button" onClick={() => void load()} disabled={status === 'loading'}>
          Refresh
        </button>
      </div>
      {streamError && <p className="muted small">Live updates paused: {streamError}</p>}
      {actionError && (
        <div className="alert alert-error" role="alert">
          <span>
            {actionError.name}: {actionError.message}
          </span>
          <button type="button" className="button button-small" onClick={dismissActionError}>
            Dismiss
          </button>
        </div>
      )}
      {status === 'loading' || status === 'idle' ? (
        <p role="status">Loading services…</p>
      ) : status === 'error' ? (
        <div className="alert alert-error" role="alert">
          <span>Could not load services: {loadError}</span>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Retry
          </button>
        </div>
      ) : services.length === 0 ? (
        <p role="status">No services are registered.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Network services and their states</caption>
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">State</th>
              <th scope="col">Listening on</th>
              <th scope="col">Uptime</th>
              <th scope="col">Last error</th>
              <th scope="col">Auto-start</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {services.map((service) => (
              <ServiceRow
                key={service.name}
                service={service}
                uptime={service.uptime_seconds === null ? null : service.uptime_seconds + elapsed}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
