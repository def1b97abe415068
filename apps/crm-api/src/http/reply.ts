import { send, type MediaKind } from '@lib/http';
import type { Request, Response } from 'express';

/** Sends one object or a list as JSON or XML per Accept (convention 3). */
export function reply(req: Request, res: Response, body: unknown, xml: { root: string; item?: string; fallback?: MediaKind }): void {
  send(req, res, 200, body, xml);
}

/** 204 with an empty body: empty lists, unknown ids, deletes and tag calls (spec). */
export function sendNoContent(res: Response): void {
  res.status(204).end();
}
