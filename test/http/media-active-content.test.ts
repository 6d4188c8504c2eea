import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { htmlAsPng, svg, text } from '../helpers/media-fixtures.js';

/**
 * An instance that allows HTML and XML uploads still never serves them as pages of its own
 * origin: attachment, sandbox CSP, nosniff. Plain text stays inline (passive).
 */
describe('active content an instance chose to allow', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vellum-media-active-'));
    t = await startTestApp({ media: { dir, allowedTypes: ['image/', 'text/', 'application/xml'] } });
    admin = await t.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function upload(file: Buffer, name: string) {
    const form = new FormData();
    form.append('file', new Blob([file]), name);
    const req = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await t.request({
      method: 'POST',
      url: '/api/media',
      payload: Buffer.from(await req.arrayBuffer()),
      headers: { 'content-type': req.headers.get('content-type') as string },
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { _id: string; filename: string; mimeType: string; url: string };
  }

  it('stores HTML under its sniffed type, whatever it was called, and serves it as a sandboxed download', async () => {
    const m = await upload(htmlAsPng(), 'photo.png');
    expect(m.mimeType).toBe('text/html');
    expect(m.filename).toBe(`${m._id}.html`);
    const res = await t.request({ method: 'GET', url: m.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${m.filename}"`);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves XML and SVG the same way, and plain text inline', async () => {
    const xml = await upload(Buffer.from('<?xml version="1.0"?><note><to>x</to></note>'), 'note.xml');
    expect(xml.mimeType).toBe('application/xml');
    const xmlRes = await t.request({ method: 'GET', url: xml.url });
    expect(xmlRes.headers['content-disposition']).toMatch(/^attachment/);
    const logo = await upload(svg(), 'logo.svg');
    expect((await t.request({ method: 'GET', url: logo.url })).headers['content-disposition']).toMatch(/^attachment/);
    const notes = await upload(text(), 'notes.txt');
    expect(notes.mimeType).toBe('text/plain');
    const txt = await t.request({ method: 'GET', url: notes.url });
    expect(txt.headers['content-type']).toMatch(/^text\/plain/);
    expect(txt.headers['content-disposition']).toBeUndefined();
    expect(txt.headers['x-content-type-options']).toBe('nosniff');
  });
});
