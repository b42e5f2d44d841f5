import { ActionIcon, Alert, Button, Card, Group, Select, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { BOOT_TYPES, type Profile, type ProfileWrite } from '@contracts/profiles';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { fieldPath } from '../../components/form-errors.js';
import { SaveButtons } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { BOOT_TYPE_LABELS } from './boot-type-labels.js';
import { profileBody, profileErrorPath, profileProblems, profileToForm, type ProfileForm } from './profile-form-model.js';
import { TypeSettings } from './TypeSettings.js';

/** Create (profile null) or edit a profile; a changed script or boot setting becomes a new version. */
export function ProfileEditor({ profile }: { profile: Profile | null }) {
  const readOnly = !useCan('operator');
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [formError, setFormError] = useState<string | null>(null);
  // A save's warnings (files the boot root lacks) stay on the page until dismissed or the next save; a create
  // hands them to the new profile's page through the navigation state.
  const location = useLocation();
  const [fileWarnings, setFileWarnings] = useState<string[]>(() => warningsFrom(location.state));
  const form = useForm<ProfileForm>({ initialValues: profileToForm(profile) });

  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(profileToForm(profile));
      form.resetDirty(profileToForm(profile));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profile]);

  const save = useApiAction(
    (api, body: ProfileWrite) => (profile ? api.profiles.update(profile.id, body) : api.profiles.create(body)),
    {
      invalidate: [keys.profiles, keys.hosts],
      notifyErrors: false,
      success: (saved) => (profile ? `Profile ${saved.name} saved (script version ${saved.script_version}).` : `Profile ${saved.name} created.`),
      onSuccess: (saved) => setFileWarnings(saved.warnings ?? []),
    },
  );
  const remove = useApiAction((api, target: Profile) => api.profiles.remove(target.id), {
    invalidate: [keys.profiles],
    errorTitle: 'The profile was not deleted',
    success: (deleted) => `Profile ${deleted.name} deleted.`,
    onSuccess: () => void navigate('/profiles'),
  });

  const submit = (values: ProfileForm) => {
    setFormError(null);
    form.clearErrors();
    const problems = profileProblems(values);
    if (Object.keys(problems).length > 0) {
      form.setErrors(problems);
      return;
    }
    save.mutate(profileBody(values), {
      onSuccess: (saved) => {
        const next = profileToForm(saved);
        form.setValues(next);
        form.resetDirty(next);
        if (!profile) void navigate(`/profiles/${saved.id}`, { replace: true, state: { fileWarnings: saved.warnings ?? [] } });
      },
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return setFormError(error.message);
        const unplaced: string[] = [];
        for (const detail of error.details) {
          const path = fieldPath(detail.field);
          const target = path ? profileErrorPath(path) : null;
          if (target) form.setFieldError(target, detail.message);
          else unplaced.push(`${detail.field}: ${detail.message}`);
        }
        setFormError(unplaced.length > 0 ? unplaced.join('; ') : null);
      },
    });
  };

  const values = form.getValues();
  const variablesError = form.errors.variables;
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label={profile ? `Profile ${profile.name}` : 'New profile'}>
      <Stack gap="md">
        {fileWarnings.length > 0 && (
          <Alert color="orange" role="alert" title="Saved, but the boot root lacks files this profile names" withCloseButton closeButtonLabel="Dismiss" onClose={() => setFileWarnings([])}>
            <Stack gap={2}>
              {fileWarnings.map((warning) => (
                <Text key={warning} size="sm">
                  {warning}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        {formError && (
          <Alert color="red" role="alert" title="Not saved">
            {formError}
          </Alert>
        )}
        <Card withBorder component="section" aria-labelledby="profile-general-title">
          <Title order={2} size="h4" id="profile-general-title" mb="sm">
            Profile
          </Title>
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput label="Name" withAsterisk disabled={readOnly} data-autofocus {...form.getInputProps('name')} />
              <Select
                label="Boot type"
                data={BOOT_TYPES.map((type) => ({ value: type, label: BOOT_TYPE_LABELS[type] }))}
                allowDeselect={false}
                disabled={readOnly}
                {...form.getInputProps('boot_type')}
              />
            </Group>
            <Textarea label="Description" autosize minRows={1} maxRows={4} disabled={readOnly} {...form.getInputProps('description')} />
            <TagsInput label="Default for host groups" description="Hosts of these groups without their own profile boot this one" placeholder="Type a group and press Enter" disabled={readOnly} {...form.getInputProps('default_for_groups')} />
          </Stack>
        </Card>

        <Card withBorder component="section" aria-labelledby="profile-boot-title">
          <Title order={2} size="h4" id="profile-boot-title" mb="sm">
            {BOOT_TYPE_LABELS[values.boot_type]}
          </Title>
          <TypeSettings form={form} readOnly={readOnly} selfId={profile?.id ?? null} generatedScript={profile && profile.boot_type === values.boot_type ? profile.script : null} />
        </Card>

        <Card withBorder component="section" aria-labelledby="profile-vars-title">
          <Title order={2} size="h4" id="profile-vars-title">
            Variables
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Templates see them as {'{{ variables.name }}'}.
          </Text>
          <Stack gap={6}>
            {values.variables.map((_, index) => (
              <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput aria-label={`Variable ${index + 1} name`} placeholder="name" w={220} disabled={readOnly} {...form.getInputProps(`variables.${index}.name`)} />
                <TextInput aria-label={`Variable ${index + 1} value`} placeholder="value" style={{ flex: 1 }} disabled={readOnly} {...form.getInputProps(`variables.${index}.value`)} />
                {!readOnly && (
                  <ActionIcon variant="default" size="lg" aria-label={`Remove variable ${index + 1}`} onClick={() => form.removeListItem('variables', index)}>
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                )}
              </Group>
            ))}
            {values.variables.length === 0 && (
              <Text size="sm" c="dimmed">
                No variables.
              </Text>
            )}
            {typeof variablesError === 'string' && (
              <Text size="xs" c="red" role="alert">
                {variablesError}
              </Text>
            )}
            {!readOnly && (
              <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem('variables', { name: '', value: '' })}>
                Add variable
              </Button>
            )}
          </Stack>
        </Card>

        {!readOnly && (
          <Group justify="space-between" align="flex-end">
            {profile ? (
              <Button
                variant="subtle"
                color="red"
                onClick={async () => {
                  if (await confirm({ title: `Delete profile ${profile.name}?`, message: 'The profile and all its script versions are deleted. It cannot be deleted while hosts, menus or the netboot default use it.', confirmLabel: 'Delete profile' })) {
                    remove.mutate(profile);
                  }
                }}
              >
                Delete profile
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs" align="flex-end">
              <TextInput label="Version comment" placeholder="What changed (optional)" w={280} {...form.getInputProps('comment')} />
              <SaveButtons dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel={profile ? 'Save profile' : 'Create profile'} />
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The warnings a create handed over in the navigation state (anything else: none). */
function warningsFrom(state: unknown): string[] {
  if (typeof state !== 'object' || state === null || !('fileWarnings' in state)) return [];
  const warnings = (state as { fileWarnings: unknown }).fileWarnings;
  return Array.isArray(warnings) ? warnings.filter((warning): warning is string => typeof warning === 'string') : [];
}
