import { Group, Text, TextInput } from '@mantine/core';
import type { TableController } from './use-table-params.js';
import { localTimeZone } from '../format.js';

/** `datetime-local` (local time, no zone) ↔ RFC 3339 UTC as the API wants it. */
export function localToIso(value: string): string {
  if (value === '') return '';
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

export function isoToLocal(value: string): string {
  if (value === '') return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** `since` / `until` filters of a table as two local date-time inputs. */
export function DateRangeFilter({ table }: { table: TableController<string> }) {
  const zone = localTimeZone();
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" aria-hidden="true">
        From
      </Text>
      <TextInput type="datetime-local" aria-label={`From (${zone})`} title={`From, in ${zone}`} value={isoToLocal(table.filters.since ?? '')} onChange={(event) => table.setFilter('since', localToIso(event.currentTarget.value))} w={200} />
      <Text size="sm" c="dimmed" aria-hidden="true">
        until
      </Text>
      <TextInput type="datetime-local" aria-label={`Until (${zone})`} title={`Until, in ${zone}`} value={isoToLocal(table.filters.until ?? '')} onChange={(event) => table.setFilter('until', localToIso(event.currentTarget.value))} w={200} />
    </Group>
  );
}
