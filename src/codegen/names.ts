/** The export name of a schema id in generated/validators.mjs (`chat-completions` -> `chatCompletions`). */
export function getValidatorName(schemaId: string): string {
  return schemaId.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
