/*
 * Runs inside a test network namespace (`ip netns exec <ns> node --import tsx
 * bmc-reach-child.ts <address> <port>`): tries the production IPMI and
 * Redfish clients against an address that namespace cannot reach and prints
 * what each reported as one JSON line. Nothing leaves the namespace: with no
 * route, the kernel refuses the connect before any packet is sent.
 */
import { BmcError } from '../../../src-main/power/bmc-error.js';
import { connectIpmi } from '../../../src-main/power/ipmi/ipmi-connection.js';
import { redfishRequest } from '../../../src-main/power/redfish/redfish-http.js';

const [address, port] = process.argv.slice(2);
if (!address || !port) {
  console.error('usage: bmc-reach-child.ts <address> <port>');
  process.exit(2);
}

function outcome(err: unknown): { reason: string; message: string } {
  return err instanceof BmcError ? { reason: err.reason, message: err.message } : { reason: 'not a BmcError', message: String(err) };
}

const target = { protocol: 'ipmi' as const, address, port: Number(port), username: 'admin', password: 'x', verifyTls: true, cipherSuite: null, privilege: 'administrator' as const };
const ipmi = await connectIpmi(target, { timeoutMs: 3000, retries: 1 }).then(
  () => ({ reason: 'connected', message: '' }),
  outcome,
);
const redfish = await redfishRequest({ address, port: Number(port), credentials: null, verifyTls: true, timeoutMs: 3000 }, 'GET', '/redfish/v1').then(
  () => ({ reason: 'connected', message: '' }),
  outcome,
);
console.log(JSON.stringify({ ipmi, redfish }));
