import type { TemplateData } from '../../templates/index.js';
import type { AnswerKind } from '../netboot-contract.js';
import type { AnswerContext } from '../netboot-ports.js';

/*
 * What an answer template sees (docs/netboot.md, "Answer templates"):
 * `{ host, task, urls, server, variables, secrets, baseline }`, and the sample of the
 * same shape that validation renders with.
 */

/** The media type an installer is served each kind with. */
export const CONTENT_TYPES: Readonly<Record<AnswerKind, string>> = {
  preseed: 'text/plain; charset=utf-8',
  kickstart: 'text/plain; charset=utf-8',
  alpine: 'text/plain; charset=utf-8',
  autoinstall: 'text/yaml; charset=utf-8',
  autoyast: 'application/xml; charset=utf-8',
  autounattend: 'application/xml; charset=utf-8',
};

export function answerTemplateData(context: AnswerContext, variables: Readonly<Record<string, string>>, secrets: Readonly<Record<string, string>>): TemplateData {
  return {
    host: { ...context.host },
    task: { ...context.task },
    urls: { ...context.urls },
    server: { ...context.server },
    variables: { ...variables },
    secrets: { ...secrets },
    baseline: context.baseline ? { ...context.baseline } : null,
  };
}

const SAMPLE_BASE = 'http://192.0.2.1:8080';

/** A machine and task of the documentation range (RFC 5737) for validation renders. */
export function sampleAnswerContext(): AnswerContext {
  return {
    host: { id: 1, mac: '52:54:00:12:34:56', hostname: 'sample-host', ip: '192.0.2.10', group: 'sample-group', arch: 'x86_64' },
    task: { id: 1, distro: 'sample', version: '1', arch: 'x86_64' },
    urls: {
      mirror: 'http://mirror.example/os/',
      callback: `${SAMPLE_BASE}/api/v1/netboot/callback/1/sample-token`,
      answer: `${SAMPLE_BASE}/api/v1/netboot/answer/1?token=sample-token`,
    },
    server: { ip: '192.0.2.1', http_url: SAMPLE_BASE, boot_url: `${SAMPLE_BASE}/boot`, name: 'bootwright' },
    variables: {},
    baseline: { run_sh: `${SAMPLE_BASE}/api/v1/baselines/runtime/sample-token/run.sh`, run_ps1: `${SAMPLE_BASE}/api/v1/baselines/runtime/sample-token/run.ps1` },
  };
}
