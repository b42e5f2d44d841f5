import { invalid } from '../../core/errors.js';
import { PROFILE_NAME_MAX } from '../../profiles/profiles-contract.js';
import type { Profile, ProfileInput, ChangeNote } from '../../profiles/profile-types.js';
import type { TemplateRenderer } from '../../templates/template-renderer.js';
import type { ProfileFromNetboot } from '../netboot-contract.js';
import type { CatalogReader } from '../netboot-ports.js';
import { entryCmdlineData } from './cmdline-data.js';

export interface ProfileFromNetbootDeps {
  catalog: Pick<CatalogReader, 'resolve'>;
  profiles: { create(input: ProfileInput, note: ChangeNote): Promise<Profile> };
  templates: Pick<TemplateRenderer, 'render'>;
}

/** Profile names may not hold these (profiles-contract.ts): they would break the iPXE menu line. */
const NAME_FORBIDDEN = /[${}#;&|"'\\]/g;

/** Liquid that writes itself back: `{{ host.hostname }}` rendered with this data gives `{{ host.hostname }}` for the profile to render at boot. */
function deferred(prefix: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `{{ ${prefix}.${name} }}`]));
}

/**
 * POST /profiles/from-netboot: a `linux` profile that boots a catalog entry's
 * installer interactively. Its kernel and initrds are the entry's served
 * paths (under `{{ server.boot_url }}`); its command line is the entry's with
 * the task-only parts left empty (`answer_argument`, `answer_url`…): an
 * answer URL belongs to one task and carries that task's token, so a profile
 * shared by many machines cannot hold one. Unattended installs are install
 * tasks. The machine-specific parts (`host.*`, `server.*`, the variables
 * given) stay Liquid and are rendered by the profile at boot.
 */
export async function profileFromNetboot(deps: ProfileFromNetbootDeps, input: ProfileFromNetboot, author: string): Promise<Profile> {
  const resolved = deps.catalog.resolve(input.distro, input.version, input.arch ?? 'x86_64');
  if (resolved.entry.loader === 'wimboot') {
    throw invalid('body.distro', `${resolved.entry.name} boots through wimboot, whose named files a linux profile cannot carry: install it with an install task`);
  }
  const kernel = resolved.files.find((file) => file.role === 'kernel');
  if (!kernel) throw invalid('body.distro', `${resolved.entry.name} ${resolved.version.version} names no kernel file`);
  const variables = { ...(input.variables ?? {}) };
  const data = entryCmdlineData(resolved, {
    host: deferred('host', ['id', 'mac', 'hostname', 'ip', 'group', 'arch', 'platform']),
    server: deferred('server', ['ip', 'http_port', 'base_url', 'boot_url', 'entry_url', 'script_url', 'name']),
    variables: deferred('variables', Object.keys(variables)),
    task: null,
    urls: null,
  });
  const cmdline = (await deps.templates.render(resolved.cmdline, { ...data, answer_argument: '' })).replace(/\s+/g, ' ').trim();
  const label = `${resolved.entry.name} ${resolved.version.version} (${resolved.arch.arch})`;
  const name = input.name ?? `${label} installer`.replace(NAME_FORBIDDEN, '').slice(0, PROFILE_NAME_MAX).trim();
  return deps.profiles.create(
    {
      name,
      boot_type: 'linux',
      description: input.description ?? `The ${label} installer from the netboot catalog, interactive (no answer file: unattended installs are install tasks).`,
      linux: { kernel: kernel.served_path, initrds: resolved.files.filter((file) => file.role === 'initrd').map((file) => file.served_path), cmdline },
      variables,
    },
    { author, comment: `made from the netboot catalog entry ${resolved.entry.distro} ${resolved.version.version} ${resolved.arch.arch}` },
  );
}
