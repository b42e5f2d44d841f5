import type { Profile, ProfileInput } from './profiles-contract.js';

/** The update input that puts `profile` back as it was (an import undoing its overwrite restores a snapshot with it). */
export function profileAsInput(profile: Profile): ProfileInput {
  return {
    name: profile.name,
    boot_type: profile.boot_type,
    description: profile.description,
    variables: profile.variables,
    default_for_groups: profile.default_for_groups,
    ...(profile.boot_type === 'ipxe_script' ? { script: profile.script } : {}),
    ...(profile.linux ? { linux: profile.linux } : {}),
    ...(profile.chain ? { chain: profile.chain } : {}),
    ...(profile.sanboot ? { sanboot: profile.sanboot } : {}),
    ...(profile.menu ? { menu: profile.menu } : {}),
  };
}
