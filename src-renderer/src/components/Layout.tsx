import { ActionIcon, AppShell, Burger, Group, Menu, NavLink, ScrollArea, Text, Tooltip, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation } from 'react-router';
import { roleAllows } from '../api/roles.js';
import { useAppState, useLiveEvents, useRole, useSession } from '../app-state.js';
import { LiveEvents } from '../live/LiveEvents.js';
import { localTimeZone } from '../format.js';
import { NAVIGATION, NAV_ITEMS } from '../navigation.js';
import { AlertCenter } from './AlertCenter.js';
import { ChangePasswordModal } from './ChangePasswordModal.js';
import { PasswordBanner } from './PasswordBanner.js';
import { notifyError } from './notify.js';

/** The nav entry a path belongs to: the longest nav path that prefixes it (/services/dns is DNS, not Services). */
export function activeNavPath(pathname: string): string | null {
  let best: string | null = null;
  for (const item of NAV_ITEMS) {
    const matches = item.path === '/' ? pathname === '/' : pathname === item.path || pathname.startsWith(`${item.path}/`);
    if (matches && (best === null || item.path.length > best.length)) best = item.path;
  }
  return best;
}

function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to the ${next} theme`}>
      <ActionIcon variant="default" size="lg" aria-label={`Switch to the ${next} theme`} onClick={() => setColorScheme(next)}>
        <span aria-hidden="true">{computed === 'dark' ? '☀' : '☾'}</span>
      </ActionIcon>
    </Tooltip>
  );
}

function LiveIndicator() {
  const status = useLiveEvents((state) => state.status);
  const error = useLiveEvents((state) => state.error);
  return (
    <Tooltip label={status === 'live' ? 'Live updates are on' : `Live updates paused: ${error ?? 'reconnecting'}`}>
      <Text size="xs" c={status === 'live' ? 'teal' : 'orange'} className="live-indicator" role="status">
        <span aria-hidden="true">●</span> {status === 'live' ? 'Live' : 'Reconnecting'}
      </Text>
    </Tooltip>
  );
}

function UserMenu() {
  const session = useSession((state) => state.session);
  const logout = useSession((state) => state.logout);
  const { queryClient } = useAppState();
  const [passwordOpen, password] = useDisclosure(false);
  if (!session) return null;
  // The desktop user is the local admin over IPC: no session to end, no password to change.
  if (session.via === 'local') {
    return (
      <Text size="sm" c="dimmed">
        Desktop (local admin)
      </Text>
    );
  }
  const onLogout = async () => {
    try {
      await logout();
      queryClient.clear();
    } catch (err) {
      notifyError(err, 'Logout failed');
    }
  };
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton className="user-button" aria-label={`User menu: ${session.user.username} (${session.role})`}>
            <Text size="sm" fw={500}>
              {session.user.username} · {session.role}
            </Text>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {session.via === 'session' && <Menu.Item onClick={password.open}>Change password</Menu.Item>}
          {session.via === 'session' && (
            <Menu.Item color="red" onClick={() => void onLogout()}>
              Log out
            </Menu.Item>
          )}
          {session.via === 'token' && <Menu.Label>Signed in with an API token</Menu.Label>}
        </Menu.Dropdown>
      </Menu>
      <ChangePasswordModal opened={passwordOpen} onClose={password.close} />
    </>
  );
}

/** Header, side navigation (a drawer below 992 px: at 800 px, a tablet or the laptop's side window, the page gets the whole width), and the page. */
export function Layout() {
  const [navOpen, nav] = useDisclosure(false);
  const role = useRole();
  const location = useLocation();
  const active = activeNavPath(location.pathname);

  return (
    <AppShell header={{ height: 52 }} navbar={{ width: 220, breakpoint: 'md', collapsed: { mobile: !navOpen } }} padding="md">
      <LiveEvents />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={nav.toggle} hiddenFrom="md" size="sm" aria-label={navOpen ? 'Close navigation' : 'Open navigation'} />
            <Text component={Link} to="/" fw={700} size="lg" className="brand">
              Bootwright
            </Text>
          </Group>
          <Group gap="md" wrap="nowrap">
            <AlertCenter />
            <LiveIndicator />
            <ThemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label="Main">
        <ScrollArea type="auto" p="xs">
            {NAVIGATION.map((group) => {
              const items = group.items.filter((item) => roleAllows(role, item.role));
              if (items.length === 0) return null;
              return (
                <div key={group.label} className="nav-group">
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                    {group.label}
                  </Text>
                  {items.map((item) => (
                    <NavLink
                      key={item.path}
                      component={Link}
                      to={item.path}
                      label={item.label}
                      active={active === item.path}
                      aria-current={active === item.path ? 'page' : undefined}
                      onClick={nav.close}
                      py={6}
                    />
                  ))}
                </div>
              );
            })}
          <Text size="xs" c="dimmed" px="sm" pt="md" pb="xs" aria-label="Time zone of the times shown">
            Times in {localTimeZone()}
          </Text>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <PasswordBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
