/**
 * Boot time of an unattended install, side by side in one run: a QEMU BIOS
 * machine (TCG, e1000 iPXE ROM) from power-on until the Debian 12 installer
 * fetches its preseed,
 *
 *   - Bootwright: an install task (DHCP, entry script, task script, kernel and
 *     initrd over HTTP /boot/, answer from /netboot/answer/…);
 *   - the reference: dnsmasq (DHCP + DNS, iPXE's option 175 → an HTTP script)
 *     and nginx serving the same kernel, initrd and preseed as static files.
 *
 * Each setup has its own namespace and bridge (Bootwright's as in the QEMU
 * tests, tests/helpers/qemu-machine.ts); the machines take turns. QEMU
 * runs on CPU 0, the servers on CPU 1. Bootwright's phases (DHCP, scripts,
 * kernel/initrd download, installer start, answer) come from the task's
 * timeline. Needs root, qemu-system-x86, ipxe-qemu, dnsmasq, nginx and
 * debian-installer-12-netboot-amd64 (the packages .ci/run installs, plus nginx-light).
 *
 *   npm run bench:netboot-boot -- [--runs 2]
 *
 * Goal (issue 13): Bootwright / reference ≤ 1.05.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NetLab, netnsUnavailable } from '../../tests/helpers/netns.js';
import { DEBIAN_INSTALLER, bootMachine, installDebianLocally, missingQemuFiles, powerOff, startPxeLab, type PxeLab } from '../../tests/helpers/qemu-machine.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const RUNS = Number(args.runs);
const TIMEOUT_MS = 400_000;
const GOAL = 1.05;
const NGINX_PORT = 8081;

interface TimelineItem {
  at: string;
  kind: string;
  state: string | null;
  message: string;
}

interface Task {
  id: number;
  state: string;
  answer_url: string | null;
  timeline: TimelineItem[];
}

interface Sample {
  totalMs: number;
  phases: Record<string, number> | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function seconds(valueMs: number): string {
  return Number.isFinite(valueMs) ? (valueMs / 1000).toFixed(1) : '—';
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = TIMEOUT_MS, stepMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** Where the time went, from the task's timeline: each phase ends at the first item of its kind. */
function phasesOf(task: Task, poweredOn: number): Record<string, number> {
  const first = (test: (item: TimelineItem) => boolean) => {
    const item = task.timeline.find(test);
    return item ? Date.parse(item.at) : NaN;
  };
  const marks: [string, number][] = [
    ['power-on → DHCP lease', first((item) => item.kind === 'dhcp.ack')],
    ['→ task script served', first((item) => item.kind === 'boot.script_served')],
    ['→ kernel and initrd loaded', Math.max(...task.timeline.filter((item) => item.kind === 'http.transfer.completed').map((item) => Date.parse(item.at)))],
    ['→ installer fetched its answer', first((item) => item.kind === 'netboot.answer_fetched')],
  ];
  const phases: Record<string, number> = {};
  let previous = poweredOn;
  for (const [name, at] of marks) {
    phases[name] = at - previous;
    if (Number.isFinite(at)) previous = at;
  }
  return phases;
}

async function referenceSetup(lab: NetLab, work: string, preseed: string) {
  const lan = await lab.namespace('ref');
  await lab.bridge(lan, 'br0');
  await lan.addAddress('br0', '10.93.3.1/24');
  const root = path.join(work, 'ref-www');
  await mkdir(root, { recursive: true });
  await copyFile(`${DEBIAN_INSTALLER}/linux`, path.join(root, 'linux'));
  await copyFile(`${DEBIAN_INSTALLER}/initrd.gz`, path.join(root, 'initrd.gz'));
  await writeFile(path.join(root, 'preseed.cfg'), preseed);
  const base = `http://10.93.3.1:${NGINX_PORT}`;
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
    `daemon off;\nworker_processes 1;\npid ${path.join(work, 'nginx.pid')};\nerror_log stderr warn;\nevents { worker_connections 256; }\nhttp {\n  log_format t '$msec $request_uri';\n  access_log ${accessLog} t flush=1s buffer=4k;\n  sendfile on;\n  default_type application/octet-stream;\n  client_body_temp_path ${work};\n  proxy_temp_path ${work};\n  fastcgi_temp_path ${work};\n  uwsgi_temp_path ${work};\n  scgi_temp_path ${work};\n  server { listen 10.93.3.1:${NGINX_PORT}; root ${root}; }\n}\n`,
  );
  const nginx = lan.spawn('taskset', ['-c', '1', 'nginx', '-c', conf, '-p', work]);
  const dnsmasq = lan.spawn('taskset', [
    '-c', '1', 'dnsmasq', '--no-daemon', '--conf-file=/dev/null', '--no-resolv', '--no-hosts', '--interface=br0', '--bind-interfaces',
    '--dhcp-range=10.93.3.100,10.93.3.150,1h', '--dhcp-option=3,10.93.3.1', '--dhcp-option=6,10.93.3.1',
    '--dhcp-match=set:ipxe,175', `--dhcp-boot=tag:ipxe,${base}/boot.ipxe`, `--dhcp-leasefile=${path.join(work, 'dnsmasq.leases')}`,
  ]);
  for (const child of [nginx, dnsmasq]) {
    child.stdout?.resume();
    child.stderr?.resume();
  }
  return { lan, accessLog, children: [nginx, dnsmasq] as ChildProcess[] };
}

async function main(): Promise<void> {
  const unavailable = netnsUnavailable(['qemu-system-x86_64', 'dnsmasq', 'nginx', 'taskset']);
  const missing = missingQemuFiles();
  if (unavailable || missing.length > 0) throw new Error(`bench:netboot-boot cannot run: ${unavailable ?? `missing ${missing.join(', ')}`}`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-boot-'));
  const lab = await NetLab.create();
  const machines: ChildProcess[] = [];
  const labs: PxeLab[] = [];
  try {
    const pxe = await startPxeLab({ prefix: '10.93.2', dhcpExtra: { router: '10.93.2.1', dns_servers: ['10.93.2.1'] }, server: { built: true, cpus: '1', logLevel: 'warn' } });
    labs.push(pxe);
    await installDebianLocally(path.join(pxe.work, 'data'));
    const bw = { lan: pxe.lan, server: pxe.server };
    // The reference serves exactly the preseed Bootwright renders for a task.
    const probe = await bw.server.must<Task>('POST', '/netboot/tasks', { mac: '52:54:00:bb:00:ff', distro: 'debian', version: '12', arch: 'x86_64' });
    const answer = new URL(String(probe.answer_url));
    const preseed = await (await fetch(`http://${bw.server.apiAddress}:8080${answer.pathname}${answer.search}`)).text();
    await bw.server.must('DELETE', `/netboot/tasks/${probe.id}`);
    const ref = await referenceSetup(lab, work, preseed);

    const samples: { bootwright: Sample[]; reference: Sample[] } = { bootwright: [], reference: [] };
    for (let run = 1; run <= RUNS; run += 1) {
      // Bootwright: a task, a machine, until the answer was fetched.
      const mac = `52:54:00:bb:01:${run.toString(16).padStart(2, '0')}`;
      const task = await bw.server.must<Task>('POST', '/netboot/tasks', { mac, distro: 'debian', version: '12', arch: 'x86_64' });
      const bwOn = Date.now();
      const bwMachine = await bootMachine(bw.lan, 'br0', { name: `B${run}`, mac, firmware: 'bios', memoryMiB: 1024, workDir: work, cpus: '0' });
      machines.push(bwMachine);
      const fetched = await until('Bootwright answer fetched', async () => {
        const current = await bw.server.must<Task>('GET', `/netboot/tasks/${task.id}`);
        return current.timeline.some((item) => item.kind === 'netboot.answer_fetched') ? current : undefined;
      });
      powerOff(bwMachine);
      const answeredAt = Date.parse(fetched.timeline.find((item) => item.kind === 'netboot.answer_fetched')!.at);
      samples.bootwright.push({ totalMs: answeredAt - bwOn, phases: phasesOf(fetched, bwOn) });
      await bw.server.must('PUT', `/netboot/tasks/${task.id}`, { state: 'cancelled' });

      // Reference: the same machine on dnsmasq + nginx.
      const refOn = Date.now();
      const refMachine = await bootMachine(ref.lan, 'br0', { name: `R${run}`, mac: `52:54:00:bb:02:${run.toString(16).padStart(2, '0')}`, firmware: 'bios', memoryMiB: 1024, workDir: work, cpus: '0' });
      machines.push(refMachine);
      const refAnsweredAt = await until('reference preseed fetched', async () => {
        const line = (await readFile(ref.accessLog, 'utf8')).split('\n').find((entry) => entry.endsWith(' /preseed.cfg') && Number(entry.split(' ')[0]) * 1000 >= refOn);
        return line ? Number(line.split(' ')[0]) * 1000 : undefined;
      });
      powerOff(refMachine);
      samples.reference.push({ totalMs: refAnsweredAt - refOn, phases: null });
      await writeFile(ref.accessLog, '');
      console.log(`run ${run}: Bootwright ${seconds(samples.bootwright.at(-1)!.totalMs)} s, reference ${seconds(samples.reference.at(-1)!.totalMs)} s`);
    }

    const bwMedian = median(samples.bootwright.map((sample) => sample.totalMs));
    const refMedian = median(samples.reference.map((sample) => sample.totalMs));
    console.log('\n| power-on → preseed fetched (median) | Bootwright | dnsmasq + nginx | ratio | goal |');
    console.log('|---|---|---|---|---|');
    const ratio = bwMedian / refMedian;
    console.log(`| ${RUNS} run(s) each | ${seconds(bwMedian)} s | ${seconds(refMedian)} s | ${ratio.toFixed(2)} | ≤ ${GOAL} ${ratio <= GOAL ? '✓' : '✗'} |`);
    console.log('\nBootwright, where the time goes (median of runs, from the task timeline):\n');
    console.log('| phase | seconds |');
    console.log('|---|---|');
    for (const name of Object.keys(samples.bootwright[0]?.phases ?? {})) {
      console.log(`| ${name} | ${seconds(median(samples.bootwright.map((sample) => sample.phases?.[name] ?? NaN)))} |`);
    }
    for (const child of ref.children) child.kill('SIGKILL');
  } finally {
    for (const machine of machines) powerOff(machine);
    for (const started of labs) await started.destroy();
    await lab.destroy();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
