import type { BmcConfigView as BmcConfig, BootDevice } from '@contracts/power';
import { Modal, Select, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { DialogActions } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const DEVICES: { value: BootDevice; label: string }[] = [
  { value: 'pxe', label: 'Network (PXE)' },
  { value: 'disk', label: 'Local disk' },
  { value: 'cdrom', label: 'CD/DVD' },
  { value: 'bios', label: 'BIOS/UEFI setup' },
];

/** POST /bmc/{id}/boot-device: where the machine boots next (or always). */
export function BootDeviceDialog({ config, onClose }: { config: BmcConfig | null; onClose: () => void }) {
  const [device, setDevice] = useState<BootDevice>('pxe');
  const [persistent, setPersistent] = useState(false);
  const [efi, setEfi] = useState(true);
  const save = useApiAction((api, target: BmcConfig) => api.power.bmc.setBootDevice(target.id, { device, persistent, efi }), {
    invalidate: [keys.bmc],
    errorTitle: 'The boot device was not set',
    success: (saved) => `${saved.name} boots from ${DEVICES.find((d) => d.value === device)?.label ?? device} ${persistent ? 'from now on' : 'next time'}.`,
    onSuccess: onClose,
  });
  return (
    <Modal opened={config !== null} onClose={onClose} title={config ? `Boot device of ${config.name}` : ''}>
      <Stack gap="sm">
        <Select label="Boot from" data={DEVICES} value={device} onChange={(value) => setDevice((value as BootDevice | null) ?? 'pxe')} allowDeselect={false} data-autofocus />
        <Switch label="Every boot (off: the next boot only)" checked={persistent} onChange={(event) => setPersistent(event.currentTarget.checked)} />
        <Switch label="UEFI boot (off: legacy BIOS)" checked={efi} onChange={(event) => setEfi(event.currentTarget.checked)} />
        <DialogActions onCancel={onClose} confirmLabel="Set boot device" pending={save.isPending} onConfirm={() => config && save.mutate(config)} />
      </Stack>
    </Modal>
  );
}
