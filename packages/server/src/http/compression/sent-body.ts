import type { FastifyRequest } from 'fastify';
import type { Coding } from './negotiate-encoding.js';

const sent = Symbol('sent-body');

/** What the compression hook compressed for a request: the plain body, and the bytes sent in `coding`. */
export interface SentBody {
  plain: string | Buffer;
  coding: Coding;
  encoded: Buffer;
}

type Marked = FastifyRequest & { [sent]?: SentBody };

export function noteSentBody(request: FastifyRequest, body: SentBody): void {
  (request as Marked)[sent] = body;
}

/**
 * For hooks that run after the compression (the response cache): the body as it was before, and
 * the coded bytes, so a cached read is kept plain and in that coding and compresses nothing again.
 */
export function sentBodyOf(request: FastifyRequest): SentBody | undefined {
  return (request as Marked)[sent];
}
