import type { ApiTokenData as ApiToken, UserData as User } from '@contracts/auth';
import { Badge, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { useNewRow } from '../../components/use-new-row.js';
import { ServerTable, TableSearch, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { CreateTokenDialog } from './TokenDialogs.js';
import { CreateUserDialog, EditUserDialog } from './UserDialogs.js';

function Users() {
  const table = useTableParams({ defaultSort: 'username', prefix: 'u_' });
  const query = useApiPage(keys.users, table.apiParams, (api, params) => api.auth.users.list(params));
  const me = useSession((state) => state.session?.user.id ?? null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const { highlight, markNew } = useNewRow();
  const remove = useApiAction((api, user: User) => api.auth.users.remove(user.id), { invalidate: [keys.users], success: (user) => `User ${user.username} deleted.` });
  const columns: Column<User>[] = [
    {
      key: 'username',
      header: 'Username',
      sortKey: 'username',
      render: (u) => (
        <Group gap={4}>
          {u.username}
          {u.id === me && (
            <Badge size="xs" variant="light">
              you
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'role', header: 'Role', sortKey: 'role', render: (u) => u.role },
    { key: 'disabled', header: 'Status', sortKey: 'disabled', render: (u) => (u.disabled ? <Badge color="gray" variant="light">disabled</Badge> : 'active') },
    { key: 'password_changed_at', header: 'Password changed', sortKey: 'password_changed_at', render: (u) => formatRelative(u.password_changed_at) },
    { key: 'last_login_at', header: 'Last login', render: (u) => (u.last_login_at ? <span title={u.last_login_at}>{formatRelative(u.last_login_at)}</span> : 'never') },
    { key: 'created_at', header: 'Created', sortKey: 'created_at', render: (u) => formatDateTime(u.created_at) },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <TableSearch table={table} label="Search users" />
        <Button onClick={() => setCreating(true)}>New user</Button>
      </Group>
      <ServerTable
        label="Users"
        columns={columns}
        query={query}
        table={table}
        rowKey={(u) => u.id}
        highlight={highlight}
        emptyText="No users."
        rowActions={(user) => (
          <>
            <RowButton label={`Edit ${user.username}`} onClick={() => setEditing(user)}>
              Edit
            </RowButton>
            <DeleteButton what={`user ${user.username}`} message="The user is deleted and their sessions end. The last enabled admin cannot be deleted." onConfirm={() => remove.mutate(user)} />
          </>
        )}
      />
      <CreateUserDialog opened={creating} onClose={() => setCreating(false)} onSaved={(user) => markNew(user.id)} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}

function Tokens() {
  const table = useTableParams({ defaultSort: 'name', prefix: 't_' });
  const query = useApiPage(keys.tokens, table.apiParams, (api, params) => api.auth.tokens.list(params));
  const [creating, setCreating] = useState(false);
  const revoke = useApiAction((api, token: ApiToken) => api.auth.tokens.revoke(token.id), { invalidate: [keys.tokens], success: (token) => `Token ${token.name} revoked.` });
  const columns: Column<ApiToken>[] = [
    { key: 'name', header: 'Name', sortKey: 'name', render: (t) => t.name },
    { key: 'role', header: 'Role', sortKey: 'role', render: (t) => t.role },
    { key: 'hint', header: 'Starts with', render: (t) => <span className="mono">{t.hint}…</span> },
    { key: 'expires_at', header: 'Expires', sortKey: 'expires_at', render: (t) => (t.expires_at ? <span title={formatDateTime(t.expires_at)}>{formatRelative(t.expires_at)}</span> : <Dim>never</Dim>) },
    { key: 'last_used_at', header: 'Last used', sortKey: 'last_used_at', render: (t) => (t.last_used_at ? formatRelative(t.last_used_at) : <Dim>never</Dim>) },
    { key: 'created_by', header: 'Created by', render: (t) => t.created_by ?? <Dim /> },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <TableSearch table={table} label="Search tokens" />
        <Button onClick={() => setCreating(true)}>New token</Button>
      </Group>
      <ServerTable
        label="API tokens"
        columns={columns}
        query={query}
        table={table}
        rowKey={(t) => t.id}
        emptyText="No API tokens. Scripts and scrapers (Prometheus) authenticate with one."
        rowActions={(token) => <DeleteButton label="Revoke" what={`token ${token.name}`} message="Whatever uses it is refused from now on." onConfirm={() => revoke.mutate(token)} />}
      />
      <CreateTokenDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

/** `/users` (admin): users and API tokens. */
export function UsersPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Users and API tokens" description="Who may sign in, with which role, and the tokens scripts use." />
      <UrlTabs
        tabs={[
          { value: 'users', label: 'Users', panel: <Users /> },
          { value: 'tokens', label: 'API tokens', panel: <Tokens /> },
        ]}
      />
    </Stack>
  );
}
