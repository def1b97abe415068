/** `text` with every regular-expression metacharacter escaped: matched literally in a `$regex` or a RegExp. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
