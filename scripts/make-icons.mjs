#!/usr/bin/env node
/**
 * Draws the Bootwright icon (a power symbol on a blue rounded square) and
 * writes it as PNG files: the app icon sizes for electron-builder, the tray
 * icon (16 px, with a 32 px @2x variant) and the web UI favicon. No image
 * library: shapes are signed distances, 4×4 supersampled, and the PNG is
 * encoded by hand (RFC 2083: signature, IHDR, IDAT with zlib, IEND).
 *
 *   node scripts/make-icons.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** RGBA pixels (size × size × 4) → PNG bytes (8-bit RGBA, no interlace, filter 0 on every row). */
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Signed distance to a rounded square centred in the unit square (negative inside). */
function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x - 0.5) - half + radius;
  const qy = Math.abs(y - 0.5) - half + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function segmentDistance(x, y, ax, ay, bx, by) {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

/** Distance to the power symbol's centre line: an open ring (gap at the top) and a bar through the gap. */
function powerSymbol(x, y, glyph) {
  const { cx, cy, r, gap } = glyph;
  const angle = Math.atan2(x - cx, -(y - cy)); // 0 = straight up
  let ring;
  if (Math.abs(angle) >= gap) {
    ring = Math.abs(Math.hypot(x - cx, y - cy) - r);
  } else {
    // In the gap: distance to the nearer end of the arc (round caps).
    const side = angle < 0 ? -1 : 1;
    ring = Math.hypot(x - (cx + side * r * Math.sin(gap)), y - (cy - r * Math.cos(gap)));
  }
  const bar = segmentDistance(x, y, cx, cy - r * 1.18, cx, cy - r * 0.25);
  return Math.min(ring, bar);
}

const TOP = [59, 130, 246]; // #3b82f6
const BOTTOM = [30, 58, 138]; // #1e3a8a

function drawIcon(size, { stroke, margin }) {
  const samples = 4;
  const glyph = { cx: 0.5, cy: 0.535, r: 0.235, gap: (38 * Math.PI) / 180 };
  const half = 0.5 - margin;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (roundedSquare(x, y, half, half * 0.42) > 0) continue;
          const t = Math.min(1, Math.max(0, (x + y) / 2));
          let colour = TOP.map((top, i) => top + (BOTTOM[i] - top) * t);
          if (powerSymbol(x, y, glyph) <= stroke / 2) colour = [255, 255, 255];
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const offset = (py * size + px) * 4;
      if (a > 0) {
        pixels[offset] = Math.round(r / a);
        pixels[offset + 1] = Math.round(g / a);
        pixels[offset + 2] = Math.round(b / a);
        pixels[offset + 3] = Math.round((255 * a) / (samples * samples));
      }
    }
  }
  return encodePng(size, pixels);
}

// Small sizes get a thicker stroke and a smaller margin so the symbol stays legible.
const outputs = [
  { file: 'resources/icons/512x512.png', size: 512, stroke: 0.075, margin: 0.06 },
  { file: 'resources/icons/256x256.png', size: 256, stroke: 0.075, margin: 0.06 },
  { file: 'resources/icons/tray@2x.png', size: 32, stroke: 0.11, margin: 0.02 },
  { file: 'resources/icons/tray.png', size: 16, stroke: 0.13, margin: 0 },
  { file: 'src-renderer/public/favicon.png', size: 32, stroke: 0.11, margin: 0.02 },
];

for (const { file, size, stroke, margin } of outputs) {
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, drawIcon(size, { stroke, margin }));
  process.stdout.write(`wrote ${file} (${size}×${size})\n`);
}
