/**
 * OS images benchmark (issue 14), side by side on this machine:
 *
 * 1. upload: `POST /api/v1/os-images/upload` (raw body, curl -T) of a file
 *    vs `cp` of the same file on the same disk (goal ≥ 0.8× cp's rate);
 * 2. mounted read: a 100 MB file inside an ISO, served by Bootwright from
 *    the mounted ISO (/boot/iso/<slug>/…, sendfile at the file's offset) vs
 *    nginx serving the same file extracted (goal ≥ 0.8× nginx); both on
 *    loopback, the servers on CPU 0 and curl on CPU 1 (taskset) when there
 *    are two CPUs;
 * 3. detection: opening and detecting a 4 GB ISO (metadata only; goal < 1 s).
 *
 * Rows whose parts are missing in this build (the upload route, the ISO
 * reader, the detector) say so instead of a number. The mount row uses the
 * ISO reader when present, else a one-file tree from xorriso's own report of
 * where the file lies (the serving path, ImageMounts + sendfile, is the same).
 *
 *   npm run bench:images -- [--upload-mb 1024] [--file-mb 100] [--detect-gb 4] [--runs 5]
 *
 * Needs curl, nginx, xorriso, taskset, fallocate (apt-get install curl nginx-light xorriso util-linux).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { AppCore } from '../../src-main/app/app-core.js';
import { defaultConfig } from '../../src-main/core/config.js';
import type { ByteExtent, ReadOnlyTree, TreeNode } from '../../src-main/core/read-only-tree.js';
import { ImageMounts } from '../../src-main/os-images/mount/image-mounts.js';
import { findTool } from '../../tests/helpers/netns.js';
import { median, patternFile, timed } from '../bench-kit.js';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    'upload-mb': { type: 'string', default: '1024' },
    'file-mb': { type: 'string', default: '100' },
    'detect-gb': { type: 'string', default: '4' },
    runs: { type: 'string', default: '5' },
  },
});
const MB = 1024 * 1024;
const RUNS = Number(args.runs);
const NGINX_PORT = 16981;
const twoCpus = os.cpus().length >= 2;
/** The client's CPU pinning (the servers keep CPU 0). */
const CLIENT = twoCpus ? ['taskset', '-c', '1'] : [];

async function command(cmd: string[], options: { timeout?: number } = {}): Promise<string> {
  const [file, ...rest] = cmd;
  if (!file) throw new Error('empty command');
  const { stdout } = await run(file, rest, { timeout: options.timeout ?? 600_000, maxBuffer: 16 * MB });
  return stdout;
}

/** curl's download time of `url`, checking the status and size. */
async function curlSeconds(url: string, size: number): Promise<number> {
  const out = await command([...CLIENT, 'curl', '-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', url]);
  const [code, bytes, seconds] = out.split(' ');
  if (code !== '200' || Number(bytes) !== size) throw new Error(`curl ${url}: HTTP ${code}, ${bytes} bytes (expected ${size})`);
  return Number(seconds);
}

async function xorrisoIso(iso: string, stage: string): Promise<void> {
  await command(['xorriso', '-as', 'mkisofs', '-quiet', '-iso-level', '3', '-R', '-J', '-o', iso, stage]);
}

/** A one-file tree from xorriso's report of where `/name` lies in the ISO (its extents). */
async function reportedTree(iso: string, name: string): Promise<ReadOnlyTree> {
  const out = await command(['xorriso', '-indev', iso, '-find', `/${name}`, '-exec', 'report_lba', '--']);
  const extents: ByteExtent[] = [];
  for (const match of out.matchAll(/File data lba:\s*\d+\s*,\s*(\d+)\s*,\s*\d+\s*,\s*(\d+)\s*,/g)) {
    extents.push({ file: iso, offset: Number(match[1]) * 2048, length: Number(match[2]) });
  }
  if (extents.length === 0) throw new Error(`xorriso reported no extents for /${name}:\n${out}`);
  const size = extents.reduce((sum, extent) => sum + extent.length, 0);
  const node = (nodePath: string, type: TreeNode['type'], bytes: number): TreeNode => ({ name: nodePath, path: nodePath, type, size: bytes, mtimeMs: 0, mode: 0o444, id: 1n });
  return {
    kind: 'xorriso-report',
    async stat(p) {
      if (p === name) return node(name, 'file', size);
      // The folders above the file.
      return p === '' || name.startsWith(`${p}/`) ? node(p, 'directory', 0) : null;
    },
    async list() {
      return [node(name, 'file', size)];
    },
    async read() {
      throw new Error('not used');
    },
    async extents() {
      return extents;
    },
    async close() {},
  };
}

/** A module of this build by path, or null when it is not there (a part not merged yet). */
async function optionalModule(relative: string): Promise<Record<string, unknown> | null> {
  const specifier: string = new URL(relative, import.meta.url).href;
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

type Opener = (file: string) => Promise<ReadOnlyTree & { info: unknown }>;

async function isoOpener(): Promise<Opener | null> {
  const iso = await optionalModule('../../src-main/os-images/iso/index.js');
  return typeof iso?.openIso === 'function' ? (iso.openIso as Opener) : null;
}

/** The detector: the detect module's first exported function named detect… (an ImageDetector). */
async function detector(): Promise<{ name: string; detect: (input: Record<string, unknown>) => Promise<unknown> } | null> {
  const mod = await optionalModule('../../src-main/os-images/detect/index.js');
  const entry = Object.entries(mod ?? {}).find(([name, value]) => /^detect/.test(name) && typeof value === 'function');
  return entry ? { name: entry[0], detect: entry[1] as (input: Record<string, unknown>) => Promise<unknown> } : null;
}

/** The Debian package of each tool the bench runs (the header's apt-get line). */
const TOOLS: Record<string, string> = { curl: 'curl', nginx: 'nginx-light', xorriso: 'xorriso', taskset: 'util-linux', fallocate: 'util-linux' };

async function main(): Promise<void> {
  const missing = Object.keys(TOOLS).filter((tool) => findTool(tool) === null);
  if (missing.length > 0) {
    console.error(`bench:images cannot run: ${missing.join(', ')} not installed (apt-get install ${[...new Set(missing.map((tool) => TOOLS[tool]))].join(' ')})`);
    process.exit(2);
  }
  if (twoCpus) await command(['taskset', '-cp', '0', String(process.pid)]).catch(() => '');
  const work = await mkdtemp(path.join(os.tmpdir(), 'bw-bench-images-'));
  let core: AppCore | null = null;
  let nginx: ChildProcess | null = null;
  const rows: string[] = [];
  try {
    const dataDir = path.join(work, 'data');
    await mkdir(path.join(dataDir, 'images'), { recursive: true });
    core = await AppCore.create({ config: { ...defaultConfig(dataDir), listen: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' }, fileLog: false, rendererDir: null, nicReader: () => [], autoStartServices: false });
    await core.start();
    console.log(`OS images: ${RUNS} runs each (Node ${process.version}, ${os.cpus().length} CPUs${twoCpus ? ', servers on CPU 0, curl on CPU 1' : ''})\n`);

    // 1. Upload vs cp, same source file, same disk.
    const uploadBytes = Math.round(Number(args['upload-mb']) * MB);
    // A real ISO (the upload is read by the ISO reader before it is accepted), holding one big file.
    const source = path.join(work, 'upload-source.iso');
    const uploadStage = path.join(work, 'upload-stage');
    await mkdir(uploadStage, { recursive: true });
    await patternFile(path.join(uploadStage, 'payload.bin'), uploadBytes);
    await xorrisoIso(source, uploadStage);
    await rm(uploadStage, { recursive: true, force: true });
    const sourceBytes = (await stat(source)).size;
    const token = (await core.area('auth').tokens.create({ name: 'bench-images', role: 'operator' }, 'bench')).secret;
    const cpTimes: number[] = [];
    const uploadTimes: number[] = [];
    let uploadProblem = '';
    for (let i = 0; i < RUNS && uploadProblem === ''; i++) {
      const copy = path.join(work, `copy-${i}.iso`);
      // cp, then fsync of the copy: the upload is on disk (fsynced) before it answers, so is the reference.
      cpTimes.push(await timed(() => command(['sh', '-c', 'cp "$1" "$2" && sync "$2"', 'cp', source, copy])));
      await rm(copy, { force: true });
      const url = `${core.url()}/api/v1/os-images/upload?file_name=bench-${i}.iso&size=${sourceBytes}`;
      const out = await command([...CLIENT, 'curl', '-sS', '-X', 'POST', '-T', source, '-H', 'content-type: application/octet-stream', '-H', `authorization: Bearer ${token}`, '-o', path.join(work, 'upload.json'), '-w', '%{http_code} %{time_total}', url]);
      const [code, seconds] = out.split(' ');
      if (code !== '200' && code !== '201') {
        uploadProblem = code === '404' ? 'the upload route is not in this build' : `HTTP ${code}`;
        break;
      }
      uploadTimes.push(Number(seconds));
      await rm(path.join(dataDir, 'images', `bench-${i}.iso`), { force: true });
    }
    const rate = (bytes: number, seconds: number) => `${(bytes / MB / seconds).toFixed(0)} MB/s`;
    const cpMedian = median(cpTimes);
    rows.push(
      uploadProblem
        ? `| upload ${args['upload-mb']} MB ISO vs cp + sync | skipped: ${uploadProblem} | ${rate(sourceBytes, cpMedian)} | – | ≥ 0.8× |`
        : `| upload ${args['upload-mb']} MB ISO vs cp + sync | ${rate(sourceBytes, median(uploadTimes))} | ${rate(sourceBytes, cpMedian)} | ${(cpMedian / median(uploadTimes)).toFixed(2)}× | ≥ 0.8× |`,
    );
    await rm(source, { force: true });

    // 2. A file read from the mounted ISO vs nginx serving it extracted.
    const fileBytes = Math.round(Number(args['file-mb']) * MB);
    const stage = path.join(work, 'stage');
    await mkdir(path.join(stage, 'live'), { recursive: true });
    await patternFile(path.join(stage, 'live', 'filesystem.squashfs'), fileBytes);
    const iso = path.join(work, 'mount.iso');
    await xorrisoIso(iso, stage);
    const extracted = path.join(work, 'extracted');
    await mkdir(extracted, { recursive: true });
    await command(['xorriso', '-osirrox', 'on', '-indev', iso, '-extract', '/live', path.join(extracted, 'live')]);
    for (const dir of [work, extracted, path.join(extracted, 'live')]) await chmod(dir, 0o755);
    const opener = await isoOpener();
    const tree = opener ? await opener(iso) : await reportedTree(iso, 'live/filesystem.squashfs');
    const mounts = new ImageMounts(core.area('boot-files').files);
    mounts.mount({ id: 1, slug: 'bench', file: iso, tree });
    const conf = path.join(work, 'nginx.conf');
    await writeFile(
      conf,
      `daemon off;\nworker_processes 1;\npid ${path.join(work, 'nginx.pid')};\nerror_log stderr warn;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  default_type application/octet-stream;\n  client_body_temp_path ${work};\n  proxy_temp_path ${work};\n  fastcgi_temp_path ${work};\n  uwsgi_temp_path ${work};\n  scgi_temp_path ${work};\n  server { listen 127.0.0.1:${NGINX_PORT}; root ${extracted}; }\n}\n`,
    );
    nginx = spawn(twoCpus ? 'taskset' : 'nginx', [...(twoCpus ? ['-c', '0', 'nginx'] : []), '-c', conf, '-p', work], { stdio: ['ignore', 'ignore', 'inherit'] });
    const theirs = `http://127.0.0.1:${NGINX_PORT}/live/filesystem.squashfs`;
    for (let i = 0; i < 50; i++) {
      if (await curlSeconds(theirs, fileBytes).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ours = `${core.url()}/boot/iso/bench/live/filesystem.squashfs`;
    const oursTimes: number[] = [];
    const nginxTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      oursTimes.push(await curlSeconds(ours, fileBytes));
      nginxTimes.push(await curlSeconds(theirs, fileBytes));
    }
    const [a, b] = [median(oursTimes), median(nginxTimes)];
    rows.push(`| ${args['file-mb']} MB file: mounted ISO vs nginx (extracted) | ${rate(fileBytes, a)} | ${rate(fileBytes, b)} | ${(b / a).toFixed(2)}× | ≥ 0.8× |`);
    mounts.close();
    await tree.close();

    // 3. Detection of a big ISO: metadata only, whatever its size.
    const detectBytes = Math.round(Number(args['detect-gb']) * 1024 * MB);
    const detectStage = path.join(work, 'detect-stage');
    await mkdir(path.join(detectStage, 'casper'), { recursive: true });
    await mkdir(path.join(detectStage, '.disk'), { recursive: true });
    await writeFile(path.join(detectStage, '.disk', 'info'), 'Ubuntu 24.04 LTS "Noble Numbat" - Release amd64 (20240423)\n');
    await writeFile(path.join(detectStage, 'casper', 'vmlinuz'), Buffer.alloc(64 * 1024, 1));
    await writeFile(path.join(detectStage, 'casper', 'initrd'), Buffer.alloc(64 * 1024, 2));
    await writeFile(path.join(detectStage, 'casper', 'filesystem.squashfs'), '');
    await truncate(path.join(detectStage, 'casper', 'filesystem.squashfs'), detectBytes);
    const bigIso = path.join(work, 'big.iso');
    await xorrisoIso(bigIso, detectStage);
    // The zeros xorriso wrote become holes again: the bench leaves no 4 GB behind while it runs on.
    await command(['fallocate', '--dig-holes', bigIso]).catch(() => '');
    const detect = await detector();
    if (!opener || !detect) {
      rows.push(`| detection of a ${args['detect-gb']} GB ISO | skipped: ${!opener ? 'the ISO reader (os-images/iso openIso)' : 'the detector (os-images/detect)'} is not in this build | – | – | < 1 s |`);
    } else {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        times.push(
          await timed(async () => {
            const opened = await opener(bigIso);
            try {
              await detect.detect({ tree: opened, info: opened.info, fileName: 'big.iso', catalog: () => null });
            } finally {
              await opened.close();
            }
          }),
        );
      }
      const size = (await stat(bigIso)).size;
      rows.push(`| detection of a ${(size / 1024 / MB).toFixed(1)} GB ISO (${detect.name}) | ${median(times).toFixed(3)} s | – | – | < 1 s |`);
    }

    console.log('| test | Bootwright | reference | ratio | goal |');
    console.log('|---|---:|---:|---:|---|');
    for (const row of rows) console.log(row);
    if (!opener) console.log('\n(The mounted file was located through xorriso\'s report: the ISO reader is not in this build.)');
  } finally {
    nginx?.kill();
    await core?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
