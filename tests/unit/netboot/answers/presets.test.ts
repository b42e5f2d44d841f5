import { describe, expect, it } from 'vitest';
import { TemplateEngine, type TemplateData } from '../../../../src-main/templates/index.js';
import { ANSWER_KINDS } from '../../../../src-main/netboot/netboot-contract.js';
import { PresetCatalog, presetDefaults } from '../../../../src-main/netboot/answers/preset-catalog.js';
import { RENDERED_VALIDATORS, mapIssues } from '../../../../src-main/netboot/answers/answer-validation.js';
import { answerTemplateData, sampleAnswerContext } from '../../../../src-main/netboot/answers/answer-data.js';
import { maskedSecrets } from '../../../../src-main/netboot/answers/answer-secrets.js';

const presets = PresetCatalog.load();
const engine = new TemplateEngine();

function render(content: string, variables: Record<string, string>, secrets: Record<string, string>, withBaseline = true): string {
  const context = sampleAnswerContext();
  const data: TemplateData = answerTemplateData(withBaseline ? context : { ...context, baseline: null }, variables, secrets);
  return engine.render(content, data);
}

const RUN_SH = 'http://192.0.2.1:8080/api/v1/baselines/runtime/sample-token/run.sh';
const RUN_PS1 = 'http://192.0.2.1:8080/api/v1/baselines/runtime/sample-token/run.ps1';
/** The post-install step each preset runs when a baseline applies (docs/baselines.md, "Runtime"). */
const BASELINE_STEPS: Record<string, string> = {
  'debian-preseed': `  in-target sh -c 'wget -qO- "${RUN_SH}" | sh' || true ; \\`,
  kickstart: `curl -fsS "${RUN_SH}" | sh || true`,
  'ubuntu-autoinstall': `    - "curtin in-target --target=/target -- sh -c 'wget -qO- ${RUN_SH} | sh' || true"`,
  'opensuse-autoyast': `        <source><![CDATA[curl -fsS "${RUN_SH}" | sh || true`,
  'windows-autounattend': `          <CommandLine>powershell -NoProfile -ExecutionPolicy Bypass -Command "iex (Invoke-RestMethod -UseBasicParsing -Uri '${RUN_PS1}')"</CommandLine>`,
};

/** Every variable set, as an operator would fill them in. */
const FILLED: Record<string, string> = {
  hostname: 'web01',
  domain: 'lab.example',
  packages: 'curl vim',
  ssh_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBootwrightSampleKey admin@lab',
  proxy: 'http://proxy.lab.example:3128',
  root_password_hash: '$6$salt$hash',
  user_password_hash: '$6$salt$userhash',
  product_key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
  image_index: '2',
};

describe('answer presets', () => {
  it('ships one preset per kind, each variable described', () => {
    expect(new Set(presets.list().map((preset) => preset.kind))).toEqual(new Set(ANSWER_KINDS));
    for (const preset of presets.list()) {
      for (const variable of preset.variables) expect(variable.description.length, `${preset.id}.${variable.name}`).toBeGreaterThan(5);
    }
  });

  for (const preset of presets.list()) {
    it(`${preset.id} renders with its defaults and validates clean`, () => {
      const secretNames = preset.variables.filter((variable) => variable.secret).map((variable) => variable.name);
      const out = render(preset.content, presetDefaults(preset), maskedSecrets({}, secretNames));
      const issues = mapIssues(RENDERED_VALIDATORS[preset.kind](out), preset.content, out);
      expect(issues, out).toEqual([]);
      // setup-alpine's answer file has no hook to run a command: Alpine reports nothing (docs/netboot.md).
      if (preset.kind !== 'alpine') expect(out).toContain('http://192.0.2.1:8080/api/v1/netboot/callback/1/sample-token/');
    });

    it(`${preset.id} runs the host's baseline only when one applies, and validates clean either way`, () => {
      const secretNames = preset.variables.filter((variable) => variable.secret).map((variable) => variable.name);
      const withStep = render(preset.content, presetDefaults(preset), maskedSecrets({}, secretNames), true);
      const without = render(preset.content, presetDefaults(preset), maskedSecrets({}, secretNames), false);
      for (const out of [withStep, without]) expect(mapIssues(RENDERED_VALIDATORS[preset.kind](out), preset.content, out), out).toEqual([]);
      expect(without).not.toContain('/baselines/runtime/');
      const step = BASELINE_STEPS[preset.id];
      // setup-alpine's answer file has no post-install hook (as for the callbacks).
      if (step === undefined) {
        expect(preset.kind).toBe('alpine');
        return;
      }
      expect(withStep.split('\n'), withStep).toContain(step);
    });

    it(`${preset.id} renders with every variable set and validates clean`, () => {
      const variables = { ...presetDefaults(preset), ...Object.fromEntries(Object.entries(FILLED).filter(([name]) => preset.variables.some((v) => v.name === name))) };
      const out = render(preset.content, variables, { admin_password: 'S3cret&<pass>' });
      const issues = mapIssues(RENDERED_VALIDATORS[preset.kind](out), preset.content, out);
      expect(issues, out).toEqual([]);
      if (preset.variables.some((v) => v.name === 'hostname')) expect(out.toLowerCase()).toContain('web01');
    });
  }

  it('the Debian preseed has what an unattended Debian 12 install needs', () => {
    const preset = presets.require('debian-preseed');
    const out = render(preset.content, presetDefaults(preset), {}, false);
    for (const line of [
      'd-i preseed/early_command string wget -q -O /dev/null "http://192.0.2.1:8080/api/v1/netboot/callback/1/sample-token/installing" || true',
      'd-i netcfg/get_hostname string sample-host',
      'd-i mirror/http/hostname string deb.debian.org',
      'd-i passwd/root-login boolean false',
      'd-i partman-auto/disk string /dev/sda',
      'd-i partman-auto/choose_recipe select atomic',
      'd-i partman/confirm_nooverwrite boolean true',
      'tasksel tasksel/first multiselect standard, ssh-server',
      'd-i grub-installer/bootdev string /dev/sda',
      'd-i finish-install/reboot_in_progress note',
    ]) {
      expect(out.split('\n')).toContain(line);
    }
    expect(out).toMatch(/d-i preseed\/late_command string \\\n\s+wget -q -O \/dev\/null "http:\/\/192\.0\.2\.1:8080\/api\/v1\/netboot\/callback\/1\/sample-token\/done" \|\| true/);
    const withRoot = render(preset.content, presetDefaults(preset), { root_password_hash: '$6$abc$def' });
    expect(withRoot).toContain('d-i passwd/root-password-crypted password $6$abc$def');
  });
});
