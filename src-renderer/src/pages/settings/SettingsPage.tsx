import { Card, Stack } from '@mantine/core';
import type { GeneralSettings, InterfacesView, LoggingSettings, NetbootSettings } from '../../api/models/settings.js';
import { UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiGet } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { InterfacesSection } from './InterfacesSection.js';
import { GeneralSection, LoggingSection, NetbootSection } from './SettingsSections.js';
import { VersionCard } from './VersionCard.js';

function General() {
  const query = useApiGet<GeneralSettings>(keys.settingsSection('general'), '/settings/general');
  return <QueryState query={query} what="general settings">{(stored) => <GeneralSection stored={stored} />}</QueryState>;
}
function Interfaces() {
  const query = useApiGet<InterfacesView>(keys.settingsSection('interfaces'), '/settings/interfaces');
  return <QueryState query={query} what="interface settings">{(stored) => <InterfacesSection stored={stored} />}</QueryState>;
}
function Netboot() {
  const query = useApiGet<NetbootSettings>(keys.settingsSection('netboot'), '/settings/netboot');
  return <QueryState query={query} what="netboot settings">{(stored) => <NetbootSection stored={stored} />}</QueryState>;
}
function Logging() {
  const query = useApiGet<LoggingSettings>(keys.settingsSection('logging'), '/settings/logging');
  return <QueryState query={query} what="logging settings">{(stored) => <LoggingSection stored={stored} />}</QueryState>;
}

/** `/settings`: general, interfaces, netboot and logging sections (tabs, kept in ?tab=), and the version. */
export function SettingsPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Settings" description="Server-wide settings; changes apply at once." />
      <Card withBorder>
        <UrlTabs
          tabs={[
            { value: 'general', label: 'General', panel: <General /> },
            { value: 'interfaces', label: 'Interfaces', panel: <Interfaces /> },
            { value: 'netboot', label: 'Netboot', panel: <Netboot /> },
            { value: 'logging', label: 'Logging', panel: <Logging /> },
          ]}
        />
      </Card>
      <VersionCard />
    </Stack>
  );
}
