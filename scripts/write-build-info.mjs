// Writes dist/build-info.json ({commit, build_date}) for GET /api/v1/version.
// The commit comes from `git rev-parse HEAD` when the sources are a git checkout
// (null otherwise); SOURCE_DATE_EPOCH, when set, fixes the date for reproducible builds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function gitCommit() {
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
    return /^[0-9a-f]{40,64}$/.test(out) ? out : null;
  } catch {
    return null;
  }
}

function buildDate() {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const date = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return date.toISOString();
}

const info = { commit: gitCommit(), build_date: buildDate() };
mkdirSync(path.join(root, 'dist'), { recursive: true });
writeFileSync(path.join(root, 'dist', 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
console.log(`dist/build-info.json: commit ${info.commit ?? '(none)'}, built ${info.build_date}`);
