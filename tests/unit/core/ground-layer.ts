/**
 * The ground services issue 12 counts as ground but that still live beside the
 * areas in their own folders: they import nothing but core/ and each other.
 * One list for every layering test.
 */
export const GROUND_SERVICES: readonly string[] = ['store', 'events', 'audit', 'metrics', 'settings', 'network', 'services'];
