import { Radio, Stack, Text, TextInput } from '@mantine/core';
import { IMAGE_NAME_PATTERN, type ImportBody } from '@contracts/os-images';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../../app-state.js';
import { FsBrowser } from '../../components/FsBrowser.js';
import { FormDialog } from '../../components/kit/index.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const NAME = new RegExp(IMAGE_NAME_PATTERN);

type Errors = Partial<Record<'path' | 'name' | 'mode', string>>;

/**
 * POST /os-images/import: adopt an ISO already on this machine. Admins pick
 * it with the file browser (/fs/browse is theirs); operators type the path.
 */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const canBrowse = useCan('admin');
  const [path, setPath] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'link' | 'copy'>('link');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setPath(null);
      setName('');
      setMode('link');
      setErrors({});
      setFormError(null);
    }
  }, [opened]);
  const run = useApiAction((api, body: ImportBody) => api.osImages.import(body), {
    invalidate: [keys.osImages],
    notifyErrors: false,
    success: (image) => `${image.name} was imported; it is read and detected now.`,
    onSuccess: (image) => {
      onClose();
      void navigate(`/images/${image.id}`);
    },
  });
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Import an image from this machine"
      size="xl"
      error={formError}
      submitLabel="Import"
      pending={run.isPending}
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        const next: Errors = {};
        const chosen = (path ?? '').trim();
        if (!chosen.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(chosen)) next.path = 'Choose an .iso or .img file (an absolute path)';
        if (name.trim() !== '' && !NAME.test(name.trim())) next.name = 'Letters, digits, space . _ ( ) + -, starting with a letter or digit';
        setErrors(next);
        if (Object.keys(next).length > 0) return;
        run.mutate(
          { path: chosen, mode, ...(name.trim() ? { name: name.trim() } : {}) },
          { onError: (error) => setFormError(applyServerErrors({ setFieldError: (field, message) => setErrors((current) => ({ ...current, [field]: message })) }, error, { fields: ['path', 'name', 'mode'] })) },
        );
      }}
    >
      <Stack gap="sm">
        {canBrowse ? (
          <>
            <FsBrowser mode="file" extensions=".iso,.img" value={path} onChange={setPath} />
            {errors.path && (
              <Text size="sm" c="red" role="alert">
                {errors.path}
              </Text>
            )}
          </>
        ) : (
          <TextInput
            label="Path of the ISO"
            description="An absolute path inside the folders Bootwright may read (browsing them is an admin's)."
            className="mono"
            value={path ?? ''}
            onChange={(event) => setPath(event.currentTarget.value)}
            error={errors.path}
            withAsterisk
          />
        )}
        <TextInput label="Name" description="Default: from the file name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={errors.name} />
        <Radio.Group label="How" value={mode} onChange={(value) => setMode(value === 'copy' ? 'copy' : 'link')} error={errors.mode}>
          <Stack gap={6} mt={4}>
            <Radio value="link" label="Use it where it is (no copy; deleting the image later keeps your file unless you ask)" />
            <Radio value="copy" label="Copy it into the images folder (the original may go away)" />
          </Stack>
        </Radio.Group>
      </Stack>
    </FormDialog>
  );
}
