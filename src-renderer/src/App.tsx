import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import type { Role } from '@contracts/auth';
import { useAppState } from './app-state.js';
import { Layout } from './components/Layout.js';
import { PageErrorBoundary } from './components/PageErrorBoundary.js';
import { Loading } from './components/QueryState.js';
import { RequireRole } from './components/RequireRole.js';
import { RequireSession } from './components/RequireSession.js';
import { LoginPage } from './pages/LoginPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';

/** A page module loaded on first visit: the editor and big pages stay out of the first download. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const DashboardPage = page(() => import('./pages/dashboard/DashboardPage.js'), 'DashboardPage');
const ServicesPage = page(() => import('./pages/services/ServicesPage.js'), 'ServicesPage');
const DnsPage = page(() => import('./pages/dns/DnsPage.js'), 'DnsPage');
const DhcpPage = page(() => import('./pages/dhcp/DhcpPage.js'), 'DhcpPage');
const LeasesPage = page(() => import('./pages/dhcp/LeasesPage.js'), 'LeasesPage');
const ReservationsPage = page(() => import('./pages/dhcp/ReservationsPage.js'), 'ReservationsPage');
const AccessPage = page(() => import('./pages/dhcp/AccessPage.js'), 'AccessPage');
const TftpPage = page(() => import('./pages/boot/TftpPage.js'), 'TftpPage');
const HostsPage = page(() => import('./pages/hosts/HostsPage.js'), 'HostsPage');
const HostDetailPage = page(() => import('./pages/hosts/HostDetailPage.js'), 'HostDetailPage');
const ProfilesPage = page(() => import('./pages/profiles/ProfilesPage.js'), 'ProfilesPage');
const ProfileDetailPage = page(() => import('./pages/profiles/ProfileDetailPage.js'), 'ProfileDetailPage');
const CatalogPage = page(() => import('./pages/netboot/CatalogPage.js'), 'CatalogPage');
const OverlaysPage = page(() => import('./pages/netboot/OverlaysPage.js'), 'OverlaysPage');
const TemplatesPage = page(() => import('./pages/netboot/TemplatesPage.js'), 'TemplatesPage');
const TemplateDetailPage = page(() => import('./pages/netboot/TemplateDetailPage.js'), 'TemplateDetailPage');
const TasksPage = page(() => import('./pages/netboot/TasksPage.js'), 'TasksPage');
const TaskDetailPage = page(() => import('./pages/netboot/TaskDetailPage.js'), 'TaskDetailPage');
const ScriptsPage = page(() => import('./pages/scripts/ScriptsPage.js'), 'ScriptsPage');
const ScriptDetailPage = page(() => import('./pages/scripts/ScriptDetailPage.js'), 'ScriptDetailPage');
const BaselinesPage = page(() => import('./pages/baselines/BaselinesPage.js'), 'BaselinesPage');
const BaselineDetailPage = page(() => import('./pages/baselines/BaselineDetailPage.js'), 'BaselineDetailPage');
const StorePage = page(() => import('./pages/store/StorePage.js'), 'StorePage');
const BmcPage = page(() => import('./pages/power/BmcPage.js'), 'BmcPage');
const WolPage = page(() => import('./pages/power/WolPage.js'), 'WolPage');
const EventsPage = page(() => import('./pages/monitoring/EventsPage.js'), 'EventsPage');
const LogsPage = page(() => import('./pages/monitoring/LogsPage.js'), 'LogsPage');
const AuditPage = page(() => import('./pages/monitoring/AuditPage.js'), 'AuditPage');
const DiagnosticsPage = page(() => import('./pages/diagnostics/DiagnosticsPage.js'), 'DiagnosticsPage');
const SettingsPage = page(() => import('./pages/settings/SettingsPage.js'), 'SettingsPage');
const KitPage = page(() => import('./pages/kit/KitPage.js'), 'KitPage');
const UsersPage = page(() => import('./pages/users/UsersPage.js'), 'UsersPage');
const SetupPage = page(() => import('./pages/setup/SetupPage.js'), 'SetupPage');
const ImagesPage = page(() => import('./pages/images/ImagesPage.js'), 'ImagesPage');
const ImageDetailPage = page(() => import('./pages/images/ImageDetailPage.js'), 'ImageDetailPage');
const FilesPage = page(() => import('./pages/files/FilesPage.js'), 'FilesPage');
const NfsPage = page(() => import('./pages/nfs/NfsPage.js'), 'NfsPage');

/** Every routed page with the role it needs; the navigation (navigation.ts) lists the same paths. */
export const ROUTES: { path: string; role: Role; element: ComponentType }[] = [
  { path: '/', role: 'viewer', element: DashboardPage },
  { path: '/services', role: 'viewer', element: ServicesPage },
  { path: '/services/dns', role: 'viewer', element: DnsPage },
  { path: '/services/dhcp', role: 'viewer', element: DhcpPage },
  { path: '/services/tftp', role: 'viewer', element: TftpPage },
  { path: '/leases', role: 'viewer', element: LeasesPage },
  { path: '/dhcp/reservations', role: 'viewer', element: ReservationsPage },
  { path: '/access', role: 'viewer', element: AccessPage },
  { path: '/hosts', role: 'viewer', element: HostsPage },
  { path: '/hosts/:id', role: 'viewer', element: HostDetailPage },
  { path: '/profiles', role: 'viewer', element: ProfilesPage },
  { path: '/profiles/:id', role: 'viewer', element: ProfileDetailPage },
  { path: '/netboot', role: 'viewer', element: CatalogPage },
  { path: '/netboot/overlays', role: 'viewer', element: OverlaysPage },
  { path: '/netboot/templates', role: 'viewer', element: TemplatesPage },
  { path: '/netboot/templates/:id', role: 'viewer', element: TemplateDetailPage },
  { path: '/netboot/tasks', role: 'viewer', element: TasksPage },
  { path: '/netboot/tasks/:id', role: 'viewer', element: TaskDetailPage },
  { path: '/images', role: 'viewer', element: ImagesPage },
  { path: '/images/:id', role: 'viewer', element: ImageDetailPage },
  { path: '/files', role: 'viewer', element: FilesPage },
  { path: '/services/nfs', role: 'viewer', element: NfsPage },
  { path: '/scripts', role: 'viewer', element: ScriptsPage },
  { path: '/scripts/:id', role: 'viewer', element: ScriptDetailPage },
  { path: '/baselines', role: 'viewer', element: BaselinesPage },
  { path: '/baselines/:id', role: 'viewer', element: BaselineDetailPage },
  { path: '/store', role: 'viewer', element: StorePage },
  { path: '/bmc', role: 'viewer', element: BmcPage },
  { path: '/wol', role: 'viewer', element: WolPage },
  { path: '/events', role: 'viewer', element: EventsPage },
  { path: '/logs', role: 'viewer', element: LogsPage },
  { path: '/audit', role: 'operator', element: AuditPage },
  { path: '/diagnostics', role: 'operator', element: DiagnosticsPage },
  { path: '/settings', role: 'viewer', element: SettingsPage },
  { path: '/users', role: 'admin', element: UsersPage },
  { path: '/kit', role: 'admin', element: KitPage },
  // The first-run wizard: opened from the dashboard's setup card and from Settings, not from the navigation.
  { path: '/setup', role: 'admin', element: SetupPage },
];

function PageFrame({ role, children }: { role: Role; children: ReactNode }) {
  const location = useLocation();
  return (
    <PageErrorBoundary key={location.pathname}>
      <RequireRole role={role}>
        <Suspense fallback={<Loading label="Loading the page…" />}>{children}</Suspense>
      </RequireRole>
    </PageErrorBoundary>
  );
}

/** The route table of the UI. Only pages that exist are routed; everything else is "not found". */
export function App() {
  const { session } = useAppState();
  useEffect(() => {
    void session.getState().check();
  }, [session]);

  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        element={
          <RequireSession>
            <Layout />
          </RequireSession>
        }
      >
        {ROUTES.map(({ path, role, element: Page }) => (
          <Route
            key={path}
            path={path}
            element={
              <PageFrame role={role}>
                <Page />
              </PageFrame>
            }
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
