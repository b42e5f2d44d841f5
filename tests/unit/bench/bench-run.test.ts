import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * `npm run bench` (bench/run.js) runs every `bench:*` script of package.json;
 * it checks first that every file they name exists. Here only its --list mode
 * runs (benchmarks are never run by tests).
 */

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const benches = Object.entries(scripts).filter(([name]) => name.startsWith('bench:'));
/** An alias runs another bench script with options (`bench:netboot-boot` → `npm run bench:boot -- …`). */
const aliasTarget = (command: string): string | null => /^npm run (bench:[a-z-]+)/.exec(command)?.[1] ?? null;

describe('npm run bench', () => {
  it('every bench script names files that exist', () => {
    expect(benches.length).toBeGreaterThan(5);
    for (const [name, command] of benches) {
      const target = aliasTarget(command);
      if (target !== null) {
        expect(scripts[target], `${name} runs ${target}, which must be a bench script`).toBeDefined();
        expect(aliasTarget(scripts[target] ?? ''), `${name}: an alias of an alias`).toBeNull();
        continue;
      }
      const files = [...command.matchAll(/(?:^|\s)(bench\/\S+\.[jt]s)\b/g)].map((match) => match[1]!);
      expect(files.length, name).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(file), `${name}: ${file}`).toBe(true);
    }
  });

  it('lists every bench script and runs them all by default, an alias only when named (--list shows what it would run)', () => {
    const listed = spawnSync(process.execPath, ['bench/run.js', '--list'], { encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    for (const [name, command] of benches) {
      if (aliasTarget(command) === null) expect(listed.stdout).toContain(`npm run ${name} `);
      else expect(listed.stdout).not.toContain(`npm run ${name} `);
    }
    const aliases = benches.filter(([, command]) => aliasTarget(command) !== null);
    for (const [name] of aliases) {
      const named = spawnSync(process.execPath, ['bench/run.js', '--list', name.slice('bench:'.length)], { encoding: 'utf8' });
      expect(named.stdout).toContain(`npm run ${name} `);
    }
    const unknown = spawnSync(process.execPath, ['bench/run.js', 'no-such-bench'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no such benchmark: no-such-bench');
  });
});
