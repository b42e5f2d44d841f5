/**
 * IANA private enterprise numbers of common BMC makers (the manufacturer id
 * of Get Device ID, IPMI v2.0 §20.1). Unknown numbers are shown as
 * "IANA <number>" rather than guessed.
 */
export const BMC_MANUFACTURERS: Readonly<Record<number, string>> = {
  2: 'IBM',
  11: 'Hewlett-Packard',
  343: 'Intel',
  674: 'Dell',
  2011: 'Huawei',
  5771: 'Cisco',
  10876: 'Supermicro',
  19046: 'Lenovo',
  47196: 'Hewlett Packard Enterprise',
};

export function vendorName(manufacturerId: number): string {
  return BMC_MANUFACTURERS[manufacturerId] ?? `IANA ${manufacturerId}`;
}
