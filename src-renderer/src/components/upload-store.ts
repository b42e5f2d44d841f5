import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { useShallow } from 'zustand/react/shallow';
import type { UploadSnapshot, UploadTask } from '../api/upload-task.js';

/** Which page an upload belongs to (each page lists its own). */
export type UploadGroup = 'images' | 'files';

export interface UploadEntry {
  group: UploadGroup;
  snapshot: UploadSnapshot;
}

interface UploadsState {
  entries: UploadEntry[];
}

/**
 * The window's uploads, outside any page: an upload goes on while the user
 * looks at another page and is still listed when they come back.
 */
const store = createStore<UploadsState>()(() => ({ entries: [] }));
const tasks = new Map<string, { task: UploadTask; onDone: ((snapshot: UploadSnapshot) => void) | undefined }>();
let counter = 0;

function put(group: UploadGroup, snapshot: UploadSnapshot): void {
  store.setState((state) => {
    const known = state.entries.some((entry) => entry.snapshot.key === snapshot.key);
    return { entries: known ? state.entries.map((entry) => (entry.snapshot.key === snapshot.key ? { group, snapshot } : entry)) : [...state.entries, { group, snapshot }] };
  });
  if (snapshot.phase === 'done') tasks.get(snapshot.key)?.onDone?.(snapshot);
}

/** Starts an upload: `make` builds the task with its key and change listener. `onDone` runs once it finished. */
export function startUpload(group: UploadGroup, make: (key: string, onChange: (snapshot: UploadSnapshot) => void) => UploadTask, onDone?: (snapshot: UploadSnapshot) => void): string {
  counter += 1;
  const key = `upload-${counter}`;
  const task = make(key, (snapshot) => put(group, snapshot));
  tasks.set(key, { task, onDone });
  put(group, task.snapshot);
  void task.start();
  return key;
}

export function cancelUpload(key: string): void {
  void tasks.get(key)?.task.cancel();
}

export function retryUpload(key: string, options: { overwrite?: boolean } = {}): void {
  void tasks.get(key)?.task.retry(options);
}

/** Takes a finished, failed or cancelled upload off the list. */
export function dismissUpload(key: string): void {
  tasks.delete(key);
  store.setState((state) => ({ entries: state.entries.filter((entry) => entry.snapshot.key !== key) }));
}

/** Cancels and forgets every upload (tests; signing out). */
export function resetUploads(): void {
  for (const { task } of tasks.values()) void task.cancel();
  tasks.clear();
  store.setState({ entries: [] });
}

/** The uploads of one page, oldest first. */
export function useUploads(group: UploadGroup): UploadSnapshot[] {
  return useStore(store, useShallow((state) => state.entries.filter((entry) => entry.group === group).map((entry) => entry.snapshot)));
}
