import { registerEnumType } from 'type-graphql';

export enum MediaKind {
  IMAGE = 'image',
  AUDIO = 'audio',
}
registerEnumType(MediaKind, {
  name: 'MediaKind',
  description: 'Whether a media file is an image or a song.',
  valuesConfig: {
    IMAGE: { description: 'A JPEG, PNG, GIF or WebP image.' },
    AUDIO: { description: 'A song: MP3, Ogg (Vorbis or Opus) or WAV.' },
  },
});

export interface MediaFormat {
  /** The extension stored files of this format get. */
  ext: string;
  /** The content type they are stored and served with. */
  mime: string;
  kind: MediaKind;
}

const JPEG: MediaFormat = { ext: 'jpg', mime: 'image/jpeg', kind: MediaKind.IMAGE };
const PNG: MediaFormat = { ext: 'png', mime: 'image/png', kind: MediaKind.IMAGE };
const GIF: MediaFormat = { ext: 'gif', mime: 'image/gif', kind: MediaKind.IMAGE };
const WEBP: MediaFormat = { ext: 'webp', mime: 'image/webp', kind: MediaKind.IMAGE };
const MP3: MediaFormat = { ext: 'mp3', mime: 'audio/mpeg', kind: MediaKind.AUDIO };
const OGG: MediaFormat = { ext: 'ogg', mime: 'audio/ogg', kind: MediaKind.AUDIO };
const WAV: MediaFormat = { ext: 'wav', mime: 'audio/wav', kind: MediaKind.AUDIO };

/** What the content sniffer (`file-type`) may say, mapped to the format we accept it as. */
const BY_SNIFFED_EXT: Record<string, MediaFormat> = {
  jpg: JPEG,
  png: PNG,
  apng: PNG,
  gif: GIF,
  webp: WEBP,
  mp3: MP3,
  ogg: OGG,
  oga: OGG,
  opus: OGG,
  wav: WAV,
};

/** The extensions a client may name a file with, mapped to the one format each stands for. */
const BY_NAME_EXT: Record<string, MediaFormat> = {
  jpg: JPEG,
  jpeg: JPEG,
  png: PNG,
  gif: GIF,
  webp: WEBP,
  mp3: MP3,
  ogg: OGG,
  oga: OGG,
  opus: OGG,
  wav: WAV,
};

export const ACCEPTED_EXTENSIONS = Object.keys(BY_NAME_EXT);

export function formatOfSniffedExt(ext: string | undefined): MediaFormat | undefined {
  return ext ? BY_SNIFFED_EXT[ext] : undefined;
}

export function formatOfFileName(fileName: string): MediaFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? BY_NAME_EXT[fileName.slice(dot + 1).toLowerCase()] : undefined;
}

export function kindOfMime(mime: string): MediaKind {
  return mime.startsWith('audio/') ? MediaKind.AUDIO : MediaKind.IMAGE;
}
