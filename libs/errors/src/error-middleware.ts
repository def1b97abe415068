import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { clip, listedIssues, MAX_ERROR_MESSAGE_CHARS } from './bounds';
import { HttpError, type FieldIssue } from './http-error';
import { toHttpError } from './normalize';

/** What a service's error body is built from. `errorId` is set on 5xx only. */
export interface ErrorDescription {
  status: number;
  code: string;
  message: string;
  details?: FieldIssue[];
  errorId?: string;
}

/** Each service picks its documented error body shape. */
export type ErrorBodyFormat = (error: ErrorDescription) => unknown;

/** Sends the body; lets a service answer XML where it negotiates content. Defaults to JSON. */
export type ErrorSender = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], status: number, body: unknown) => void;

interface Logger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

const sendJson: ErrorSender = (_req, res, status, body) => {
  res.status(status).json(body);
};

export interface ErrorHandlerOptions {
  format: ErrorBodyFormat;
  send?: ErrorSender;
}

/** The one final error middleware of an app. */
export function errorHandler({ format, send = sendJson }: ErrorHandlerOptions): ErrorRequestHandler {
  return (err, req, res, next) => {
    const logger = (req as { log?: Logger }).log;
    const id = (req as { id?: string }).id; // the request id, as on the request's own log line
    if (res.writableEnded) {
      // answered already (the request deadline): the late error is dropped, the connection kept
      logger?.warn({ err, id }, 'error after the answer was sent');
      return;
    }
    if (res.headersSent) {
      logger?.error({ err, id }, 'error after response started');
      return next(err);
    }
    const known = toHttpError(err);
    let description: ErrorDescription;
    if (known) {
      for (const [name, value] of Object.entries(known.headers ?? {})) res.setHeader(name, value);
      // bounded whatever the input: a few kB at most (docs/RESILIENCE.md, "Bounds")
      description = {
        status: known.status,
        code: known.code,
        message: clip(known.message, MAX_ERROR_MESSAGE_CHARS),
        details: known.details && listedIssues(known.details),
      };
      if (known.status >= 500) {
        description.errorId = randomUUID();
        logger?.error({ err, errorId: description.errorId, id }, known.message);
      }
    } else {
      const errorId = randomUUID();
      if (logger) logger.error({ err, errorId, id }, 'unhandled error');
      else console.error(`unhandled error ${errorId}`, err);
      description = { status: 500, code: 'internal_error', message: 'Internal server error', errorId };
    }
    send(req, res, description.status, format(description));
  };
}

/** 404 for any path no route matched. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, 'not_found', `No route for ${req.method} ${req.path}`));
};
