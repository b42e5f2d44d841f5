import type { BootloaderCheckReport } from '@contracts/boot-files';
import type { InterfacesSettingsView as InterfacesView } from '@contracts/settings';
import { Alert, Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import type { DhcpSettings } from '@contracts/dhcp';
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
export function setupWarnings(input: { interfaces?: InterfacesView | undefined; check?: BootloaderCheckReport | undefined; dhcp?: DhcpSettings | undefined }): SetupWarning[] {
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
  return warnings;
}

/** The dashboard's warnings, from the interface settings, the boot loader check and the DHCP settings. */
export function DashboardWarnings() {
  const interfaces = useApiQuery(keys.settingsSection('interfaces'), (api) => api.settings.interfaces.get());
  const check = useApiQuery(keys.bootloaders, (api) => api.bootFiles.bootloaders.check());
  const dhcp = useApiQuery(keys.dhcpSettings, (api) => api.dhcp.settings.get());
  const warnings = setupWarnings({ interfaces: interfaces.data, check: check.data, dhcp: dhcp.data });
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
