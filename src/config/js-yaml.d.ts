/** The part of js-yaml 4 (shipped without types) that src/config/read-plain-yaml.ts uses. */
declare module 'js-yaml' {
  interface TypeOptions {
    kind: 'scalar' | 'sequence' | 'mapping';
    resolve?: (data: any) => boolean;
    construct?: (data: any) => any;
  }
  export class Type {
    constructor(tag: string, options: TypeOptions);
  }
  export class Schema {
    extend(types: { implicit?: Type[]; explicit?: Type[] }): Schema;
  }
  export const FAILSAFE_SCHEMA: Schema;
  export const types: { null: Type; bool: Type };
  export function load(text: string, options?: { schema?: Schema; json?: boolean }): unknown;
}
