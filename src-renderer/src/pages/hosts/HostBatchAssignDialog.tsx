import type { HostBatchAssign } from '@contracts/hosts';
import { Select, TagsInput, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../api/api-error.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useProfileOptions } from './use-profile-options.js';

const KEEP = 'keep';
const NONE = 'none';

/**
 * POST /hosts/batch/assign for the hosts selected in the table: a profile,
 * group or enabled flag for all of them, tags added or removed. Fields left
 * as "unchanged" are not sent; the change applies to every host or to none.
 */
export function HostBatchAssignDialog({ ids, opened, onClose, onDone }: { ids: number[]; opened: boolean; onClose: () => void; onDone: () => void }) {
  const { options } = useProfileOptions();
  const [profile, setProfile] = useState<string>(KEEP);
  const [group, setGroup] = useState('');
  const [enabled, setEnabled] = useState<string>(KEEP);
  const [addTags, setAddTags] = useState<string[]>([]);
  const [removeTags, setRemoveTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const assign = useApiAction((api, change: HostBatchAssign) => api.hosts.assignMany(change), {
    invalidate: [keys.hosts],
    notifyErrors: false,
    success: (result) => `${result.count} host(s) updated.`,
    onSuccess: () => {
      onDone();
      close();
    },
  });
  const close = () => {
    setProfile(KEEP);
    setGroup('');
    setEnabled(KEEP);
    setAddTags([]);
    setRemoveTags([]);
    setError(null);
    onClose();
  };
  const change = (): HostBatchAssign => {
    const body: HostBatchAssign = { ids };
    if (profile !== KEEP) body.profile_id = profile === NONE ? null : Number(profile);
    if (group.trim() !== '') body.group = group.trim() === '-' ? null : group.trim();
    if (enabled !== KEEP) body.enabled = enabled === 'true';
    if (addTags.length > 0 || removeTags.length > 0) body.tags = { ...(addTags.length > 0 ? { add: addTags } : {}), ...(removeTags.length > 0 ? { remove: removeTags } : {}) };
    return body;
  };
  const nothing = Object.keys(change()).length < 2;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (nothing) {
      setError('Choose at least one change.');
      return;
    }
    setError(null);
    assign.mutate(change(), { onError: (err) => setError(isApiError(err) && err.details.length > 0 ? `${err.message}: ${err.details.map((d) => d.message).join('; ')}` : err.message) });
  };
  return (
    <FormDialog opened={opened} onClose={close} title={`Assign to ${ids.length} selected host(s)`} onSubmit={submit} error={error} submitLabel="Apply to all" pending={assign.isPending}>
      <Select label="Profile" data={[{ value: KEEP, label: 'Unchanged' }, { value: NONE, label: 'None (the default)' }, ...options]} value={profile} onChange={(value) => setProfile(value ?? KEEP)} allowDeselect={false} />
      <TextInput label="Group" description="Empty: unchanged; “-”: no group" value={group} onChange={(event) => setGroup(event.currentTarget.value)} />
      <Select
        label="Enabled"
        data={[
          { value: KEEP, label: 'Unchanged' },
          { value: 'true', label: 'Enabled' },
          { value: 'false', label: 'Disabled (boot from local disk)' },
        ]}
        value={enabled}
        onChange={(value) => setEnabled(value ?? KEEP)}
        allowDeselect={false}
      />
      <TagsInput label="Add tags" placeholder="Type and press Enter" value={addTags} onChange={setAddTags} />
      <TagsInput label="Remove tags" placeholder="Type and press Enter" value={removeTags} onChange={setRemoveTags} />
    </FormDialog>
  );
}
