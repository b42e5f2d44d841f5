import { Alert, Anchor, Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ProfileFileState } from '@contracts/boot-files';
import type { BootAction, BootPreview } from '@contracts/boot-scripts';
import { Link } from 'react-router';
import { QueryState } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { LoaderSummary, RenderedConfigs } from './BootLoaderPreview.js';

const ACTION_TEXT: Record<BootAction, string> = {
  profile: 'Boots a profile',
  menu: 'Gets the boot menu',
  local: 'Boots from the local disk',
  denied: 'Is denied',
  install: 'Boots its install task\'s installer',
};

/** How a file's state reads in the preview; remote and templated URLs are not checked. */
const FILE_STATE: Record<ProfileFileState, { label: string; color: string }> = {
  present: { label: 'in the boot root', color: 'green' },
  served: { label: 'served by Bootwright', color: 'green' },
  missing: { label: 'missing', color: 'red' },
  refused: { label: 'outside the boot root', color: 'red' },
  remote: { label: 'remote, not checked', color: 'gray' },
  templated: { label: 'built at boot, not checked', color: 'gray' },
};

function Preview({ config }: { config: BootPreview }) {
  const missing = config.files.filter((file) => file.state === 'missing' || file.state === 'refused');
  return (
    <Stack gap="sm">
      <LoaderSummary loader={config.loader} />
      <Group gap="xs">
        <Badge variant="light" color={config.action === 'denied' ? 'red' : 'blue'} radius="sm">
          {ACTION_TEXT[config.action]}
        </Badge>
        {config.profile && (
          <Text size="sm">
            <Anchor component={Link} to={`/profiles/${config.profile.id}`}>
              {config.profile.name}
            </Anchor>{' '}
            (version {config.profile.script_version})
          </Text>
        )}
      </Group>
      <Text size="sm">{config.reason_text}</Text>
      {config.render_error && (
        <Alert color="red" title={config.action === 'install' ? 'The installer cannot be served to this host yet' : 'The template does not render for this host'} role="alert">
          <Text size="sm" className="pre-wrap">
            {config.render_error}
          </Text>
          <Text size="xs" mt={4}>
            The machine would get the fallback script below.
          </Text>
        </Alert>
      )}
      <Text size="sm">
        Entry script: <Code>{config.entry_url}</Code>
        <br />
        Its own script: <Code className="pre-wrap">{config.script_url}</Code>
        {config.client_ip && (
          <>
            <br />
            Assumed client address: <Code>{config.client_ip}</Code>
          </>
        )}
      </Text>
      {missing.length > 0 && (
        <Alert color="orange" title="Files missing from the boot root" role="alert">
          <Text size="sm">
            The host would fail to fetch {missing.map((file) => file.url).join(', ')}. Copy the files into the boot root or change the profile.
          </Text>
        </Alert>
      )}
      {config.servers.length > 0 && (
        <Table verticalSpacing={4}>
          <caption className="visually-hidden">Server address per subnet</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{config.client_ip ? "The host's subnet" : 'If the host boots on'}</Table.Th>
              <Table.Th>It is told this server is at</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {config.servers.map((server) => (
              <Table.Tr key={server.subnet}>
                <Table.Td className="mono">
                  {server.subnet}
                  {server.interface ? ` (${server.interface})` : ''}
                </Table.Td>
                <Table.Td className="mono">{server.address}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {config.files.length > 0 && (
        <Table verticalSpacing={4}>
          <caption className="visually-hidden">Files the host would fetch</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Command</Table.Th>
              <Table.Th>Fetches</Table.Th>
              <Table.Th>File</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {config.files.map((file, index) => (
              <Table.Tr key={index}>
                <Table.Td className="mono">{file.command}</Table.Td>
                <Table.Td className="mono pre-wrap">{file.url}</Table.Td>
                <Table.Td>
                  <Badge variant="light" radius="sm" color={FILE_STATE[file.state].color}>
                    {FILE_STATE[file.state].label}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <RenderedConfigs config={config} />
    </Stack>
  );
}

/** GET /hosts/{id}/boot-config: what the host would get if it booted now (nothing is recorded). */
export function BootConfigPreview({ hostId }: { hostId: number }) {
  const query = useApiQuery(keys.bootConfig(hostId), (api) => api.bootScripts.preview(hostId));
  return (
    <Card withBorder component="section" aria-labelledby="boot-preview-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="boot-preview-title">
          Boot configuration preview
        </Title>
        <Button variant="default" size="xs" loading={query.isFetching} onClick={() => void query.refetch()}>
          Preview again
        </Button>
      </Group>
      <QueryState query={query} what="the boot configuration">
        {(config) => <Preview config={config} />}
      </QueryState>
    </Card>
  );
}
