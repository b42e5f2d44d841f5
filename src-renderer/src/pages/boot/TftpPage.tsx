import { Stack, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { BootloaderPanel } from './BootloaderCheck.js';
import { EntryScriptCard } from './EntryScriptEditor.js';
import { TftpSettingsCard } from './TftpSettingsForm.js';

const TABS = ['settings', 'entry-script', 'bootloaders'] as const;

/** `/services/tftp`: TFTP settings, the iPXE entry script and the boot loader check (tabs, kept in ?tab=). */
export function TftpPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = TABS.find((name) => name === requested) ?? 'settings';
  return (
    <Stack gap="md">
      <PageHeader title="TFTP and boot loaders" description="How PXE clients get their first boot file, and the iPXE script they run next." />
      <Tabs value={tab} onChange={(value) => setParams(value && value !== 'settings' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="settings">TFTP settings</Tabs.Tab>
          <Tabs.Tab value="entry-script">iPXE entry script</Tabs.Tab>
          <Tabs.Tab value="bootloaders">Boot loaders</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="settings">
          <TftpSettingsCard />
        </Tabs.Panel>
        <Tabs.Panel value="entry-script">
          <EntryScriptCard />
        </Tabs.Panel>
        <Tabs.Panel value="bootloaders">
          <BootloaderPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
