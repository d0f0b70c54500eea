import type { components } from '../../generated/openapi.d.ts';

/** The request bodies of the public OpenAPI document (generated/openapi.d.ts, from schemas/endpoints/), by schema title. */
export type RequestBodies = components['schemas'];

/**
 * A JSON request body as the handler of its operation reads it: the fields its route's schema checked
 * (`validateBody`, before any handler runs) with their generated OpenAPI types, and every other field as
 * the client sent it, passed on untouched. Type-only: nothing of it exists at run time.
 */
export type RequestBody<Name extends keyof RequestBodies> = RequestBodies[Name] & Record<string, unknown>;

/**
 * A JSON request body as the passthrough reads it (whatever its operation): an object whose `model` it
 * may rename to the vendor's name; every other field is passed on untouched, unread. Absent on GET and
 * multipart routes.
 */
export type PassthroughBody = { readonly model?: unknown } & Record<string, unknown>;
