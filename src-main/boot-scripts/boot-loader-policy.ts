import type { BootLoaderPolicy, LoaderArchitecture, LoaderChoice } from '../dhcp/boot-loader-chains.js';
import type { Host } from '../hosts/host-types.js';
import type { BootLoaders } from '../settings/settings-contract.js';

/**
 * Which loader a UEFI machine gets (docs/secure-boot-arm64.md, "Which loader
 * a machine gets"): its host's own `boot_loader`, else its group's entry in
 * settings netboot.boot_loaders.groups (group names match case-insensitively,
 * as the host filters do), else its architecture's default there. DHCP cannot
 * see whether Secure Boot is on, so this is configuration, not detection.
 */
export function chooseLoader(host: Pick<Host, 'boot_loader' | 'group'> | undefined, architecture: LoaderArchitecture, loaders: BootLoaders): LoaderChoice {
  if (host?.boot_loader) return { loader: host.boot_loader, source: 'host' };
  if (host?.group) {
    const wanted = host.group.toLowerCase();
    for (const [group, loader] of Object.entries(loaders.groups)) {
      if (group.toLowerCase() === wanted) return { loader, source: 'group' };
    }
  }
  return { loader: loaders[architecture], source: 'architecture' };
}

/** The policy DHCP asks per packet: hosts by MAC (an in-memory index) and the netboot settings. */
export function bootLoaderPolicy(deps: { findHost(mac: string): Host | undefined; loaders(): BootLoaders }): BootLoaderPolicy {
  return { choose: (mac, architecture) => chooseLoader(deps.findHost(mac), architecture, deps.loaders()) };
}
