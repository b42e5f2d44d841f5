import { Anchor, Group, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { AFTER_INSTALL, TaskCreateSchema, type AfterInstall, type InstallTask, type NetbootArch, type TaskCreate } from '@contracts/netboot';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Value } from 'typebox/value';
import { FormDialog } from '../../components/kit/index.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useHostOptions } from '../power/use-host-options.js';
import { AFTER_INSTALL_LABELS, ANSWER_KIND_LABELS, AvailabilityBadge } from './netboot-labels.js';
import { targetKey } from './prefetch-progress.js';
import { useCatalogOptions, useFilesCheck, useTemplateOptions } from './use-netboot-options.js';
import { rowsToVariables, VariableRows, type VariableRow } from './variable-rows.js';

/** What the dialog starts with: a host (from its page) and/or an entry (from the catalog). */
export interface TaskPreset {
  hostId?: number;
  distro?: string;
  version?: string;
  arch?: NetbootArch;
}

interface Errors {
  target?: string;
  distro?: string;
  template?: string;
  expires?: string;
}

const EXPIRES = TaskCreateSchema.properties.expires_in_minutes;

/**
 * "Install an OS": a host (or a bare MAC), a catalog entry with version and
 * architecture (each shown with where its files are), an answer template of
 * the entry's kind, variables and what the machine boots afterwards.
 */
export function CreateTaskDialog({ opened, onClose, preset = {}, onCreated }: { opened: boolean; onClose: () => void; preset?: TaskPreset; onCreated?: (task: InstallTask) => void }) {
  const hosts = useHostOptions();
  const catalog = useCatalogOptions();
  const files = useFilesCheck();
  const [by, setBy] = useState<'host' | 'mac'>('host');
  const [hostId, setHostId] = useState<string | null>(preset.hostId ? String(preset.hostId) : null);
  const [mac, setMac] = useState('');
  const [distro, setDistro] = useState<string | null>(preset.distro ?? null);
  const [version, setVersion] = useState<string | null>(preset.version ?? null);
  const [arch, setArch] = useState<string | null>(preset.arch ?? null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [rows, setRows] = useState<VariableRow[]>([]);
  const [afterInstall, setAfterInstall] = useState<AfterInstall>('local_disk');
  const [expires, setExpires] = useState<number | string>('');
  const [errors, setErrors] = useState<Errors>({});
  const [rowProblems, setRowProblems] = useState<Record<number, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  // A fresh form each time it opens, with the preset of the moment.
  useEffect(() => {
    if (!opened) return;
    setBy('host');
    setHostId(preset.hostId ? String(preset.hostId) : null);
    setMac('');
    setDistro(preset.distro ?? null);
    setVersion(preset.version ?? null);
    setArch(preset.arch ?? null);
    setTemplateId(null);
    setRows([]);
    setAfterInstall('local_disk');
    setExpires('');
    setErrors({});
    setRowProblems({});
    setFormError(null);
  }, [opened, preset.hostId, preset.distro, preset.version, preset.arch]);

  const entry = distro ? catalog.byDistro.get(distro) : undefined;
  const kind = entry?.answer?.kind ?? null;
  const templates = useTemplateOptions(kind);
  const versions = entry?.versions ?? [];
  const chosenVersion = versions.find((candidate) => candidate.version === version);
  const architectures = chosenVersion?.architectures ?? [];

  // Follow the entry: its default version, then the version's first architecture.
  useEffect(() => {
    if (!entry) return;
    if (!entry.versions.some((candidate) => candidate.version === version)) {
      setVersion((entry.versions.find((candidate) => candidate.default) ?? entry.versions[0])?.version ?? null);
    }
  }, [entry, version]);
  useEffect(() => {
    if (!chosenVersion) return;
    if (!chosenVersion.architectures.some((candidate) => candidate.arch === arch)) setArch(chosenVersion.architectures[0]?.arch ?? null);
  }, [chosenVersion, arch]);
  // A template of another kind does not fit the new entry.
  useEffect(() => {
    if (templateId !== null && !templates.options.some((option) => option.value === templateId)) setTemplateId(null);
  }, [templateId, templates.options]);

  const check = distro && version && arch ? files.byTarget.get(targetKey({ distro, version, arch })) : undefined;
  const archOptions = useMemo(
    () =>
      architectures.map((candidate) => {
        const availability = distro && version ? files.byTarget.get(targetKey({ distro, version, arch: candidate.arch }))?.availability : undefined;
        return { value: candidate.arch, label: `${candidate.arch} (${candidate.firmware.join(', ')})${availability ? ` · ${availability}` : ''}` };
      }),
    [architectures, distro, version, files.byTarget],
  );

  const create = useApiAction((api, body: TaskCreate) => api.netboot.tasks.create(body), {
    invalidate: [keys.netbootTasks],
    notifyErrors: false,
    success: (task) => `Install task #${task.id} created: ${task.distro} ${task.version} on ${task.mac}.`,
    onSuccess: (task) => {
      onClose();
      onCreated?.(task);
    },
  });

  const submit = () => {
    setFormError(null);
    const next: Errors = {};
    if (by === 'host' && hostId === null) next.target = 'Choose the host to install';
    if (by === 'mac' && mac.trim() === '') next.target = 'The MAC address of the machine to install';
    if (!distro || !version || !arch) next.distro = 'Choose the operating system, version and architecture';
    if (kind && templateId === null) next.template = `Choose a ${ANSWER_KIND_LABELS[kind]} template: the installer needs its answers`;
    const minutes = expires === '' ? undefined : Number(expires);
    if (minutes !== undefined && !Value.Check(EXPIRES, minutes)) next.expires = '5 to 43200 minutes';
    const { variables, problems } = rowsToVariables(rows);
    setErrors(next);
    setRowProblems(problems);
    const archValue = architectures.find((candidate) => candidate.arch === arch)?.arch;
    if (Object.keys(next).length > 0 || Object.keys(problems).length > 0 || !distro || !version || !archValue) return;
    const body: TaskCreate = {
      ...(by === 'host' ? { host_id: Number(hostId) } : { mac: mac.trim() }),
      distro,
      version,
      arch: archValue,
      template_id: templateId === null ? null : Number(templateId),
      after_install: afterInstall,
      ...(Object.keys(variables).length > 0 ? { variables } : {}),
      ...(minutes !== undefined ? { expires_in_minutes: minutes } : {}),
    };
    create.mutate(body, {
      onError: (error) =>
        setFormError(
          applyServerErrors(
            {
              setFieldError: (path, message) =>
                setErrors((current) => ({ ...current, ...(path === 'host_id' || path === 'mac' ? { target: message } : path === 'template_id' ? { template: message } : path === 'expires_in_minutes' ? { expires: message } : { distro: message }) })),
            },
            error,
            { fields: ['host_id', 'mac', 'distro', 'version', 'arch', 'template_id', 'expires_in_minutes'] },
          ),
        ),
    });
  };

  const fixedHost = preset.hostId !== undefined;
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Install an operating system"
      size="lg"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      error={formError}
      submitLabel="Create install task"
      pending={create.isPending}
    >
      {!fixedHost && <SegmentedControl aria-label="Install on" value={by} onChange={(value) => setBy(value === 'mac' ? 'mac' : 'host')} data={[{ value: 'host', label: 'A host' }, { value: 'mac', label: 'A MAC address' }]} w="fit-content" />}
      {by === 'host' ? (
        <Select label="Host" data={hosts.options} searchable value={hostId} onChange={setHostId} disabled={fixedHost} error={errors.target} withAsterisk />
      ) : (
        <TextInput label="MAC address" placeholder="52:54:00:12:34:56" value={mac} onChange={(event) => setMac(event.currentTarget.value)} error={errors.target} withAsterisk />
      )}
      <Select
        label="Operating system"
        data={catalog.entries.map((candidate) => ({ value: candidate.distro, label: candidate.name }))}
        searchable
        value={distro}
        onChange={setDistro}
        error={errors.distro}
        withAsterisk
        nothingFoundMessage="No catalog entry matches"
      />
      <Group grow align="flex-start">
        <Select label="Version" data={versions.map((candidate) => ({ value: candidate.version, label: candidate.name }))} value={version} onChange={setVersion} allowDeselect={false} disabled={!entry} />
        <Select label="Architecture" data={archOptions} value={arch} onChange={setArch} allowDeselect={false} disabled={!chosenVersion} />
      </Group>
      {check && (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm">Boot files:</Text>
          <AvailabilityBadge availability={check.availability} problem={check.problem} />
          {check.problem && (
            <Text size="sm" c="red">
              {check.problem}
            </Text>
          )}
        </Group>
      )}
      {entry && kind === null && <Text size="sm" c="dimmed">{entry.name} runs without an answer file.</Text>}
      {kind && (
        <Select
          label={`Answer template (${ANSWER_KIND_LABELS[kind]})`}
          data={templates.options}
          value={templateId}
          onChange={setTemplateId}
          searchable
          error={errors.template}
          withAsterisk
          nothingFoundMessage="No template of this kind"
          description={
            templates.options.length === 0 && !templates.query.isPending ? (
              <>
                No {ANSWER_KIND_LABELS[kind]} template yet.{' '}
                <Anchor component={Link} to="/netboot/templates" size="xs">
                  Create one from a preset
                </Anchor>
              </>
            ) : undefined
          }
        />
      )}
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Variables
        </Text>
        <Text size="xs" c="dimmed">
          On top of the template's own (hostname, disk, packages…): the answer file sees them as {'{{ variables.name }}'}.
        </Text>
        <VariableRows rows={rows} onChange={setRows} problems={rowProblems} />
      </Stack>
      <Group grow align="flex-start">
        <Select label="After the install" data={AFTER_INSTALL.map((value) => ({ value, label: AFTER_INSTALL_LABELS[value] }))} value={afterInstall} onChange={(value) => setAfterInstall(AFTER_INSTALL.find((candidate) => candidate === value) ?? 'local_disk')} allowDeselect={false} />
        <NumberInput label="Expires after (minutes)" description="Empty: the server's default" min={5} max={43_200} allowDecimal={false} value={expires} onChange={setExpires} error={errors.expires} />
      </Group>
    </FormDialog>
  );
}
