import { Checkbox, Radio, Stack } from '@mantine/core';
import type { ExtractBody, ExtractMode, OsImage } from '@contracts/os-images';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/api-error.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** POST /os-images/{id}/extract: boot files only or the whole tree, into images/<slug>/ of the boot root. */
export function ExtractDialog({ image, opened, onClose }: { image: OsImage; opened: boolean; onClose: () => void }) {
  const [mode, setMode] = useState<ExtractMode>('boot');
  const [overwrite, setOverwrite] = useState(image.extracted !== null);
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setMode('boot');
      setOverwrite(image.extracted !== null);
      setFormError(null);
    }
  }, [opened, image.extracted]);
  const run = useApiAction((api, body: ExtractBody) => api.osImages.extract(image.id, body), {
    invalidate: [keys.osImages],
    notifyErrors: false,
    success: 'The extraction started; its progress shows on this page.',
    onSuccess: onClose,
  });
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={`Extract ${image.name}`}
      error={formError}
      submitLabel="Extract"
      pending={run.isPending}
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        run.mutate({ mode, overwrite }, { onError: (error) => setFormError(describeError(error)) });
      }}
    >
      <Radio.Group label="What" value={mode} onChange={(value) => setMode(value === 'full' ? 'full' : 'boot')}>
        <Stack gap={6} mt={4}>
          <Radio value="boot" label="Boot files: kernel, initrds, loaders and their configs (small, quick)" />
          <Radio value="full" label="The whole tree (as big as the ISO)" />
        </Stack>
      </Radio.Group>
      <Checkbox label={`Replace what is in images/${image.slug}/ already`} checked={overwrite} onChange={(event) => setOverwrite(event.currentTarget.checked)} />
    </FormDialog>
  );
}
