import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  running: 'teal',
  starting: 'yellow',
  stopping: 'yellow',
  stopped: 'gray',
  failed: 'red',
  info: 'blue',
  warn: 'orange',
  error: 'red',
  on: 'teal',
  off: 'gray',
  unknown: 'yellow',
  active: 'teal',
  expired: 'gray',
  sent: 'teal',
  success: 'teal',
  failure: 'red',
  ok: 'teal',
  partial: 'orange',
  missed: 'orange',
  warning: 'orange',
  succeeded: 'teal',
  skipped: 'gray',
  timeout: 'orange',
  in_progress: 'blue',
  booted: 'teal',
  installing: 'grape',
};

/** A state word with a colour that matches it in both themes (the word itself carries the meaning). */
export function StatusBadge({ value, label }: { value: string; label?: string }) {
  return (
    <Badge color={COLORS[value] ?? 'gray'} variant="light" radius="sm" style={{ textTransform: 'none', maxWidth: 'none', flexShrink: 0 }}>
      {label ?? value}
    </Badge>
  );
}

export function levelColor(level: string): string {
  return COLORS[level] ?? 'gray';
}
