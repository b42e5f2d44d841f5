import { Alert, Badge, Button, Card, Checkbox, FileButton, Group, PasswordInput, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { KIT_SECTIONS, MAX_KIT_CHARS, MIN_PASSPHRASE, type KitImportResult, type KitSection } from '@contracts/kit';
import { useState } from 'react';
import { describeError } from '../../api/api-error.js';
import { kitConflicts, type KitConflict } from '../../api/clients/kit-client.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { keys } from '../../query/keys.js';
import { useApi, useApiQuery } from '../../query/api-hooks.js';
import { ACTION_LABELS, allResolved, openConflicts, RESOLUTION_LABELS, SECTION_LABELS, shown, type KitPhase, type KitResolution } from './kit-flow.js';

/** Offers the text as a file download (works in browsers and in the Electron window). */
function download(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The warnings block of an exported kit (secrets left out without a passphrase). */
function warningsOf(text: string): string[] {
  const block = /^warnings:\n((?:\s+- .*\n)+)/m.exec(text);
  return block?.[1] ? block[1].split('\n').map((line) => line.replace(/^\s+- /, '').replace(/^"|"$/g, '').trim()).filter(Boolean) : [];
}

function ExportCard() {
  const api = useApi();
  // The server's name: the kit records it as its source (and names the file after it).
  const general = useApiQuery(keys.settingsSection('general'), (client) => client.settings.general.get());
  const [sections, setSections] = useState<KitSection[]>([...KIT_SECTIONS]);
  const [passphrase, setPassphrase] = useState('');
  const [whole, setWhole] = useState(false);
  const [pending, setPending] = useState(false);
  const [warnings, setWarnings] = useState<string[]>([]);
  const tooShort = passphrase !== '' && passphrase.length < MIN_PASSPHRASE;
  const run = async () => {
    setPending(true);
    try {
      const text = await api.kit.export({ include: sections, ...(passphrase ? { passphrase } : {}), ...(whole ? { encrypt_whole: true } : {}) });
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '').replace('T', '-');
      download(text, `bootwright-kit-${stamp}.yaml`);
      setWarnings(warningsOf(text));
      notifySuccess('The kit was exported.');
    } catch (error) {
      notifyError(error, 'The export failed');
    } finally {
      setPending(false);
    }
  };
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3}>Export</Title>
        <QueryState query={general} what="the server's name">
          {(stored) => <Text size="sm">The kit records this server, “{stored.server_name}”, as its source.</Text>}
        </QueryState>
        <Checkbox.Group label="Sections" value={sections} onChange={(value) => setSections(value as KitSection[])}>
          <Group gap="md" mt={4}>
            {KIT_SECTIONS.map((section) => (
              <Checkbox key={section} value={section} label={SECTION_LABELS[section]} />
            ))}
          </Group>
        </Checkbox.Group>
        <PasswordInput
          label="Passphrase"
          description="Encrypts the secrets (BMC passwords, answer-template secrets). Without one they are left out."
          value={passphrase}
          onChange={(event) => setPassphrase(event.currentTarget.value)}
          error={tooShort ? `At least ${MIN_PASSPHRASE} characters` : undefined}
          autoComplete="new-password"
        />
        <Checkbox label="Encrypt the whole file" checked={whole} disabled={passphrase === ''} onChange={(event) => setWhole(event.currentTarget.checked)} />
        {warnings.length > 0 && (
          <Alert color="yellow" title="Left out of the kit">
            {warnings.map((warning) => (
              <Text key={warning} size="sm">
                {warning}
              </Text>
            ))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={() => void run()} loading={pending} disabled={sections.length === 0 || tooShort}>
            Export kit
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PlanTable({ plan, resolutions, onResolve }: { plan: KitImportResult; resolutions: Record<string, KitResolution>; onResolve: (key: string, value: KitResolution) => void }) {
  const shownItems = plan.items.filter((item) => item.action !== 'unchanged');
  const unchanged = plan.items.length - shownItems.length;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {shownItems.length === 0 ? 'Nothing to change: this server already has everything in the kit.' : `${shownItems.length} item(s) to change`}
        {unchanged > 0 && shownItems.length > 0 ? `; ${unchanged} unchanged.` : ''}
      </Text>
      {shownItems.length > 0 && (
        <Table>
          <caption className="visually-hidden">What the import changes</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Section</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Changes</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shownItems.map((item) => (
              <Table.Tr key={item.key}>
                <Table.Td>{SECTION_LABELS[item.section]}</Table.Td>
                <Table.Td>{item.name}</Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" radius="sm" color={item.action === 'conflict' ? 'red' : item.action === 'updated' ? 'orange' : item.action === 'skipped' ? 'gray' : 'teal'}>
                    {ACTION_LABELS[item.action]}
                  </Badge>
                  {item.action === 'conflict' && (
                    <Radio.Group value={resolutions[item.key] ?? null} onChange={(value) => onResolve(item.key, value as KitResolution)}>
                      <Stack gap={2} mt={4} role="radiogroup" aria-label={`What to do with ${item.name}`}>
                        {(Object.keys(RESOLUTION_LABELS) as KitResolution[])
                          .filter((choice) => choice !== 'rename' || item.can_rename)
                          .map((choice) => (
                            <Radio key={choice} value={choice} label={RESOLUTION_LABELS[choice]} size="xs" />
                          ))}
                      </Stack>
                    </Radio.Group>
                  )}
                </Table.Td>
                <Table.Td>
                  {item.changes.map((change) => (
                    <Text key={change.path} size="xs" ff="monospace">
                      {change.path}: {shown(change.from)} → {shown(change.to)}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function ImportCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [phase, setPhase] = useState<KitPhase>({ step: 'idle' });
  const [resolutions, setResolutions] = useState<Record<string, KitResolution>>({});
  const [extra, setExtra] = useState<KitConflict[]>([]);

  const check = async (content: string, chosen: Record<string, KitResolution>) => {
    setPhase({ step: 'checking' });
    try {
      const plan = await api.kit.import({ content, ...(passphrase ? { passphrase } : {}), on_conflict: 'ask', resolutions: chosen, dry_run: true });
      setPhase({ step: 'plan', plan });
    } catch (error) {
      notifyError(error, 'The kit could not be checked');
      setPhase({ step: 'failed', message: describeError(error) });
    }
  };
  const run = async (plan: KitImportResult) => {
    if (!file) return;
    setPhase({ step: 'importing', plan });
    try {
      const result = await api.kit.import({ content: file.content, ...(passphrase ? { passphrase } : {}), on_conflict: 'ask', resolutions, dry_run: false });
      notifySuccess(`The kit was imported: ${result.items.filter((item) => item.action !== 'unchanged' && item.action !== 'skipped').length} item(s) written.`);
      await queryClient.invalidateQueries();
      setPhase({ step: 'done', result });
    } catch (error) {
      const found = kitConflicts(error);
      if (found) {
        // The server sees conflicts the check did not (something changed meanwhile): ask about them too.
        setExtra(found);
        await check(file.content, resolutions);
        return;
      }
      notifyError(error, 'The import failed');
      setPhase({ step: 'failed', message: describeError(error) });
    }
  };
  const choose = async (chosen: File | null) => {
    if (!chosen) return;
    if (chosen.size > MAX_KIT_CHARS * 4) {
      notifyError(new Error(`${chosen.name} is too large for a kit`), 'The file was not read');
      return;
    }
    const content = await chosen.text();
    setFile({ name: chosen.name, content });
    setResolutions({});
    setExtra([]);
    setPhase({ step: 'idle' });
  };
  const conflicts = phase.step === 'plan' || phase.step === 'importing' ? openConflicts(phase.plan, extra) : [];
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3}>Import</Title>
        <Group>
          <FileButton accept=".yaml,.yml,.json,application/yaml,application/json,text/yaml" inputProps={{ 'aria-label': 'Kit file' }} onChange={(chosen) => void choose(chosen)}>
            {(props) => (
              <Button variant="default" {...props}>
                Choose a kit file…
              </Button>
            )}
          </FileButton>
          {file && <Text size="sm">{file.name}</Text>}
        </Group>
        <PasswordInput label="Passphrase of the kit" description="Needed when the kit holds secrets or is encrypted." value={passphrase} onChange={(event) => setPassphrase(event.currentTarget.value)} autoComplete="off" />
        {phase.step === 'checking' && <Text size="sm">Checking what the import would change…</Text>}
        {(phase.step === 'plan' || phase.step === 'importing') && (
          <PlanTable plan={phase.plan} resolutions={resolutions} onResolve={(key, value) => setResolutions({ ...resolutions, [key]: value })} />
        )}
        {phase.step === 'plan' && conflicts.length > 0 && !allResolved(conflicts, resolutions) && (
          <Text size="sm" c="dimmed">
            Choose what to do with each conflict ({conflicts.filter((conflict) => resolutions[conflict.key] === undefined).length} left).
          </Text>
        )}
        {phase.step === 'done' && <Alert color="teal" title="Imported">{`${phase.result.items.length} item(s) in the kit; written all together.`}</Alert>}
        {phase.step === 'failed' && (
          <Alert color="red" role="alert" title="Not imported">
            {phase.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" disabled={!file || phase.step === 'checking' || phase.step === 'importing'} onClick={() => file && void check(file.content, resolutions)}>
            Check
          </Button>
          <Button
            disabled={phase.step !== 'plan' || !allResolved(conflicts, resolutions)}
            loading={phase.step === 'importing'}
            onClick={() => phase.step === 'plan' && void run(phase.plan)}
          >
            Import
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** `/kit`: export the configuration as a kit file, import one (checked first, conflicts answered one by one). */
export function KitPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Kit export/import" description="Carry this server's configuration to another: one file, secrets encrypted under a passphrase, imported all or nothing." />
      <ExportCard />
      <ImportCard />
    </Stack>
  );
}
