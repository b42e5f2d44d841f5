import { Type, type Static } from 'typebox';

/*
 * The network API's contract (/api/v1/interfaces, /network/interfaces, and
 * the read-only parts of /settings/interfaces): typebox and other contracts
 * only (the renderer imports it: @contracts/network).
 */

export const NicAddressSchema = Type.Object({
  address: Type.String(),
  family: Type.Enum(['ipv4', 'ipv6']),
  prefix: Type.Integer({ minimum: 0, maximum: 128 }),
  cidr: Type.String({ description: 'address/prefix, e.g. 192.168.1.10/24' }),
  subnet: Type.String({ description: 'The subnet, e.g. 192.168.1.0/24' }),
});

/** Carrier: 'up' with a link partner (cable in, peer up), 'down' without one or when the interface is down, 'unknown' where the platform does not say. */
export const NIC_LINK_STATES = ['up', 'down', 'unknown'] as const;
export type NicLink = (typeof NIC_LINK_STATES)[number];

export const NicSchema = Type.Object(
  {
    name: Type.String(),
    mac: Type.Union([Type.String(), Type.Null()], { description: 'Lowercase colon form; null without a hardware address' }),
    addresses: Type.Array(NicAddressSchema),
    mtu: Type.Union([Type.Integer(), Type.Null()], { description: 'null where the platform does not report it' }),
    up: Type.Boolean({ description: 'Usable: administratively up and operational (a link, or a kind of interface without carrier such as loopback or tun)' }),
    link: Type.Enum([...NIC_LINK_STATES], {
      description: "Carrier (/sys/class/net/<if>/carrier, else operstate): 'down' when no cable or peer is there (or the interface is down), 'unknown' where the platform does not tell",
    }),
    internal: Type.Boolean({ description: 'true for loopback' }),
  },
  { $id: 'NetworkInterface' },
);

export const ResolvedServerAddressSchema = Type.Object({
  interface: Type.Union([Type.String(), Type.Null()], { description: 'null for an override of a subnet no interface is on' }),
  subnet: Type.String(),
  address: Type.String(),
  source: Type.Enum(['detected', 'override']),
  served: Type.Boolean(),
});

export type NicAddress = Static<typeof NicAddressSchema>;
export type Nic = Static<typeof NicSchema>;
export type ResolvedServerAddress = Static<typeof ResolvedServerAddressSchema>;
