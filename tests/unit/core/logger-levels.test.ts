import { describe, expect, it } from 'vitest';
import { LogSink, type LogRecord } from '../../../src-main/core/logger.js';

describe('logger levels', () => {
  it('builds no line below the level: the context is not read, nobody is told', () => {
    const sink = new LogSink({ logDir: null, level: 'info', console: false });
    const seen: LogRecord[] = [];
    sink.subscribe((record) => seen.push(record));
    let reads = 0;
    const context = {
      get detail() {
        reads += 1;
        return 'x';
      },
    };
    const log = sink.logger('nfs');
    log.debug('per-call line', context);
    expect(reads).toBe(0);
    expect(seen).toEqual([]);
    log.info('kept', context);
    expect(reads).toBe(1);
    expect(seen).toMatchObject([{ level: 'info', scope: 'nfs', message: 'kept', context: { detail: 'x' } }]);
    // Lowering the level takes effect at once for loggers already handed out.
    sink.setLevel('debug');
    log.debug('now kept');
    expect(seen.map((record) => record.message)).toEqual(['kept', 'now kept']);
    expect(sink.enabled('debug')).toBe(true);
    sink.setLevel('error');
    expect(sink.enabled('warn')).toBe(false);
    expect(sink.enabled('error')).toBe(true);
  });
});
