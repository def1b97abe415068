import { issuesSummary } from './bounds';

/** Details about one rejected input field, returned to clients on validation errors. */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface HttpErrorOptions {
  details?: FieldIssue[];
  headers?: Record<string, string>;
}

/** The one error type for anticipated failures: status, machine-readable code, human message. */
export class HttpError extends Error {
  readonly details?: FieldIssue[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: HttpErrorOptions = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string, details?: FieldIssue[]) =>
  new HttpError(400, 'bad_request', message, { details });

/** A 400 naming the bad fields: the message lists at most MAX_LISTED_ISSUES of them, then "and N more". */
export const validationFailed = (details: FieldIssue[]) => new HttpError(400, 'validation_failed', issuesSummary(details), { details });

export const unauthorized = (message = 'Authentication required', headers?: Record<string, string>) =>
  new HttpError(401, 'unauthorized', message, { headers });

export const forbidden = (message = 'Not allowed') => new HttpError(403, 'forbidden', message);

export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);

export const conflict = (message: string) => new HttpError(409, 'conflict', message);
