/**
 * Small but valid media files the simulators serve: a 1x1 PNG, MPEG audio frames, a WAV and an MP4
 * header. Deterministic bytes, so tests can compare them.
 */

/** A valid 1x1 PNG (the image of the vendor fixtures). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
);

/** `frames` silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each). */
export function createMp3(frames: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: Math.max(1, frames) }, () => frame));
}

/** A mono 16-bit 24 kHz WAV of `samples` silent samples. */
export function createWav(samples: number): Buffer {
  const data = samples * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(24000, 24);
  out.writeUInt32LE(48000, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(data, 40);
  return out;
}

/** An MP4 `ftyp` box followed by an empty `mdat` box (enough for a content sniffer). */
export const TINY_MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42', 'ascii'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom', 'ascii'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('mdat', 'ascii'),
]);
