import type { BootFileCheck, BootloaderCheckReport, BootloaderFile, CheckArchitecture, CheckArchitectureId, CheckProblem, ProfileFileCheck } from '@contracts/boot-files';
import { Alert, Badge, Button, Card, Group, List, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const SEVERITY_COLOR: Record<CheckProblem['severity'], string> = { error: 'red', warning: 'orange', info: 'gray' };

function worstSeverity(problems: readonly { severity: CheckProblem['severity'] }[]): CheckProblem['severity'] {
  return problems.some((p) => p.severity === 'error') ? 'error' : problems.some((p) => p.severity === 'warning') ? 'warning' : 'info';
}

function FileResult({ file }: { file: BootFileCheck }) {
  if (file.problems.length > 0) {
    return <StatusBadge value={worstSeverity(file.problems)} label={file.problems.map((p) => p.code).join(', ')} />;
  }
  if (!file.present) return <StatusBadge value="warning" label="missing" />;
  return <StatusBadge value="ok" />;
}

function FileRows({ files }: { files: BootFileCheck[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs">
        <caption className="visually-hidden">Checked boot files</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Root</Table.Th>
            <Table.Th>Architecture</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>Format</Table.Th>
            <Table.Th>Checksum</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr key={`${file.root}/${file.name}`}>
              <Table.Th scope="row" className="mono" fw="normal">
                {file.name}
              </Table.Th>
              <Table.Td className="mono">{file.root}</Table.Td>
              <Table.Td>{file.architecture ?? <Dim />}</Table.Td>
              <Table.Td ta="right" className="nowrap">{formatBytes(file.size)}</Table.Td>
              <Table.Td>{file.format ?? <Dim />}</Table.Td>
              <Table.Td>{file.checksum}</Table.Td>
              <Table.Td>
                <FileResult file={file} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const PROFILE_FILE_TEXT: Record<ProfileFileCheck['state'], string> = {
  present: 'in the boot root',
  served: 'served by Bootwright',
  missing: 'missing',
  refused: 'outside the boot root',
  remote: 'remote, not checked',
  templated: 'built at boot, not checked',
};

/** The kernels, initrds and URLs the profiles name (GET /bootloader/check, `profiles`). */
function ProfileFileRows({ files }: { files: ProfileFileCheck[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs">
        <caption className="visually-hidden">Files the profiles name</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Profile</Table.Th>
            <Table.Th>Field</Table.Th>
            <Table.Th>File</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr key={`${file.profile_id}/${file.field}`}>
              <Table.Td>{file.profile_name}</Table.Td>
              <Table.Td className="mono">{file.field}</Table.Td>
              <Table.Td className="mono pre-wrap">{file.path}</Table.Td>
              <Table.Td>
                <StatusBadge
                  value={file.state === 'missing' || file.state === 'refused' ? 'warning' : 'ok'}
                  label={PROFILE_FILE_TEXT[file.state]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ProblemList({ problems, label }: { problems: CheckProblem[]; label: string }) {
  return (
    <Stack gap="xs" component="ul" className="plain-list" aria-label={label}>
      {problems.map((problem, index) => (
        <Alert component="li" key={index} color={SEVERITY_COLOR[problem.severity]} title={`${problem.name}: ${problem.message}`}>
          <Text size="sm">
            <strong>Fix:</strong> {problem.fix}
          </Text>
          <Text size="xs" c="dimmed">
            {problem.code} · {problem.root}
          </Text>
        </Alert>
      ))}
    </Stack>
  );
}

function seenText(arch: CheckArchitecture): string {
  const parts = [
    arch.seen_by.leases > 0 ? `${arch.seen_by.leases} in leases` : null,
    arch.seen_by.events > 0 ? `${arch.seen_by.events} in DHCP events` : null,
    arch.seen_by.hosts > 0 ? `${arch.seen_by.hosts} host${arch.seen_by.hosts === 1 ? '' : 's'}` : null,
  ].filter((part) => part !== null);
  return `${arch.machines} machine${arch.machines === 1 ? '' : 's'} (${parts.join(', ')})`;
}

function loaderText(arch: CheckArchitecture): string {
  if (arch.loader === null) return 'iPXE (architecture map)';
  const loader = arch.loader === 'grub' ? 'signed shim → GRUB' : 'iPXE';
  return arch.grub && arch.loader !== 'grub' ? `${loader}; GRUB for some (${arch.grub_reasons.join('; ')})` : loader;
}

function ArchitectureResult({ arch }: { arch: CheckArchitecture }) {
  if (arch.errors > 0) return <StatusBadge value="error" label={`${arch.errors} error(s)`} />;
  if (arch.warnings > 0) return <StatusBadge value="warning" label={`${arch.warnings} warning(s)`} />;
  if (arch.infos > 0) return <StatusBadge value="skipped" label={`${arch.infos} note(s)`} />;
  return <StatusBadge value="ok" />;
}

/** The architectures machines were seen with, most machines first: what they get and whether it is all there. */
function SeenArchitectures({ architectures }: { architectures: CheckArchitecture[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs">
        <caption className="visually-hidden">Architectures machines were seen with</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Architecture</Table.Th>
            <Table.Th>Seen</Table.Th>
            <Table.Th>First loader</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {architectures.map((arch) => (
            <Table.Tr key={arch.id}>
              <Table.Th scope="row" fw="normal">
                {arch.name}
              </Table.Th>
              <Table.Td>{seenText(arch)}</Table.Td>
              <Table.Td>{loaderText(arch)}</Table.Td>
              <Table.Td>
                <ArchitectureResult arch={arch} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Ignore / Stop ignoring per architecture with problems (PUT /bootloader/check/ignored-architectures): an
 * ignored architecture's problems are information, folded last, and raise no alert.
 */
function IgnoreArchitectures({ check }: { check: BootloaderCheckReport }) {
  const canEdit = useCan('operator');
  const save = useApiAction((api, architectures: CheckArchitectureId[]) => api.bootFiles.bootloaders.setIgnored(architectures), {
    invalidate: [keys.bootloaders, keys.alerts],
    success: (saved) => (saved.architectures.length === 0 ? 'The check ignores no architecture.' : `The check ignores ${saved.architectures.length} architecture(s).`),
  });
  const listed = check.architectures.filter((arch) => arch.ignored || arch.errors + arch.warnings + arch.infos > 0);
  if (!canEdit || listed.length === 0) return null;
  const toggle = (arch: CheckArchitecture) =>
    save.mutate(arch.ignored ? check.ignored_architectures.filter((id) => id !== arch.id) : [...check.ignored_architectures, arch.id]);
  return (
    <Group gap="xs" role="group" aria-label="Ignore architectures">
      <Text size="sm" c="dimmed">
        No such machines here? Ignore their problems:
      </Text>
      {listed.map((arch) => (
        <Button key={arch.id} size="compact-xs" variant={arch.ignored ? 'light' : 'default'} disabled={save.isPending} onClick={() => toggle(arch)}>
          {arch.ignored ? `Stop ignoring ${arch.name}` : `Ignore ${arch.name}`}
        </Button>
      ))}
    </Group>
  );
}

/**
 * Problems ranked by the architectures machines were seen with (GET /bootloader/check): those first, in full;
 * those of architectures nobody booted folded away, so missing RISC-V or LoongArch builds do not shout like ARM64 ones;
 * those of architectures an operator ignores folded apart, last.
 */
function CheckResult({ check }: { check: BootloaderCheckReport }) {
  const seenProblems = check.problems.filter((problem) => problem.seen && !problem.ignored);
  const unseenProblems = check.problems.filter((problem) => !problem.seen && !problem.ignored);
  const ignoredProblems = check.problems.filter((problem) => problem.ignored);
  const ignoredNames = check.architectures.filter((arch) => arch.ignored).map((arch) => arch.name);
  const seenArchitectures = check.architectures.filter((arch) => arch.seen);
  const unseenNames = check.architectures.filter((arch) => !arch.seen && !arch.ignored && arch.errors + arch.warnings + arch.infos > 0).map((arch) => arch.name);
  const warnings = seenProblems.filter((problem) => problem.severity === 'warning').length;
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {check.ok ? <Badge color="teal" variant="light">No errors</Badge> : <Badge color="red" variant="light">Errors found</Badge>}
        {warnings > 0 && (
          <Badge color="orange" variant="light">
            {warnings} warning(s)
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          Checked {formatDateTime(check.checked_at)}
        </Text>
      </Group>
      {seenArchitectures.length > 0 ? (
        <SeenArchitectures architectures={seenArchitectures} />
      ) : (
        <Text size="sm" c="dimmed">
          No machine has booted here yet: every architecture is checked, none ranked first.
        </Text>
      )}
      {check.tftp_root !== null && (
        <Text size="xs" c="dimmed">
          Boot root <span className="mono">{check.boot_root}</span>, TFTP root <span className="mono">{check.tftp_root}</span>.
        </Text>
      )}
      {seenProblems.length > 0 && <ProblemList problems={seenProblems} label="Problems" />}
      {unseenProblems.length > 0 && (
        <details>
          <summary>
            {unseenProblems.length} problem{unseenProblems.length === 1 ? '' : 's'} of architectures no machine was seen with
            {unseenNames.length > 0 ? ` (${unseenNames.join(', ')})` : ''}
          </summary>
          <ProblemList problems={unseenProblems} label="Problems of architectures not seen" />
        </details>
      )}
      {ignoredProblems.length > 0 && (
        <details>
          <summary>
            {ignoredProblems.length} problem{ignoredProblems.length === 1 ? '' : 's'} of ignored architectures ({ignoredNames.join(', ')})
          </summary>
          <ProblemList problems={ignoredProblems} label="Problems of ignored architectures" />
        </details>
      )}
      <IgnoreArchitectures check={check} />
      {check.files.length > 0 ? <FileRows files={check.files} /> : <Text c="dimmed">The architecture map names no boot files.</Text>}
      {check.profiles.length > 0 && <ProfileFileRows files={check.profiles} />}
    </Stack>
  );
}

function CheckOneFile() {
  const [name, setName] = useState('');
  const check = useApiAction((api, file: string) => api.bootFiles.bootloaders.checkFile({ name: file }), { errorTitle: 'The file could not be checked' });
  const problems = check.data?.results.flatMap((file) => file.problems.map((problem) => ({ root: file.root, ...problem }))) ?? [];
  return (
    <Stack gap="sm">
      <form
        aria-label="Check one file"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() !== '') check.mutate(name.trim());
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput label="File in the boot root" placeholder="ipxe.efi" value={name} onChange={(event) => setName(event.currentTarget.value)} w={280} />
          <Button type="submit" variant="default" loading={check.isPending} disabled={name.trim() === ''}>
            Check file
          </Button>
        </Group>
      </form>
      {check.data && (
        <Stack gap="xs">
          <Text size="sm">
            {check.data.name}: {check.data.ok ? 'no problems' : 'problems found'}
          </Text>
          <FileRows files={check.data.results} />
          {problems.length > 0 && (
            <List size="sm">
              {problems.map((problem, index) => (
                <List.Item key={index}>
                  {problem.root}: {problem.message} — <strong>Fix:</strong> {problem.fix}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function BundledFiles({ files }: { files: BootloaderFile[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" striped>
        <caption className="visually-hidden">Bundled boot loaders</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Architecture</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Package</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>Installed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr key={file.name}>
              <Table.Th scope="row" className="mono" fw="normal">
                {file.name}
                {file.optional && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    (optional)
                  </Text>
                )}
              </Table.Th>
              <Table.Td>{file.architecture}</Table.Td>
              <Table.Td>
                <Text size="sm">{file.description}</Text>
              </Table.Td>
              <Table.Td className="nowrap">
                {file.source.package} {file.source.version}
              </Table.Td>
              <Table.Td ta="right" className="nowrap">{formatBytes(file.size)}</Table.Td>
              <Table.Td>{file.present ? 'Yes' : <Text c="red" span inherit>Missing</Text>}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** GET /bootloader/check (problems with fixes), POST /bootloader/check-file, GET /bootloader/files. */
export function BootloaderPanel() {
  const check = useApiQuery(keys.bootloaders, (api) => api.bootFiles.bootloaders.check());
  const files = useApiQuery([...keys.bootloaders, 'files'], (api) => api.bootFiles.bootloaders.files());
  const canCheckFile = useCan('operator');
  return (
    <Stack gap="md">
      <Card withBorder component="section" aria-labelledby="bl-check-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="bl-check-title">
            Boot loader check
          </Title>
          <Button variant="default" size="xs" loading={check.isFetching} onClick={() => void check.refetch()}>
            Check again
          </Button>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Every file machines fetch first (the iPXE builds the architecture map names and, for machines on GRUB, the signed shim and GRUB), in the boot and TFTP roots:
          present, readable, the right format, the bundled checksum. Architectures machines were seen with come first.
        </Text>
        <QueryState query={check} what="the boot loader check">
          {(data) => <CheckResult check={data} />}
        </QueryState>
      </Card>
      {canCheckFile && (
        <Card withBorder component="section" aria-labelledby="bl-file-title">
          <Title order={2} size="h4" id="bl-file-title" mb="sm">
            Check one file
          </Title>
          <CheckOneFile />
        </Card>
      )}
      <Card withBorder component="section" aria-labelledby="bl-files-title">
        <Title order={2} size="h4" id="bl-files-title" mb="sm">
          Bundled boot loaders
        </Title>
        <QueryState query={files} what="the bundled boot loaders">
          {(data) => <BundledFiles files={data} />}
        </QueryState>
      </Card>
    </Stack>
  );
}
