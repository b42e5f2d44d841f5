import { Card, Stack, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { GeneralSettings, InterfacesView, LoggingSettings, NetbootSettings } from '../../api/models/settings.js';
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

const TABS = ['general', 'interfaces', 'netboot', 'logging'] as const;

/** `/settings`: general, interfaces, netboot and logging sections (tabs, kept in ?tab=), and the version. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = TABS.find((name) => name === requested) ?? 'general';
  return (
    <Stack gap="md">
      <PageHeader title="Settings" description="Server-wide settings; changes apply at once." />
      <Card withBorder>
        <Tabs value={tab} onChange={(value) => setParams(value && value !== 'general' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="general">General</Tabs.Tab>
            <Tabs.Tab value="interfaces">Interfaces</Tabs.Tab>
            <Tabs.Tab value="netboot">Netboot</Tabs.Tab>
            <Tabs.Tab value="logging">Logging</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="general">
            <General />
          </Tabs.Panel>
          <Tabs.Panel value="interfaces">
            <Interfaces />
          </Tabs.Panel>
          <Tabs.Panel value="netboot">
            <Netboot />
          </Tabs.Panel>
          <Tabs.Panel value="logging">
            <Logging />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <VersionCard />
    </Stack>
  );
}
