import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTRY_TEMPLATE, ENTRY_MAX_ATTEMPTS } from '../../../src-main/boot-scripts/entry-script.js';
import { deniedScript, localBootScript, missingMacScript, renderFailedScript } from '../../../src-main/boot-scripts/fallback-script.js';
import { ipxeSafeText } from '../../../src-main/profiles/ipxe-syntax.js';
import { sampleEntryData } from '../../../src-main/profiles/template-context.js';
import { TemplateEngine } from '../../../src-main/templates/template-engine.js';
import { lintIpxeScript } from './ipxe-lint.js';

describe('the default entry script', () => {
  const rendered = new TemplateEngine().render(DEFAULT_ENTRY_TEMPLATE, sampleEntryData());
  const lines = rendered.split('\n');

  it('renders to a well-formed iPXE script', () => {
    expect(lines[0]).toBe('#!ipxe');
    expect(lintIpxeScript(rendered)).toEqual([]);
  });

  it('identifies the machine with iPXE settings, URL-encoded, and chains to its own script', () => {
    const set = lines.find((line) => line.startsWith('set bw-script '));
    expect(set).toBe(
      'set bw-script http://192.0.2.1:8080/boot/ipxe/boot.ipxe?mac=${mac}&arch=${buildarch:uristring}&platform=${platform:uristring}&uuid=${uuid}&serial=${serial:uristring}',
    );
    expect(lines).toContain('chain --autofree ${bw-script} && exit 0 ||');
  });

  it('retries a failed chain a bounded number of times, then hands over to the firmware', () => {
    expect(lines).toContain('set bw-try:int32 0');
    expect(lines).toContain('inc bw-try');
    expect(lines).toContain(`iseq \${bw-try} ${ENTRY_MAX_ATTEMPTS} && goto bw-give-up ||`);
    const giveUp = lines.indexOf(':bw-give-up');
    expect(lines.indexOf('goto bw-fetch')).toBeLessThan(giveUp);
    expect(lines.slice(giveUp)).toContain('exit 1');
  });
});

describe('fallback scripts', () => {
  it('are well-formed iPXE; the render failure retries (exit 1), the others return to the firmware (exit 0)', () => {
    const failed = renderFailedScript('profile X (id 3)', 'line 2: memory alloc limit exceeded');
    expect(lintIpxeScript(failed)).toEqual([]);
    expect(failed).toMatch(/exit 1\n$/);
    for (const script of [deniedScript('52:54:00:12:34:56'), missingMacScript(), localBootScript('host 4 is disabled')]) {
      expect(lintIpxeScript(script)).toEqual([]);
      expect(script).toMatch(/exit 0\n$/);
    }
  });

  it('never let error text become iPXE syntax', () => {
    const failed = renderFailedScript('x', 'bad ${net0/mac} "quoted" #comment\nreboot && poweroff ; shell \\ end');
    const echo = failed.split('\n')[2]!;
    expect(echo.startsWith('echo ')).toBe(true);
    expect(echo).not.toMatch(/[$"#\\&|;]/);
    expect(echo).toContain('reboot __ poweroff _ shell _ end');
    expect(failed.split('\n')).not.toContain('reboot');
    expect(lintIpxeScript(failed)).toEqual([]);
    expect(ipxeSafeText('a'.repeat(500)).length).toBe(200);
  });
});

describe('the test lint itself', () => {
  it('finds the problems it is meant to find', () => {
    expect(lintIpxeScript('echo no shebang\n')).toEqual(['line 1: the script does not start with #!ipxe']);
    expect(lintIpxeScript('#!ipxe\ngoto nowhere\n')).toEqual(['line 2: goto nowhere has no label']);
    expect(lintIpxeScript('#!ipxe\nmenu M\nitem a A\nchoose --default b x\n:a\n')).toEqual(['line 4: choose --default b has no label']);
    expect(lintIpxeScript('#!ipxe\nfrobnicate now\n')).toEqual(['line 2: unknown command "frobnicate"']);
  });
});
