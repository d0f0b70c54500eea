/** An image format the gateway re-hosts: media type and file extension. */
export interface ImageType {
  contentType: string;
  extension: string;
}

const PNG: ImageType = { contentType: 'image/png', extension: 'png' };
const JPEG: ImageType = { contentType: 'image/jpeg', extension: 'jpg' };
const GIF: ImageType = { contentType: 'image/gif', extension: 'gif' };
const WEBP: ImageType = { contentType: 'image/webp', extension: 'webp' };

/** Every re-hosted format by extension (used when serving). */
export const IMAGE_TYPES: Readonly<Record<string, ImageType>> = { png: PNG, jpg: JPEG, gif: GIF, webp: WEBP };

function startsWith(bytes: Buffer, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

/**
 * The format of image bytes read from their first bytes (not from what a server claimed), or
 * undefined for anything else, so the gateway never serves non-image content from its own origin.
 */
export function detectImageType(bytes: Buffer): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return GIF;
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return WEBP;
  return undefined;
}
