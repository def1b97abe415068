import { errorObjectWithStatusSchema, type ErrorSender } from '@lib/errors';
import type { z } from '@lib/validation';
import { negotiate, toXml } from '@lib/http';

/** CRM errors (`errorObjectWithStatusBody`) answer `<error>…</error>` when the client asked for XML, JSON otherwise. */
export const sendCrmError: ErrorSender = (req, res, status, body) => {
  let xml = false;
  try {
    xml = negotiate(req) === 'xml';
  } catch {
    // an Accept naming neither JSON nor XML still gets a readable error
  }
  res.status(status);
  if (xml) res.type('application/xml').send(toXml((body as z.infer<typeof errorObjectWithStatusSchema>).error, 'error'));
  else res.json(body);
};
