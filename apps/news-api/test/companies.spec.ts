import request from 'supertest';
import { COMPANIES, companyRef, SECTORS } from '../src/companies/companies';
import { companiesMentioned } from '../src/companies/company-tagger';
import { setupNewsApp } from './setup-app';

const ctx = setupNewsApp();

describe('the company list', () => {
  it('holds at least the ASX 200: unique three-character codes, names and GICS sectors', () => {
    expect(COMPANIES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(COMPANIES.map((c) => c.code)).size).toBe(COMPANIES.length);
    for (const sector of SECTORS) expect(COMPANIES.some((c) => c.sector === sector)).toBe(true);
    expect(COMPANIES.find((c) => c.code === 'BHP')).toEqual({ code: 'BHP', name: 'BHP Group', sector: 'Materials' });
  });

  it("gives an article's company as {code, name}; a code since dropped from the list keeps the code as its name", () => {
    expect(companyRef('BHP')).toEqual({ code: 'BHP', name: 'BHP Group' });
    expect(companyRef('ZZZ')).toEqual({ code: 'ZZZ', name: 'ZZZ' });
  });
});

describe('companiesMentioned', () => {
  it.each([
    ['Shares in the miner (ASX: BHP) rose', ['BHP']],
    ['(ASX:CBA) and ASX code: WES', ['CBA', 'WES']],
    ['ASX: ZZZ is not listed here', []],
    ['asx: bhp in lower case is not a ticker', []],
    ['Commonwealth Bank of Australia and Westpac', ['CBA', 'WBC']],
    ['CommBank, Woolworths Group and Coles', ['CBA', 'COL', 'WOW']],
    ['the coles of a story, a reece of cake', []],
    ['Qantas-branded planes; Telstra’s network', ['QAN', 'TLS']],
    ['Qantasair is one word', []],
    ['', []],
  ])('finds %j → %j', (text, codes) => {
    expect(companiesMentioned(text)).toEqual(codes);
  });
});

describe('GET /companies', () => {
  let token = '';
  beforeEach(async () => {
    token = await ctx.tokenFor('user', 'reader@example.com');
  });
  const get = (query = '') => request(ctx.app).get(`/companies${query}`).set('Authorization', `Bearer ${token}`);

  it('lists every company by code', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(COMPANIES.length);
    expect(res.body.data[0]).toEqual({ code: expect.any(String), name: expect.any(String), sector: expect.any(String), aliases: expect.any(Array) });
    const codes = res.body.data.map((c: { code: string }) => c.code);
    expect(codes).toEqual([...codes].sort());
  });

  it('searches codes by prefix and names or aliases by part, in any case, and by sector', async () => {
    expect((await get('?q=cba')).body.data.map((c: { code: string }) => c.code)).toEqual(['CBA']);
    const banks = (await get('?q=bank&sector=Financials')).body.data.map((c: { code: string }) => c.code);
    expect(banks).toEqual(expect.arrayContaining(['BEN', 'BOQ', 'CBA', 'NAB']));
    expect(banks).not.toContain('BHP');
    const commbank = (await get('?q=commbank')).body;
    expect(commbank).toEqual({ total: 1, data: [expect.objectContaining({ code: 'CBA', aliases: ['Commonwealth Bank', 'CommBank'] })] });
    expect((await get('?sector=Utilities')).body.data.every((c: { sector: string }) => c.sector === 'Utilities')).toBe(true);
  });

  it('answers 400 for an unknown sector and 401 when signed out', async () => {
    const res = await get('?sector=Banks');
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual([{ field: 'sector', message: expect.any(String) }]);
    expect((await request(ctx.app).get('/companies')).status).toBe(401);
  });
});
