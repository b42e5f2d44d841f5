import { Alert, Badge, Button, Group, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { StoreConflict, StoreImportResult } from '@contracts/community-store';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/api-error.js';
import { importConflicts } from '../../api/clients/store-client.js';
import { DialogActions } from '../../components/kit/index.js';
import { Loading } from '../../components/QueryState.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { useApi } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { allResolved, mergeConflicts, targetName, type ImportPhase, type ImportTarget, type Resolution } from './import-flow.js';
import { ACTION_LABELS, ITEM_TYPE_LABELS } from './store-labels.js';

/** What an import writes anywhere: every list that may show an imported resource. */
const IMPORTED_KEYS = [keys.store, keys.baselines, ['scripts'], keys.profiles, keys.netboot] as const;

const RESOLUTION_LABELS: Record<Resolution, string> = { rename: 'Import under a new name', skip: 'Skip (keep the existing one)', overwrite: 'Overwrite the existing one' };

function PlanTable({ plan }: { plan: StoreImportResult }) {
  if (plan.items.length === 0) return <Text size="sm">Nothing to import.</Text>;
  return (
    <Table>
      <caption className="visually-hidden">What the import does</caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Type</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Action</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {plan.items.map((item) => (
          <Table.Tr key={`${item.type}/${item.store_id}`}>
            <Table.Td>{ITEM_TYPE_LABELS[item.type]}</Table.Td>
            <Table.Td>{item.name}</Table.Td>
            <Table.Td>
              <Badge size="sm" variant="light" radius="sm" color={item.action === 'overwritten' ? 'orange' : item.action === 'skipped' ? 'gray' : 'teal'}>
                {ACTION_LABELS[item.action]}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ConflictChoices({ conflicts, resolutions, onChange }: { conflicts: StoreConflict[]; resolutions: Record<string, Resolution>; onChange: (next: Record<string, Resolution>) => void }) {
  const all = (resolution: Resolution) => onChange(Object.fromEntries(conflicts.map((conflict) => [conflict.key, resolution])));
  return (
    <Stack gap="sm">
      <Text size="sm">
        {conflicts.length === 1 ? 'One item has' : `${conflicts.length} items have`} the name of something that already exists. Choose what to do with each.
      </Text>
      {conflicts.map((conflict) => (
        <Radio.Group
          key={conflict.key}
          label={`${ITEM_TYPE_LABELS[conflict.type]} “${conflict.name}”`}
          description={`Exists as #${conflict.existing_id}`}
          value={resolutions[conflict.key] ?? null}
          onChange={(value) => onChange({ ...resolutions, [conflict.key]: value as Resolution })}
        >
          <Group gap="md" mt={4}>
            {(Object.keys(RESOLUTION_LABELS) as Resolution[]).map((resolution) => (
              <Radio key={resolution} value={resolution} label={RESOLUTION_LABELS[resolution]} />
            ))}
          </Group>
        </Radio.Group>
      ))}
      {conflicts.length > 1 && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            For all:
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => all('rename')}>
            Rename all
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={() => all('skip')}>
            Skip all
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={() => all('overwrite')}>
            Overwrite all
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The import of a catalog item or a local file: a dry run first, then a
 * choice for every conflict the server reports (409), then the plan, then
 * the import. Nothing is renamed, skipped or overwritten without a choice.
 */
export function ImportDialog({ target, onClose }: { target: ImportTarget | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<ImportPhase>({ step: 'checking' });
  const [conflicts, setConflicts] = useState<StoreConflict[]>([]);
  const [resolutions, setResolutions] = useState<Record<string, Resolution>>({});
  // Answers of a dialog closed (or reopened for another target) meanwhile are dropped.
  const run = useRef(0);
  // The latest onClose without restarting the check when the parent passes a new function.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  const send = useCallback(
    (importing: ImportTarget, dryRun: boolean, chosen: Record<string, Resolution>) => {
      const options = { on_conflict: 'ask' as const, resolutions: chosen, dry_run: dryRun };
      return importing.kind === 'item'
        ? api.store.import({ type: importing.type, id: importing.id, source: importing.source, ...options })
        : api.store.importLocal({ content: importing.content, filename: importing.filename, ...options });
    },
    [api],
  );

  const attempt = useCallback(
    async (importing: ImportTarget, dryRun: boolean, chosen: Record<string, Resolution>, known: StoreConflict[]) => {
      const token = ++run.current;
      try {
        const result = await send(importing, dryRun, chosen);
        if (token !== run.current) return;
        if (dryRun) {
          setPhase({ step: 'plan', plan: result });
          return;
        }
        const written = result.items.filter((item) => item.action !== 'skipped').length;
        notifySuccess(`Imported ${targetName(importing)}: ${written} ${written === 1 ? 'item' : 'items'} written.`);
        await Promise.all(IMPORTED_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
        closeRef.current();
      } catch (error) {
        if (token !== run.current) return;
        const found = importConflicts(error);
        if (found) {
          const merged = mergeConflicts(known, found);
          setConflicts(merged);
          setPhase({ step: 'conflicts', conflicts: merged });
          return;
        }
        notifyError(error, dryRun ? 'The import check failed' : 'The import failed');
        setPhase({ step: 'failed', message: describeError(error) });
      }
    },
    [send, queryClient],
  );

  useEffect(() => {
    run.current += 1;
    setConflicts([]);
    setResolutions({});
    setPhase({ step: 'checking' });
    if (target) void attempt(target, true, {}, []);
    return () => {
      run.current += 1;
    };
  }, [target, attempt]);

  const close = () => {
    // An import under way finishes (and then closes the dialog): closing now would hide its outcome.
    if (phase.step === 'importing') return;
    run.current += 1;
    onClose();
  };

  const title = target ? `Import ${targetName(target)}` : 'Import';
  let body;
  let actions;
  switch (phase.step) {
    case 'checking':
      body = <Loading label="Checking what the import would do…" />;
      actions = <DialogActions onCancel={close} confirmLabel="Import" pending={false} confirmDisabled onConfirm={() => undefined} />;
      break;
    case 'conflicts':
      body = <ConflictChoices conflicts={phase.conflicts} resolutions={resolutions} onChange={setResolutions} />;
      actions = (
        <DialogActions
          onCancel={close}
          confirmLabel="Continue"
          pending={false}
          confirmDisabled={!allResolved(phase.conflicts, resolutions)}
          onConfirm={() => {
            if (!target) return;
            setPhase({ step: 'checking' });
            void attempt(target, true, resolutions, conflicts);
          }}
        />
      );
      break;
    case 'plan':
    case 'importing':
      body = (
        <Stack gap="xs">
          <Text size="sm">The import will:</Text>
          <PlanTable plan={phase.plan} />
        </Stack>
      );
      actions = (
        <DialogActions
          onCancel={close}
          confirmLabel="Import"
          pending={phase.step === 'importing'}
          onConfirm={() => {
            if (!target) return;
            setPhase({ step: 'importing', plan: phase.plan });
            void attempt(target, false, resolutions, conflicts);
          }}
        />
      );
      break;
    case 'failed':
      body = (
        <Alert color="red" role="alert" title="Not imported">
          {phase.message}
        </Alert>
      );
      actions = (
        <DialogActions
          onCancel={close}
          cancelLabel="Close"
          confirmLabel="Try again"
          pending={false}
          onConfirm={() => {
            if (!target) return;
            setPhase({ step: 'checking' });
            void attempt(target, true, resolutions, conflicts);
          }}
        />
      );
      break;
  }

  return (
    <Modal opened={target !== null} onClose={close} title={title} size="lg">
      <Stack gap="md">
        {body}
        {actions}
      </Stack>
    </Modal>
  );
}
