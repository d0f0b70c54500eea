/** Google's error envelope `{error:{code,message,status,details?}}`. */
export function createGoogleError(code: number, status: string, message: string, details?: unknown[]): unknown {
  return { error: details ? { code, message, status, details } : { code, message, status } };
}
