import { Group, Select, Text, TextInput } from '@mantine/core';
import { ProfileFromNetbootSchema, type CatalogEntryView, type ProfileFromNetboot } from '@contracts/netboot';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const NAME = ProfileFromNetbootSchema.properties.name;

/** POST /profiles/from-netboot: the entry (version, arch) as a normal boot profile, then open it. */
export function ProfileFromEntryDialog({ entry, onClose }: { entry: CatalogEntryView | null; onClose: () => void }) {
  const navigate = useNavigate();
  const [version, setVersion] = useState<string | null>(null);
  const [arch, setArch] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!entry) return;
    const initial = entry.versions.find((candidate) => candidate.default) ?? entry.versions[0];
    setVersion(initial?.version ?? null);
    setArch(initial?.architectures[0]?.arch ?? null);
    setName(initial ? `${entry.name} ${initial.version}` : entry.name);
    setNameError(null);
    setFormError(null);
  }, [entry]);

  const chosen = entry?.versions.find((candidate) => candidate.version === version);
  const create = useApiAction((api, body: ProfileFromNetboot) => api.netboot.profileFromEntry(body), {
    invalidate: [keys.profiles],
    notifyErrors: false,
    success: (profile) => `Profile ${profile.name} created.`,
    onSuccess: (profile) => {
      onClose();
      void navigate(`/profiles/${profile.id}`);
    },
  });

  return (
    <FormDialog
      opened={entry !== null}
      onClose={onClose}
      title={entry ? `Create a profile from ${entry.name}` : ''}
      onSubmit={(event) => {
        event.preventDefault();
        if (!entry) return;
        const trimmed = name.trim();
        if (!Value.Check(NAME, trimmed)) return setNameError('1 to 64 characters');
        setNameError(null);
        const archValue = chosen?.architectures.find((candidate) => candidate.arch === arch)?.arch;
        create.mutate(
          { distro: entry.distro, ...(version ? { version } : {}), ...(archValue ? { arch: archValue } : {}), name: trimmed },
          { onError: (error) => setFormError(applyServerErrors({ setFieldError: (_path, message) => setNameError(message) }, error, { fields: ['name'] })) },
        );
      }}
      error={formError}
      submitLabel="Create profile"
      pending={create.isPending}
    >
      <Text size="sm" c="dimmed">
        The profile boots the installer without an install task (no answer file): machines assigned to it start the installer every time they boot.
      </Text>
      <Group grow align="flex-start">
        <Select label="Version" data={(entry?.versions ?? []).map((candidate) => ({ value: candidate.version, label: candidate.name }))} value={version} onChange={(value) => { setVersion(value); setArch(entry?.versions.find((candidate) => candidate.version === value)?.architectures[0]?.arch ?? null); }} allowDeselect={false} />
        <Select label="Architecture" data={(chosen?.architectures ?? []).map((candidate) => candidate.arch)} value={arch} onChange={setArch} allowDeselect={false} />
      </Group>
      <TextInput label="Profile name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={nameError} withAsterisk />
    </FormDialog>
  );
}
