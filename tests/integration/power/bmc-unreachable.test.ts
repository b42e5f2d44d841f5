/**
 * A BMC the server cannot reach (issue 18): the IPMI and Redfish clients say
 * so in plain words with what to check, instead of Node's internals ("Port
 * should be > 0 and < 65536. Received function" after a failed connect, or
 * a bare "connect ENETUNREACH"). The clients run in a namespace this test
 * creates with only its loopback: the kernel refuses the connect to any
 * other address before a packet is sent.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(ROOT, 'tests/integration/power/bmc-reach-child.ts');
const skip = skipNetnsTest('BMC unreachable namespace test', []);

interface Outcome {
  reason: string;
  message: string;
}

describe.skipIf(skip)('a BMC on a network this machine has no route to', () => {
  let lab: NetLab;
  let isolated: Netns;

  beforeAll(async () => {
    lab = await NetLab.create();
    isolated = await lab.namespace('isolated');
  });
  afterAll(async () => lab?.destroy());

  it('IPMI and Redfish both report "no route" with advice, as unreachable', async () => {
    const out = await isolated.must(process.execPath, ['--import', 'tsx', CHILD, '10.213.0.5', '623'], { timeoutMs: 30_000 });
    const { ipmi, redfish } = JSON.parse(out.trim().split('\n').at(-1)!) as { ipmi: Outcome; redfish: Outcome };
    for (const [name, outcome] of [['ipmi', ipmi], ['redfish', redfish]] as const) {
      expect(outcome.reason, name).toBe('unreachable');
      expect(outcome.message, name).toMatch(/no route to the BMC's network \(ENETUNREACH\).*check the address/);
      expect(outcome.message, name).not.toMatch(/Port should be|Received function/);
    }
  });
});
