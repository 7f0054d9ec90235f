// Draws the app icon (a white shield with a check mark on a blue rounded square) and writes it
// as PNG files for electron-builder: icon.png (512, macOS and Windows) and icons/NxN.png (Linux).
// Only Node: pixels by signed-distance shapes with 4×4 supersampling, PNG by zlib.
// Run `node resources/generate-icons.mjs` after changing the drawing; the PNGs are committed.
import fs from 'node:fs';
import zlib from 'node:zlib';

const background = { top: [31, 58, 95], bottom: [43, 99, 150] };
const shieldColour = [255, 255, 255];
const checkColour = [43, 138, 62];

function insideRoundedSquare(x, y) {
  const margin = 0.06;
  const radius = 0.19;
  const dx = Math.max(Math.abs(x - 0.5) - (0.5 - margin - radius), 0);
  const dy = Math.max(Math.abs(y - 0.5) - (0.5 - margin - radius), 0);
  return dx * dx + dy * dy <= radius * radius;
}

// A shield: a flat top, straight sides, and an elliptic lower half narrowing to the tip.
function insideShield(x, y) {
  const top = 0.2;
  const shoulder = 0.48;
  const tip = 0.83;
  const halfWidth = 0.25;
  if (y < top || y > tip) return false;
  const half = y < shoulder ? halfWidth : halfWidth * Math.sqrt(1 - ((y - shoulder) / (tip - shoulder)) ** 2);
  return Math.abs(x - 0.5) <= half;
}

function distanceToSegment(x, y, [ax, ay], [bx, by]) {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

function onCheck(x, y) {
  const corner = [0.465, 0.6];
  return Math.min(distanceToSegment(x, y, [0.385, 0.5], corner), distanceToSegment(x, y, corner, [0.625, 0.38])) <= 0.04;
}

function colourAt(x, y) {
  if (!insideRoundedSquare(x, y)) return [0, 0, 0, 0];
  if (onCheck(x, y)) return [...checkColour, 255];
  if (insideShield(x, y)) return [...shieldColour, 255];
  return [...background.top.map((top, i) => Math.round(top + (background.bottom[i] - top) * y)), 255];
}

function render(size) {
  const samples = 4;
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0 (None), then RGBA
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const [r, g, b, a] = colourAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          sum[0] += r * a;
          sum[1] += g * a;
          sum[2] += b * a;
          sum[3] += a;
        }
      }
      const alpha = sum[3] / samples ** 2;
      const pixel = sum[3] === 0 ? [0, 0, 0, 0] : [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3], alpha];
      pixel.forEach((value, i) => row.writeUInt8(Math.round(value), 1 + px * 4 + i));
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(size, scanlines) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(scanlines, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const folder = new URL('.', import.meta.url);
const icons = new URL('icons/', folder);
fs.mkdirSync(icons, { recursive: true });
const large = render(512);
fs.writeFileSync(new URL('icon.png', folder), large);
fs.writeFileSync(new URL('512x512.png', icons), large);
fs.writeFileSync(new URL('256x256.png', icons), render(256));
