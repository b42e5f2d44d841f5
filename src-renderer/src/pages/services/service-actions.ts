import { SERVICE_ACTIONS, type ServiceAction, type ServiceStatus } from '@contracts/services';

export const ACTION_LABELS: Record<ServiceAction, string> = { start: 'Start', stop: 'Stop', restart: 'Restart' };

/** The page that configures a service, where there is one. */
export const SERVICE_PAGES: Record<string, string> = {
  dns: '/services/dns',
  dhcp: '/services/dhcp',
  tftp: '/services/tftp',
  nfs: '/services/nfs',
};

/** Which lifecycle buttons a row offers: the protected HTTP service serves this page and is never stopped from it. */
export function actionsFor(service: ServiceStatus): ServiceAction[] {
  if (service.protected) return [];
  return [...SERVICE_ACTIONS];
}

/** Buttons that would do nothing (start a running service) or race a transition are disabled. */
export function actionDisabled(service: ServiceStatus, action: ServiceAction): boolean {
  if (service.state === 'starting' || service.state === 'stopping') return true;
  if (action === 'start') return service.state === 'running';
  if (action === 'stop') return service.state === 'stopped';
  return service.state !== 'running' && service.state !== 'failed';
}
