import { createRequire } from 'node:module';

/**
 * Loading a module of the native addon (@bootwright/sendfile and its
 * siblings): once, lazily, Linux only. Every failure — another platform, a
 * build that failed at install time, an unexpected shape, a module built
 * without its feature (`supported: false`) — becomes a reason the caller
 * logs or shows, and the caller falls back to its Node path.
 */

export type NativeModule<T> = { binding: T; reason: null } | { binding: null; reason: string };

/** A module's exports with the `start`/`open`… function the caller needs and the `supported` flag every module has. */
export function hasNativeShape(value: unknown, method: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate[method] === 'function' && typeof candidate.supported === 'boolean';
}

/**
 * A loader for module `name`: the first call requires it, later calls answer
 * the same. `feature` names what the module does, for the reasons.
 */
export function nativeModuleLoader<T extends { supported: boolean }>(name: () => string, feature: string, isShape: (value: unknown) => value is T): () => NativeModule<T> {
  let loaded: NativeModule<T> | null = null;
  return () => {
    if (loaded) return loaded;
    if (process.platform !== 'linux') return (loaded = { binding: null, reason: `${feature} is used on Linux only (this is ${process.platform})` });
    const module = name();
    try {
      // createRequire: this is an ES module, and a .node addon loads only through require.
      const required: unknown = createRequire(import.meta.url)(module);
      if (!isShape(required)) return (loaded = { binding: null, reason: `${module} has an unexpected shape` });
      if (!required.supported) return (loaded = { binding: null, reason: `${module} was built without ${feature} support` });
      return (loaded = { binding: required, reason: null });
    } catch (err) {
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return (loaded = { binding: null, reason: `${module} could not be loaded (${message})` });
    }
  };
}
