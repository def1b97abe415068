import type { ErrorBodyFormat, ErrorSender } from '@lib/errors';
import { negotiate, toXml } from '@lib/http';

interface CrmErrorBody {
  error: { status: number; code: string; message: string };
}

/** The CRM error body: `{ error: { status, code, message, fields?, error_id? } }`. */
export const crmErrorBody: ErrorBodyFormat = ({ status, code, message, details, errorId }) => ({
  error: {
    status,
    code,
    message,
    ...(details && { fields: details }),
    ...(errorId && { error_id: errorId }),
  },
});

/** Errors answer `<error>…</error>` when the client asked for XML, JSON otherwise. */
export const sendCrmError: ErrorSender = (req, res, status, body) => {
  let xml = false;
  try {
    xml = negotiate(req) === 'xml';
  } catch {
    // an Accept naming neither JSON nor XML still gets a readable error
  }
  res.status(status);
  if (xml) res.type('application/xml').send(toXml((body as CrmErrorBody).error, 'error'));
  else res.json(body);
};
