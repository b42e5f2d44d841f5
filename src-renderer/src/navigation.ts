import type { Role } from '@contracts/auth';

export interface NavItem {
  path: string;
  label: string;
  /** The least role that may open the page (its reads need it). */
  role: Role;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/**
 * The main navigation, grouped by what a technician is doing. Every entry
 * is a routed page (App.tsx) backed by registered API routes: no dead links.
 */
export const NAVIGATION: NavGroup[] = [
  {
    label: 'Overview',
    items: [
      { path: '/', label: 'Dashboard', role: 'viewer' },
      { path: '/services', label: 'Services', role: 'viewer' },
    ],
  },
  {
    label: 'Network',
    items: [
      { path: '/services/dhcp', label: 'DHCP', role: 'viewer' },
      { path: '/leases', label: 'Leases', role: 'viewer' },
      { path: '/dhcp/reservations', label: 'Reservations', role: 'viewer' },
      { path: '/access', label: 'Access control', role: 'viewer' },
      { path: '/services/dns', label: 'DNS', role: 'viewer' },
    ],
  },
  {
    label: 'Boot',
    items: [
      { path: '/hosts', label: 'Hosts', role: 'viewer' },
      { path: '/profiles', label: 'Profiles', role: 'viewer' },
      { path: '/services/tftp', label: 'TFTP & boot loaders', role: 'viewer' },
    ],
  },
  {
    label: 'Netboot',
    items: [
      { path: '/netboot', label: 'OS catalog', role: 'viewer' },
      { path: '/netboot/tasks', label: 'Install tasks', role: 'viewer' },
      { path: '/netboot/templates', label: 'Answer templates', role: 'viewer' },
      { path: '/netboot/overlays', label: 'Catalog overlays', role: 'viewer' },
      { path: '/images', label: 'OS images', role: 'viewer' },
      { path: '/services/nfs', label: 'NFS exports', role: 'viewer' },
      { path: '/files', label: 'Files', role: 'viewer' },
    ],
  },
  {
    label: 'Post-install',
    items: [
      { path: '/scripts', label: 'Scripts', role: 'viewer' },
      { path: '/baselines', label: 'Baselines', role: 'viewer' },
      { path: '/store', label: 'Store', role: 'viewer' },
    ],
  },
  {
    label: 'Power',
    items: [
      { path: '/bmc', label: 'BMC', role: 'viewer' },
      { path: '/wol', label: 'Wake-on-LAN', role: 'viewer' },
    ],
  },
  {
    label: 'Monitoring',
    items: [
      { path: '/events', label: 'Events', role: 'viewer' },
      { path: '/logs', label: 'Logs', role: 'viewer' },
      { path: '/audit', label: 'Audit log', role: 'operator' },
      { path: '/diagnostics', label: 'Diagnostics', role: 'operator' },
    ],
  },
  {
    label: 'Administration',
    items: [
      { path: '/settings', label: 'Settings', role: 'viewer' },
      { path: '/users', label: 'Users & API tokens', role: 'admin' },
      { path: '/kit', label: 'Kit export/import', role: 'admin' },
    ],
  },
];

export const NAV_ITEMS: NavItem[] = NAVIGATION.flatMap((group) => group.items);
