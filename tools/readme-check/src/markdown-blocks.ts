/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word: `sh`, `console`, `json`, or '' for none. */
  language: string;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;

/** Every fenced code block of `markdown`, in order. */
export function codeBlocks(markdown: string, file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; line: number; language: string; body: string[] } | undefined;
  lines.forEach((line, index) => {
    const fence = FENCE.exec(line);
    if (!open) {
      if (fence) open = { fence: fence[1], line: index + 1, language: fence[2].toLowerCase(), body: [] };
      return;
    }
    if (fence && fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && fence[2] === '') {
      blocks.push({ file, line: open.line, language: open.language, text: open.body.join('\n') });
      open = undefined;
      return;
    }
    open.body.push(line);
  });
  if (open) throw new Error(`${file}:${open.line}: code block never closed`);
  return blocks;
}

/**
 * The convention the README check enforces: ```sh blocks are run, ```console blocks (Docker,
 * Kubernetes, commands that never end) are only shown. Other shell spellings are refused so that
 * no block is skipped by accident.
 */
export const RUN_LANGUAGE = 'sh';
export const SHOWN_LANGUAGE = 'console';
export const REFUSED_SHELL_LANGUAGES = ['bash', 'shell', 'zsh', 'shell-session', 'shellsession'];
