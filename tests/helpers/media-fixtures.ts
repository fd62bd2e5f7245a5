import { expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { TestApp } from './test-app.js';

/** A file to upload: its name as the client sends it and its bytes. */
export interface FixtureFile {
  name: string;
  data: Buffer;
  type?: string;
}

export const png = (width = 400, height = 300): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

export const jpeg = (width = 400, height = 300): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 140, b: 90 } } }).jpeg().toBuffer();

export const gif = (width = 64, height = 48): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 255 } } }).gif().toBuffer();

export const webp = (width = 200, height = 100): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 255, g: 200, b: 0 } } }).webp().toBuffer();

/** A real PCM WAV: 16-bit mono at 8 kHz with a square wave, `seconds` long. */
export function wav(seconds = 0.5): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.floor(i / 20) % 2 ? 8000 : -8000, i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** An ID3v2-tagged MP3 of a few silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each). */
export function mp3(frames = 8): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64], 0);
  return Buffer.concat([id3, ...Array.from({ length: frames }, () => frame)]);
}

/** The start of an Ogg Vorbis stream: a page header and the vorbis identification packet. */
export function ogg(): Buffer {
  const page = Buffer.alloc(28);
  page.write('OggS', 0, 'ascii');
  page[5] = 0x02; // beginning of stream
  page[26] = 1; // one segment
  page[27] = 30; // of 30 bytes
  const packet = Buffer.alloc(30);
  packet[0] = 0x01;
  packet.write('vorbis', 1, 'ascii');
  return Buffer.concat([page.subarray(0, 28), packet, Buffer.alloc(200)]);
}

/** HTML, to be sent under an image name. */
export const html = (): Buffer => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/** A multipart body with the repeated field `files` (or another field). */
export function filesForm(files: FixtureFile[], field = 'files'): FormData {
  const form = new FormData();
  for (const file of files) form.append(field, new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}

export async function uploadRest(app: TestApp, pathname: string, files: FixtureFile[], token?: string): Promise<Response> {
  return app.request(pathname, { method: 'POST', body: filesForm(files), token });
}

/**
 * A GraphQL multipart request (operations, map, files) as the upload link sends it. `files` fill
 * the `files` variable in order.
 */
export async function uploadGraphQL(
  app: TestApp,
  query: string,
  variables: Record<string, unknown>,
  files: FixtureFile[],
  token?: string,
): Promise<{ status: number; body: { data?: any; errors?: { message: string; extensions?: { code?: string; field?: string } }[] } }> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { ...variables, files: files.map(() => null) } }));
  form.append('map', JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [`variables.files.${i}`]]))));
  files.forEach((file, i) => form.append(String(i), new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name));
  const headers = new Headers({ 'Apollo-Require-Preflight': 'true' });
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as any };
}

/** The names in DATA_DIR/uploads (stored originals and thumbnails). */
export function storedNames(app: TestApp): string[] {
  const dir = path.join(app.dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

/** The files left in this process's staging folder (should be none once a request has finished). */
export function stagedNames(app: TestApp): string[] {
  const dir = app.services.media.stagingFolder;
  expect(path.dirname(dir)).toBe(path.join(app.dataDir, 'tmp', 'uploads'));
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [];
}

export function storedPath(app: TestApp, filePath: string): string {
  return path.join(app.dataDir, filePath);
}
