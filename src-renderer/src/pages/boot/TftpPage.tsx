import { Stack } from '@mantine/core';
import { UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServiceStateHeader } from '../services/ServiceStateHeader.js';
import { BootloaderPanel } from './BootloaderCheck.js';
import { EntryScriptCard } from './EntryScriptEditor.js';
import { TftpSettingsCard } from './TftpSettingsForm.js';

/** `/services/tftp`: TFTP settings, the iPXE entry script and the boot loader check (tabs, kept in ?tab=). */
export function TftpPage() {
  return (
    <Stack gap="md">
      <PageHeader title="TFTP and boot loaders" description="How PXE clients get their first boot file, and the iPXE script they run next." />
      <ServiceStateHeader name="tftp" />
      <UrlTabs
        tabs={[
          { value: 'settings', label: 'TFTP settings', panel: <TftpSettingsCard /> },
          { value: 'entry-script', label: 'iPXE entry script', panel: <EntryScriptCard /> },
          { value: 'bootloaders', label: 'Boot loaders', panel: <BootloaderPanel /> },
        ]}
      />
    </Stack>
  );
}
