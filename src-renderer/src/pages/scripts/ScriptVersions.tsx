import { Badge, Button, Card, Group, Modal, Select, Stack, Text, Title } from '@mantine/core';
import type { Script, ScriptVersion } from '@contracts/scripts';
import { useState } from 'react';
import { useCan } from '../../app-state.js';
import { QueryState } from '../../components/QueryState.js';
import { ServerTable } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { versionColumns } from '../../components/version-columns.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { DiffView } from '../../editor/DiffView.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { SCRIPT_KIND_LABELS } from './script-labels.js';
import { VersionRowActions } from '../../components/kit/VersionRowActions.js';

/** The diff from `version` to another version (or the current content, `to` null). */
function VersionDiff({ script, version, to }: { script: Script; version: number; to: number | null }) {
  const query = useApiQuery([...keys.scriptVersions(script.id), 'diff', version, to ?? 0], (api) => api.scripts.versions.diff(script.id, version, to ?? undefined));
  return (
    <QueryState query={query} what="the diff">
      {(diff) =>
        diff.additions + diff.deletions === 0 ? (
          <Text size="sm" c="dimmed">
            No difference between version {diff.from_version} and version {diff.to_version}.
          </Text>
        ) : (
          <DiffView diff={diff.diff} label={`Changes from version ${diff.from_version} to version ${diff.to_version} (+${diff.additions} −${diff.deletions})`} />
        )
      }
    </QueryState>
  );
}

/** One version: its content, and the diff from it to the current content or to another version. */
function VersionDialog({ script, version, onClose }: { script: Script; version: ScriptVersion | null; onClose: () => void }) {
  const query = useApiQuery([...keys.scriptVersions(script.id), 'one', version?.version ?? 0], version ? (api) => api.scripts.versions.get(script.id, version.version) : null);
  const [compareTo, setCompareTo] = useState<string>('current');
  const others = Array.from({ length: script.version }, (_, index) => index + 1).filter((number) => number !== version?.version && number !== script.version);
  return (
    <Modal opened={version !== null} onClose={onClose} title={version ? `Version ${version.version} by ${version.author}, ${formatDateTime(version.created_at)}` : ''} size="xl">
      {version && (
        <QueryState query={query} what="the version">
          {(full) => (
            <Stack gap="sm">
              <Group gap="xs">
                <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>
                  {SCRIPT_KIND_LABELS[full.kind]}
                </Badge>
                {full.comment && <Text size="sm">{full.comment}</Text>}
              </Group>
              <Select
                label="Compare with"
                w={260}
                allowDeselect={false}
                data={[{ value: 'current', label: `The current version (${script.version})` }, ...others.map((number) => ({ value: String(number), label: `Version ${number}` }))]}
                value={compareTo}
                onChange={(value) => setCompareTo(value ?? 'current')}
              />
              {compareTo === 'current' ? (
                full.version === script.version ? (
                  <Text size="sm" c="dimmed">
                    This is the current version.
                  </Text>
                ) : full.diff_to_current !== undefined ? (
                  <DiffView diff={full.diff_to_current} label={`Changes from version ${full.version} to the current version ${script.version}`} />
                ) : null
              ) : (
                <VersionDiff script={script} version={full.version} to={Number(compareTo)} />
              )}
              <CodeEditor label={`Content of version ${full.version}`} value={full.content} readOnly maxHeight="24rem" />
            </Stack>
          )}
        </QueryState>
      )}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Modal>
  );
}

/** The content history of a script: list, view with diffs, rollback (a new version, none when identical). */
export function ScriptVersions({ script }: { script: Script }) {
  const table = useTableParams({ prefix: 'v_' });
  const query = useApiPage(keys.scriptVersions(script.id), table.apiParams, (api, params) => api.scripts.versions.list(script.id, params));
  const canEdit = useCan('operator');
  const [viewing, setViewing] = useState<ScriptVersion | null>(null);
  const rollback = useApiAction((api, version: ScriptVersion) => api.scripts.versions.rollback(script.id, version.version), {
    invalidate: [keys.scripts],
    errorTitle: 'Rollback failed',
    success: (saved) => (saved.version === script.version ? 'The content already was that version: nothing changed.' : `Rolled back: the script is now version ${saved.version}.`),
  });

  const columns = versionColumns<ScriptVersion>(script.version, {
    sortable: true,
    middle: [{ key: 'kind', header: 'Kind', render: (v) => SCRIPT_KIND_LABELS[v.kind] }],
  });

  return (
    <Card withBorder component="section" aria-labelledby="script-versions-title">
      <Title order={2} size="h4" id="script-versions-title" mb="sm">
        Versions
      </Title>
      <ServerTable
        label="Script versions"
        columns={columns}
        query={query}
        table={table}
        rowKey={(v) => v.id}
        emptyText="No versions."
        rowActions={(version) => (
          <VersionRowActions
            version={version.version}
            current={script.version}
            canEdit={canEdit}
            rollbackPending={rollback.isPending}
            rollbackMessage={`Version ${version.version}'s content and kind become current as a new version, checked like a save. No version is lost.`}
            onView={() => setViewing(version)}
            onRollback={() => rollback.mutate(version)}
          />
        )}
      />
      <VersionDialog key={viewing?.id ?? 0} script={script} version={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
