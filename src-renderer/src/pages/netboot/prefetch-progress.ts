import type { EventData } from '@contracts/events';
import type { PrefetchJob } from '@contracts/netboot';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useLiveEvents } from '../../app-state.js';
import { useApi } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** `debian/12/x86_64`: one architecture of one version of an entry. */
export function targetKey(target: { distro: string; version: string; arch: string }): string {
  return `${target.distro}/${target.version}/${target.arch}`;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * Folds the prefetch events (oldest first) into the jobs: `netboot.prefetch.progress`
 * carries `detail.job_id` (or `id`), `bytes_done`, `bytes_total`; `.done` and
 * `.failed` end a job. An event for a job this window did not start is
 * followed too when its detail names the distro, version and arch (a
 * prefetch started by another user or by a boot).
 */
export function applyPrefetchEvents(started: readonly PrefetchJob[], events: readonly EventData[]): Map<string, PrefetchJob> {
  const byId = new Map(started.map((job) => [job.id, { ...job }]));
  const ordered = events.filter((event) => event.kind.startsWith('netboot.prefetch.')).sort((a, b) => a.id - b.id);
  for (const event of ordered) {
    const detail = event.detail ?? {};
    const id = text(detail.job_id) ?? text(detail.id);
    if (!id) continue;
    let job = byId.get(id);
    if (!job) {
      const distro = text(detail.distro);
      const version = text(detail.version);
      const arch = text(detail.arch);
      if (!distro || !version || (arch !== 'x86_64' && arch !== 'arm64')) continue;
      job = { id, distro, version, arch, state: 'running', bytes_done: 0, bytes_total: null, error: null };
      byId.set(id, job);
    }
    const done = count(detail.bytes_done);
    const total = count(detail.bytes_total);
    if (done !== null) job.bytes_done = Math.max(job.bytes_done, done);
    if (total !== null) job.bytes_total = total;
    if (event.kind === 'netboot.prefetch.done') {
      job.state = 'done';
      if (job.bytes_total !== null) job.bytes_done = job.bytes_total;
    } else if (event.kind === 'netboot.prefetch.failed') {
      job.state = 'failed';
      job.error = text(detail.error) ?? event.message;
    }
  }
  const byTarget = new Map<string, PrefetchJob>();
  // The newest job of a target wins (jobs are in start order).
  for (const job of byId.values()) byTarget.set(targetKey(job), job);
  return byTarget;
}

/** Poll a running job this often: the events drive the bar, this only catches what a dropped stream missed. */
const POLL_MS = 5000;

/** The newer of two views of one job: a final state wins, else the one further along. */
export function newerJob(a: PrefetchJob, b: PrefetchJob | undefined): PrefetchJob {
  if (!b) return a;
  if (a.state !== 'running') return a;
  if (b.state !== 'running') return b;
  return b.bytes_done > a.bytes_done ? b : a;
}

/** The prefetch jobs of this window, live from the event stream, by target; `record` adds a new one. */
export function usePrefetchJobs() {
  const queryClient = useQueryClient();
  const started = useQuery<PrefetchJob[]>({
    queryKey: keys.prefetchJobs,
    queryFn: () => queryClient.getQueryData<PrefetchJob[]>(keys.prefetchJobs) ?? [],
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const events = useLiveEvents((state) => state.events);
  const api = useApi();
  const running = (started.data ?? []).filter((job) => job.state === 'running');
  const polled = useQueries({
    queries: running.map((job) => ({
      queryKey: ['local', 'prefetch-job', job.id],
      queryFn: () => api.netboot.cache.job(job.id),
      refetchInterval: POLL_MS,
      initialData: job,
      initialDataUpdatedAt: Date.now(),
    })),
  });
  const polledJobs = polled.map((query) => query.data).filter((job): job is PrefetchJob => job !== undefined);
  const polledKey = polledJobs.map((job) => `${job.id}:${job.state}:${job.bytes_done}`).join(',');
  const jobs = useMemo(() => {
    const fromEvents = applyPrefetchEvents(started.data ?? [], events);
    for (const job of polledJobs) fromEvents.set(targetKey(job), newerJob(job, fromEvents.get(targetKey(job))));
    return fromEvents;
    // polledKey stands for the polled jobs' content (useQueries returns a new array each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started.data, events, polledKey]);
  const record = useCallback(
    (job: PrefetchJob) => queryClient.setQueryData<PrefetchJob[]>(keys.prefetchJobs, (old = []) => [...old.filter((known) => known.id !== job.id), job]),
    [queryClient],
  );
  // The live store keeps only the latest events: write a job's end back so it outlives them.
  useEffect(() => {
    const stored = started.data ?? [];
    const ended = stored.map((job) => jobs.get(targetKey(job))).filter((job): job is PrefetchJob => job !== undefined && job.state !== 'running');
    if (ended.some((job) => stored.find((known) => known.id === job.id)?.state === 'running')) {
      queryClient.setQueryData<PrefetchJob[]>(keys.prefetchJobs, (old = []) => old.map((known) => ended.find((job) => job.id === known.id) ?? known));
    }
  }, [jobs, started.data, queryClient]);
  return { jobs, record };
}

/** 0–100, or null while the size is unknown. */
export function percentOf(job: PrefetchJob): number | null {
  if (job.state === 'done') return 100;
  if (job.bytes_total === null || job.bytes_total <= 0) return null;
  return Math.min(100, Math.round((job.bytes_done / job.bytes_total) * 100));
}
