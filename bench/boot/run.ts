/**
 * Boot time, side by side: QEMU machines (TCG; BIOS with the e1000 iPXE ROM,
 * UEFI with OVMF's own PXE client chain-loading ipxe.efi over TFTP) from
 * power-on to (a) the entry script and (b) the Debian 12 installer's first
 * request, its preseed fetch:
 *
 *   - Bootwright: an install task (DHCP, entry script, task script, kernel and
 *     initrd over HTTP /boot/, answer from /netboot/answer/…), the built
 *     server with its defaults (Router Advertisements, iPXE's no-pxedhcp);
 *   - the reference: dnsmasq (DHCP + DNS + TFTP, iPXE told by option 175 →
 *     an HTTP script) and nginx serving the same kernel, initrd, ipxe.efi and
 *     the preseed Bootwright renders, as static files.
 *
 * Each setup has its own namespace and bridge; the machines take turns, QEMU
 * on CPU 0, the servers on CPU 1. Phases come from Bootwright's task timeline
 * and from the reference's logs (dnsmasq's DHCPACK lines, nginx's access
 * log). Needs root, qemu-system-x86, ipxe-qemu, ovmf, dnsmasq, nginx and
 * debian-installer-12-netboot-amd64. docs/performance.md, "Boot time".
 *
 *   npm run bench:boot -- [--runs 1] [--firmware bios,uefi]
 *
 * Goal (issue 17): Bootwright / reference ≤ 1.0 for both marks.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NetLab, netnsUnavailable } from '../../tests/helpers/netns.js';
import { bootMachine, installDebianLocally, missingQemuFiles, powerOff, startPxeLab, type PxeLab } from '../../tests/helpers/qemu-machine.js';
import { bootwrightMarks, median, PHASES, referenceMarks, referenceRequests, referenceSetup, seconds, until, type BootMarks, type Task } from './boot-lab.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '1' }, firmware: { type: 'string', default: 'bios,uefi' } } });
const RUNS = Number(args.runs);
const FIRMWARES = args.firmware.split(',').map((name) => name.trim());
const TIMEOUT_MS = 400_000;
const GOAL = 1.0;
const QEMU_CPUS = '0';
const SERVER_CPUS = '1';

type Firmware = 'bios' | 'uefi';

function isFirmware(name: string): name is Firmware {
  return name === 'bios' || name === 'uefi';
}

function mac(side: number, firmware: Firmware, run: number): string {
  return `52:54:00:b${side}:${firmware === 'bios' ? '01' : '02'}:${run.toString(16).padStart(2, '0')}`;
}

function ratioCell(bw: number, ref: number): string {
  const ratio = bw / ref;
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)} ${ratio <= GOAL ? '✓' : '✗'}` : '—';
}

async function main(): Promise<void> {
  if (!(RUNS >= 1) || FIRMWARES.length === 0 || !FIRMWARES.every(isFirmware)) throw new Error('usage: bench:boot -- [--runs N ≥ 1] [--firmware bios,uefi]');
  const firmwares = FIRMWARES.filter(isFirmware);
  const unavailable = netnsUnavailable(['qemu-system-x86_64', 'dnsmasq', 'nginx', 'taskset']);
  const missing = missingQemuFiles();
  if (unavailable || missing.length > 0) throw new Error(`bench:boot cannot run: ${unavailable ?? `missing ${missing.join(', ')}`}`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-boot-'));
  const lab = await NetLab.create();
  const machines: ChildProcess[] = [];
  let pxe: PxeLab | null = null;
  let refChildren: ChildProcess[] = [];
  try {
    pxe = await startPxeLab({ prefix: '10.93.2', minimalSubnet: true, server: { built: true, cpus: SERVER_CPUS, logLevel: 'warn' } });
    const bw = pxe;
    await installDebianLocally(path.join(bw.work, 'data'));
    // The reference serves exactly the preseed Bootwright renders for a task, and the same ipxe.efi.
    const probe = await bw.server.must<Task>('POST', '/netboot/tasks', { mac: '52:54:00:bb:00:ff', distro: 'debian', version: '12', arch: 'x86_64' });
    const answer = new URL(String(probe.answer_url));
    const preseed = await (await fetch(`http://${bw.server.apiAddress}:8080${answer.pathname}${answer.search}`)).text();
    await bw.server.must('DELETE', `/netboot/tasks/${probe.id}`);
    const ref = await referenceSetup(lab, work, { prefix: '10.93.3', preseed, ipxeEfi: path.join(bw.work, 'data', 'boot', 'ipxe.efi'), cpus: SERVER_CPUS });
    refChildren = ref.children;

    const samples = new Map<Firmware, { bootwright: BootMarks[]; reference: BootMarks[] }>(firmwares.map((firmware) => [firmware, { bootwright: [], reference: [] }]));
    for (let run = 1; run <= RUNS; run += 1) {
      for (const firmware of firmwares) {
        const into = samples.get(firmware);
        if (!into) continue;
        const machine = { firmware, memoryMiB: 1024, workDir: work, cpus: QEMU_CPUS } as const;

        // Bootwright: a task, a machine, until the answer was fetched.
        const bwMac = mac(1, firmware, run);
        const task = await bw.server.must<Task>('POST', '/netboot/tasks', { mac: bwMac, distro: 'debian', version: '12', arch: 'x86_64' });
        const bwOn = Date.now();
        const bwMachine = await bootMachine(bw.lan, 'br0', { ...machine, name: `B${firmware[0]}${run}`, mac: bwMac });
        machines.push(bwMachine);
        const fetched = await until('Bootwright answer fetched', async () => {
          const current = await bw.server.must<Task>('GET', `/netboot/tasks/${task.id}`);
          return current.timeline.some((item) => item.kind === 'netboot.answer_fetched') ? current : undefined;
        }, TIMEOUT_MS);
        powerOff(bwMachine);
        into.bootwright.push(bootwrightMarks(fetched, bwOn));
        await bw.server.must('PUT', `/netboot/tasks/${task.id}`, { state: 'cancelled' });

        // Reference: the same machine on dnsmasq + nginx.
        const refMac = mac(2, firmware, run);
        const refOn = Date.now();
        const refMachine = await bootMachine(ref.lan, 'br0', { ...machine, name: `R${firmware[0]}${run}`, mac: refMac });
        machines.push(refMachine);
        const requests = await until('reference preseed fetched', async () => {
          const seen = await referenceRequests(ref, refOn);
          return seen.has('/preseed.cfg') ? seen : undefined;
        }, TIMEOUT_MS);
        powerOff(refMachine);
        into.reference.push(referenceMarks(ref, requests, refMac, refOn));
        await writeFile(ref.accessLog, '');
        const last = (list: BootMarks[]) => list[list.length - 1];
        const b = last(into.bootwright);
        const r = last(into.reference);
        console.log(`run ${run} ${firmware}: entry script ${seconds((b?.entryScript ?? NaN) - (b?.poweredOn ?? NaN))} s vs ${seconds((r?.entryScript ?? NaN) - (r?.poweredOn ?? NaN))} s, preseed ${seconds((b?.preseed ?? NaN) - (b?.poweredOn ?? NaN))} s vs ${seconds((r?.preseed ?? NaN) - (r?.poweredOn ?? NaN))} s (Bootwright vs reference)`);
      }
    }

    const span = (list: BootMarks[], from: keyof BootMarks, to: keyof BootMarks) => median(list.map((marks) => marks[to] - marks[from]));
    console.log(`\n| power-on → … (median of ${RUNS} run(s)) | firmware | Bootwright | dnsmasq + nginx | ratio (goal ≤ ${GOAL}) |`);
    console.log('|---|---|---|---|---|');
    for (const [firmware, sample] of samples) {
      for (const [label, mark] of [['(a) entry script', 'entryScript'], ['(b) installer fetches its preseed', 'preseed']] as const) {
        const bwMs = span(sample.bootwright, 'poweredOn', mark);
        const refMs = span(sample.reference, 'poweredOn', mark);
        console.log(`| ${label} | ${firmware} | ${seconds(bwMs)} s | ${seconds(refMs)} s | ${ratioCell(bwMs, refMs)} |`);
      }
    }
    for (const [firmware, sample] of samples) {
      console.log(`\nWhere the time goes, ${firmware} (seconds, median):\n`);
      console.log('| phase | Bootwright | dnsmasq + nginx |');
      console.log('|---|---|---|');
      for (const phase of PHASES) console.log(`| ${phase.name} | ${seconds(span(sample.bootwright, phase.from, phase.to))} | ${seconds(span(sample.reference, phase.from, phase.to))} |`);
    }
  } finally {
    for (const machine of machines) powerOff(machine);
    for (const child of refChildren) child.kill('SIGKILL');
    await pxe?.destroy();
    await lab.destroy();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
