import type { BootloaderCheckReport } from '@contracts/boot-files';
import type { InterfacesSettingsView as InterfacesView } from '@contracts/settings';
import { Alert, Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import type { DhcpGuardStatus, DhcpSettings } from '@contracts/dhcp';
import { describeServer, guardFindings } from '../dhcp/rogue-guard-model.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

export interface SetupWarning {
  id: string;
  title: string;
  text: string;
  fix: string;
  link: string;
  color: 'orange' | 'red' | 'blue';
}

/** What keeps machines from booting, each with the page that fixes it. Pure, so it is tested without a server. */
export function setupWarnings(input: {
  interfaces?: InterfacesView | undefined;
  check?: BootloaderCheckReport | undefined;
  dhcp?: DhcpSettings | undefined;
  guard?: DhcpGuardStatus | undefined;
}): SetupWarning[] {
  const warnings: SetupWarning[] = [];
  if (input.interfaces && !input.interfaces.resolved_addresses.some((address) => address.served)) {
    warnings.push({
      id: 'no-served-interface',
      title: 'No network interface is served',
      text: 'DHCP, DNS and TFTP answer only on served interfaces, and none has an address right now.',
      fix: 'Choose the interfaces in Settings',
      link: '/settings?tab=interfaces',
      color: 'orange',
    });
  }
  if (input.check) {
    const errors = input.check.problems.filter((problem) => problem.severity === 'error');
    if (input.check.files.length === 0) {
      warnings.push({
        id: 'no-boot-loader',
        title: 'No boot loader is configured',
        text: 'The architecture map names no boot file, so PXE clients get nothing to load.',
        fix: 'Edit the architecture map',
        link: '/services/dhcp?tab=archmap',
        color: 'red',
      });
    } else if (errors.length > 0) {
      warnings.push({
        id: 'boot-loader-problems',
        title: `${errors.length} boot loader problem${errors.length === 1 ? '' : 's'}`,
        text: errors[0]!.message,
        fix: 'See the boot loader check',
        link: '/services/tftp?tab=bootloaders',
        color: 'red',
      });
    }
  }
  if (input.dhcp && !input.dhcp.interfaces.some((entry) => entry.mode !== 'off')) {
    warnings.push({
      id: 'dhcp-off',
      title: 'DHCP is off on every interface',
      text: 'Machines learn where to boot from DHCP: enable it (server or proxy mode) on the interface facing them, unless another DHCP server hands out Bootwright.',
      fix: 'Set up DHCP',
      link: '/services/dhcp',
      color: 'blue',
    });
  }
  for (const finding of guardFindings(input.guard)) {
    warnings.push({
      id: `dhcp-foreign-${finding.interface}`,
      title: `Another DHCP server answers on ${finding.interface}`,
      text: `${finding.foreign.map(describeServer).join('; ')}. ${finding.state === 'blocked' ? `Bootwright does not serve ${finding.interface} in server mode.` : 'Served anyway (force): clients may take either answer.'}`,
      fix: 'Switch to proxy mode on the DHCP page',
      link: '/services/dhcp',
      color: finding.state === 'blocked' ? 'red' : 'orange',
    });
  }
  const seen = (input.guard?.sightings ?? []).filter((s) => !guardFindings(input.guard).some((f) => f.interface === s.interface));
  if (seen.length > 0) {
    warnings.push({
      id: 'dhcp-foreign-seen',
      title: 'Another DHCP server was seen while serving',
      text: `${seen.map((s) => `${s.server_id} on ${s.interface ?? 'a served network'}`).join(', ')}: machines may get their address from it instead.`,
      fix: 'See the DHCP page',
      link: '/services/dhcp',
      color: 'orange',
    });
  }
  return warnings;
}

/** The dashboard's warnings, from the interface settings, the boot loader check and the DHCP settings. */
export function DashboardWarnings() {
  const interfaces = useApiQuery(keys.settingsSection('interfaces'), (api) => api.settings.interfaces.get());
  const check = useApiQuery(keys.bootloaders, (api) => api.bootFiles.bootloaders.check());
  const dhcp = useApiQuery(keys.dhcpSettings, (api) => api.dhcp.settings.get());
  const guard = useApiQuery(keys.dhcpGuard, (api) => api.dhcp.guard.status());
  const warnings = setupWarnings({ interfaces: interfaces.data, check: check.data, dhcp: dhcp.data, guard: guard.data });
  if (warnings.length === 0) return null;
  return (
    <Stack gap="xs" aria-label="Setup warnings" component="section">
      {warnings.map((warning) => (
        <Alert key={warning.id} color={warning.color} title={warning.title}>
          {warning.text}{' '}
          <Anchor component={Link} to={warning.link}>
            {warning.fix}
          </Anchor>
        </Alert>
      ))}
    </Stack>
  );
}
