/**
 * ajv, ajv-formats and ajv's standalone emitter are CommonJS packages whose default exports TypeScript
 * (NodeNext) types as namespaces; this file unwraps them once for the rest of the code.
 */
import ajvModule from 'ajv';
import formatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';

type AjvClass = typeof import('ajv').Ajv;

/** The ajv class. */
export const Ajv: AjvClass = ((ajvModule as any).default ?? ajvModule) as AjvClass;

/** ajv-formats' plugin (date-time, uri...). */
export const addFormats: (ajv: InstanceType<AjvClass>) => unknown = (formatsModule as any).default ?? formatsModule;

/** ajv's standalone code emitter: a module exporting the validators named in `refs` (name to schema id), or the one given. */
export const standaloneCode: (ajv: InstanceType<AjvClass>, refs: Record<string, string> | import('ajv').ValidateFunction) => string =
  (standaloneModule as any).default ?? standaloneModule;
