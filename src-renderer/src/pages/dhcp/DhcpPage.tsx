import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServiceStateHeader } from '../services/ServiceStateHeader.js';
import { LoadError, Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ArchMapEditor } from './ArchMapEditor.js';
import { DhcpSettingsForm } from './DhcpSettingsForm.js';
import { RogueGuardPanel } from './RogueGuardPanel.js';

function SettingsTab() {
  const settings = useApiQuery(keys.dhcpSettings, (api) => api.dhcp.settings.get());
  const interfaces = useApiQuery(keys.settingsSection('interfaces'), (api) => api.settings.interfaces.get());
  if (settings.isPending || interfaces.isPending) return <Loading label="Loading DHCP settings…" />;
  if (settings.isError) return <LoadError what="DHCP settings" error={settings.error} onRetry={() => void settings.refetch()} />;
  if (interfaces.isError) return <LoadError what="the network interfaces" error={interfaces.error} onRetry={() => void interfaces.refetch()} />;
  return <DhcpSettingsForm settings={settings.data} interfaces={interfaces.data} />;
}

/** `/services/dhcp`: DHCP modes, subnets and options (tab "settings") and the architecture map (tab "archmap"). */
export function DhcpPage() {
  return (
    <Stack gap="md">
      <PageHeader
        title="DHCP"
        description={
          <>
            Addresses and boot information for the machines on your network. See also{' '}
            <Anchor component={Link} to="/leases" inherit>
              leases
            </Anchor>
            ,{' '}
            <Anchor component={Link} to="/dhcp/reservations" inherit>
              reservations
            </Anchor>{' '}
            and{' '}
            <Anchor component={Link} to="/access" inherit>
              access control
            </Anchor>
            .
          </>
        }
      />
      <ServiceStateHeader name="dhcp" />
      <RogueGuardPanel />
      <UrlTabs
        tabs={[
          { value: 'settings', label: 'Interfaces and subnets', panel: <SettingsTab /> },
          { value: 'archmap', label: 'Architecture map', panel: <ArchMapEditor /> },
        ]}
      />
    </Stack>
  );
}
