import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GatewayError } from '../errors.ts';
import { detectImageType, IMAGE_TYPES } from './image-type.ts';
import { IMAGE_TTL_MS, type ImageStore, type StoredImage } from './store.ts';

/** 32 url-safe characters (192 random bits) and the format's extension. */
const ID_FORMAT = /^[A-Za-z0-9_-]{32}\.([a-z]+)$/;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Options of {@link createLocalImageStore}. */
export interface LocalImageStoreOptions {
  /** How long an image is served (default 24 h). */
  ttlMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

/**
 * An {@link ImageStore} in a local directory: one file per image named by its id, expiring `ttlMs` after
 * it was written. Expired files are deleted when asked for and by a sweep at most once an hour.
 */
export function createLocalImageStore(dir: string, options: LocalImageStoreOptions = {}): ImageStore {
  const ttlMs = options.ttlMs ?? IMAGE_TTL_MS;
  const now = options.now ?? Date.now;
  let ready: Promise<unknown> | undefined;
  let lastSweep = now();

  const isExpired = (writtenAt: number) => writtenAt + ttlMs <= now();

  async function sweep(): Promise<void> {
    for (const name of await readdir(dir)) {
      if (!ID_FORMAT.test(name)) continue;
      const file = join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && isExpired(info.mtimeMs)) await removeQuietly(file);
    }
  }

  return {
    async put(bytes: Buffer): Promise<string> {
      const type = detectImageType(bytes);
      if (!type) throw new GatewayError(502, 'upstream_invalid_response', 'The vendor linked to something that is not an image.');
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      const id = `${randomBytes(24).toString('base64url')}.${type.extension}`;
      await writeFile(join(dir, id), bytes, { flag: 'wx' });
      if (now() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = now();
        void sweep().catch(() => undefined);
      }
      return id;
    },

    async get(id: string): Promise<StoredImage | undefined> {
      const match = ID_FORMAT.exec(id);
      const type = match && Object.hasOwn(IMAGE_TYPES, match[1]) ? IMAGE_TYPES[match[1]] : undefined;
      if (!type) return undefined;
      const file = join(dir, id);
      const info = await stat(file).catch(() => undefined);
      if (!info) return undefined;
      if (isExpired(info.mtimeMs)) {
        await removeQuietly(file);
        return undefined;
      }
      const bytes = await readFile(file).catch(() => undefined);
      return bytes && { bytes, contentType: type.contentType };
    },
  };
}
