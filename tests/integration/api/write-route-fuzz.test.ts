import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BmcError } from '../../../src-main/power/bmc-error.js';
import type { WolDatagram } from '../../../src-main/power/index.js';
import { createUser, loginAs } from '../../helpers/auth.js';
import {
  generate,
  mutatedBodies,
  nextUnique,
  randomMac,
  rawBodies,
  resolveRef,
  Rng,
  toJsonText,
  type FieldHints,
  type FuzzBody,
  type GeneratorOptions,
  type JsonSchema,
} from '../../helpers/schema-fuzz.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { POWER_NICS } from '../../unit/power/power-test-kit.js';

/**
 * A schema-driven fuzzer over every write route (POST/PUT/PATCH/DELETE) of
 * the OpenAPI document, through real HTTP on 127.0.0.1. Bodies are built from
 * each route's request schema (a valid baseline, then hostile mutations and
 * broken raw bodies) and path params get real ids and hostile spellings.
 *
 * It asserts: never a 5xx (but 502 UPSTREAM_FAILED from routes that talk to a
 * BMC or the update feed, which are all pointed at refusing loopback ports or
 * a connector that refuses); every 4xx is the error envelope and changes no
 * stored state (a fingerprint of the store's in-memory files and the lease
 * database before and after); no prototype pollution; no network service
 * started; the server still answers at the end.
 *
 * BOOTWRIGHT_FUZZ_REQUESTS (default 4000) bounds the request count;
 * BOOTWRIGHT_FUZZ_SEED (default below) makes a run reproducible;
 * BOOTWRIGHT_FUZZ_REPORT=<file> writes every finding there as JSON. A failure
 * report names the route, the case label, the seed and the body's start.
 */

const REQUESTS = Number(process.env.BOOTWRIGHT_FUZZ_REQUESTS ?? 4000);
const SEED = Number(process.env.BOOTWRIGHT_FUZZ_SEED ?? 0x5eed_f022);

/** Routes not fuzzed at all, and why. */
const EXCLUDED: Record<string, string> = {
  'POST /api/v1/auth/logout': 'revokes the fuzzer\'s own session (it takes no body, so every case would just log out)',
};

/**
 * How the other routes are kept from harming the test environment or leaving
 * loopback (enforced below, see `ROUTE_POLICIES`):
 * - services start/restart would bind DHCP/DNS/TFTP on this machine's real
 *   interfaces: the lifecycle routes only get the `stop` action (and hostile
 *   action spellings), and `enabled` of the DNS/TFTP/NFS settings is pinned false;
 *   after every request the fuzzer checks no service but HTTP runs;
 * - the fuzzer's own admin user is never a target of PUT/DELETE /users/{id}
 *   (disabling, demoting or deleting it would end the run);
 * - Wake-on-LAN goes through a transport that records datagrams and sends
 *   nothing; the NICs are fixtures (documentation subnets);
 * - every BMC conversation goes through a connector that refuses without any
 *   I/O; BMC probing without a protocol talks to the address itself, so the
 *   probe's address is pinned to 127.0.0.1 and its port to a refusing one;
 * - the update feed URL, wherever a settings body carries it, is pinned to a
 *   refusing loopback port;
 * - the diagnostics (real ping/traceroute) have their target pinned to
 *   127.0.0.1 and their counts to one quick probe;
 * - the rogue-DHCP probe's interface is pinned to one that does not exist.
 */
interface RoutePolicy {
  /** Valid values of a path param, instead of ids from the list route. */
  params?: Record<string, () => string[]>;
  /** Body properties that keep one safe value in every body. */
  pinned?: Record<string, unknown>;
  /** The route talks to a BMC or the update feed: 502 UPSTREAM_FAILED is its honest answer here. */
  upstream?: boolean;
  /** A valid body where the schema alone cannot say one (fields that depend on each other); mutations start from it. */
  baseline?: (rng: Rng) => unknown;
  /** Runs before each case (before the state fingerprint): puts back the rows a case may have deleted, so every case aims at a real row. */
  beforeCase?: () => void;
}

/**
 * Findings in code other engineers are changing: allowed here so the suite
 * stays green until their fixes merge; remove an entry once its fix is in.
 * `matches` sees one finding; `reason` says what is wrong and where.
 */
const KNOWN_FINDINGS: { name: string; reason: string; matches: (finding: Finding) => boolean }[] = [];

interface Finding {
  route: string;
  path: string;
  label: string;
  status: number;
  code: string | null;
  problem: string;
  body: string;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface Operation {
  method: string;
  /** OpenAPI form, e.g. /api/v1/hosts/{id}. */
  template: string;
  route: string;
  params: string[];
  body: JsonSchema | null;
}

let t: TestCore;
let base: string;
let cookie: string;
let ownUserId: number;
let refusedPort: number;
let doc: OpenApiDocument;
const wolSent: WolDatagram[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A loopback port nothing listens on (bound, then closed). */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface Answer {
  status: number;
  text: string;
}

/** One request over a kept-alive socket; resolves on the response even when the server stops reading an oversize body. */
function request(method: string, path: string, body: FuzzBody): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie };
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
    const payload = body.body === undefined ? undefined : Buffer.isBuffer(body.body) ? body.body : Buffer.from(body.body, 'utf8');
    if (payload !== undefined) headers['content-length'] = String(payload.length);
    const url = new URL(base);
    let answered = false;
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    // The server may answer 413 and close before the whole body is written; the answer is what counts.
    req.on('error', (err) => {
      if (!answered) reject(new Error(`${method} ${path} (${body.label}): ${err.message}`));
    });
    req.end(payload);
  });
}

async function apiGet<T>(path: string): Promise<T> {
  const res = await t.core.http.inject({ method: 'GET', url: `/api/v1${path}`, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: T }).data;
}

async function apiWrite(method: string, path: string, payload: unknown): Promise<{ status: number; data: unknown }> {
  const res = await t.core.http.inject({ method: method as 'POST', url: `/api/v1${path}`, headers: { cookie }, payload: payload as object });
  return { status: res.statusCode, data: (res.json() as { data?: unknown }).data };
}

/** Stored state a rejected request must not change: the store's files in memory (minus activity timestamps) and the leases. */
function fingerprint(): string {
  const hash = createHash('sha256');
  const store = t.core.kernel.store;
  hash.update(JSON.stringify(store.file('config').data));
  const auth = store.file('auth').data;
  hash.update(
    JSON.stringify(auth, (key, value: unknown) =>
      // Sessions and tokens record when they were last used; using them is not a change.
      key === 'last_seen_at' || key === 'last_used_at' ? undefined : value,
    ),
  );
  for (const lease of t.core.area('dhcp').leases.all()) hash.update(JSON.stringify(lease));
  return hash.digest('hex');
}

/** Which of a JSON error body's fields are present. */
function errorEnvelope(text: string): { code: string | null; ok: boolean } {
  try {
    const body = JSON.parse(text) as { success?: unknown; code?: unknown; error?: unknown };
    const ok = body.success === false && typeof body.code === 'string' && typeof body.error === 'string';
    return { code: typeof body.code === 'string' ? body.code : null, ok };
  } catch {
    return { code: null, ok: false };
  }
}

// ---- fixtures ------------------------------------------------------------

const DHCP_SUBNET = {
  subnet: '192.0.2.0/24',
  ranges: [{ start: '192.0.2.100', end: '192.0.2.200' }],
  lease_time_seconds: null,
  router: null,
  dns_servers: null,
  domain_name: null,
  ntp_servers: [],
  options: [],
};

/** Plausible values by property name, so baselines mostly pass the routes' own checks. */
function fieldHints(): FieldHints {
  const ip = (rng: Rng) => `192.0.2.${rng.int(10, 99)}`;
  return {
    mac: (rng) => randomMac(rng),
    macs: (rng) => [randomMac(rng)],
    ip,
    start: () => '192.0.2.100',
    end: () => '192.0.2.200',
    router: () => '192.0.2.1',
    subnet: () => '192.0.2.0/24',
    subnets: () => [DHCP_SUBNET],
    hostname: (_rng, n) => `fuzz-host-${n}`,
    username: (_rng, n) => `fuzz-user-${n}`,
    password: () => 'fuzz password 123',
    new_password: () => 'fuzz password 456',
    name: (_rng, n) => `fuzz-${n}`,
    cron: () => '0 0 1 1 *',
    timezone: () => 'UTC',
    at: (_rng, n) => new Date(Date.UTC(2099, 0, 1) + n * 1000).toISOString(),
    script: () => '#!ipxe\necho fuzz\n',
    local_domain: () => 'fuzz.test',
    upstream: () => '',
    root: () => null,
    kernel: () => 'vmlinuz',
    url: () => 'images/boot.img',
    value: (rng) => `192.0.2.${rng.int(1, 254)}`,
    address: () => '127.0.0.1',
    interfaces: () => [{ name: 'eth0', mode: 'off' }],
    served: () => 'auto',
    allowed_hosts: () => [],
    default_profile_id: () => null,
    default_action: () => 'menu',
    csv: () => 'name,address,username\n',
    ids: () => [1],
    host_ids: () => [1],
    profile_id: () => null,
  };
}

const ids = (rows: { id: number }[]) => rows.map((row) => String(row.id));

/** Makes sure each resource has at least one row to aim at; re-run before each route, since the fuzzer deletes things. */
async function ensureFixtures(rng: Rng): Promise<void> {
  const n = nextUnique();
  const ensure = async (list: string, create: () => Promise<unknown>) => {
    const rows = await apiGet<unknown[]>(`${list}${list.includes('?') ? '&' : '?'}size=1`).catch(() => []);
    if (rows.length === 0) await create();
  };
  const dhcp = await apiGet<{ subnets: unknown[] }>('/services/dhcp');
  if (dhcp.subnets.length === 0) await apiWrite('PUT', '/services/dhcp', { subnets: [DHCP_SUBNET] });
  await ensure('/users?q=victim', () => apiWrite('POST', '/users', { username: `victim-${n}`, password: 'victim password', role: 'viewer' }));
  await ensure('/tokens', () => apiWrite('POST', '/tokens', { name: `seed-${n}`, role: 'viewer' }));
  await ensure('/profiles', async () => {
    const made = await apiWrite('POST', '/profiles', { name: `seed-${n}`, boot_type: 'ipxe_script', script: '#!ipxe\necho one\n' });
    const id = (made.data as { id?: number } | undefined)?.id;
    if (id !== undefined) await apiWrite('PUT', `/profiles/${id}`, { script: '#!ipxe\necho two\n' });
  });
  await ensure('/hosts', () => apiWrite('POST', '/hosts', { mac: randomMac(rng), hostname: `seed-${n}`, ip: `192.0.2.${rng.int(10, 99)}` }));
  await ensure('/dns/records', () => apiWrite('POST', '/dns/records', { name: `seed-${n}`, type: 'A', value: '192.0.2.7' }));
  await ensure('/dhcp/reservations', () => apiWrite('POST', '/dhcp/reservations', { mac: randomMac(rng), ip: `192.0.2.${rng.int(10, 99)}` }));
  await ensure('/access/blacklist', () => apiWrite('POST', '/access/blacklist', { mac: randomMac(rng) }));
  await ensure('/access/whitelist', () => apiWrite('POST', '/access/whitelist', { mac: randomMac(rng) }));
  await ensure('/access/unauthorized', async () => {
    await t.core.area('dhcp').access.recordUnauthorized({ mac: randomMac(rng), hostname: 'stranger' });
    await t.core.area('dhcp').access.unauthorizedSettled();
  });
  await ensure('/wol/schedules', () => apiWrite('POST', '/wol/schedule', { name: `seed-${n}`, macs: [randomMac(rng)], cron: '0 0 1 1 *' }));
  await ensure('/bmc/configs', () =>
    apiWrite('POST', '/bmc/configs', { name: `seed-${n}`, address: '127.0.0.1', port: refusedPort, protocol: 'ipmi', username: 'fuzz' }),
  );
  await ensure('/wol/history', async () => {
    const hosts = await apiGet<{ id: number }[]>('/hosts?size=1');
    if (hosts[0]) await apiWrite('POST', `/hosts/${hosts[0].id}/wake`, {});
  });
  restoreSeededLeases();
}

/**
 * Leases have no create route: these are committed straight into the lease
 * database, and put back before every case of DELETE /leases/{mac} (which
 * removes them), so that route is fuzzed on real rows and not, after its
 * first success, on 404s only.
 */
const SEEDED_LEASES = [
  { mac: '52:54:00:1e:a5:01', ip: 0xc0000296 /* 192.0.2.150 */ },
  { mac: '52:54:00:1e:a5:02', ip: 0xc0000297 /* 192.0.2.151 */ },
];

function restoreSeededLeases(): void {
  const now = Date.now();
  for (const { mac, ip } of SEEDED_LEASES) {
    if (t.core.area('dhcp').leases.get(mac)) continue;
    t.core.area('dhcp').leases.commit({ mac, ip, starts: now, expires: now + 3_600_000, hostname: 'leased', clientId: null, vendorClass: null, arch: null });
  }
}

/** Valid values of each path param of `op`: ids of existing rows, plus one that does not exist. */
async function validParams(op: Operation): Promise<Record<string, string[]>> {
  const policy = ROUTE_POLICIES[op.route];
  const out: Record<string, string[]> = {};
  for (const name of op.params) {
    const fixed = policy?.params?.[name];
    if (fixed) {
      out[name] = fixed();
      continue;
    }
    const source = listFor(op.template, name);
    let values: string[] = [];
    if (source === '/leases') values = SEEDED_LEASES.map((lease) => lease.mac);
    else if (source === '/users') values = ids(await apiGet<{ id: number }[]>('/users?size=500')).filter((id) => id !== String(ownUserId));
    else if (source === 'versions') {
      const profiles = await apiGet<{ id: number }[]>('/profiles?size=500');
      for (const profile of profiles) {
        values.push(...ids(await apiGet<{ id: number }[]>(`/profiles/${profile.id}/script-versions?size=500`).catch(() => [])));
      }
    } else if (source !== null) values = ids(await apiGet<{ id: number }[]>(`${source}?size=500`));
    out[name] = [...values.slice(-2), name === 'mac' ? '02:ff:ff:ff:ff:fe' : '999999'];
  }
  return out;
}

/** The list route whose rows a path param names. */
function listFor(template: string, param: string): string | null {
  const path = template.replace('/api/v1', '');
  if (param === 'verId') return 'versions';
  if (param === 'profileId') return '/profiles';
  if (param === 'mac') return '/leases';
  const table: [RegExp, string][] = [
    [/^\/users\//, '/users'],
    [/^\/tokens\//, '/tokens'],
    [/^\/dhcp\/reservations\//, '/dhcp/reservations'],
    [/^\/access\/blacklist\//, '/access/blacklist'],
    [/^\/access\/whitelist\//, '/access/whitelist'],
    [/^\/access\/unauthorized\//, '/access/unauthorized'],
    [/^\/dns\/records\//, '/dns/records'],
    [/^\/hosts\//, '/hosts'],
    [/^\/profiles\//, '/profiles'],
    [/^\/wol\/history\//, '/wol/history'],
    [/^\/wol\/schedule\//, '/wol/schedules'],
    [/^\/bmc\//, '/bmc/configs'],
  ];
  return table.find(([re]) => re.test(path))?.[1] ?? null;
}

/** Spellings of a path param a strict API must refuse; the first four name row `near` in a non-canonical way. */
function hostileParams(near: string): { value: string; aliasOf: string | null }[] {
  const n = /^\d+$/.test(near) ? Number(near) : 27;
  const alias = /^\d+$/.test(near) ? near : null;
  return [
    { value: `%20${n}`, aliasOf: alias },
    { value: `${n}.0`, aliasOf: alias },
    { value: `${n / 10}e1`, aliasOf: alias },
    { value: `+${n}`, aliasOf: alias },
    { value: `0${n}`, aliasOf: alias },
    { value: '-1', aliasOf: null },
    { value: '0', aliasOf: null },
    { value: '99999999999999999999', aliasOf: null },
    { value: '1e400', aliasOf: null },
    { value: 'NaN', aliasOf: null },
    { value: '0x1b', aliasOf: null },
    { value: '..%2f', aliasOf: null },
    { value: '..%2f..%2fstatus', aliasOf: null },
    { value: '%00', aliasOf: null },
    { value: `${n}%00`, aliasOf: null },
    { value: `%E2%80%AE${n}`, aliasOf: null },
    { value: `${n}%0d%0aX-Injected:%201`, aliasOf: null },
    { value: '%ff%fe', aliasOf: null },
    { value: 'a'.repeat(300), aliasOf: null },
    { value: '9'.repeat(5000), aliasOf: null },
  ];
}

const SERVICE_NAMES = () => ['dhcp', 'dns', 'tftp', 'http', 'nosuch'];

const ROUTE_POLICIES: Record<string, RoutePolicy> = {
  // Only `stop`: start/restart would bind this machine's interfaces (stopping http is refused, it is protected).
  'POST /api/v1/services/{name}/{action}': { params: { name: SERVICE_NAMES, action: () => ['stop'] } },
  'POST /api/v1/services/batch/{action}': { params: { action: () => ['stop'] } },
  'PUT /api/v1/services/{name}/auto-start': { params: { name: SERVICE_NAMES } },
  'POST /api/v1/profiles': {
    baseline: (rng) =>
      rng.pick([
        { name: `fuzz-${nextUnique()}`, boot_type: 'ipxe_script', script: '#!ipxe\necho fuzz\n', variables: { greeting: 'hi' } },
        { name: `fuzz-${nextUnique()}`, boot_type: 'linux', linux: { kernel: 'vmlinuz', initrds: ['initrd.img'], cmdline: 'console=ttyS0' } },
        { name: `fuzz-${nextUnique()}`, boot_type: 'chain', chain: { url: 'http://127.0.0.1/next.ipxe' } },
        { name: `fuzz-${nextUnique()}`, boot_type: 'local', default_for_groups: ['lab'] },
      ]),
  },
  'POST /api/v1/wol/schedule': {
    baseline: (rng) => (rng.chance(0.5) ? { name: `fuzz-${nextUnique()}`, macs: [randomMac(rng)], cron: '0 3 * * 1' } : { name: `fuzz-${nextUnique()}`, host_ids: [1], at: '2099-01-01T00:00:00.000Z', timezone: 'UTC' }),
  },
  'POST /api/v1/bmc/configs': {
    baseline: (rng) => ({ name: `fuzz-${nextUnique()}`, address: '127.0.0.1', port: refusedPort, protocol: rng.pick(['ipmi', 'redfish']), username: 'fuzz', password: 'secret' }),
  },
  'POST /api/v1/hosts/{id}/wake': { baseline: () => ({}) },
  'DELETE /api/v1/leases/{mac}': { beforeCase: restoreSeededLeases },
  'PUT /api/v1/services/dns': { pinned: { enabled: false } },
  'PUT /api/v1/services/tftp': { pinned: { enabled: false } },
  'PUT /api/v1/services/nfs': { pinned: { enabled: false } },
  // The rogue-DHCP probe broadcasts a DISCOVER out of the named interface: only ever at one the fixtures do not have (404, no I/O).
  'POST /api/v1/dhcp/probe': { pinned: { interface: 'no-such-nic0', timeout_ms: 100 } },
  'PUT /api/v1/settings': { pinned: {} },
  'PUT /api/v1/settings/general': { pinned: {} },
  'POST /api/v1/version/check': { upstream: true },
  'POST /api/v1/version/download': { upstream: true },
  'POST /api/v1/bmc/probe': { pinned: {}, upstream: true },
  // The diagnostics run the real ping/traceroute: only ever at loopback, one quick probe.
  'POST /api/v1/network/ping': { pinned: { target: '127.0.0.1', count: 1, timeout_seconds: 1 } },
  'POST /api/v1/network/ping/stream': { pinned: { target: '127.0.0.1', count: 1, timeout_seconds: 1 } },
  'POST /api/v1/network/traceroute': { pinned: { target: '127.0.0.1', max_hops: 2, timeout_seconds: 1 } },
  'POST /api/v1/network/traceroute/stream': { pinned: { target: '127.0.0.1', max_hops: 2, timeout_seconds: 1 } },
  'POST /api/v1/bmc/batch/{action}': { params: { action: () => ['status', 'power-on', 'power-off', 'restart'] }, upstream: true },
  'POST /api/v1/bmc/{id}/refresh': { upstream: true },
  'POST /api/v1/bmc/{id}/power-on': { upstream: true },
  'POST /api/v1/bmc/{id}/power-off': { upstream: true },
  'POST /api/v1/bmc/{id}/restart': { upstream: true },
  'POST /api/v1/bmc/{id}/boot-device': { upstream: true },
  'POST /api/v1/hosts/{id}/power': { upstream: true },
};

function substitute(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => values[name] ?? 'x');
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/v1/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      const route = `${method.toUpperCase()} ${template}`;
      out.push({
        method: method.toUpperCase(),
        template,
        route,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        body: op.requestBody?.content['application/json']?.schema ?? null,
      });
    }
  }
  return out;
}

beforeAll(async () => {
  refusedPort = await refusingPort();
  t = await createTestCore({
    nicReader: () => POWER_NICS,
    power: {
      wolTransport: async (datagram) => void wolSent.push(datagram),
      bmcConnector: async (target) => {
        throw new BmcError('unreachable', `the fuzz test talks to no BMC (${target.address.slice(0, 40)})`);
      },
      bmcTiming: { ipmi: { timeoutMs: 300, retries: 0 }, redfishTimeoutMs: 500 },
    },
  });
  await t.core.start();
  base = t.core.url();
  const admin = await createUser(t.core, 'admin');
  ownUserId = admin.user.id;
  cookie = (await loginAs(t.core, admin.username, admin.password)).cookie;
  doc = (await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
  const loopbackFeed = `http://127.0.0.1:${refusedPort}/feed.json`;
  ROUTE_POLICIES['PUT /api/v1/settings']!.pinned = { update_feed_url: loopbackFeed };
  ROUTE_POLICIES['PUT /api/v1/settings/general']!.pinned = { update_feed_url: loopbackFeed };
  ROUTE_POLICIES['POST /api/v1/bmc/probe']!.pinned = { address: '127.0.0.1', port: refusedPort };
});

afterAll(async () => {
  agent.destroy();
  await t?.close();
});

describe('write-route fuzzer', () => {
  it(`survives ${REQUESTS} schema-driven hostile requests (seed ${SEED})`, { timeout: 300_000 }, async () => {
    const rng = new Rng(SEED);
    const ops = operations().filter((op) => !(op.route in EXCLUDED));
    expect(ops.length).toBeGreaterThan(40);
    const components = doc.components.schemas;
    const findings: Finding[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const perRoute = Math.max(20, Math.floor(REQUESTS / ops.length));
    /** Status of each route's baselines (for the report: a route whose baselines all fail is fuzzed only shallowly). */
    const baselineStatuses: Record<string, number[]> = {};
    /** Successful answers per route (a route whose cases all miss their row is not fuzzed on real data). */
    const successes = new Map<string, number>();
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

    for (const op of ops) {
      await ensureFixtures(rng);
      const policy = ROUTE_POLICIES[op.route] ?? {};
      const options: GeneratorOptions = { components, hints: fieldHints(), pinned: policy.pinned ?? {} };
      const valid = await validParams(op);
      const pickParams = (): Record<string, string> => Object.fromEntries(op.params.map((name) => [name, rng.pick(valid[name]!)]));
      const bodySchema = op.body ? resolveRef(op.body, components) : null;
      const baseline = () => (policy.baseline ? policy.baseline(rng) : bodySchema ? generate(bodySchema, rng, options) : undefined);
      const baselineBody = (): FuzzBody => {
        const value = baseline();
        return value === undefined ? { label: 'no body', body: undefined, contentType: undefined } : { label: 'baseline', body: toJsonText(value), contentType: 'application/json' };
      };

      const cases: { path: string; body: FuzzBody; aliasOf: string | null }[] = [];
      for (let i = 0; i < 3; i += 1) cases.push({ path: substitute(op.template, pickParams()), body: baselineBody(), aliasOf: null });
      for (const name of op.params) {
        const near = valid[name]!.find((v) => /^\d+$/.test(v) && v !== '999999') ?? valid[name]![0]!;
        for (const hostile of hostileParams(near)) {
          cases.push({ path: substitute(op.template, { ...pickParams(), [name]: hostile.value }), body: { ...baselineBody(), label: `path ${name}=${hostile.value.slice(0, 40)}` }, aliasOf: hostile.aliasOf });
        }
      }
      const first = baseline();
      for (const raw of rawBodies(first === undefined ? '{}' : toJsonText(first))) cases.push({ path: substitute(op.template, pickParams()), body: raw, aliasOf: null });
      const remaining = Math.max(10, perRoute - cases.length);
      const mutated = bodySchema ? mutatedBodies(bodySchema, baseline(), rng, options, remaining) : [];
      for (const body of mutated) cases.push({ path: substitute(op.template, pickParams()), body, aliasOf: null });

      for (const c of cases) {
        policy.beforeCase?.();
        const before = fingerprint();
        const answer = await request(op.method, c.path, c.body);
        sent += 1;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (c.body.label === 'baseline' || c.body.label === 'no body') (baselineStatuses[op.route] ??= []).push(answer.status);
        if (answer.status < 300) successes.set(op.route, (successes.get(op.route) ?? 0) + 1);
        const after = fingerprint();
        const envelope = errorEnvelope(answer.text);
        const note = (problem: string) =>
          findings.push({
            route: op.route,
            path: c.path.slice(0, 200),
            label: c.body.label,
            status: answer.status,
            code: envelope.code,
            problem,
            body: c.body.body === undefined ? '(none)' : (Buffer.isBuffer(c.body.body) ? c.body.body.toString('latin1') : c.body.body).slice(0, 300),
          });
        if (answer.status >= 500 && !(answer.status === 502 && envelope.code === 'UPSTREAM_FAILED' && policy.upstream)) note(`server error ${answer.status}: ${answer.text.slice(0, 300)}`);
        if (answer.status >= 400 && answer.status < 500) {
          if (before !== after) note('a rejected request changed stored state');
          if (!envelope.ok) note(`4xx without the error envelope: ${answer.text.slice(0, 200)}`);
        }
        if (c.aliasOf !== null && answer.status < 400) note(`non-canonical id "${c.path.slice(-40)}" was taken as row ${c.aliasOf}`);
        if (Object.getOwnPropertyNames(Object.prototype).sort().join(',') !== prototypeKeys || ({} as Record<string, unknown>).polluted !== undefined) {
          note('Object.prototype was polluted');
        }
        for (const service of t.core.kernel.services.list()) {
          if (service.name !== 'http' && service.state !== 'stopped') {
            note(`service ${service.name} is ${service.state}`);
            await t.core.kernel.services.stop(service.name);
          }
        }
      }
    }

    if (process.env.BOOTWRIGHT_FUZZ_REPORT) await writeFile(process.env.BOOTWRIGHT_FUZZ_REPORT, JSON.stringify({ findings, baselineStatuses }, null, 1));
    const known = (finding: Finding) => KNOWN_FINDINGS.find((entry) => entry.matches(finding));
    const unexplained = findings.filter((finding) => !known(finding));
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
    console.log(`write-route fuzz: ${sent} requests over ${ops.length} routes (seed ${SEED}); ${summary}; ${findings.length - unexplained.length} known findings; ${wolSent.length} WOL datagrams recorded, none sent`);
    for (const entry of KNOWN_FINDINGS) {
      const hits = findings.filter((finding) => entry.matches(finding)).length;
      if (hits > 0) console.log(`known finding ${entry.name}: ${hits} case(s)`);
    }
    expect(unexplained.map((f) => `${f.route} ${f.path} [${f.label}] → ${f.status} ${f.code ?? ''}: ${f.problem}\n    body: ${JSON.stringify(f.body)}`)).toEqual([]);

    const status = await request('GET', '/api/v1/status', { label: 'final status', body: undefined, contentType: undefined });
    expect(status.status).toBe(200);
    expect(sent).toBeGreaterThanOrEqual(ops.length * 20);
    // Each case of DELETE /leases/{mac} finds its seeded lease again (or names the one MAC that never exists),
    // so more deletes succeed than there are seeded leases.
    expect(successes.get('DELETE /api/v1/leases/{mac}') ?? 0).toBeGreaterThan(SEEDED_LEASES.length);
  });
});
