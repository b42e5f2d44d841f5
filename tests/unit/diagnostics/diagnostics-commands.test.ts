import { describe, expect, it } from 'vitest';
import { pingCommand, traceCommand } from '../../../src-main/diagnostics/diagnostics-commands.js';
import { targetProblem } from '../../../src-main/diagnostics/diagnostics-target.js';
import { DiagnosticsService } from '../../../src-main/diagnostics/diagnostics-service.js';
import { isAppError } from '../../../src-main/core/errors.js';

describe('targetProblem', () => {
  it.each(['127.0.0.1', '::1', '2001:db8::1', 'localhost', 'pxe-01.example.lan', 'a'.repeat(63)])('accepts %s', (target) => {
    expect(targetProblem(target)).toBeNull();
  });

  it.each(['', '-f', '--help', '-c 1000', '127.0.0.1; rm -rf /', '$(id)', '`id`', 'a b', 'host\nname', 'host\r', 'fe80::1%eth0', 'a'.repeat(64), `${'a.'.repeat(127)}ab`, 'ex_ample.com', 'höst', '127.0.0.1 -f'])(
    'refuses %j',
    (target) => {
      expect(targetProblem(target)).not.toBeNull();
    },
  );
});

describe('command lines', () => {
  it('puts -- before the target on Linux and fills in the defaults', () => {
    expect(pingCommand({ target: '127.0.0.1' }, 'linux')).toEqual({ tool: 'ping', args: ['-n', '-c', '4', '-W', '2', '-s', '56', '--', '127.0.0.1'] });
    expect(pingCommand({ target: '::1', count: 2, timeout_seconds: 1, size: 16, family: 6 }, 'linux').args).toEqual(['-n', '-c', '2', '-W', '1', '-s', '16', '-6', '--', '::1']);
    expect(traceCommand({ target: 'h', max_hops: 5, timeout_seconds: 1 }, 'traceroute').args).toEqual(['-n', '-q', '3', '-w', '1', '-m', '5', '--', 'h']);
    expect(traceCommand({ target: 'h', max_hops: 5, family: 4 }, 'tracepath').args).toEqual(['-n', '-m', '5', '-4', '--', 'h']);
  });

  it('uses the Windows options (milliseconds, no --)', () => {
    expect(pingCommand({ target: 'h', count: 3, timeout_seconds: 2, size: 32 }, 'win32').args).toEqual(['-n', '3', '-w', '2000', '-l', '32', 'h']);
    expect(traceCommand({ target: 'h', max_hops: 9, timeout_seconds: 3 }, 'tracert')).toEqual({ tool: 'tracert', args: ['-d', '-h', '9', '-w', '3000', 'h'] });
  });
});

describe('DiagnosticsService', () => {
  it('falls back to tracepath when traceroute is missing', () => {
    expect(new DiagnosticsService({ hasTool: (tool) => tool === 'tracepath' }).traceTool()).toBe('tracepath');
    expect(new DiagnosticsService({ hasTool: () => true }).traceTool()).toBe('traceroute');
    expect(new DiagnosticsService({ platform: 'win32' }).traceTool()).toBe('tracert');
  });

  it('refuses bad fields before anything runs (no slot is taken)', () => {
    const service = new DiagnosticsService({ hasTool: () => true, wrap: () => { throw new Error('must not spawn'); } });
    for (const request of [{ target: '-f' }, { target: '127.0.0.1', count: 21 }, { target: '127.0.0.1', size: 15 }, { target: '127.0.0.1', extra: 1 }]) {
      let caught: unknown = null;
      try {
        service.ping(request as { target: string });
      } catch (err) {
        caught = err;
      }
      expect(isAppError(caught) && caught.code).toBe('VALIDATION_FAILED');
    }
    expect(() => service.traceroute({ target: '127.0.0.1', max_hops: 31 })).toThrow(/max_hops/);
    expect(service.active).toBe(0);
  });
});
