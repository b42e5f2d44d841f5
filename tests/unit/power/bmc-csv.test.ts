import { describe, expect, it } from 'vitest';
import { parseBmcCsv } from '../../../src-main/power/bmc-csv.js';

describe('BMC CSV parsing', () => {
  it('reads a header row and typed cells, in any column order, with a BOM and CRLF', () => {
    const parsed = parseBmcCsv('\ufeffaddress,name,username,password,port,protocol,host_mac,verify_tls\r\n10.0.0.5,r1,admin,"pa,ss",6230,IPMI,52-54-00-AA-BB-01,\r\n\r\nbmc2.example,r2,root,,,redfish,,no\r\n');
    expect(parsed.problems).toEqual([]);
    expect(parsed.dataRows).toBe(2);
    expect(parsed.rows).toEqual([
      { line: 2, hostMac: '52:54:00:aa:bb:01', input: { name: 'r1', address: '10.0.0.5', username: 'admin', password: 'pa,ss', port: 6230, protocol: 'ipmi' } },
      { line: 4, hostMac: null, input: { name: 'r2', address: 'bmc2.example', username: 'root', password: '', protocol: 'redfish', verify_tls: false } },
    ]);
  });

  it('reports cell problems with line numbers and keeps the good rows', () => {
    const parsed = parseBmcCsv('name,address,username,port,protocol,host_mac\nok,10.0.0.1,admin,,,\nbad,10.0.0.2,admin,http,snmp,zz\nshort,10.0.0.3\n');
    expect(parsed.fatal).toBe(false);
    expect(parsed.rows.map((row) => row.input.name)).toEqual(['ok']);
    expect(parsed.problems).toEqual([
      { line: 3, column: 'port', message: '"http" is not a port number' },
      { line: 3, column: 'protocol', message: '"snmp" is not one of ipmi, redfish' },
      { line: 3, column: 'host_mac', message: '"zz" is not a MAC address' },
      { line: 4, column: null, message: 'has 2 fields, the header has 6' },
    ]);
  });

  it('treats a bad header, an empty file or broken quoting as fatal', () => {
    expect(parseBmcCsv('')).toMatchObject({ fatal: true, problems: [{ line: 1, message: /empty/ }] });
    expect(parseBmcCsv('name,address,user\nx,y,z\n')).toMatchObject({
      fatal: true,
      problems: [
        { line: 1, column: 'user', message: /unknown column/ },
        { line: 1, column: 'username', message: /lacks the required column/ },
      ],
    });
    expect(parseBmcCsv('name,address,username\n"x,1.2.3.4,admin\n')).toMatchObject({ fatal: true, problems: [{ message: /not valid CSV/ }] });
  });
});
