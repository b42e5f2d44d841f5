import type { EventData as AppEvent } from '@contracts/events';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { levelColor } from '../../components/StatusBadge.js';
import { formatDateTime } from '../../format.js';

/** Events as compact lines: level (coloured, and spelled out), kind, message, time. */
export function EventList({ events, label }: { events: AppEvent[]; label: string }) {
  return (
    <Stack gap={6} component="ol" aria-label={label} className="plain-list" aria-live="polite">
      {events.map((event) => (
        <Group key={event.id} component="li" gap="xs" wrap="nowrap" align="flex-start" data-event-id={event.id}>
          <Badge color={levelColor(event.level)} variant="light" w={54} radius="sm" style={{ flexShrink: 0 }}>
            {event.level}
          </Badge>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" className="pre-wrap">
              {event.message}
            </Text>
            <Text size="xs" c="dimmed">
              <span className="mono">{event.kind}</span> · {formatDateTime(event.created_at)}
            </Text>
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}
