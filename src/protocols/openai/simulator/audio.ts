/**
 * OpenAI audio endpoints. No fixture transcripts exist for these; shapes follow the OpenAI API reference
 * (as typed by the `openai` SDK: `Transcription`, `TranscriptionVerbose`, usage `tokens` / `duration`).
 * The bytes are deterministic: silent MP3 frames (one per input word), WAV or raw PCM.
 */
import type { ServerResponse } from 'node:http';
import { createMp3, createWav } from '../../../simulators/media.ts';
import { readMultipart } from '../../../simulators/multipart.ts';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, sendText, type SimRequest } from '../../../simulators/sim-server.ts';
import { countTokens, isObject, toText } from '../../../simulators/text.ts';

/** Content types of the speech formats; opus/aac/flac carry the MP3 frames (not real encodings). */
const SPEECH_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg', opus: 'audio/opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm',
};

/** POST /v1/audio/speech: `{model, input, voice, response_format?}` -> audio bytes (default audio/mpeg). */
export function handleSpeech(_state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  for (const param of ['model', 'input', 'voice']) if (body[param] === undefined) return sendJson(res, 400, createMissingParamError(param));
  const format = body.response_format ?? 'mp3';
  const type = SPEECH_TYPES[format];
  if (!type) return sendJson(res, 400, createOpenAIError(`Invalid value: '${format}'. Supported values are: 'mp3', 'opus', 'aac', 'flac', 'wav', and 'pcm'.`, 'invalid_request_error', 'response_format', 'invalid_value'));
  const words = Math.max(1, countTokens(toText(body.input)));
  const bytes = format === 'wav' ? createWav(words * 2400) : format === 'pcm' ? Buffer.alloc(words * 4800) : createMp3(words);
  sendText(res, 200, bytes, type);
}

/** POST /v1/audio/transcriptions. */
export function handleTranscriptions(state: OpenAIState, req: SimRequest, res: ServerResponse): Promise<void> {
  return answerAudioText(state, req, res, 'transcribe');
}

/** POST /v1/audio/translations. */
export function handleTranslations(state: OpenAIState, req: SimRequest, res: ServerResponse): Promise<void> {
  return answerAudioText(state, req, res, 'translate');
}

/**
 * Multipart `file` + `model` (+ `response_format`: json (default), text, srt, vtt, verbose_json).
 * Text: `Transcript of <filename> (<bytes> bytes)` or `Translation of ...`; duration = bytes / 16000 s (min 1).
 * Usage: whisper-1 reports `{type:"duration",seconds}`, other models `{type:"tokens",...}`.
 */
async function answerAudioText(state: OpenAIState, req: SimRequest, res: ServerResponse, task: 'transcribe' | 'translate'): Promise<void> {
  let form;
  try {
    form = await readMultipart(req);
  } catch {
    return sendJson(res, 400, createOpenAIError('Invalid Content-Type header (expected multipart/form-data).'));
  }
  state.multipart.push({ path: req.path, fields: form.fields, files: form.files.map(({ data, ...f }) => ({ ...f, size: data.length })) });
  const file = form.files.find((f) => f.field === 'file');
  if (!file) return sendJson(res, 400, createMissingParamError('file'));
  const model = form.fields.model;
  if (model === undefined) return sendJson(res, 400, createMissingParamError('model'));
  const text = `${task === 'transcribe' ? 'Transcript' : 'Translation'} of ${file.filename} (${file.data.length} bytes)`;
  const seconds = Math.max(1, Math.ceil(file.data.length / 16000));
  const words = countTokens(text);
  const usage = model === 'whisper-1'
    ? { type: 'duration', seconds }
    : { type: 'tokens', input_tokens: seconds * 10, output_tokens: words, total_tokens: seconds * 10 + words, input_token_details: { text_tokens: 0, audio_tokens: seconds * 10 } };
  switch (form.fields.response_format ?? 'json') {
    case 'json':
      return sendJson(res, 200, task === 'translate' ? { text } : { text, usage });
    case 'text':
      return sendText(res, 200, `${text}\n`, 'text/plain; charset=utf-8');
    case 'srt':
      return sendText(res, 200, `1\n00:00:00,000 --> 00:00:${String(seconds).padStart(2, '0')},000\n${text}\n\n`, 'text/plain; charset=utf-8');
    case 'vtt':
      return sendText(res, 200, `WEBVTT\n\n00:00:00.000 --> 00:00:${String(seconds).padStart(2, '0')}.000\n${text}\n\n`, 'text/plain; charset=utf-8');
    case 'verbose_json':
      return sendJson(res, 200, {
        task, language: form.fields.language ?? 'english', duration: seconds, text,
        segments: [{ id: 0, seek: 0, start: 0, end: seconds, text, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0.01 }],
        ...(task === 'transcribe' ? { usage: { type: 'duration', seconds } } : {}),
      });
    default:
      return sendJson(res, 400, createOpenAIError(`Invalid value: '${form.fields.response_format}'.`, 'invalid_request_error', 'response_format', 'invalid_value'));
  }
}
