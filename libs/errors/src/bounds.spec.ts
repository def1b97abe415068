import express from 'express';
import request from 'supertest';
import { clip, issuesSummary, listedIssues, MAX_LISTED_ISSUES } from './bounds';
import { errorHandler } from './error-middleware';
import { HttpError, validationFailed } from './http-error';

const many = (n: number, field = (i: number) => `ids.${i}`) => Array.from({ length: n }, (_, i) => ({ field: field(i), message: 'must be a positive whole number' }));

describe('error body bounds', () => {
  it('clip leaves short text alone and cuts long text with an ellipsis, never inside a surrogate pair', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    const cut = clip(`${'x'.repeat(8)}😀😀😀`, 10);
    expect(cut).toBe(`${'x'.repeat(8)}…`);
    expect(cut.length).toBeLessThanOrEqual(10);
  });

  it('lists at most 20 issues and counts the rest', () => {
    const issues = many(150_000);
    expect(listedIssues(issues)).toHaveLength(MAX_LISTED_ISSUES);
    const summary = issuesSummary(issues);
    expect(summary.startsWith('ids.0: must be a positive whole number; ids.1:')).toBe(true);
    expect(summary.endsWith('; and 149980 more')).toBe(true);
    expect(summary.length).toBeLessThan(2_000);
    expect(issuesSummary(many(3))).not.toContain('more');
  });

  it('validationFailed keeps its message a few kB for any number of issues and any field length', () => {
    const err = validationFailed(many(100_000, (i) => `${'k'.repeat(300_000)}${i}`));
    expect(err.message.length).toBeLessThan(8_000);
    expect(err.message).toContain('and 99980 more');
  });

  it('the error middleware bounds every error body, whatever threw it', async () => {
    const app = express();
    app.get('/huge', () => {
      throw new HttpError(400, 'bad_request', `No contact has the email ${'e'.repeat(1_000_000)}`, { details: many(50_000, () => 'f'.repeat(10_000)) });
    });
    app.use(errorHandler({ format: (e) => ({ error: { code: e.code, message: e.message, fields: e.details } }) }));
    const res = await request(app).get('/huge');
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(12_000);
    expect(res.body.error.fields).toHaveLength(MAX_LISTED_ISSUES);
    expect(res.body.error.fields[0].field).toHaveLength(100);
    expect(res.body.error.message.startsWith('No contact has the email eee')).toBe(true);
  });
});
