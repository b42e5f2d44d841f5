import { findTool } from './netns.js';

/**
 * Whether a Debian tool a test drives is installed. Missing is fatal in CI
 * (.ci/run installs it) and a printed skip of `what` elsewhere.
 */
export function toolPresent(name: string, what: string): boolean {
  if (findTool(name)) return true;
  if (process.env.CI) throw new Error(`${name} is not installed: .ci/run installs it (APT_PACKAGES)`);
  console.warn(`skipping ${what}: ${name} is not installed`);
  return false;
}
