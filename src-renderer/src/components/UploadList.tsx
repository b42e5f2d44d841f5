import { Alert, Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import type { UploadSnapshot } from '../api/upload-task.js';
import { formatBytes } from '../format.js';
import { cancelUpload, dismissUpload, retryUpload } from './upload-store.js';

const PHASE_COLORS: Record<UploadSnapshot['phase'], string> = {
  uploading: 'blue',
  interrupted: 'orange',
  conflict: 'orange',
  failed: 'red',
  done: 'teal',
  cancelled: 'gray',
};

/** "1.2 GiB of 4.0 GiB · 30 % · 85.0 MiB/s" */
export function describeProgress(upload: UploadSnapshot): string {
  const parts = [`${formatBytes(upload.sent)} of ${formatBytes(upload.size)}`, `${upload.percent} %`];
  if (upload.phase === 'uploading' && upload.rate !== null) parts.push(`${formatBytes(Math.round(upload.rate))}/s`);
  return parts.join(' · ');
}

function UploadRow({ upload, overwriteLabel }: { upload: UploadSnapshot; overwriteLabel: string }) {
  const active = upload.phase === 'uploading';
  return (
    <Stack gap={4} role="group" aria-label={`Upload ${upload.name}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
          {upload.name}
        </Text>
        <Group gap={4}>
          {active && (
            <Button size="compact-xs" variant="default" onClick={() => cancelUpload(upload.key)} aria-label={`Cancel upload ${upload.name}`}>
              Cancel
            </Button>
          )}
          {upload.phase === 'interrupted' && (
            <>
              <Button size="compact-xs" onClick={() => retryUpload(upload.key)} aria-label={`Retry upload ${upload.name}`}>
                Retry
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => cancelUpload(upload.key)} aria-label={`Cancel upload ${upload.name}`}>
                Cancel
              </Button>
            </>
          )}
          {upload.phase === 'conflict' && (
            <Button size="compact-xs" color="orange" onClick={() => retryUpload(upload.key, { overwrite: true })} aria-label={`${overwriteLabel} ${upload.name}`}>
              {overwriteLabel}
            </Button>
          )}
          {upload.phase === 'failed' && (
            <Button size="compact-xs" variant="default" onClick={() => retryUpload(upload.key)} aria-label={`Retry upload ${upload.name}`}>
              Retry
            </Button>
          )}
          {!active && upload.phase !== 'interrupted' && (
            <Button size="compact-xs" variant="subtle" onClick={() => dismissUpload(upload.key)} aria-label={`Dismiss upload ${upload.name}`}>
              Dismiss
            </Button>
          )}
        </Group>
      </Group>
      <Progress value={upload.percent} color={PHASE_COLORS[upload.phase]} animated={active} aria-label={`Upload progress of ${upload.name}`} />
      <Text size="xs" c="dimmed" aria-live="polite">
        {upload.phase === 'done' ? `Uploaded ${formatBytes(upload.size)}` : upload.phase === 'cancelled' ? 'Cancelled' : describeProgress(upload)}
        {upload.phase === 'interrupted' && ' · interrupted: Retry goes on from what the server kept'}
      </Text>
      {upload.error && upload.phase !== 'interrupted' && (
        <Alert color={upload.phase === 'conflict' ? 'orange' : 'red'} p="xs" role="alert">
          <Text size="sm">{upload.error}</Text>
        </Alert>
      )}
      {upload.error && upload.phase === 'interrupted' && (
        <Text size="xs" c="orange.8">
          {upload.error}
        </Text>
      )}
    </Stack>
  );
}

/** The uploads of a page, each with a progress bar (bytes, percent, rate) and its actions. */
export function UploadList({ uploads, title = 'Uploads', overwriteLabel = 'Overwrite' }: { uploads: UploadSnapshot[]; title?: string; overwriteLabel?: string }) {
  if (uploads.length === 0) return null;
  return (
    <Card withBorder component="section" aria-label={title}>
      <Stack gap="sm">
        <Text fw={600} size="sm">
          {title}
        </Text>
        {uploads.map((upload) => (
          <UploadRow key={upload.key} upload={upload} overwriteLabel={overwriteLabel} />
        ))}
      </Stack>
    </Card>
  );
}
