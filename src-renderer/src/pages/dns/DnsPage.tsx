import { DNS_RECORD_TYPES, type DnsRecord } from '@contracts/dns';
import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServiceStateHeader } from '../services/ServiceStateHeader.js';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { useNewRow } from '../../components/use-new-row.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { DnsRecordDialog } from './DnsRecordDialog.js';
import { DnsSettingsCard } from './DnsSettingsForm.js';

const COLUMNS: Column<DnsRecord>[] = [
  { key: 'name', header: 'Name', sortKey: 'name', render: (r) => <span className="mono">{r.name}</span> },
  { key: 'type', header: 'Type', sortKey: 'type', render: (r) => <Badge variant="outline" radius="sm">{r.type}</Badge> },
  {
    key: 'value',
    header: 'Value',
    sortKey: 'value',
    render: (r) => (
      <Text size="sm" className="mono pre-wrap" lineClamp={3} miw={110}>
        {r.type === 'MX' ? `${r.priority ?? ''} ${r.value}` : r.value}
      </Text>
    ),
  },
  { key: 'ttl', header: 'TTL', sortKey: 'ttl', numeric: true, render: (r) => r.ttl },
  { key: 'subnet', header: 'Subnet', sortKey: 'subnet', render: (r) => r.subnet ?? <Dim>all</Dim> },
  { key: 'enabled', header: 'Enabled', sortKey: 'enabled', render: (r) => (r.enabled ? 'Yes' : <Dim>No</Dim>) },
  { key: 'comment', header: 'Comment', render: (r) => <Text size="sm">{r.comment}</Text> },
];

function RecordsCard() {
  const table = useTableParams({ defaultSort: 'name', filters: ['type', 'enabled'] as const });
  const query = useApiPage(keys.dnsRecords, table.apiParams, (api, params) => api.dns.records.list(params));
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const [editing, setEditing] = useState<DnsRecord | null>(null);
  const { highlight, markNew } = useNewRow();
  const [dialogOpen, setDialogOpen] = useState(false);
  const remove = useApiAction((api, record: DnsRecord) => api.dns.records.remove(record.id), {
    invalidate: [keys.dnsRecords],
    success: (record) => `Record ${record.name} ${record.type} deleted.`,
  });

  const openDialog = (record: DnsRecord | null) => {
    setEditing(record);
    setDialogOpen(true);
  };

  return (
    <Card withBorder component="section" aria-labelledby="dns-records-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="dns-records-title">
          Records
        </Title>
        {canEdit && <Button onClick={() => openDialog(null)}>New record</Button>}
      </Group>
      <Box mb="sm">
        <TableToolbar
          table={table}
          search={{ label: 'Search records', placeholder: 'Search name, value, comment' }}
          filters={[
            { kind: 'select', name: 'type', label: 'Type', options: DNS_RECORD_TYPES.map((type) => ({ value: type, label: type })), width: 140 },
            { kind: 'select', name: 'enabled', label: 'Enabled', options: filterOptions({ true: 'Enabled', false: 'Disabled' }), width: 150 },
          ]}
        />
      </Box>
      <ServerTable
        label="DNS records"
        columns={COLUMNS}
        query={query}
        table={table}
        rowKey={(r) => r.id}
        highlight={highlight}
        emptyText="No DNS records yet. Records answer names in the local domain (and absolute names) for the machines on your network."
        rowActions={
          canEdit
            ? (record) => (
                <>
                  <Button size="compact-xs" variant="default" aria-label={`Edit ${record.name} ${record.type}`} onClick={() => openDialog(record)}>
                    Edit
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="red"
                    aria-label={`Delete ${record.name} ${record.type}`}
                    onClick={async () => {
                      const ok = await confirm({
                        title: 'Delete DNS record?',
                        message: `${record.name} ${record.type} ${record.value} will no longer be answered.`,
                        confirmLabel: 'Delete record',
                      });
                      if (ok) remove.mutate(record);
                    }}
                  >
                    Delete
                  </Button>
                </>
              )
            : undefined
        }
      />
      <DnsRecordDialog opened={dialogOpen} record={editing} onClose={() => setDialogOpen(false)} onSaved={(saved) => markNew(saved.id)} />
    </Card>
  );
}

/** `/services/dns` (the spec names this page): DNS server settings and the local records. */
export function DnsPage() {
  return (
    <Stack gap="md">
      <PageHeader title="DNS" description="Bootwright's DNS server: local records, host and lease names, forwarding." />
      <ServiceStateHeader name="dns" />
      <DnsSettingsCard />
      <RecordsCard />
    </Stack>
  );
}
