import { jsonDepth, messages } from '@petreg/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../errors.js';

/** Nesting no request needs (settings nest 8 deep inside 2); deeper JSON reaches no schema. */
export const jsonDepthLimit = 16;

/**
 * Values no form holds: user settings, the largest, fit 8 KB. A body within its byte limit can still
 * hold a hundred thousand tiny values (a photo route takes 5 MB), and parsing those costs far more
 * than parsing one long image string, so they are counted, cheaply, before parsing.
 */
export const jsonValuesLimit = 20_000;

/** Counts `{`, `[` and `,` (inside strings too: an over-count only), stopping past `limit`. */
export function roughValueCount(text: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0x7b {, 0x5b [, 0x2c ,
    if ((c === 0x7b || c === 0x5b || c === 0x2c) && ++count > limit) return count;
  }
  return count;
}

/**
 * The JSON body parser of the API. Every JSON body the API takes is a form: an object. `null`, a
 * list or a bare value is refused, as are nesting and value counts far beyond any form, before a
 * schema or a handler walks the body.
 */
export function useJsonBodyParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (roughValueCount(text, jsonValuesLimit) > jsonValuesLimit) return done(new AppError(413, [messages.requestTooLarge]), undefined);
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      if (!isObject || jsonDepth(value, jsonDepthLimit) > jsonDepthLimit) return done(badRequest(messages.invalidRequest), undefined);
      done(null, value);
    });
  });
}
