import { Type, type Static } from 'typebox';
import { GROUP_PATTERN, nullable } from '../core/http-kit/common-contract.js';
import { MAX_TEMPLATE_CHARS } from '../templates/templates-contract.js';

/*
 * The profiles API's contract: the TypeBox schemas and constants of
 * /api/v1/profiles/*. It imports nothing but typebox and other contracts (a
 * test checks it) so the renderer imports it too (alias @contracts/profiles).
 * Printable-text fields (description, comment) get their pattern in the routes:
 * the rule is ground-layer code (core/printable-text.ts) this file may not import.
 */

/** What a profile boots (docs/hosts-and-profiles.md, "Boot types"). */
export const BOOT_TYPES = ['ipxe_script', 'linux', 'chain', 'sanboot', 'local', 'menu'] as const;
export type BootType = (typeof BOOT_TYPES)[number];

/** Profile names and menu titles/labels: at most this many characters. */
export const PROFILE_NAME_MAX = 64;
/** Host group names (hosts' `group`, profiles' `default_for_groups`, netboot.boot_loaders.groups): defined in the ground layer, which settings use too. */
export { GROUP_PATTERN };
/** Template variable names (`variables.<name>`). */
export const VARIABLE_NAME_PATTERN = '^[a-z_][a-z0-9_]{0,63}$';

export const BootTypeSchema = Type.Enum([...BOOT_TYPES], { description: 'ipxe_script, linux, chain, sanboot, local or menu' });
const Location = Type.String({ minLength: 1, maxLength: 2048, description: 'Path under the boot root or absolute URL; may use {{ }} expressions' });

/** A kernel with initrds and a command line; paths are relative to the boot root or absolute URLs. */
export const LinuxConfigSchema = Type.Object({ kernel: Type.String(), initrds: Type.Array(Type.String()), cmdline: Type.String() });
/** chain: another boot script or loader; sanboot: an ISO or disk image booted over the network. */
export const UrlConfigSchema = Type.Object({ url: Type.String() });
export const MenuEntrySchema = Type.Object({ profile_id: Type.Integer(), label: Type.String() });
/** An iPXE menu of other profiles, with "boot from the local disk" always last; default_entry null chooses the local disk. */
export const MenuConfigSchema = Type.Object({
  title: Type.String(),
  entries: Type.Array(MenuEntrySchema),
  default_entry: nullable<number>('integer'),
  timeout_seconds: Type.Integer(),
});
export const VariablesSchema = Type.Record(Type.String({ pattern: VARIABLE_NAME_PATTERN }), Type.String({ maxLength: 4096 }), {
  maxProperties: 64,
  additionalProperties: false,
  description: 'Template variables (variables.<name>): lowercase names, string values',
});

export const ProfileSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    boot_type: BootTypeSchema,
    script: Type.String({ description: 'The script template: hand-written for ipxe_script, generated for the other types' }),
    linux: Type.Union([LinuxConfigSchema, Type.Null()]),
    chain: Type.Union([UrlConfigSchema, Type.Null()]),
    sanboot: Type.Union([UrlConfigSchema, Type.Null()]),
    menu: Type.Union([MenuConfigSchema, Type.Null()]),
    variables: VariablesSchema,
    default_for_groups: Type.Array(Type.String()),
    script_version: Type.Integer({ description: 'Version number of the current script' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Profile' },
);

/** One saved script version as the API shows it (the stored version keeps the whole boot source). */
export const ScriptVersionSchema = Type.Object(
  {
    id: Type.Integer(),
    profile_id: Type.Integer(),
    version: Type.Integer(),
    boot_type: BootTypeSchema,
    script: Type.String(),
    author: Type.String(),
    comment: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ProfileScriptVersion' },
);

export const ScriptDiffSchema = Type.Object({
  profile_id: Type.Integer(),
  from_version: Type.Integer(),
  to_version: Type.Integer(),
  diff: Type.String({ description: 'Unified diff' }),
  additions: Type.Integer(),
  deletions: Type.Integer(),
});

/** The writable fields but the printable-text ones (description, comment), which the routes add. */
export const ProfileFieldSchemas = {
  script: Type.String({ maxLength: MAX_TEMPLATE_CHARS, description: 'ipxe_script only: the script template' }),
  linux: Type.Object(
    {
      kernel: Location,
      initrds: Type.Optional(Type.Array(Location, { maxItems: 16 })),
      cmdline: Type.Optional(Type.String({ maxLength: 4096 })),
    },
    { additionalProperties: false },
  ),
  chain: Type.Object({ url: Location }, { additionalProperties: false }),
  sanboot: Type.Object({ url: Location }, { additionalProperties: false }),
  menu: Type.Object(
    {
      title: Type.Optional(Type.String({ minLength: 1, maxLength: PROFILE_NAME_MAX })),
      entries: Type.Array(
        Type.Object(
          { profile_id: Type.Integer({ minimum: 1 }), label: Type.Optional(Type.String({ minLength: 1, maxLength: PROFILE_NAME_MAX })) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 64 },
      ),
      default_entry: Type.Optional(nullable<number>('integer', { minimum: 1, description: 'An entry\'s profile_id; null: the local disk' })),
      timeout_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: '0 waits for a key press; default 10' })),
    },
    { additionalProperties: false },
  ),
  variables: VariablesSchema,
  default_for_groups: Type.Array(Type.String({ pattern: GROUP_PATTERN }), { maxItems: 32 }),
};

export const ProfileNameSchema = Type.String({
  minLength: 1,
  maxLength: PROFILE_NAME_MAX,
  description: 'Unique (case-insensitive); printable, without $ { } # ; & | quotes or backslash',
});

/**
 * A create or update body (create: name and boot_type required; update: any
 * subset); `comment` is stored with the new script version. The routes add the
 * printable-text rule to `description` and `comment`.
 */
export const ProfileWriteSchema = Type.Object(
  {
    name: Type.Optional(ProfileNameSchema),
    boot_type: Type.Optional(BootTypeSchema),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    script: Type.Optional(ProfileFieldSchemas.script),
    linux: Type.Optional(ProfileFieldSchemas.linux),
    chain: Type.Optional(ProfileFieldSchemas.chain),
    sanboot: Type.Optional(ProfileFieldSchemas.sanboot),
    menu: Type.Optional(ProfileFieldSchemas.menu),
    variables: Type.Optional(ProfileFieldSchemas.variables),
    default_for_groups: Type.Optional(ProfileFieldSchemas.default_for_groups),
    comment: Type.Optional(Type.String({ maxLength: 500, description: 'Stored with the new script version, if the script changes' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** How many hosts boot a profile now (issue 18): assigned to them, or as their group's default. */
export const ProfileUsageSchema = Type.Object({
  assigned: Type.Integer({ description: 'Hosts assigned this profile (their own profile_id)' }),
  by_group: Type.Integer({ description: 'Hosts without a profile of their own that boot it as their group default' }),
});

/** A profile as the list and GET read it: the record and the hosts using it. */
export const ProfileViewSchema = Type.Object(
  {
    ...ProfileSchema.properties,
    used_by: ProfileUsageSchema,
  },
  { $id: 'ProfileView' },
);

/**
 * The answer to a create or update: the profile and what is wrong with it
 * that does not stop the save (a kernel or initrd missing from the boot root).
 */
export const ProfileSavedSchema = Type.Object(
  {
    ...ProfileSchema.properties,
    warnings: Type.Array(Type.String(), { description: 'One line per problem a machine booting this profile would meet (a file missing from the boot root); empty when none' }),
  },
  { $id: 'ProfileSaved' },
);

export type Profile = Static<typeof ProfileSchema>;
export type ProfileUsage = Static<typeof ProfileUsageSchema>;
export type ProfileView = Static<typeof ProfileViewSchema>;
export type ProfileSaved = Static<typeof ProfileSavedSchema>;
export type LinuxConfig = Static<typeof LinuxConfigSchema>;
export type ChainConfig = Static<typeof UrlConfigSchema>;
export type SanbootConfig = Static<typeof UrlConfigSchema>;
export type MenuEntry = Static<typeof MenuEntrySchema>;
export type MenuConfig = Static<typeof MenuConfigSchema>;
export type ScriptVersionView = Static<typeof ScriptVersionSchema>;
export type ScriptDiff = Static<typeof ScriptDiffSchema>;
export type MenuInput = Static<typeof ProfileFieldSchemas.menu>;
export type ProfileWrite = Static<typeof ProfileWriteSchema>;
/** What the profile service takes: the body without the comment, which travels apart (ChangeNote). */
export type ProfileInput = Omit<ProfileWrite, 'comment'>;

/** The rollback body. */
export interface ProfileRollback {
  comment?: string;
}
