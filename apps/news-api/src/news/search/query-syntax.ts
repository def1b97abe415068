import { tokensOf } from './text-tokens';

/** Bounds of a `q`: its length, its words (phrases count each of theirs) and its nesting. */
export const MAX_QUERY_LENGTH = 500;
export const MAX_QUERY_WORDS = 20;
export const MAX_QUERY_DEPTH = 8;

/**
 * A parsed query. `words` is one word, or a phrase: these words next to each other in this order
 * (a quoted phrase, or a word that folds to several, like `lithium-ion`).
 */
export type QueryNode =
  | { type: 'words'; words: string[] }
  | { type: 'and'; of: QueryNode[] }
  | { type: 'or'; of: QueryNode[] }
  | { type: 'not'; of: QueryNode };

/** A malformed query: what is wrong and where (1-based, in characters). */
export class QuerySyntaxError extends Error {
  constructor(
    readonly position: number,
    problem: string,
  ) {
    super(`at character ${position}: ${problem}`);
    this.name = 'QuerySyntaxError';
  }
}

type Lexeme =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'phrase'; text: string; at: number }
  | { kind: '(' | ')' | '+' | '-' | 'AND' | 'OR' | 'NOT' | 'end'; at: number };

const OPERATORS = new Set(['AND', 'OR', 'NOT']);
const SPACE = /\s/u;
const OPERAND = 'a word, a "phrase" or "("';

/** The query's lexemes; positions count characters (code points) from 1. */
function lex(query: string): Lexeme[] {
  const chars = Array.from(query);
  const out: Lexeme[] = [];
  let i = 0;
  const escaped = (at: number) => {
    if (i + 1 >= chars.length) throw new QuerySyntaxError(at + 1, 'a "\\" at the end escapes nothing');
    i += 2;
    return chars[i - 1];
  };
  while (i < chars.length) {
    const c = chars[i];
    const at = i;
    if (SPACE.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      out.push({ kind: c, at: at + 1 });
      i++;
    } else if (c === '"') {
      let text = '';
      i++;
      while (i < chars.length && chars[i] !== '"') text += chars[i] === '\\' ? escaped(i) : chars[i++];
      if (i >= chars.length) throw new QuerySyntaxError(at + 1, 'this quote is not closed');
      i++;
      out.push({ kind: 'phrase', text, at: at + 1 });
    } else if (c === '+' || c === '-') {
      // at the start of an operand: inside a word they are part of it (`c++`, `lithium-ion`)
      const next = chars[i + 1];
      if (next === undefined || SPACE.test(next) || next === ')') throw new QuerySyntaxError(at + 1, `"${c}" must be followed directly by ${OPERAND}`);
      out.push({ kind: c, at: at + 1 });
      i++;
    } else {
      let text = '';
      let literal = false;
      while (i < chars.length && !SPACE.test(chars[i]) && chars[i] !== '(' && chars[i] !== ')' && chars[i] !== '"') {
        if (chars[i] === '\\') {
          literal = true;
          text += escaped(i);
        } else text += chars[i++];
      }
      const operator = !literal && OPERATORS.has(text);
      out.push(operator ? { kind: text as 'AND' | 'OR' | 'NOT', at: at + 1 } : { kind: 'word', text, at: at + 1 });
    }
  }
  out.push({ kind: 'end', at: chars.length + 1 });
  return out;
}

const describe = (lexeme: Lexeme) => (lexeme.kind === 'end' ? 'the end of the query' : lexeme.kind === 'word' || lexeme.kind === 'phrase' ? 'a word' : `"${lexeme.kind}"`);

/** Recursive descent over the lexemes: OR binds loosest, then AND (or a space), then NOT, `+` and `-`. */
class Parser {
  private next = 0;
  private words = 0;

  constructor(private readonly lexemes: Lexeme[]) {}

  parse(): QueryNode | undefined {
    const node = this.or(0);
    const rest = this.peek();
    if (rest.kind === ')') throw new QuerySyntaxError(rest.at, '")" closes no "("');
    if (rest.kind !== 'end') throw new QuerySyntaxError(rest.at, `unexpected ${describe(rest)}`);
    return node;
  }

  private peek(): Lexeme {
    return this.lexemes[this.next];
  }

  private take(): Lexeme {
    return this.lexemes[this.next++];
  }

  private startsOperand(lexeme: Lexeme): boolean {
    return lexeme.kind === 'word' || lexeme.kind === 'phrase' || lexeme.kind === '(' || lexeme.kind === '+' || lexeme.kind === '-' || lexeme.kind === 'NOT';
  }

  /** After a binary operator or NOT: what follows must be an operand. */
  private operandAfter(operator: Lexeme): void {
    if (!this.startsOperand(this.peek())) throw new QuerySyntaxError(operator.at, `${operator.kind} needs ${OPERAND} after it, not ${describe(this.peek())}`);
  }

  private or(depth: number): QueryNode | undefined {
    const of = [this.and(depth)];
    while (this.peek().kind === 'OR') {
      this.operandAfter(this.take());
      of.push(this.and(depth));
    }
    return combine('or', of);
  }

  private and(depth: number): QueryNode | undefined {
    const of = [this.unary(depth)];
    for (;;) {
      const lexeme = this.peek();
      if (lexeme.kind === 'AND') this.operandAfter(this.take());
      else if (!this.startsOperand(lexeme)) break;
      of.push(this.unary(depth));
    }
    return combine('and', of);
  }

  private unary(depth: number): QueryNode | undefined {
    const lexeme = this.peek();
    if (lexeme.kind === 'NOT') {
      this.operandAfter(this.take());
      return negate(this.unary(depth));
    }
    if (lexeme.kind === '+' || lexeme.kind === '-') {
      this.take();
      const operand = this.primary(depth);
      return lexeme.kind === '-' ? negate(operand) : operand;
    }
    return this.primary(depth);
  }

  private primary(depth: number): QueryNode | undefined {
    const lexeme = this.take();
    if (lexeme.kind === 'word' || lexeme.kind === 'phrase') return this.wordsOf(lexeme.text, lexeme.at);
    if (lexeme.kind === '(') {
      if (depth >= MAX_QUERY_DEPTH) throw new QuerySyntaxError(lexeme.at, `parentheses nest deeper than ${MAX_QUERY_DEPTH}`);
      if (this.peek().kind === ')') throw new QuerySyntaxError(lexeme.at, `"()" holds nothing: put ${OPERAND} inside`);
      const inner = this.or(depth + 1);
      if (this.take().kind !== ')') throw new QuerySyntaxError(lexeme.at, 'this "(" is not closed');
      return inner;
    }
    if (lexeme.kind === 'AND' || lexeme.kind === 'OR') throw new QuerySyntaxError(lexeme.at, `${lexeme.kind} needs ${OPERAND} before it`);
    if (lexeme.kind === ')') throw new QuerySyntaxError(lexeme.at, '")" closes no "("');
    throw new QuerySyntaxError(lexeme.at, `expected ${OPERAND}, found ${describe(lexeme)}`);
  }

  private wordsOf(text: string, at: number): QueryNode | undefined {
    const words = tokensOf(text);
    this.words += words.length;
    if (this.words > MAX_QUERY_WORDS) throw new QuerySyntaxError(at, `more than ${MAX_QUERY_WORDS} words (phrases count each of theirs)`);
    // punctuation alone (`&`, `.*`) holds no word: it is left out, as search engines' analyzers do
    return words.length ? { type: 'words', words } : undefined;
  }
}

/** An AND or OR of the parts that hold words (nested ones of the same kind flattened). */
function combine(type: 'and' | 'or', parts: Array<QueryNode | undefined>): QueryNode | undefined {
  const of = parts.filter((part): part is QueryNode => part !== undefined).flatMap((part) => (part.type === type ? part.of : [part]));
  if (of.length <= 1) return of[0];
  return { type, of };
}

function negate(node: QueryNode | undefined): QueryNode | undefined {
  if (!node) return undefined;
  return node.type === 'not' ? node.of : { type: 'not', of: node };
}

/**
 * Parses a `q` of the query language (README, "Search"): words, "phrases", `+word`, `-word`,
 * AND, OR, NOT (in capitals) and parentheses; a space between two operands is AND. Throws a
 * QuerySyntaxError naming the position of the first problem, also for a query with no word at all.
 */
export function parseSearchQuery(query: string): QueryNode {
  const chars = Array.from(query).length;
  if (chars > MAX_QUERY_LENGTH) throw new QuerySyntaxError(MAX_QUERY_LENGTH + 1, `the query is longer than ${MAX_QUERY_LENGTH} characters`);
  const node = new Parser(lex(query)).parse();
  if (!node) throw new QuerySyntaxError(1, 'the query has no word to search for (letters or digits)');
  return node;
}
