/**
 * The collections the durability writer (store-writer.ts) writes, `<file>/<name>`:
 * every collection the areas keep, under their real names and store files
 * (the rows are probes; the store does not look inside rows).
 */
export const WRITER_COLLECTIONS = [
  'config/hosts',
  'config/profiles',
  'config/profile_script_versions',
  'config/dns_records',
  'config/dhcp_reservations',
  'config/access_blacklist',
  'config/access_whitelist',
  'config/access_unauthorized',
  'config/bmc_configs',
  'config/wol_schedules',
  'config/netboot_tasks',
  'auth/users',
  'auth/sessions',
  'auth/tokens',
  'events/events',
  'events/wol_history',
  'audit/audit_logs',
] as const;
