import type { BootFileCheck, BootloaderCheckReport, BootloaderFile, ProfileFileCheck } from '@contracts/boot-files';
import { Alert, Badge, Button, Card, Group, List, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

function FileResult({ file }: { file: BootFileCheck }) {
  if (file.problems.length > 0) {
    return <StatusBadge value={file.problems.some((p) => p.severity === 'error') ? 'error' : 'warning'} label={file.problems.map((p) => p.code).join(', ')} />;
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

function CheckResult({ check }: { check: BootloaderCheckReport }) {
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {check.ok ? <Badge color="teal" variant="light">No errors</Badge> : <Badge color="red" variant="light">Errors found</Badge>}
        {check.problems.some((problem) => problem.severity === 'warning') && (
          <Badge color="orange" variant="light">
            {check.problems.filter((problem) => problem.severity === 'warning').length} warning(s)
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          Checked {formatDateTime(check.checked_at)}
        </Text>
      </Group>
      {check.problems.length > 0 && (
        <Stack gap="xs" component="ul" className="plain-list" aria-label="Problems">
          {check.problems.map((problem, index) => (
            <Alert component="li" key={index} color={problem.severity === 'error' ? 'red' : 'orange'} title={`${problem.name}: ${problem.message}`}>
              <Text size="sm">
                <strong>Fix:</strong> {problem.fix}
              </Text>
              <Text size="xs" c="dimmed">
                {problem.code} · {problem.root}
              </Text>
            </Alert>
          ))}
        </Stack>
      )}
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
          Every file the architecture map names, in the boot and TFTP roots: present, readable, the right format, the bundled checksum.
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
