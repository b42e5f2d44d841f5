export { ProfileService, type ProfileServiceDeps, type ProfileFilter, type ProfileUsers, type ScriptDiff } from './profile-service.js';
export { generateScript, menuScript, bootUrl } from './script-generator.js';
export * from './profile-types.js';
