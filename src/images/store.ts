/** How long re-hosted images are served: the spec's promise for image URLs. */
export const IMAGE_TTL_MS = 24 * 60 * 60 * 1000;

/** A stored image as it is served. */
export interface StoredImage {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where re-hosted images live. One small interface so a shared object store can serve several
 * gateways; the default keeps files in a local directory (`server.image_dir`).
 */
export interface ImageStore {
  /** Stores an image for {@link IMAGE_TTL_MS} and answers its unguessable id (safe in a URL path). */
  put(bytes: Buffer): Promise<string>;
  /** The image of `id`, or undefined when it is unknown or expired. */
  get(id: string): Promise<StoredImage | undefined>;
}
