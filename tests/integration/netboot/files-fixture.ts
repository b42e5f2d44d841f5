import type { CatalogEntryView } from '../../../src-main/netboot/netboot-contract.js';
import { entryView, fakeCatalog } from '../../helpers/netboot-fake-catalog.js';
import { patternBytes } from '../tftp/tftp-harness.js';
import { sha256, type NetbootMirror } from '../../helpers/netboot-mirror.js';

/** The boot files the local mirror holds for the netboot files tests. */
export const KERNEL = patternBytes(700_001, 5);
export const INITRD = patternBytes(1_500_003, 9);
export const FEDORA_KERNEL = patternBytes(20_000, 13);

const IMAGES = 'dists/bookworm/main/installer-amd64/current/images';

/** Fills `mirror` and returns a catalog of three entries: Debian (SHA256SUMS), Fedora (catalog digests), a local-only one. */
export function netbootFixture(mirror: NetbootMirror): ReturnType<typeof fakeCatalog> {
  mirror.files.set(`debian/${IMAGES}/netboot/debian-installer/amd64/linux`, KERNEL);
  mirror.files.set(`debian/${IMAGES}/netboot/debian-installer/amd64/initrd.gz`, INITRD);
  mirror.files.set(
    `debian/${IMAGES}/SHA256SUMS`,
    Buffer.from(`${sha256(KERNEL)}  ./netboot/debian-installer/amd64/linux\n${sha256(INITRD)}  ./netboot/debian-installer/amd64/initrd.gz\n`),
  );
  mirror.files.set('fedora/images/pxeboot/vmlinuz', FEDORA_KERNEL);
  const entries: CatalogEntryView[] = [
    entryView({
      distro: 'debian',
      mirror: `${mirror.base}/debian`,
      versions: [
        {
          version: '12',
          name: '12 (bookworm)',
          codename: 'bookworm',
          default: true,
          architectures: [
            {
              arch: 'x86_64',
              firmware: ['bios', 'uefi'],
              kernel: `dists/{{ codename }}/main/installer-amd64/current/images/netboot/debian-installer/amd64/linux`,
              initrds: [`dists/{{ codename }}/main/installer-amd64/current/images/netboot/debian-installer/amd64/initrd.gz`],
              checksums: { file: `dists/{{ codename }}/main/installer-amd64/current/images/SHA256SUMS`, algorithm: 'sha256' },
            },
          ],
        },
      ],
    }),
    entryView({
      distro: 'fedora',
      family: 'redhat',
      mirror: `${mirror.base}/fedora`,
      versions: [
        {
          version: '40',
          name: '40',
          architectures: [
            { arch: 'x86_64', firmware: ['uefi'], kernel: 'images/pxeboot/vmlinuz', initrds: [], sha256: { 'images/pxeboot/vmlinuz': sha256(FEDORA_KERNEL) } },
            { arch: 'arm64', firmware: ['uefi'], kernel: 'images/pxeboot/aarch64/vmlinuz', initrds: [] },
          ],
        },
      ],
    }),
    entryView({
      distro: 'memtest',
      family: 'utility',
      loader: 'efi',
      mirror: null,
      versions: [{ version: '7', name: '7', architectures: [{ arch: 'x86_64', firmware: ['uefi'], kernel: 'memtest.efi', initrds: [] }] }],
    }),
  ];
  return fakeCatalog(entries);
}
