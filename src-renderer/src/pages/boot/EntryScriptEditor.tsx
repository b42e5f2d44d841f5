import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { EntryScriptUpdate, EntryScriptView } from '@contracts/boot-scripts';
import { useEffect, useState } from 'react';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { SaveButtons } from '../../components/kit/index.js';
import { QueryState } from '../../components/QueryState.js';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

function Editor({ entry }: { entry: EntryScriptView }) {
  const readOnly = !useCan('operator');
  const confirm = useConfirm();
  const [text, setText] = useState(entry.script);
  const [saved, setSaved] = useState(entry.script);
  const [error, setError] = useState<string | null>(null);
  // Another window saved: follow unless there are unsaved edits here.
  useEffect(() => {
    if (text === saved) setText(entry.script);
    setSaved(entry.script);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entry.script]);
  const save = useApiAction((api, body: EntryScriptUpdate) => api.bootScripts.entry.update(body), {
    invalidate: [keys.entryScript],
    notifyErrors: false,
    success: (result) => (result.is_default ? 'The built-in entry script is in use again.' : 'Entry script saved.'),
    onSuccess: (result) => {
      setText(result.script);
      setSaved(result.script);
    },
  });
  const dirty = text !== saved;
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {entry.is_default ? <Badge variant="light">Built-in default</Badge> : <Badge variant="light" color="grape">Customised</Badge>}
        {entry.updated_at && (
          <Text size="xs" c="dimmed">
            Changed {formatDateTime(entry.updated_at)} by {entry.updated_by ?? 'unknown'}
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert" title="Not saved">
          {error}
        </Alert>
      )}
      <CodeEditor
        label="Entry script template"
        description="Rendered per client: {{ … }} by Bootwright, ${…} by iPXE. Must render to a script starting with #!ipxe. Escape then Tab leaves the editor."
        value={text}
        onChange={(value) => {
          setText(value);
          setError(null);
        }}
        readOnly={readOnly}
        error={error}
        height="26rem"
      />
      {!readOnly && (
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="red"
            disabled={entry.is_default || save.isPending}
            onClick={async () => {
              if (await confirm({ title: 'Restore the built-in entry script?', message: 'Your customised entry script is replaced by the default.', confirmLabel: 'Restore default' })) {
                setError(null);
                save.mutate({ reset: true }, { onError: (err) => setError(err.message) });
              }
            }}
          >
            Restore default
          </Button>
          <Group gap="xs">
            <SaveButtons
              dirty={dirty}
              saving={save.isPending}
              onDiscard={() => setText(saved)}
              saveLabel="Save entry script"
              saveDisabled={!dirty || text.trim() === ''}
              onSave={() => {
                setError(null);
                save.mutate({ script: text }, { onError: (err) => setError(err.message) });
              }}
            />
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/** GET/PUT /services/ipxe-script: the script every iPXE client runs first. */
export function EntryScriptCard() {
  const query = useApiQuery(keys.entryScript, (api) => api.bootScripts.entry.get());
  return (
    <Card withBorder component="section" aria-labelledby="entry-script-title">
      <Title order={2} size="h4" id="entry-script-title">
        iPXE entry script
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every iPXE client fetches this first (/boot/ipxe/entry.ipxe); it identifies the machine and chains to its own boot script.
      </Text>
      <QueryState query={query} what="the entry script">
        {(entry) => <Editor entry={entry} />}
      </QueryState>
    </Card>
  );
}
