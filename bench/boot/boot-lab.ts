import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NetLab, Netns } from '../../tests/helpers/netns.js';
import { DEBIAN_INSTALLER } from '../../tests/helpers/qemu-machine.js';

/*
 * The machinery of the boot-time bench (bench/boot/run.ts): the reference
 * setup (dnsmasq + nginx serving the same files) and the phase marks read
 * from Bootwright's task timeline and from the reference's own logs.
 */

export const NGINX_PORT = 8081;

export interface TimelineItem {
  at: string;
  kind: string;
  state: string | null;
  message: string;
}

export interface Task {
  id: number;
  state: string;
  answer_url: string | null;
  timeline: TimelineItem[];
}

/** When each milestone of one boot happened (epoch ms; NaN when it did not). */
export interface BootMarks {
  poweredOn: number;
  /** The first DHCP ACK (UEFI machines take two leases: the firmware's, then iPXE's). */
  lease: number;
  /** The entry script served (Bootwright: the machine's boot script, which the entry script chains to at once). */
  entryScript: number;
  /** The last of kernel and initrd downloaded. */
  kernelLoaded: number;
  /** The installer's first request: its preseed. */
  preseed: number;
}

export const PHASES: readonly { name: string; from: keyof BootMarks; to: keyof BootMarks }[] = [
  { name: 'power-on → DHCP lease', from: 'poweredOn', to: 'lease' },
  { name: 'lease → entry script', from: 'lease', to: 'entryScript' },
  { name: 'entry script → kernel and initrd loaded', from: 'entryScript', to: 'kernelLoaded' },
  { name: 'kernel loaded → installer fetches its preseed', from: 'kernelLoaded', to: 'preseed' },
];

export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function seconds(valueMs: number): string {
  return Number.isFinite(valueMs) ? (valueMs / 1000).toFixed(1) : '—';
}

/** Polls `probe` until it returns something (bounded by `timeoutMs`). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, stepMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** Bootwright's marks, from the task's timeline: each is the first item of its kind (kernel: the last HTTP transfer before the answer). */
export function bootwrightMarks(task: Task, poweredOn: number): BootMarks {
  const first = (kind: string) => {
    const item = task.timeline.find((entry) => entry.kind === kind);
    return item ? Date.parse(item.at) : NaN;
  };
  const preseed = first('netboot.answer_fetched');
  const transfers = task.timeline.filter((item) => item.kind === 'http.transfer.completed').map((item) => Date.parse(item.at)).filter((at) => !(at > preseed));
  return { poweredOn, lease: first('dhcp.ack'), entryScript: first('boot.script_served'), kernelLoaded: transfers.length > 0 ? Math.max(...transfers) : NaN, preseed };
}

/** The reference: dnsmasq and nginx in their own namespace, with what they logged. */
export interface ReferenceSetup {
  lan: Netns;
  /** nginx's access log: `<msec> <uri>` per request, written when the request ends. */
  accessLog: string;
  /** When dnsmasq logged a DHCPACK for a MAC (stamped as the line arrived). */
  acks: { mac: string; at: number }[];
  children: ChildProcess[];
}

/**
 * dnsmasq (DHCP + DNS; iPXE, told by its option 175, gets an HTTP script;
 * the UEFI firmware's PXE client gets ipxe.efi over dnsmasq's TFTP) and
 * nginx serving the same kernel, initrd and preseed as static files, on
 * `<prefix>.1` in namespace "ref" with bridge br0. `ipxeEfi`: the iPXE
 * binary Bootwright hands UEFI machines, so both chain-load the same one.
 */
export async function referenceSetup(lab: NetLab, work: string, options: { prefix: string; preseed: string; ipxeEfi: string; cpus: string }): Promise<ReferenceSetup> {
  const lan = await lab.namespace('ref');
  await lab.bridge(lan, 'br0');
  const server = `${options.prefix}.1`;
  await lan.addAddress('br0', `${server}/24`);
  const root = path.join(work, 'ref-www');
  await mkdir(root, { recursive: true });
  await copyFile(`${DEBIAN_INSTALLER}/linux`, path.join(root, 'linux'));
  await copyFile(`${DEBIAN_INSTALLER}/initrd.gz`, path.join(root, 'initrd.gz'));
  await copyFile(options.ipxeEfi, path.join(root, 'ipxe.efi'));
  await writeFile(path.join(root, 'preseed.cfg'), options.preseed);
  const base = `http://${server}:${NGINX_PORT}`;
  // The same installer script shape Bootwright serves: named initrd, preseed URL on the command line.
  await writeFile(
    path.join(root, 'boot.ipxe'),
    `#!ipxe\nkernel ${base}/linux initrd=initrd.gz auto=true priority=critical preseed/url=${base}/preseed.cfg\ninitrd --name initrd.gz ${base}/initrd.gz\nboot\n`,
  );
  const accessLog = path.join(work, 'ref-access.log');
  await writeFile(accessLog, '');
  const conf = path.join(work, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off;\nworker_processes 1;\npid ${path.join(work, 'nginx.pid')};\nerror_log stderr warn;\nevents { worker_connections 256; }\nhttp {\n  log_format t '$msec $request_uri';\n  access_log ${accessLog} t flush=1s buffer=4k;\n  sendfile on;\n  default_type application/octet-stream;\n  client_body_temp_path ${work};\n  proxy_temp_path ${work};\n  fastcgi_temp_path ${work};\n  uwsgi_temp_path ${work};\n  scgi_temp_path ${work};\n  server { listen ${server}:${NGINX_PORT}; root ${root}; }\n}\n`,
  );
  const nginx = lan.spawn('taskset', ['-c', options.cpus, 'nginx', '-c', conf, '-p', work]);
  const dnsmasq = lan.spawn('taskset', [
    '-c', options.cpus, 'dnsmasq', '--no-daemon', '--conf-file=/dev/null', '--no-resolv', '--no-hosts', '--interface=br0', '--bind-interfaces',
    `--dhcp-range=${options.prefix}.100,${options.prefix}.150,1h`, `--dhcp-option=3,${server}`, `--dhcp-option=6,${server}`,
    '--dhcp-match=set:ipxe,175', '--dhcp-match=set:efi64,option:client-arch,7',
    `--dhcp-boot=tag:ipxe,${base}/boot.ipxe`, '--dhcp-boot=tag:!ipxe,tag:efi64,ipxe.efi',
    '--enable-tftp', `--tftp-root=${root}`,
    `--dhcp-leasefile=${path.join(work, 'dnsmasq.leases')}`, '--log-dhcp', '--log-facility=-',
  ]);
  const acks: { mac: string; at: number }[] = [];
  let pending = '';
  const onLog = (chunk: Buffer) => {
    const at = Date.now();
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const ack = /DHCPACK\(br0\) \S+ ([0-9a-f:]{17})/.exec(line);
      if (ack?.[1]) acks.push({ mac: ack[1], at });
    }
  };
  dnsmasq.stderr?.on('data', onLog);
  dnsmasq.stdout?.on('data', onLog);
  nginx.stdout?.resume();
  nginx.stderr?.resume();
  return { lan, accessLog, acks, children: [nginx, dnsmasq] };
}

/** The reference's requests since `since`: uri → time (epoch ms) of its first completion. */
export async function referenceRequests(setup: ReferenceSetup, since: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const entry of (await readFile(setup.accessLog, 'utf8')).split('\n')) {
    const [stamp, uri] = entry.split(' ');
    const at = Number(stamp) * 1000;
    if (!uri || !(at >= since) || out.has(uri)) continue;
    out.set(uri, at);
  }
  return out;
}

/** The reference's marks for a machine powered on at `poweredOn` (its requests and dnsmasq's first ACK to its MAC). */
export function referenceMarks(setup: ReferenceSetup, requests: Map<string, number>, mac: string, poweredOn: number): BootMarks {
  const lease = setup.acks.find((ack) => ack.mac === mac && ack.at >= poweredOn)?.at ?? NaN;
  const kernel = requests.get('/linux') ?? NaN;
  const initrd = requests.get('/initrd.gz') ?? NaN;
  return { poweredOn, lease, entryScript: requests.get('/boot.ipxe') ?? NaN, kernelLoaded: Math.max(kernel, initrd), preseed: requests.get('/preseed.cfg') ?? NaN };
}
