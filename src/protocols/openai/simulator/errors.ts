/** OpenAI's error envelope `{error:{message,type,param,code}}`. */
export function createOpenAIError(
  message: string,
  type = 'invalid_request_error',
  param: string | null = null,
  code: string | null = null,
): { error: { message: string; type: string; param: string | null; code: string | null } } {
  return { error: { message, type, param, code } };
}

/** The 401 OpenAI answers to a wrong key (fixtures/openai/error-401.json), the key masked as OpenAI does. */
export function createInvalidKeyError(key: string): ReturnType<typeof createOpenAIError> {
  const masked = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : '*'.repeat(key.length);
  return createOpenAIError(
    `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    'invalid_request_error',
    null,
    'invalid_api_key',
  );
}

/** The 401 OpenAI answers when no key is sent. */
export const MISSING_KEY_ERROR = createOpenAIError(
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
);

/** The 400 OpenAI answers to a body that is not JSON. */
export const INVALID_JSON_ERROR = createOpenAIError(
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
);

/** The 400 for a missing required body field. */
export function createMissingParamError(param: string): ReturnType<typeof createOpenAIError> {
  return createOpenAIError(`Missing required parameter: '${param}'.`, 'invalid_request_error', param, 'missing_required_parameter');
}

/** OpenAI's error body for a status (used by status faults without a body). */
export function createOpenAIStatusError(status: number): ReturnType<typeof createOpenAIError> {
  switch (status) {
    case 401:
      return createInvalidKeyError('sk-simulated-wrong-key');
    case 403:
      return createOpenAIError('You are not allowed to sample from this model', 'invalid_request_error', null, 'model_not_found');
    case 404:
      return createOpenAIError('The model `simulated` does not exist or you do not have access to it.', 'invalid_request_error', null, 'model_not_found');
    case 429:
      return createOpenAIError(
        'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
        'requests',
        null,
        'rate_limit_exceeded',
      );
    case 500:
      return createOpenAIError('The server had an error while processing your request. Sorry about that!', 'server_error');
    case 503:
      return createOpenAIError('The engine is currently overloaded, please try again later.', 'server_error');
    default:
      return status >= 500
        ? createOpenAIError('The server had an error while processing your request. Sorry about that!', 'server_error')
        : createOpenAIError(`Simulated error with status ${status}.`);
  }
}
