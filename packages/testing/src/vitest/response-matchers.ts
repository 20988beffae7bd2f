import { describeResponse, isInspectable, type InspectableResponse } from './describe-response.js';

/** What a matcher returns to `expect.extend`. */
export interface MatcherOutcome {
  pass: boolean;
  message: () => string;
}

/** The shape of a problem document a test expects; `title` and `detail` compare as strings or patterns. */
export interface ExpectedProblem {
  status: number;
  title?: string | RegExp;
  detail?: string | RegExp;
  type?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** `expect(response).toHaveStatus(404)` */
export function toHaveStatus(this: { isNot: boolean }, received: unknown, status: number): MatcherOutcome {
  return check(received, this.isNot, (response) => ({
    pass: response.status === status,
    expectation: `status ${status}`,
    actual: `status ${response.status}`,
  }));
}

/** `expect(response).toHaveHeader('cache-control')`, `…('vary', 'Origin')`, `…('location', /\/items\/\d+$/)` */
export function toHaveHeader(this: { isNot: boolean }, received: unknown, name: string, value?: string | RegExp): MatcherOutcome {
  return check(received, this.isNot, (response) => {
    const actual = response.headers.get(name);
    const pass = actual !== null && (value === undefined || (typeof value === 'string' ? actual === value : value.test(actual)));
    return {
      pass,
      expectation: value === undefined ? `a "${name}" header` : `header ${name}: ${String(value)}`,
      actual: actual === null ? `no "${name}" header` : `${name}: ${actual}`,
    };
  });
}

/** `expect(response).toMatchProblem({ status: 404, title: 'Not Found' })`: an RFC 9457 problem document. */
export function toMatchProblem(this: { isNot: boolean }, received: unknown, expected: ExpectedProblem): MatcherOutcome {
  return check(received, this.isNot, (response) => {
    const expectation = `an application/problem+json body matching ${describeExpected(expected)}`;
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/problem\+json\b/i.test(type)) return { pass: false, expectation, actual: `content-type ${type || '(none)'}` };
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(new TextDecoder().decode(response.body)) as Record<string, unknown>;
    } catch {
      return { pass: false, expectation, actual: 'a body that is not JSON' };
    }
    const mismatches: string[] = [];
    if (response.status !== expected.status) mismatches.push(`status ${response.status}`);
    if (problem['status'] !== expected.status) mismatches.push(`"status" member ${JSON.stringify(problem['status'])}`);
    for (const member of ['title', 'detail', 'type'] as const) {
      const want = expected[member];
      if (want === undefined) continue;
      const got = problem[member];
      const matches = typeof got === 'string' && (typeof want === 'string' ? got === want : want.test(got));
      if (!matches) mismatches.push(`"${member}" ${JSON.stringify(got)}`);
    }
    return { pass: mismatches.length === 0, expectation, actual: mismatches.length === 0 ? 'a matching problem' : mismatches.join(', ') };
  });
}

/** `expect(response).toRedirectTo('/login')`: a 301/302/303/307/308 whose `Location`, resolved against the response's URL, is `url`. */
export function toRedirectTo(this: { isNot: boolean }, received: unknown, url: string): MatcherOutcome {
  return check(received, this.isNot, (response) => {
    const location = response.headers.get('location');
    const base = response.url ?? 'http://localhost/';
    const wanted = new URL(url, base).href;
    const actual = location === null ? null : new URL(location, base).href;
    return {
      pass: REDIRECT_STATUSES.has(response.status) && actual === wanted,
      expectation: `a redirect to ${wanted}`,
      actual: `status ${response.status}${location === null ? ', no location' : `, location ${location}`}`,
    };
  });
}

interface Verdict {
  pass: boolean;
  expectation: string;
  actual: string;
}

function check(received: unknown, isNot: boolean, judge: (response: InspectableResponse) => Verdict): MatcherOutcome {
  if (!isInspectable(received)) {
    return { pass: false, message: () => `expected a TestResponse (status, headers, body), got ${describeValue(received)}` };
  }
  const verdict = judge(received);
  return {
    pass: verdict.pass,
    message: () =>
      `expected the response ${isNot ? 'not ' : ''}to have ${verdict.expectation}, got ${verdict.actual}\n\nresponse:\n${describeResponse(received)}`,
  };
}

function describeExpected(expected: ExpectedProblem): string {
  return `{ ${Object.entries(expected)
    .map(([key, value]) => `${key}: ${value instanceof RegExp ? String(value) : JSON.stringify(value)}`)
    .join(', ')} }`;
}

function describeValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return value.constructor?.name ?? 'an object';
}
