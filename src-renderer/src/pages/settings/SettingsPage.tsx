import { Button, Card, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { InterfacesSection } from './InterfacesSection.js';
import { GeneralSection, LoggingSection, NetbootSection } from './SettingsSections.js';
import { VersionCard } from './VersionCard.js';

function General() {
  const query = useApiQuery(keys.settingsSection('general'), (api) => api.settings.general.get());
  return <QueryState query={query} what="general settings">{(stored) => <GeneralSection stored={stored} />}</QueryState>;
}
function Interfaces() {
  const query = useApiQuery(keys.settingsSection('interfaces'), (api) => api.settings.interfaces.get());
  return <QueryState query={query} what="interface settings">{(stored) => <InterfacesSection stored={stored} />}</QueryState>;
}
function Netboot() {
  const query = useApiQuery(keys.settingsSection('netboot'), (api) => api.settings.netboot.get());
  return <QueryState query={query} what="netboot settings">{(stored) => <NetbootSection stored={stored} />}</QueryState>;
}
function Logging() {
  const query = useApiQuery(keys.settingsSection('logging'), (api) => api.settings.logging.get());
  return <QueryState query={query} what="logging settings">{(stored) => <LoggingSection stored={stored} />}</QueryState>;
}

/** Admins open the first-run wizard again (it changes nothing until a step is saved). */
function RunSetupAgain() {
  if (!useCan('admin')) return null;
  return (
    <Button component={Link} to="/setup" variant="default">
      Run setup again
    </Button>
  );
}

/** `/settings`: general, interfaces, netboot and logging sections (tabs, kept in ?tab=), and the version. */
export function SettingsPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Settings" description="Server-wide settings; changes apply at once." actions={<RunSetupAgain />} />
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
