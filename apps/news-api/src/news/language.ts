/** The language a publisher's articles are in when neither its configuration nor its feed says. */
export const DEFAULT_LANGUAGE = 'en';

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** `code` when it is an ISO 639-1 language code (two lower-case letters naming a language), else undefined. */
export function languageCode(code: string): string | undefined {
  return /^[a-z]{2}$/.test(code) && names.of(code) !== undefined ? code : undefined;
}
