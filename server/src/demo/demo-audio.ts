/**
 * Short tunes for the demo cards, synthesised note by note and written as WAV (16-bit PCM, mono):
 * the media library accepts WAV as it is, and a few seconds of it stay small.
 */

export const DEMO_SAMPLE_RATE = 22050;
export const WAV_HEADER_BYTES = 44;

/**
 * A tune: `melody` (and an optional softer `bass`) as space-separated notes `pitch[/beats]`, where
 * pitch is scientific notation (`C4`, `F#5`, `Bb3`) or `R` for a rest and beats default to 1.
 */
export interface Tune {
  bpm: number;
  melody: string;
  bass?: string;
}

interface Note {
  frequency: number | null;
  start: number;
  length: number;
}

const SEMITONES: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** The frequency of a pitch in equal temperament (A4 = 440 Hz); null for a rest. */
export function frequencyOf(pitch: string): number | null {
  if (pitch === 'R') return null;
  const match = /^([A-G])(#|b)?(-?\d)$/.exec(pitch);
  if (!match) throw new Error(`Not a pitch: "${pitch}"`);
  const midi = 12 * (Number(match[3]) + 1) + SEMITONES[match[1]] + (match[2] === '#' ? 1 : match[2] === 'b' ? -1 : 0);
  return 440 * 2 ** ((midi - 69) / 12);
}

function parseVoice(text: string, secondsPerBeat: number): Note[] {
  const notes: Note[] = [];
  let at = 0;
  for (const token of text.trim().split(/\s+/)) {
    const [pitch, beats = '1'] = token.split('/');
    const length = Number(beats) * secondsPerBeat;
    notes.push({ frequency: frequencyOf(pitch), start: at, length });
    at += length;
  }
  return notes;
}

/**
 * A plucked, slightly bell-like tone: a quick attack, an exponential decay and upper partials that
 * fade faster than the fundamental, so that consecutive notes blend instead of clicking.
 */
function addNote(out: Float32Array, note: Note, gain: number, rate: number): void {
  if (note.frequency === null) return;
  const attack = 0.012;
  const release = 0.09;
  const ring = note.length + release;
  const first = Math.floor(note.start * rate);
  const count = Math.min(Math.floor(ring * rate), out.length - first);
  const w = 2 * Math.PI * note.frequency;
  for (let i = 0; i < count; i++) {
    const t = i / rate;
    const envelope =
      Math.min(1, t / attack) * Math.exp(-2.2 * t) * (t > note.length ? Math.max(0, 1 - (t - note.length) / release) : 1);
    const tone = Math.sin(w * t) + 0.32 * Math.exp(-4 * t) * Math.sin(2 * w * t) + 0.12 * Math.exp(-7 * t) * Math.sin(3 * w * t);
    out[first + i] += gain * envelope * tone;
  }
}

/** Renders a tune to samples in [-1, 1], normalised and faded out at the very end. */
export function renderTune(tune: Tune, rate = DEMO_SAMPLE_RATE): Float32Array {
  const secondsPerBeat = 60 / tune.bpm;
  const melody = parseVoice(tune.melody, secondsPerBeat);
  const bass = tune.bass ? parseVoice(tune.bass, secondsPerBeat) : [];
  const end = Math.max(...[...melody, ...bass].map((n) => n.start + n.length));
  const samples = new Float32Array(Math.ceil((end + 0.35) * rate));
  for (const note of melody) addNote(samples, note, 1, rate);
  for (const note of bass) addNote(samples, note, 0.45, rate);

  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  const scale = peak > 0 ? 0.8 / peak : 0;
  const fade = Math.floor(0.3 * rate);
  for (let i = 0; i < samples.length; i++) {
    const tail = samples.length - i;
    samples[i] *= scale * (tail < fade ? tail / fade : 1);
  }
  return samples;
}

/** A RIFF/WAVE file of 16-bit PCM mono samples. */
export function encodeWav(samples: Float32Array, rate = DEMO_SAMPLE_RATE): Buffer {
  const dataBytes = samples.length * 2;
  const file = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  file.write('RIFF', 0, 'ascii');
  file.writeUInt32LE(WAV_HEADER_BYTES - 8 + dataBytes, 4);
  file.write('WAVE', 8, 'ascii');
  file.write('fmt ', 12, 'ascii');
  file.writeUInt32LE(16, 16); // size of the PCM format chunk
  file.writeUInt16LE(1, 20); // PCM
  file.writeUInt16LE(1, 22); // mono
  file.writeUInt32LE(rate, 24);
  file.writeUInt32LE(rate * 2, 28); // bytes per second
  file.writeUInt16LE(2, 32); // bytes per sample frame
  file.writeUInt16LE(16, 34); // bits per sample
  file.write('data', 36, 'ascii');
  file.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) {
    const clamped = Math.max(-1, Math.min(1, samples[i]));
    file.writeInt16LE(Math.round(clamped * 32767), WAV_HEADER_BYTES + i * 2);
  }
  return file;
}

/** The WAV file of a tune. */
export function tuneToWav(tune: Tune, rate = DEMO_SAMPLE_RATE): Buffer {
  return encodeWav(renderTune(tune, rate), rate);
}
