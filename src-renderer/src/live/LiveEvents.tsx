import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { describeError } from '../api/api-error.js';
import { useAppState } from '../app-state.js';
import { asAppEvent } from './live-events-store.js';
import { createInvalidator } from './live-invalidation.js';

/**
 * Opens the window's one live event stream while a user is signed in: it
 * feeds the dashboard's event list and tells the cache what changed.
 */
export function LiveEvents() {
  const { client, liveEvents } = useAppState();
  const queryClient = useQueryClient();

  useEffect(() => {
    const invalidator = createInvalidator(queryClient);
    liveEvents.getState().reset();
    const close = client.subscribe(
      { stream: 'events' },
      {
        onMessage: (message) => {
          const event = asAppEvent(message.data);
          if (!event) return;
          liveEvents.getState().received(event);
          invalidator.eventArrived(event.kind);
        },
        onError: (error) => liveEvents.getState().failed(describeError(error)),
      },
    );
    return () => {
      close();
      invalidator.dispose();
    };
  }, [client, liveEvents, queryClient]);

  return null;
}
