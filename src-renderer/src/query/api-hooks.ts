import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ApiClient, ListResult } from '../api/api-client.js';
import { createApi, type Api } from '../api/clients/index.js';
import { withQuery, type ListParams, type QueryValue } from '../api/query-string.js';
import { useAppState } from '../app-state.js';
import { notifyError, notifySuccess } from '../components/notify.js';

export function useApiClient(): ApiClient {
  return useAppState().client;
}

/** The typed per-area API over this UI's client (api/clients/). */
export function useApi(): Api {
  const client = useApiClient();
  return useMemo(() => createApi(client), [client]);
}

type ExtraQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'>;

/** GET `path` (relative to /api/v1) cached under `key`; `path: null` waits (disabled query). */
export function useApiGet<T>(key: QueryKey, path: string | null, options: ExtraQueryOptions<T> = {}) {
  const client = useApiClient();
  return useQuery<T, Error, T, QueryKey>({
    queryKey: key,
    queryFn: () => client.get<T>(path as string),
    enabled: path !== null && (options.enabled ?? true),
    ...options,
  });
}

/**
 * A server-side paged list: `params` (page, size, q, sort and filters) go to
 * the API and into the cache key; the previous page stays on screen while the
 * next one loads, so a table does not flash empty when paging.
 */
export function useApiList<T>(key: QueryKey, path: string, params: Record<string, QueryValue>) {
  const client = useApiClient();
  return useQuery<ListResult<T>, Error>({
    queryKey: [...key, params],
    queryFn: () => client.list<T>(withQuery(path, params)),
    placeholderData: keepPreviousData,
  });
}

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

/** A server-side paged list through the typed API; like useApiList, `params` go into the cache key. */
export function useApiPage<T>(key: QueryKey, params: ListParams, list: (api: Api, params: ListParams) => Promise<ListResult<T>>) {
  const api = useApi();
  return useQuery<ListResult<T>, Error>({
    queryKey: [...key, params],
    queryFn: () => list(api, params),
    placeholderData: keepPreviousData,
  });
}

/** A write through the typed API with cache invalidation and notifications (see useApiMutation). */
export function useApiAction<TVars, TResult = unknown>(run: (api: Api, vars: TVars) => Promise<TResult>, options: ApiMutationOptions<TResult, TVars> = {}) {
  const api = useApi();
  return useApiMutation<TVars, TResult>((_client, vars) => run(api, vars), options);
}

export interface ApiMutationOptions<TResult, TVars> {
  /** Cache keys (prefixes) to refetch after success. */
  invalidate?: QueryKey[];
  /** A notification after success. */
  success?: string | ((result: TResult, vars: TVars) => string);
  /** Show failures as a notification (default); forms that show errors at their fields turn this off. */
  notifyErrors?: boolean;
  errorTitle?: string;
  onSuccess?: (result: TResult, vars: TVars) => void;
}

/** A write through the API client with cache invalidation and notifications. */
export function useApiMutation<TVars, TResult = unknown>(
  run: (client: ApiClient, vars: TVars) => Promise<TResult>,
  options: ApiMutationOptions<TResult, TVars> = {},
) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TVars>({
    mutationFn: (vars) => run(client, vars),
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
