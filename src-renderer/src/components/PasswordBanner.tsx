import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { useCan, useSession } from '../app-state.js';
import { useApiQuery } from '../query/api-hooks.js';
import { keys } from '../query/keys.js';
import { ChangePasswordModal } from './ChangePasswordModal.js';

/**
 * Asks admins to replace the password Bootwright generated for `admin` on
 * the first start, on every page until it is changed (GET /system/first-run,
 * must_change_password). The admin itself changes it here; another admin is
 * sent to the Users page. Nothing shows when the state cannot be read.
 */
export function PasswordBanner() {
  const isAdmin = useCan('admin');
  const session = useSession((state) => state.session);
  const state = useApiQuery(keys.firstRun, isAdmin ? (api) => api.system.firstRun.get() : null, { retry: false });
  const [opened, modal] = useDisclosure(false);
  if (!isAdmin || !state.data?.must_change_password) return null;
  const ownAccount = session?.via === 'session' && session.user.username === 'admin';
  return (
    <Alert color="orange" mb="md" title="The admin account still has its generated password" role="alert">
      <Group justify="space-between" gap="sm">
        <Text size="sm">Anyone who read the first start's log or the initial-admin-password file can sign in with it. Choose a new one.</Text>
        {ownAccount ? (
          <Button size="xs" color="orange" onClick={modal.open}>
            Change the admin password
          </Button>
        ) : (
          <Anchor component={Link} to="/users" size="sm">
            Set a new password for admin on the Users page
          </Anchor>
        )}
      </Group>
      {ownAccount && <ChangePasswordModal opened={opened} onClose={modal.close} />}
    </Alert>
  );
}
