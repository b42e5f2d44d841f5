import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ListResult } from '../api/api-client.js';
import { createApi, type Api } from '../api/clients/index.js';
import type { ListParams } from '../api/query-string.js';
import { useAppState } from '../app-state.js';
import { notifyError, notifySuccess } from '../components/notify.js';

/** The typed per-area API over this UI's client (api/clients/): pages call `api.<area>.*`, never a raw path. */
export function useApi(): Api {
  const { client } = useAppState();
  return useMemo(() => createApi(client), [client]);
}

type ExtraQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'>;

/** A read through the typed API cached under `key`; `read: null` waits (disabled query). */
export function useApiQuery<T>(key: QueryKey, read: ((api: Api) => Promise<T>) | null, options: ExtraQueryOptions<T> = {}) {
  const api = useApi();
  return useQuery<T, Error, T, QueryKey>({
    queryKey: key,
    queryFn: () => (read as (api: Api) => Promise<T>)(api),
    enabled: read !== null && (options.enabled ?? true),
    ...options,
  });
}

/**
 * A server-side paged list: `params` (page, size, q, sort and filters) go to
 * the API and into the cache key; the previous page stays on screen while the
 * next one loads, so a table does not flash empty when paging.
 */
export function useApiPage<T>(key: QueryKey, params: ListParams, list: (api: Api, params: ListParams) => Promise<ListResult<T>>) {
  const api = useApi();
  return useQuery<ListResult<T>, Error>({
    queryKey: [...key, params],
    queryFn: () => list(api, params),
    placeholderData: keepPreviousData,
  });
}

export interface ApiActionOptions<TResult, TVars> {
  /** Cache keys (prefixes) to refetch after success. */
  invalidate?: QueryKey[];
  /** A notification after success. */
  success?: string | ((result: TResult, vars: TVars) => string);
  /** Show failures as a notification (default); forms that show errors at their fields turn this off. */
  notifyErrors?: boolean;
  errorTitle?: string;
  onSuccess?: (result: TResult, vars: TVars) => void;
}

/** A write through the typed API with cache invalidation and notifications. */
export function useApiAction<TVars, TResult = unknown>(run: (api: Api, vars: TVars) => Promise<TResult>, options: ApiActionOptions<TResult, TVars> = {}) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TVars>({
    mutationFn: (vars) => run(api, vars),
    onSuccess: async (result, vars) => {
      if (options.success) notifySuccess(typeof options.success === 'string' ? options.success : options.success(result, vars));
      options.onSuccess?.(result, vars);
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (error) => {
      if (options.notifyErrors !== false) notifyError(error, options.errorTitle);
    },
  });
}
