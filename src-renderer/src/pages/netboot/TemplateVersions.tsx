import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { AnswerTemplate, AnswerTemplateVersion } from '@contracts/netboot';
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
import { VersionRowActions } from '../../components/kit/VersionRowActions.js';

/** One version: its content and the diff from it to the current content. */
function VersionDialog({ template, version, onClose }: { template: AnswerTemplate; version: AnswerTemplateVersion | null; onClose: () => void }) {
  const query = useApiQuery([...keys.netbootTemplateVersions(template.id), 'one', version?.version ?? 0], version ? (api) => api.netboot.templates.versions.get(template.id, version.version) : null);
  return (
    <Modal opened={version !== null} onClose={onClose} title={version ? `Version ${version.version} by ${version.author}, ${formatDateTime(version.created_at)}` : ''} size="xl">
      {version && (
        <QueryState query={query} what="the version">
          {(full) => (
            <Stack gap="sm">
              {full.version === template.version ? (
                <Text size="sm" c="dimmed">
                  This is the current version.
                </Text>
              ) : full.diff_to_current !== undefined ? (
                <DiffView diff={full.diff_to_current} label={`Changes from version ${full.version} to the current version ${template.version}`} />
              ) : null}
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

/** The content history of a template: list, view with the diff to current, rollback (a new version, none when identical). */
export function TemplateVersions({ template }: { template: AnswerTemplate }) {
  const table = useTableParams({ prefix: 'v_' });
  const query = useApiPage(keys.netbootTemplateVersions(template.id), table.apiParams, (api, params) => api.netboot.templates.versions.list(template.id, params));
  const canEdit = useCan('operator');
  const [viewing, setViewing] = useState<AnswerTemplateVersion | null>(null);
  const rollback = useApiAction((api, version: AnswerTemplateVersion) => api.netboot.templates.versions.rollback(template.id, version.version), {
    invalidate: [keys.netbootTemplates],
    errorTitle: 'Rollback failed',
    success: (saved) => (saved.version === template.version ? 'The content already was that version: nothing changed.' : `Rolled back: the template is now version ${saved.version}.`),
  });

  const columns = versionColumns<AnswerTemplateVersion>(template.version);

  return (
    <Card withBorder component="section" aria-labelledby="template-versions-title">
      <Title order={2} size="h4" id="template-versions-title" mb="sm">
        Versions
      </Title>
      <ServerTable
        label="Template versions"
        columns={columns}
        query={query}
        table={table}
        rowKey={(v) => v.id}
        emptyText="No versions."
        rowActions={(version) => (
          <VersionRowActions
            version={version.version}
            current={template.version}
            canEdit={canEdit}
            rollbackPending={rollback.isPending}
            rollbackMessage={`Version ${version.version}'s content becomes current as a new version. No version is lost.`}
            onView={() => setViewing(version)}
            onRollback={() => rollback.mutate(version)}
          />
        )}
      />
      <VersionDialog template={template} version={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
