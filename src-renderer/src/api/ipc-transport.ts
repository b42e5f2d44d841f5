import type { BootwrightApi } from '../../../src-preload/preload.cjs';
import { ApiError, describeError } from './api-error.js';
import { SseParser, toStreamMessage } from './sse-parser.js';
import type { HttpMethod, PostStreamHandlers, RawResponse, StreamHandlers, StreamRequest, Transport } from './transport.js';

/**
 * The desktop transport: requests and streams go through the preload bridge
 * (`window.bootwright`) to the main process, which runs them through the same
 * route table as HTTP, as the local admin.
 */
export function createIpcTransport(bridge: BootwrightApi): Transport {
  async function send(method: HttpMethod, path: string, body?: unknown): Promise<RawResponse> {
    try {
      const response = await bridge.invoke(method, path, body);
      return { status: response.status, body: response.body };
    } catch (err) {
      // Only reached when the main process handler itself failed; it answers errors as data otherwise.
      throw new ApiError({ status: 0, code: 'BAD_RESPONSE', message: `IPC call failed: ${describeError(err)}` });
    }
  }

  function subscribe(request: StreamRequest, handlers: StreamHandlers): () => void {
    // Over IPC the replay point travels with the filters (the stream hub reads params.last_event_id).
    const params = request.last_event_id === undefined ? request.params : { ...request.params, last_event_id: request.last_event_id };
    return bridge.subscribe(
      request.stream,
      params,
      (message) => handlers.onMessage(message),
      (error) => handlers.onError?.(new ApiError({ status: error.status, code: error.code, message: error.message, details: error.details })),
    );
  }

  function postStream(path: string, body: unknown, handlers: PostStreamHandlers): () => void {
    // The main process hands on the route's event-stream text as written; the same parser as HTTP reads it.
    const parser = new SseParser((event) => handlers.onMessage(toStreamMessage(event)));
    return bridge.requestStream(
      path,
      body,
      (text) => parser.push(text),
      () => handlers.onEnd(),
      (response) => handlers.onRefused({ status: response.status, body: response.body }),
    );
  }

  return { kind: 'ipc', send, subscribe, postStream };
}
