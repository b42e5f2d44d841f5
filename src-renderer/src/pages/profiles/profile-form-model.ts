import { PROFILE_NAME_MAX, ProfileFieldSchemas, VARIABLE_NAME_PATTERN, type BootType, type Profile, type ProfileWrite } from '@contracts/profiles';
import { Value } from 'typebox/value';

const VARIABLE_NAME = new RegExp(VARIABLE_NAME_PATTERN);

export interface ProfileForm {
  name: string;
  description: string;
  boot_type: BootType;
  script: string;
  kernel: string;
  initrds: string[];
  cmdline: string;
  chain_url: string;
  sanboot_url: string;
  menu_title: string;
  menu_entries: { profile_id: string | null; label: string }[];
  /** A menu entry's profile id, or '' for the local disk. */
  menu_default: string;
  menu_timeout: number | string;
  variables: { name: string; value: string }[];
  default_for_groups: string[];
  comment: string;
}

export const NEW_SCRIPT = '#!ipxe\n# Boot script template: {{ … }} is filled in by Bootwright, ${…} by iPXE.\necho Booting {{ host.hostname | default: client.mac }}\nexit 0\n';

export function profileToForm(profile: Profile | null): ProfileForm {
  return {
    name: profile?.name ?? '',
    description: profile?.description ?? '',
    boot_type: profile?.boot_type ?? 'ipxe_script',
    script: profile?.script ?? NEW_SCRIPT,
    kernel: profile?.linux?.kernel ?? '',
    initrds: profile?.linux?.initrds ?? [],
    cmdline: profile?.linux?.cmdline ?? '',
    chain_url: profile?.chain?.url ?? '',
    sanboot_url: profile?.sanboot?.url ?? '',
    menu_title: profile?.menu?.title ?? 'Bootwright',
    menu_entries: profile?.menu?.entries.map((entry) => ({ profile_id: String(entry.profile_id), label: entry.label })) ?? [],
    menu_default: profile?.menu?.default_entry !== null && profile?.menu?.default_entry !== undefined ? String(profile.menu.default_entry) : '',
    menu_timeout: profile?.menu?.timeout_seconds ?? 10,
    variables: Object.entries(profile?.variables ?? {}).map(([name, value]) => ({ name, value })),
    default_for_groups: profile?.default_for_groups ?? [],
    comment: '',
  };
}

/**
 * The request body: the common fields plus only the settings of the chosen
 * type (the API refuses another type's settings, and `script` for any type
 * but ipxe_script, whose script is generated).
 */
export function profileBody(form: ProfileForm): ProfileWrite {
  const body: ProfileWrite = {
    name: form.name.trim(),
    boot_type: form.boot_type,
    description: form.description,
    variables: Object.fromEntries(form.variables.filter((variable) => variable.name.trim() !== '').map((variable) => [variable.name.trim(), variable.value])),
    default_for_groups: form.default_for_groups,
  };
  if (form.comment.trim() !== '') body.comment = form.comment.trim();
  switch (form.boot_type) {
    case 'ipxe_script':
      body.script = form.script;
      break;
    case 'linux':
      body.linux = { kernel: form.kernel.trim(), initrds: form.initrds, cmdline: form.cmdline.trim() };
      break;
    case 'chain':
      body.chain = { url: form.chain_url.trim() };
      break;
    case 'sanboot':
      body.sanboot = { url: form.sanboot_url.trim() };
      break;
    case 'menu':
      body.menu = {
        title: form.menu_title.trim() || 'Bootwright',
        entries: form.menu_entries
          .filter((entry) => entry.profile_id !== null)
          .map((entry) => ({ profile_id: Number(entry.profile_id), ...(entry.label.trim() !== '' ? { label: entry.label.trim() } : {}) })),
        default_entry: form.menu_default === '' ? null : Number(form.menu_default),
        timeout_seconds: Number(form.menu_timeout),
      };
      break;
    case 'local':
      break;
  }
  return body;
}

/** API field paths → form fields (`body.linux.kernel` → `kernel`, `body.menu.entries.1.profile_id` → `menu_entries.1.profile_id`). */
export function profileErrorPath(path: string): string | null {
  const direct: Record<string, string> = {
    name: 'name',
    description: 'description',
    boot_type: 'boot_type',
    script: 'script',
    'linux.kernel': 'kernel',
    'linux.cmdline': 'cmdline',
    linux: 'kernel',
    'chain.url': 'chain_url',
    chain: 'chain_url',
    'sanboot.url': 'sanboot_url',
    sanboot: 'sanboot_url',
    'menu.title': 'menu_title',
    'menu.default_entry': 'menu_default',
    'menu.timeout_seconds': 'menu_timeout',
    menu: 'menu_entries',
    'menu.entries': 'menu_entries',
    variables: 'variables',
    default_for_groups: 'default_for_groups',
    comment: 'comment',
  };
  if (direct[path]) return direct[path]!;
  if (path.startsWith('linux.initrds')) return 'initrds';
  if (path.startsWith('default_for_groups')) return 'default_for_groups';
  if (path.startsWith('variables')) return 'variables';
  const entry = /^menu\.entries\.(\d+)\.(profile_id|label)$/.exec(path);
  if (entry) return `menu_entries.${entry[1]}.${entry[2]}`;
  if (path.startsWith('menu.entries')) return 'menu_entries';
  return null;
}

/** Client-side checks: messages by form path. */
export function profileProblems(form: ProfileForm): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = form.name.trim();
  if (name === '') problems.name = 'Name the profile';
  else if (name.length > PROFILE_NAME_MAX || /[${}#;&|"'\\]/.test(name)) problems.name = `At most ${PROFILE_NAME_MAX} characters, without $ { } # ; & | quotes or backslash`;
  if (form.boot_type === 'ipxe_script' && form.script.trim() === '') problems.script = 'Write the script (it starts with #!ipxe)';
  if (form.boot_type === 'linux' && form.kernel.trim() === '') problems.kernel = 'The kernel: a path under the boot root or a URL';
  if (form.boot_type === 'chain' && form.chain_url.trim() === '') problems.chain_url = 'The URL to chain to';
  if (form.boot_type === 'sanboot' && form.sanboot_url.trim() === '') problems.sanboot_url = 'The URL of the ISO or disk image';
  if (form.boot_type === 'menu') {
    if (form.menu_entries.length === 0) problems.menu_entries = 'Add at least one entry';
    form.menu_entries.forEach((entry, index) => {
      if (entry.profile_id === null) problems[`menu_entries.${index}.profile_id`] = 'Choose a profile';
    });
    const timeout = Number(form.menu_timeout);
    if (!Value.Check(ProfileFieldSchemas.menu.properties.timeout_seconds, timeout)) problems.menu_timeout = '0–600 seconds';
  }
  form.variables.forEach((variable, index) => {
    if (variable.name.trim() !== '' && !VARIABLE_NAME.test(variable.name.trim())) problems[`variables.${index}.name`] = 'Lowercase letters, digits and _, not starting with a digit';
  });
  return problems;
}
