import type { EventData } from '@contracts/events';
import type { ApiClient, ListResult } from '../api-client.js';
import { withQuery, type ListParams } from '../query-string.js';

/** The events area's API (src-main/events/events-routes.ts); the live stream goes through the transport's stream. */
export function eventsClient(client: ApiClient) {
  return {
    /** Paging plus the filters kind, level, mac, since, until, after_id. */
    list: (params: ListParams = {}): Promise<ListResult<EventData>> => client.list(withQuery('/events', params)),
  };
}
