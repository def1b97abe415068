/**
 * How the official clients encode what they send, so the replay suites put the same bytes on the
 * wire (the clients' code is not part of this repository; each function names what it mirrors).
 */

const asciiOnly = (json: string) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** PHP `json_encode($data)`: `/` escaped as `\/`, non-ASCII as `\uXXXX`, no spaces. */
export const phpJson = (value: unknown): string => asciiOnly(JSON.stringify(value)).replace(/\//g, '\\/');

/** PHP `urlencode`: everything but letters, digits and `-_.` percent-encoded, space as `+`. */
export const phpUrlencode = (text: string): string =>
  encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** The PHP README's form building: `key=urlencode(value)&…` with the trailing `&` trimmed. */
export const phpForm = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([key, value]) => `${key}=${phpUrlencode(value)}`)
    .join('&');

/** Python `json.dumps(data)` (what `requests` sends for `data=json.dumps(...)`): `", "` and `": "` separators, ASCII only. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${asciiOnly(JSON.stringify(key))}: ${pythonJson(item)}`)
      .join(', ')}}`;
  }
  return asciiOnly(JSON.stringify(value));
}

/** `Authorization: Basic …` as curl, requests and the Node client build it from email and API key. */
export const basic = (email: string, apiKey: string) => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
