import { Button, Card, FileButton, Group, Stack, Text } from '@mantine/core';
import type { PartialUpload } from '@contracts/os-images';
import { notifyError } from '../../components/notify.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { startUpload } from '../../components/upload-store.js';
import { formatBytes, formatRelative } from '../../format.js';
import { useApi, useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { safeImageFileName } from './image-labels.js';
import { imageUploadTask } from './image-upload.js';
import { useQueryClient } from '@tanstack/react-query';

/**
 * GET /os-images/uploads: uploads that broke off, kept to be resumed. The
 * browser cannot reopen a file by itself, so Resume asks for the same file
 * again and checks its name and size before sending the rest.
 */
export function PartialUploads({ canResume }: { canResume: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const query = useApiQuery(keys.osImageUploads, (client) => client.osImages.uploads.list());
  const discard = useApiAction((client, partial: PartialUpload) => client.osImages.uploads.remove(partial.upload_id), {
    invalidate: [keys.osImageUploads],
    success: (_, partial) => `The partial upload of ${partial.file_name} was removed.`,
  });
  const partials = query.data ?? [];
  if (partials.length === 0) return null;
  const resume = (partial: PartialUpload, file: File | null) => {
    if (!file) return;
    if (safeImageFileName(file.name) !== partial.file_name || (partial.size !== null && file.size !== partial.size)) {
      notifyError(new Error(`${file.name} (${formatBytes(file.size)}) is not the file this upload began with: ${partial.file_name}${partial.size !== null ? ` (${formatBytes(partial.size)})` : ''}`), 'Not the same file');
      return;
    }
    startUpload(
      'images',
      (key, onChange) => imageUploadTask(api, file, key, onChange, { uploadId: partial.upload_id, received: partial.received }),
      () => void queryClient.invalidateQueries({ queryKey: keys.osImages }),
    );
    void queryClient.invalidateQueries({ queryKey: keys.osImageUploads });
  };
  return (
    <Card withBorder component="section" aria-label="Partial uploads">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Partial uploads
        </Text>
        <Text size="xs" c="dimmed">
          Uploads that broke off. Resume sends the rest of the same file; a partial upload without new bytes for a day is removed.
        </Text>
        {partials.map((partial) => (
          <Group key={partial.upload_id} justify="space-between" wrap="wrap" gap="xs" role="group" aria-label={`Partial upload ${partial.file_name}`}>
            <div>
              <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                {partial.file_name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(partial.received)}
                {partial.size !== null ? ` of ${formatBytes(partial.size)}` : ''} · last bytes {formatRelative(partial.updated_at)}
              </Text>
            </div>
            <Group gap={4}>
              {canResume && (
                <FileButton onChange={(file) => resume(partial, file)} accept=".iso,.img">
                  {(props) => (
                    <Button size="compact-xs" {...props} aria-label={`Resume upload ${partial.file_name}`}>
                      Resume…
                    </Button>
                  )}
                </FileButton>
              )}
              <Button
                size="compact-xs"
                variant="light"
                color="red"
                aria-label={`Discard upload ${partial.file_name}`}
                onClick={async () => {
                  if (await confirm({ title: `Discard ${partial.file_name}?`, message: 'The bytes received so far are deleted.', confirmLabel: 'Discard' })) discard.mutate(partial);
                }}
              >
                Discard
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
