import { beforeAll, describe, expect, it } from 'vitest';
import '../src/vitest/index.js';
import { createTestClient, type TestClient, type TestResponse } from '../src/index.js';
import { sampleApp } from './support/sample-app.js';

let client: TestClient;
let hello: TestResponse;
let missing: TestResponse;
let redirect: TestResponse;

beforeAll(async () => {
  client = createTestClient(sampleApp().kernel);
  hello = await client.get('/hello');
  missing = await client.get('/missing', { headers: { accept: 'application/json' } });
  redirect = await client.get('/redirect/303');
});

/** The message vitest shows when `assertion` fails. */
function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed');
}

describe('toHaveStatus', () => {
  it('passes on the status, and fails showing the response', () => {
    expect(hello).toHaveStatus(200);
    expect(missing).not.toHaveStatus(200);
    const message = failureOf(() => expect(missing).toHaveStatus(200));
    expect(message).toContain('expected the response to have status 200, got status 404');
    expect(message).toContain('HTTP 404  (http://localhost/missing)');
    expect(message).toContain('content-type: application/problem+json');
    expect(message).toContain('"title":"Not Found"');
    expect(failureOf(() => expect(hello).not.toHaveStatus(200))).toContain('expected the response not to have status 200');
  });

  it('shows the first 500 bytes of a long body and says how much is left out', async () => {
    const long = await client.post('/inspect', { body: 'x'.repeat(2_000) });
    const message = failureOf(() => expect(long).toHaveStatus(201));
    expect(message).toContain(`${'x'.repeat(100)}`);
    expect(message).not.toContain('x'.repeat(600));
    expect(message).toMatch(/… \(\d+ more bytes\)/);
  });

  it('says what it got when it is not a response', () => {
    expect(failureOf(() => expect({ status: 200 }).toHaveStatus(200))).toBe('expected a TestResponse (status, headers, body), got Object');
  });
});

describe('toHaveHeader', () => {
  it('checks presence, an exact value or a pattern', () => {
    expect(hello).toHaveHeader('content-length');
    expect(hello).toHaveHeader('Content-Type', 'text/plain; charset=UTF-8');
    expect(hello).toHaveHeader('content-type', /^text\/plain/);
    expect(hello).not.toHaveHeader('location');
    expect(failureOf(() => expect(hello).toHaveHeader('location'))).toContain(
      'expected the response to have a "location" header, got no "location" header',
    );
    expect(failureOf(() => expect(hello).toHaveHeader('content-type', 'application/json'))).toContain(
      'to have header content-type: application/json, got content-type: text/plain; charset=UTF-8',
    );
  });
});

describe('toMatchProblem', () => {
  it('matches an RFC 9457 problem document by status, title and detail', () => {
    expect(missing).toMatchProblem({ status: 404 });
    expect(missing).toMatchProblem({ status: 404, title: 'Not Found', detail: 'Not Found' });
    expect(missing).toMatchProblem({ status: 404, title: /^Not/ });
    const wrong = failureOf(() => expect(missing).toMatchProblem({ status: 405, title: 'Method Not Allowed' }));
    expect(wrong).toContain('to have an application/problem+json body matching { status: 405, title: "Method Not Allowed" }');
    expect(wrong).toContain('got status 404, "status" member 404, "title" "Not Found"');
    expect(failureOf(() => expect(hello).toMatchProblem({ status: 200 }))).toContain('got content-type text/plain; charset=UTF-8');
  });
});

describe('toRedirectTo', () => {
  it('matches the Location resolved against the response URL', () => {
    expect(redirect).toRedirectTo('/inspect?from=303');
    expect(redirect).toRedirectTo('http://localhost/inspect?from=303');
    expect(hello).not.toRedirectTo('/inspect');
    expect(failureOf(() => expect(redirect).toRedirectTo('/login'))).toContain(
      'expected the response to have a redirect to http://localhost/login, got status 303, location /inspect?from=303',
    );
    expect(failureOf(() => expect(hello).toRedirectTo('/login'))).toContain('got status 200, no location');
  });
});
