import { Badge, Card, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import type { InstallTask } from '@contracts/netboot';
import { formatDateTime } from '../../format.js';
import { taskPhases } from './task-timeline.js';

const PHASE_COLORS = { reached: 'teal', waiting: 'gray', failed: 'red' } as const;
const PHASE_WORDS = { reached: 'reached', waiting: 'waiting', failed: 'failed' } as const;

/** The install's phases at a glance, then every recorded step with its time. */
export function TaskTimeline({ task }: { task: InstallTask }) {
  const phases = taskPhases(task);
  return (
    <Card withBorder component="section" aria-labelledby="task-timeline-title">
      <Title order={2} size="h4" id="task-timeline-title" mb="sm">
        Timeline
      </Title>
      <Stack gap="md">
        <Group gap={6} component="ol" className="plain-list" aria-label="Install phases" wrap="wrap">
          {phases.map((phase, index) => (
            <li key={phase.id} data-phase={phase.id} data-status={phase.status}>
              <Group gap={6} wrap="nowrap">
                {index > 0 && (
                  <Text span c="dimmed" aria-hidden="true">
                    →
                  </Text>
                )}
                <Badge color={PHASE_COLORS[phase.status]} variant={phase.status === 'reached' ? 'filled' : 'light'} radius="sm" style={{ textTransform: 'none' }} title={phase.at ? formatDateTime(phase.at) : undefined}>
                  {phase.label}
                  {phase.count > 1 ? ` ×${phase.count}` : ''}
                  <span className="visually-hidden">: {PHASE_WORDS[phase.status]}</span>
                </Badge>
              </Group>
            </li>
          ))}
        </Group>
        {task.timeline.length === 0 ? (
          <Text c="dimmed" size="sm" role="status">
            Nothing yet: the machine has not booted since the task was created. Power it on or wake it to start.
          </Text>
        ) : (
          <Timeline active={task.timeline.length - 1} bulletSize={14} lineWidth={2} aria-label="Task events">
            {task.timeline.map((item, index) => (
              <Timeline.Item
                key={`${item.at}-${index}`}
                color={item.kind.includes('fail') || item.state === 'failed' ? 'red' : undefined}
                title={
                  <Group gap={6}>
                    <Text size="sm" fw={500}>
                      {item.message}
                    </Text>
                    {item.state && (
                      <Badge size="xs" variant="light" radius="sm" style={{ textTransform: 'none' }}>
                        {item.state}
                      </Badge>
                    )}
                  </Group>
                }
              >
                <Text size="xs" c="dimmed">
                  {formatDateTime(item.at)} · <span className="mono">{item.kind}</span>
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Card>
  );
}
