import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOption } from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { OPT } from '../../../../src-main/dhcp/dhcp-options.js';
import { EngineKit, opt, request, typeOf } from './dhcp-test-kit.js';

/*
 * Option 3 when a subnet gives only `subnet` and `ranges`: our own address on
 * that subnet (dnsmasq's default; the Debian installer needs a gateway to go
 * on unattended), the relay's for a relayed subnet, none for router "none".
 */

const MAC = '52:54:00:00:00:3a';
const DISCOVER = 1;
const REQUEST = 3;

let kit: EngineKit;
beforeEach(async () => {
  kit = await EngineKit.create();
});
afterEach(async () => {
  await kit.close();
});

async function offerAndAck(fields: { giaddr?: string } = {}, context = kit.context()) {
  const [offer] = await kit.handle(request(MAC, DISCOVER, [], fields), context);
  expect(offer && typeOf(offer.packet)).toBe(2);
  const [ack] = await kit.handle(request(MAC, REQUEST, [opt.requested(offer!.packet.yiaddr), opt.serverId('10.50.0.1')], fields), context);
  expect(ack && typeOf(ack.packet)).toBe(5);
  return { offer: offer!.packet, ack: ack!.packet };
}

describe('the default router (option 3)', () => {
  it('a subnet with only subnet and ranges is stored with its defaults and sends our address as router in OFFER and ACK', async () => {
    const stored = await kit.ctx.dhcpSettings.update({ subnets: [{ subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }] }] });
    expect(stored.subnets[0]).toEqual({
      subnet: '10.50.0.0/24',
      ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }],
      lease_time_seconds: null,
      router: null,
      dns_servers: null,
      domain_name: null,
      ntp_servers: [],
      options: [],
    });
    kit.engine.reload();
    const { offer, ack } = await offerAndAck();
    expect(findOption(offer, OPT.ROUTER)).toEqual(Buffer.from([10, 50, 0, 1]));
    expect(findOption(ack, OPT.ROUTER)).toEqual(Buffer.from([10, 50, 0, 1]));
    expect(findOption(ack, OPT.LEASE_TIME)!.readUInt32BE(0)).toBe(3600);
  });

  it('router "none" sends no option 3; an address sends that address', async () => {
    await kit.ctx.dhcpSettings.update({ subnets: [{ subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }], router: 'none' }] });
    kit.engine.reload();
    const none = await offerAndAck();
    expect(findOption(none.offer, OPT.ROUTER)).toBeUndefined();
    expect(findOption(none.ack, OPT.ROUTER)).toBeUndefined();

    await kit.ctx.dhcpSettings.update({ subnets: [{ subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }], router: '10.50.0.254' }] });
    kit.engine.reload();
    const given = await offerAndAck();
    expect(findOption(given.ack, OPT.ROUTER)).toEqual(Buffer.from([10, 50, 0, 254]));
  });

  it('a custom option 3 still overrides the default', async () => {
    await kit.ctx.dhcpSettings.update({
      subnets: [{ subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }], options: [{ code: 3, type: 'ip', value: '10.50.0.9' }] }],
    });
    kit.engine.reload();
    const { ack } = await offerAndAck();
    expect(findOption(ack, OPT.ROUTER)).toEqual(Buffer.from([10, 50, 0, 9]));
  });

  it('a relayed subnet (not ours) gets the relay address as router', async () => {
    await kit.ctx.dhcpSettings.update({
      subnets: [
        { subnet: '10.50.0.0/24', ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }] },
        { subnet: '172.20.0.0/16', ranges: [{ start: '172.20.1.1', end: '172.20.1.9' }] },
      ],
    });
    kit.engine.reload();
    const context = { ...kit.context(), subnet: kit.ctx.dhcpSettings.subnetFor((172 << 24) + (20 << 16) + 1) ?? null };
    const [offer] = await kit.handle(request(MAC, DISCOVER, [], { giaddr: '172.20.0.254' }), context);
    expect(offer!.packet.yiaddr).toBe('172.20.1.1');
    expect(findOption(offer!.packet, OPT.ROUTER)).toEqual(Buffer.from([172, 20, 0, 254]));
  });

  it('refuses a router that is neither an address nor "none"', async () => {
    await expect(kit.ctx.dhcpSettings.update({ subnets: [{ subnet: '10.50.0.0/24', ranges: [], router: '10.50.0.x99' }] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
