import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ImageState, OsImage } from '@contracts/os-images';
import { detectionSummary, FAMILY_LABELS } from './image-labels.js';

const STATE_COLORS: Record<ImageState, string> = { ready: 'teal', processing: 'blue', error: 'red' };

/** ready / processing / error, with the error's message beside it. */
export function ImageStateBadge({ image, withError = true }: { image: Pick<OsImage, 'state' | 'error'>; withError?: boolean }) {
  return (
    <Group gap={4} wrap="wrap">
      <Badge color={STATE_COLORS[image.state]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
        {image.state}
      </Badge>
      {withError && image.error && (
        <Text size="xs" c="red" style={{ wordBreak: 'break-word' }}>
          {image.error}
        </Text>
      )}
    </Group>
  );
}

/** The detected OS: family badge and "distro version · arch"; "not detected yet" before detection. */
export function DetectedOs({ image }: { image: Pick<OsImage, 'detection'> }) {
  const summary = detectionSummary(image);
  if (!image.detection || summary === null) {
    return (
      <Text size="sm" c="dimmed">
        not detected yet
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap" miw={150}>
      <Badge variant="outline" radius="sm" style={{ textTransform: 'none' }}>
        {FAMILY_LABELS[image.detection.family]}
      </Badge>
      <Text size="sm">{summary}</Text>
    </Group>
  );
}

/** Mounted (with its URL path) and extracted markers. */
export function ServedBadges({ image }: { image: Pick<OsImage, 'mounted' | 'extracted'> }) {
  if (!image.mounted && !image.extracted) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap" align="flex-start" miw={140}>
      {image.mounted && (
        <Stack gap={0}>
          <Badge color="grape" variant="light" radius="sm" style={{ textTransform: 'none' }}>
            mounted
          </Badge>
          <Text size="xs" className="mono" style={{ wordBreak: 'break-all' }} aria-label="Mounted under">
            {image.mounted.url_path}
          </Text>
        </Stack>
      )}
      {image.extracted && (
        <Badge color="cyan" variant="light" radius="sm" style={{ textTransform: 'none' }}>
          extracted ({image.extracted.mode})
        </Badge>
      )}
    </Group>
  );
}
