import { Card, MultiSelect, SimpleGrid, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useProfileOptions } from '../hosts/use-profile-options.js';
import { useHostOptions } from '../power/use-host-options.js';
import type { BaselineForm } from './baseline-form-model.js';

const TASK_OPTIONS = { size: 500, sort: '-id' };

/** Install tasks for the picker: newest first, named by distro and MAC. */
function useTaskOptions() {
  const query = useApiPage([...keys.netbootTasks, 'options'], TASK_OPTIONS, (api, params) => api.netboot.tasks.list(params));
  return (query.data?.data ?? []).map((task) => ({ value: String(task.id), label: `#${task.id} ${task.distro} ${task.version} (${task.mac})` }));
}

/**
 * Who the baseline is for. A machine gets the baseline of its host, else its
 * group, a tag, its install task, its profile, else the default; the server
 * refuses a target that another baseline already has.
 */
export function AssignmentEditor({ form, readOnly }: { form: UseFormReturnType<BaselineForm>; readOnly: boolean }) {
  const hosts = useHostOptions();
  const profiles = useProfileOptions();
  const tasks = useTaskOptions();
  return (
    <Card withBorder component="section" aria-labelledby="baseline-assign-title">
      <Title order={2} size="h4" id="baseline-assign-title">
        Assignment
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Strongest first: host, group, tag, install task, profile, then the default. A target belongs to one baseline only.
      </Text>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <MultiSelect label="Hosts" placeholder="Choose hosts" data={hosts.options} searchable disabled={readOnly} {...form.getInputProps('assign.host_ids')} />
          <MultiSelect label="Profiles" placeholder="Choose profiles" data={profiles.options} searchable disabled={readOnly} {...form.getInputProps('assign.profile_ids')} />
          <TagsInput label="Host groups" placeholder="Type a group and press Enter" disabled={readOnly} {...form.getInputProps('assign.groups')} />
          <TagsInput label="Host tags" placeholder="Type a tag and press Enter" disabled={readOnly} {...form.getInputProps('assign.tags')} />
          <MultiSelect label="Install tasks" placeholder="Choose install tasks" data={tasks} searchable disabled={readOnly} {...form.getInputProps('assign.task_ids')} />
        </SimpleGrid>
        <Switch label="Default baseline (for machines no other rule matches)" disabled={readOnly} {...form.getInputProps('assign.is_default', { type: 'checkbox' })} />
      </Stack>
    </Card>
  );
}
