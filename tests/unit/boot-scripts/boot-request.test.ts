import { describe, expect, it } from 'vitest';
import { bootRequestFrom } from '../../../src-main/boot-scripts/boot-script-provider.js';

function parse(query: string) {
  return bootRequestFrom({ ip: '10.0.0.5', protocol: 'http', query: new URLSearchParams(query) });
}

describe('bootRequestFrom', () => {
  it('reads what the entry script sends (iPXE :uristring values, decoded)', () => {
    expect(parse('mac=52%3A54%3A00%3A12%3A34%3A56&arch=x86_64&platform=efi&uuid=ABCDEF01-0000-0000-0000-000000000001&serial=SN%20042&profile=7')).toEqual({
      ip: '10.0.0.5',
      mac: '52:54:00:12:34:56',
      arch: 'x86_64',
      platform: 'efi',
      uuid: 'abcdef01-0000-0000-0000-000000000001',
      serial: 'SN 042',
      profileId: 7,
      choice: null,
    });
    expect(parse('mac=52:54:00:12:34:56&choice=debian:12:x86_64').choice).toBe('debian:12:x86_64');
  });

  it('treats unset iPXE settings (empty values) and implausible values as absent', () => {
    expect(parse('mac=&arch=&platform=&uuid=&serial=')).toMatchObject({ mac: null, arch: null, platform: null, uuid: null, serial: null, profileId: null });
    expect(parse('arch=X86;rm&platform=../x&uuid=zz&serial=a%0Ab&profile=0&choice=a%20b')).toMatchObject({ arch: null, platform: null, uuid: null, serial: null, profileId: null, choice: null });
    expect(parse(`serial=${'x'.repeat(500)}&profile=99999999999`)).toMatchObject({ serial: null, profileId: null });
  });

  it('never throws on random queries (bounded fuzz)', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const names = ['mac', 'arch', 'platform', 'uuid', 'serial', 'profile', 'x'];
    for (let round = 0; round < 2000; round += 1) {
      const params = new URLSearchParams();
      const count = random() % 8;
      for (let i = 0; i < count; i += 1) {
        const length = random() % 80;
        let value = '';
        for (let c = 0; c < length; c += 1) value += String.fromCharCode(random() % 0x2000);
        params.append(names[random() % names.length]!, value);
      }
      const request = bootRequestFrom({ ip: '10.0.0.5', protocol: 'http', query: params });
      expect(request.ip).toBe('10.0.0.5');
      if (request.profileId !== null) expect(Number.isSafeInteger(request.profileId)).toBe(true);
    }
  });
});
