import path from 'node:path';

/** Content types of the files a boot root holds; anything else is binary. */
const TYPES: Record<string, string> = {
  '.ipxe': 'text/plain; charset=utf-8',
  '.cfg': 'text/plain; charset=utf-8',
  '.conf': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.sh': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'text/yaml; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
  '.xml': 'application/xml',
  '.iso': 'application/x-iso9660-image',
  '.img': 'application/octet-stream',
  '.efi': 'application/efi',
};

export function contentTypeFor(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}
