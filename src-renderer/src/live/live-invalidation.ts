import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Which cached reads an event makes stale, by kind prefix. Anything another
 * user, a booting machine or a schedule changes arrives as an event, so
 * pages follow it without polling.
 */
const INVALIDATES: readonly [prefix: string, keys: QueryKey[]][] = [
  ['service.', [['services'], ['status'], ['dhcp', 'guard']]],
  ['dns.record.', [['dns', 'records']]],
  ['dhcp.lease.', [['leases']]],
  ['dhcp.ack', [['leases']]],
  ['dhcp.release', [['leases']]],
  ['dhcp.decline', [['leases']]],
  ['dhcp.denied', [['access', 'unauthorized']]],
  ['dhcp.foreign_server', [['dhcp', 'guard']]],
  ['boot.', [['hosts']]],
  ['host.', [['hosts']]],
  ['wol.', [['wol']]],
  ['bmc.', [['bmc']]],
  ['settings.changed', [['settings'], ['dns', 'settings'], ['dhcp'], ['tftp'], ['status']]],
  // A link coming up or going down changes the services' notices and the LAN URLs in the status.
  ['network.', [['settings', 'interfaces'], ['wol', 'interfaces'], ['interfaces'], ['services'], ['status']]],
  ['update.', [['version']]],
  ['netboot.task.', [['netboot', 'tasks']]],
  ['netboot.answer_', [['netboot', 'tasks']]],
  ['netboot.callback', [['netboot', 'tasks']]],
  ['netboot.prefetch.done', [['netboot', 'check-files'], ['netboot', 'cache']]],
  ['netboot.prefetch.failed', [['netboot', 'check-files'], ['netboot', 'cache']]],
  ['netboot.cache.', [['netboot', 'check-files'], ['netboot', 'cache']]],
  ['baseline.', [['baselines']]],
  ['store.', [['store']]],
  ['bootloader.check.', [['tftp', 'bootloaders'], ['alerts']]],
  ['script.', [['scripts']]],
  ['host.inventory.', [['baselines', 'runs']]],
  // Progress events only move bars (the pages read them from the live store); the others change an image or the uploads.
  ...['os_image.added', 'os_image.updated', 'os_image.removed', 'os_image.detected', 'os_image.extracted', 'os_image.mounted', 'os_image.unmounted', 'os_image.failed'].map(
    (prefix): [string, QueryKey[]] => [prefix, [['os-images'], ['files']]],
  ),
  ['baseline.run.', [['baselines', 'runs'], ['netboot', 'tasks']]],
  // Mounts, refusals and export changes; a mounted or removed image changes the automatic /iso exports.
  ['nfs.', [['nfs']]],
  ...['os_image.mounted', 'os_image.unmounted', 'os_image.removed', 'os_image.updated'].map((prefix): [string, QueryKey[]] => [prefix, [['nfs']]]),
  // The steps of boot timelines (src-main/hosts/boot-timeline.ts).
  ...['dhcp.', 'tftp.transfer.', 'http.transfer.', 'boot.', 'host.discovered', 'netboot.task.', 'netboot.answer_fetched', 'netboot.callback', 'baseline.run.', 'wol.sent'].map(
    (prefix): [string, QueryKey[]] => [prefix, [['boot-timeline']]],
  ),
];

export function keysFor(kind: string): QueryKey[] {
  return INVALIDATES.filter(([prefix]) => kind.startsWith(prefix)).flatMap(([, keys]) => keys);
}

/**
 * Collects the keys events make stale and refetches them at most every
 * `delayMs`: a burst of DHCP traffic becomes one refetch, not hundreds.
 */
export function createInvalidator(queryClient: QueryClient, delayMs = 500) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };

  return {
    eventArrived(kind: string) {
      for (const key of keysFor(kind)) pending.set(JSON.stringify(key), key);
      if (pending.size > 0 && timer === null) timer = setTimeout(flush, delayMs);
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
