import { Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import type { ImageSettings } from '@contracts/os-images';
import { useState } from 'react';
import { FsBrowser } from '../../components/FsBrowser.js';
import { QueryState } from '../../components/QueryState.js';
import { describeError } from '../../api/api-error.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

function SettingsForm({ stored, onClose }: { stored: ImageSettings; onClose: () => void }) {
  const [dropFolder, setDropFolder] = useState<string | null>(stored.drop_folder);
  const [autoMount, setAutoMount] = useState(stored.auto_mount);
  const [picking, setPicking] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const save = useApiAction((api, body: ImageSettings) => api.osImages.settings.update(body), {
    invalidate: [keys.osImageSettings, keys.fileRoots],
    notifyErrors: false,
    success: 'The image settings were saved.',
    onSuccess: onClose,
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        save.mutate({ drop_folder: dropFolder, auto_mount: autoMount }, { onError: (error) => setFormError(describeError(error)) });
      }}
    >
      <Stack gap="sm">
        {formError && (
          <Text c="red" size="sm" role="alert">
            {formError}
          </Text>
        )}
        <div>
          <Text size="sm" fw={500}>
            Drop folder
          </Text>
          <Text size="xs" c="dimmed">
            ISOs that appear in this folder are added as images by themselves (and removed when their file goes).
          </Text>
          <Group gap="xs" mt={4}>
            <Text size="sm" className="mono" aria-label="Drop folder">
              {dropFolder ?? 'none'}
            </Text>
            <Button size="compact-xs" variant="default" onClick={() => setPicking((open) => !open)}>
              {picking ? 'Close the picker' : 'Choose folder'}
            </Button>
            {dropFolder !== null && (
              <Button size="compact-xs" variant="subtle" color="red" onClick={() => setDropFolder(null)}>
                No drop folder
              </Button>
            )}
          </Group>
        </div>
        {picking && <FsBrowser mode="directory" value={dropFolder} onChange={setDropFolder} initialPath={stored.drop_folder} height={240} />}
        <Switch label="Mount new images as soon as they are detected" checked={autoMount} onChange={(event) => setAutoMount(event.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** GET/PUT /os-images/settings (admin): the watched drop folder and auto-mount. */
export function ImageSettingsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const query = useApiQuery(keys.osImageSettings, opened ? (api) => api.osImages.settings.get() : null);
  return (
    <Modal opened={opened} onClose={onClose} title="Image settings" size="lg">
      {opened && (
        <QueryState query={query} what="the image settings">
          {(stored) => <SettingsForm stored={stored} onClose={onClose} />}
        </QueryState>
      )}
    </Modal>
  );
}
