import { Anchor, Badge, Button, Card, Code, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { AssignedBaseline, AssignedQuery } from '@contracts/baselines';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LoadError, Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useHostOptions } from '../power/use-host-options.js';
import { RULE_LABELS } from './baseline-form-model.js';

function LookupResult({ result }: { result: AssignedBaseline }) {
  return (
    <Stack gap="sm" aria-label="Lookup result" role="region">
      <Group gap="xs">
        <Badge variant="light" color={result.rule === 'none' ? 'gray' : 'blue'} radius="sm">
          Rule: {RULE_LABELS[result.rule]}
        </Badge>
        {result.baseline ? (
          <Anchor component={Link} to={`/baselines/${result.baseline.id}`} fw={500}>
            {result.baseline.name}
          </Anchor>
        ) : (
          <Text fw={500}>No baseline applies</Text>
        )}
        {result.host && (
          <Text size="sm" c="dimmed">
            for {result.host.hostname ?? result.host.mac} ({result.host.mac})
          </Text>
        )}
      </Group>
      <Text size="sm">{result.reason}</Text>
      {result.scripts.length > 0 && (
        <Table>
          <caption className="visually-hidden">Scripts the machine runs</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>Script</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>On error</Table.Th>
              <Table.Th>Timeout</Table.Th>
              <Table.Th>Rendered</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.scripts.map((script) => (
              <Table.Tr key={script.position}>
                <Table.Td>{script.position}</Table.Td>
                <Table.Td>{script.name}</Table.Td>
                <Table.Td>{script.kind}</Table.Td>
                <Table.Td>{script.version}</Table.Td>
                <Table.Td>{script.continue_on_error ? 'continue' : 'stop'}</Table.Td>
                <Table.Td>{script.timeout_seconds} s</Table.Td>
                <Table.Td>
                  <details>
                    <summary title={`SHA-256 ${script.sha256}`}>Show script</summary>
                    <Code block mt={4} style={{ maxHeight: 320, overflow: 'auto' }}>
                      {script.content}
                    </Code>
                  </details>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** "Which baseline applies?": a MAC or a host → the baseline, the rule and reason that chose it, and the scripts as the machine gets them. */
export function AssignedLookup() {
  const [mode, setMode] = useState<'mac' | 'host'>('mac');
  const [mac, setMac] = useState('');
  const [hostId, setHostId] = useState<string | null>(null);
  const [asked, setAsked] = useState<AssignedQuery | null>(null);
  const hosts = useHostOptions();
  const query = useApiQuery([...keys.baselineAssigned, asked], asked === null ? null : (api) => api.baselines.assigned(asked));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'mac' && mac.trim() !== '') setAsked({ mac: mac.trim() });
    if (mode === 'host' && hostId !== null) setAsked({ host_id: Number(hostId) });
  };

  return (
    <Card withBorder component="section" aria-labelledby="baseline-lookup-title">
      <Title order={2} size="h4" id="baseline-lookup-title" mb="sm">
        Which baseline applies?
      </Title>
      <form onSubmit={submit} aria-label="Which baseline applies">
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value === 'host' ? 'host' : 'mac')}
            data={[
              { value: 'mac', label: 'By MAC address' },
              { value: 'host', label: 'By host' },
            ]}
          />
          {mode === 'mac' ? (
            <TextInput label="MAC address" placeholder="52:54:00:12:34:56" value={mac} onChange={(event) => setMac(event.currentTarget.value)} w={220} />
          ) : (
            <Select label="Host" placeholder="Choose a host" data={hosts.options} value={hostId} onChange={setHostId} searchable w={280} />
          )}
          <Button type="submit" variant="default" disabled={mode === 'mac' ? mac.trim() === '' : hostId === null}>
            Look up
          </Button>
        </Group>
      </form>
      {asked !== null && (
        <Stack mt="md">
          {query.isPending ? (
            <Loading label="Looking up the baseline…" />
          ) : query.isError ? (
            <LoadError what="the assigned baseline" error={query.error} onRetry={() => void query.refetch()} />
          ) : (
            <LookupResult result={query.data} />
          )}
        </Stack>
      )}
    </Card>
  );
}
