import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FONT_CATALOGUE } from '../../web/src/common/fonts/font-catalogue.js';
import { MESSAGE_LOCATIONS, MessageLocation } from '../../server/src/modules/catalogue/e-greeting-card.entity.js';
import { CARD_HEIGHT, CARD_WIDTH, cardCover, decoratedCells, renderPicture, wrapWords } from '../../server/src/demo/demo-art.js';
import { DEMO_SAMPLE_RATE, WAV_HEADER_BYTES, encodeWav, frequencyOf, renderTune, tuneToWav } from '../../server/src/demo/demo-audio.js';
import { DEMO_CARDS, DEMO_SONGS } from '../../server/src/demo/demo-catalogue.js';

describe('the WAV writer', () => {
  it('writes a RIFF/WAVE header for 16-bit PCM mono, then the samples', () => {
    const samples = Float32Array.from([0, 0.5, -0.5, 1, -1, 2]);
    const wav = encodeWav(samples, 8000);
    expect(wav.length).toBe(WAV_HEADER_BYTES + samples.length * 2);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt32LE(16)).toBe(16);
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(28)).toBe(16000);
    expect(wav.readUInt16LE(32)).toBe(2);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(samples.length * 2);
    const read = Array.from({ length: samples.length }, (_, i) => wav.readInt16LE(WAV_HEADER_BYTES + i * 2));
    expect(read).toEqual([0, 16384, -16383, 32767, -32767, 32767]); // out-of-range samples are clipped
  });

  it('plays notes at their pitch', () => {
    expect(frequencyOf('A4')).toBeCloseTo(440);
    expect(frequencyOf('C4')).toBeCloseTo(261.63, 1);
    expect(frequencyOf('F#5')).toBeCloseTo(739.99, 1);
    expect(frequencyOf('R')).toBeNull();
    expect(() => frequencyOf('H2')).toThrow(/pitch/);
  });

  it('makes every demo song a 3 to 6 second WAV the media library recognises, each a different tune', async () => {
    const seen = new Set<string>();
    for (const song of Object.values(DEMO_SONGS)) {
      const wav = tuneToWav(song.tune);
      const seconds = (wav.length - WAV_HEADER_BYTES) / 2 / DEMO_SAMPLE_RATE;
      expect(seconds, song.title).toBeGreaterThanOrEqual(3);
      expect(seconds, song.title).toBeLessThanOrEqual(6);
      expect((await fileTypeFromBuffer(wav))?.ext).toBe('wav');
      seen.add(song.tune.melody);
      const samples = renderTune(song.tune);
      const peak = samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
      expect(peak).toBeGreaterThan(0.5);
      expect(peak).toBeLessThanOrEqual(0.8 + 1e-6);
      expect(Math.abs(samples.at(-1)!)).toBeLessThan(0.01); // faded out, no click at the end
    }
    expect(seen.size).toBe(Object.keys(DEMO_SONGS).length);
  });
});

describe('the demo pictures', () => {
  it('leave the message corner of the inside page free', () => {
    const cell: Record<MessageLocation, [number, number]> = {
      'top-left': [0, 0], 'top-center': [1, 0], 'top-right': [2, 0], 'middle-left': [0, 1],
      'middle-center': [1, 1], 'middle-right': [2, 1], 'bottom-left': [0, 2], 'bottom-right': [2, 2],
    };
    for (const location of MESSAGE_LOCATIONS) {
      const cells = decoratedCells(location);
      expect(cells.length).toBeGreaterThanOrEqual(3);
      const [mc, mr] = cell[location];
      for (const [c, r] of cells) expect(Math.max(Math.abs(c - mc), Math.abs(r - mr)), `${location} ${c},${r}`).toBeGreaterThanOrEqual(1);
    }
  });

  it('render a cover as a small portrait WebP', async () => {
    const card = DEMO_CARDS[0];
    const bytes = await renderPicture(cardCover({ scene: card.scene, headline: card.headline, title: card.name }));
    expect((await fileTypeFromBuffer(bytes))?.ext).toBe('webp');
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect(bytes.length).toBeLessThan(80_000);
  });

  it('wrap long greetings at spaces', () => {
    expect(wrapWords('With All My Love', 16)).toEqual(['With All My Love']);
    expect(wrapWords('Season’s Greetings to you all', 16)).toEqual(['Season’s', 'Greetings to you', 'all']);
  });
});

describe('the demo cards', () => {
  it('use fonts of the font catalogue, varied, and varied message placements', () => {
    const fonts = new Set(FONT_CATALOGUE.map((f) => f.name));
    for (const card of DEMO_CARDS) expect(fonts.has(card.fontName), card.fontName).toBe(true);
    expect(new Set(DEMO_CARDS.map((c) => c.fontName)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(DEMO_CARDS.map((c) => c.messageLocation)).size).toBeGreaterThanOrEqual(5);
    for (const card of DEMO_CARDS) {
      expect(card.songs.length).toBeGreaterThanOrEqual(1);
      expect(card.songs.length).toBeLessThanOrEqual(3);
      expect(card.extras.length).toBeGreaterThanOrEqual(1);
      expect(card.extras.length).toBeLessThanOrEqual(3);
    }
  });
});
