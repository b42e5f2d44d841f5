import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { AssignedBaseline } from '../../../../src-main/baselines/baselines-contract.js';
import { MANIFEST_HEADER, powershellRunner, scriptManifest, shellRunner } from '../../../../src-main/baselines/runtime/runtime-runners.js';
import { rawReport } from '../../../../src-main/baselines/runtime/runtime-routes.js';
import { findTool } from '../../../helpers/netns.js';

function assigned(names: string[]): AssignedBaseline {
  return {
    baseline: null,
    rule: 'host',
    reason: 'host 1',
    host: null,
    scripts: names.map((name, index) => ({ position: index + 1, script_id: 40 + index, name, kind: 'sh' as const, version: 1, content: 'true', sha256: 'ab'.repeat(32), continue_on_error: index === 0, timeout_seconds: 30 })),
  };
}

describe('runners', () => {
  it('lists the steps one per line with the name last, never a control character inside', () => {
    const text = scriptManifest(assigned(['Install packages', 'evil\nname\twith tabs']));
    expect(text.split('\n')).toEqual([MANIFEST_HEADER, `1 ${'ab'.repeat(32)} 1 30 sh 40 Install packages`, `2 ${'ab'.repeat(32)} 0 30 sh 41 evil name with tabs`, '']);
    expect(scriptManifest(assigned([]))).toBe(`${MANIFEST_HEADER}\n`);
  });

  for (const shell of ['dash', 'busybox', 'bash']) {
    it(`writes a runner ${shell} parses, with a URL it cannot break out of`, () => {
      const tool = findTool(shell);
      if (!tool) {
        console.warn(`skipped: ${shell} is not installed`);
        return;
      }
      const script = shellRunner("http://192.0.2.1:8080/api/v1/baselines/runtime/bwb_x'; touch /tmp/pwned; '", "host 1 (it's)");
      const args = shell === 'busybox' ? ['sh', '-n'] : ['-n'];
      const checked = spawnSync(tool, args, { input: script, encoding: 'utf8' });
      expect(checked.stderr).toBe('');
      expect(checked.status).toBe(0);
      expect(script).toContain(`BW_URL='http://192.0.2.1:8080/api/v1/baselines/runtime/bwb_x'\\''; touch /tmp/pwned; '\\'''`);
      // The last line calls the one function: a runner cut short in transfer runs nothing.
      expect(script.trimEnd().split('\n').at(-1)).toBe('bw_main "$@"');
    });
  }

  it('writes a PowerShell runner with the URL in single quotes and the output tail bound', () => {
    const script = powershellRunner("http://192.0.2.1:8080/x'y", 'host 2');
    expect(script).toContain("$BwUrl = 'http://192.0.2.1:8080/x''y'");
    expect(script).toContain('$BwMax = 8192');
    expect(script).toContain('Get-FileHash -Algorithm SHA256');
  });
});

describe('raw reports', () => {
  it('turns the query and body into a ResultsReport, cutting the output to its tail', () => {
    expect(rawReport({}, undefined)).toEqual({ results: [] });
    expect(rawReport({ run_id: 3, finished: '1' }, Buffer.alloc(0))).toEqual({ run_id: 3, results: [], finished: true });
    const report = rawReport({ run_id: 3, position: 1, script_id: 9, status: 'failed', exit_code: '', duration_ms: 1000 }, Buffer.from(`${'x'.repeat(9000)}end`));
    expect(report.results[0]).toMatchObject({ position: 1, script_id: 9, status: 'failed', exit_code: null, duration_ms: 1000 });
    expect(report.results[0]?.output_tail).toHaveLength(8192);
    expect(report.results[0]?.output_tail.endsWith('xend')).toBe(true);
    expect(rawReport({ run_id: 3, position: 1, script_id: 9, status: 'ok', exit_code: '-2' }, undefined).results[0]?.exit_code).toBe(-2);
    expect(() => rawReport({ run_id: 3, position: 1 }, undefined)).toThrow(/go together|needs/);
    expect(() => rawReport({ position: 1, script_id: 9, status: 'ok' }, undefined)).toThrow(/run_id/);
  });
});
