import { Button, Card, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { Profile, ScriptVersionView as ScriptVersion } from '@contracts/profiles';
import { useRef, useState } from 'react';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { QueryState } from '../../components/QueryState.js';
import { RowButton } from '../../components/RowActions.js';
import { ServerTable } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { versionColumns } from '../../components/version-columns.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { DiffView } from '../../editor/DiffView.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const ALL_VERSIONS = { size: 500 };

function Compare({ profile, versions }: { profile: Profile; versions: ScriptVersion[] }) {
  const options = versions.map((version) => ({ value: String(version.id), label: `Version ${version.version}${version.version === profile.script_version ? ' (current)' : ''}` }));
  const current = versions.find((version) => version.version === profile.script_version);
  const previous = versions.find((version) => version.version === profile.script_version - 1);
  const [from, setFrom] = useState<string | null>(previous ? String(previous.id) : null);
  const [to, setTo] = useState<string | null>(current ? String(current.id) : null);
  const diff = useApiQuery(
    [...keys.versions(profile.id), 'diff', from, to],
    from && to ? (api) => api.profiles.versions.diff(profile.id, Number(from), Number(to)) : null,
  );
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end">
        <Select label="Compare version" data={options} value={from} onChange={setFrom} allowDeselect={false} w={200} />
        <Select label="with version" data={options} value={to} onChange={setTo} allowDeselect={false} w={200} />
        {diff.data && (
          <Text size="sm" c="dimmed" pb={8}>
            <Text span c="teal" inherit>
              +{diff.data.additions}
            </Text>{' '}
            <Text span c="red" inherit>
              −{diff.data.deletions}
            </Text>{' '}
            lines
          </Text>
        )}
      </Group>
      {from && to ? (
        <QueryState query={diff} what="the diff">
          {(data) => <DiffView diff={data.diff} label={`Changes from version ${data.from_version} to version ${data.to_version}`} />}
        </QueryState>
      ) : (
        <Text c="dimmed">Choose two versions.</Text>
      )}
    </Stack>
  );
}

/** The script history of a profile: list, view, diff between any two versions, rollback (a new version). */
export function ProfileVersions({ profile }: { profile: Profile }) {
  const table = useTableParams({ defaultSort: '-version', prefix: 'v_' });
  const query = useApiPage(keys.versions(profile.id), table.apiParams, (api, params) => api.profiles.versions.list(profile.id, params));
  const all = useApiPage([...keys.versions(profile.id), 'all'], ALL_VERSIONS, (api, params) => api.profiles.versions.list(profile.id, params));
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const [viewing, setViewing] = useState<ScriptVersion | null>(null);
  // Read when the dialog closes; a ref because the dialog's content outlives this render.
  const comment = useRef('');
  const rollback = useApiAction(
    (api, input: { version: ScriptVersion; comment: string }) =>
      api.profiles.versions.rollback(profile.id, input.version.id, input.comment.trim() ? { comment: input.comment.trim() } : {}),
    { invalidate: [keys.profiles, keys.hosts], errorTitle: 'Rollback failed', success: (saved) => `Rolled back: the script is now version ${saved.script_version}.` },
  );

  const columns = versionColumns<ScriptVersion>(profile.script_version, {
    sortable: true,
    middle: [{ key: 'boot_type', header: 'Boot type', render: (v) => v.boot_type }],
  });

  return (
    <Stack gap="md">
      <Card withBorder component="section" aria-labelledby="versions-title">
        <Title order={2} size="h4" id="versions-title" mb="sm">
          Script versions
        </Title>
        <ServerTable
          label="Script versions"
          columns={columns}
          query={query}
          table={table}
          rowKey={(v) => v.id}
          emptyText="No versions."
          rowActions={(version) => (
            <>
              <RowButton label={`View version ${version.version}`} onClick={() => setViewing(version)}>
                View
              </RowButton>
              {canEdit && version.version !== profile.script_version && (
                <RowButton
                  label={`Roll back to version ${version.version}`}
                  color="orange"
                  disabled={rollback.isPending}
                  onClick={async () => {
                    comment.current = '';
                    const ok = await confirm({
                      title: `Roll back to version ${version.version}?`,
                      message: (
                        <Stack gap="xs">
                          <Text size="sm">
                            Version {version.version}'s script and boot settings become current as a new version ({profile.script_version + 1}). No version is lost.
                          </Text>
                          <TextInput label="Comment (optional)" placeholder={`rollback to version ${version.version}`} defaultValue="" onChange={(event) => (comment.current = event.currentTarget.value)} />
                        </Stack>
                      ),
                      confirmLabel: 'Roll back',
                    });
                    if (ok) rollback.mutate({ version, comment: comment.current });
                  }}
                >
                  Roll back
                </RowButton>
              )}
            </>
          )}
        />
      </Card>
      <Card withBorder component="section" aria-labelledby="diff-title">
        <Title order={2} size="h4" id="diff-title" mb="sm">
          Compare versions
        </Title>
        <QueryState query={all} what="the versions">
          {(list) => (list.data.length < 2 ? <Text c="dimmed">Only one version so far.</Text> : <Compare profile={profile} versions={list.data} />)}
        </QueryState>
      </Card>
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing ? `Version ${viewing.version} by ${viewing.author}, ${formatDateTime(viewing.created_at)}` : ''} size="xl">
        {viewing && <CodeEditor label={`Script of version ${viewing.version} (${viewing.boot_type})`} value={viewing.script} readOnly maxHeight="28rem" />}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => setViewing(null)}>
            Close
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
