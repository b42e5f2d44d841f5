/** The collections the durability writer (store-writer.ts) writes: `<file>/<name>`. */
export const WRITER_COLLECTIONS = ['config/probe', 'config/hosts_probe', 'auth/users_probe', 'events/probe'] as const;
