import { createStore, type StoreApi } from 'zustand/vanilla';
import { EventSchema, type EventData as AppEvent } from '@contracts/events';
import { Value } from 'typebox/value';

/** How many live events the store keeps for the dashboard (newest first). */
export const LIVE_EVENTS_KEPT = 100;

/** 'paused' after a stream error until the next message (the transport reconnects by itself). */
export type LiveStatus = 'live' | 'paused';

export interface LiveEventsState {
  /** Events received on the live stream since the page opened, newest first. */
  events: AppEvent[];
  status: LiveStatus;
  error: string | null;
  received(event: AppEvent): void;
  failed(message: string): void;
  reset(): void;
}

/** The shared live event feed: one stream per window, many readers. */
export function createLiveEventsStore(): StoreApi<LiveEventsState> {
  return createStore<LiveEventsState>()((set) => ({
    events: [],
    status: 'live',
    error: null,
    received(event) {
      set((state) => {
        // A replay after reconnect can repeat an id; keep one of each.
        if (state.events.some((known) => known.id === event.id)) return { status: 'live', error: null };
        return { events: [event, ...state.events].slice(0, LIVE_EVENTS_KEPT), status: 'live', error: null };
      });
    },
    failed(message) {
      set({ status: 'paused', error: message });
    },
    reset() {
      set({ events: [], status: 'live', error: null });
    },
  }));
}

/** A stream message's data as an event, or null when it is not one. */
export function asAppEvent(data: unknown): AppEvent | null {
  return Value.Check(EventSchema, data) ? data : null;
}
