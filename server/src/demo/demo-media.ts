import type { GeneratedFile } from '../modules/media/media.service.js';
import { cardBack, cardCover, cardIllustration, cardInside, cardPattern, renderPicture, type CardArt } from './demo-art.js';
import { SEASONS, albumBack, albumCover, albumRecord, albumWaves, blogEnvelope, blogWelcome, seasonPicture, seasonsCollage } from './demo-art-showcase.js';
import { DEMO_SAMPLE_RATE, WAV_HEADER_BYTES, tuneToWav } from './demo-audio.js';
import { DEMO_ALBUM, DEMO_CARDS, DEMO_COLLECTION, DEMO_SONGS, type CardKey, type DemoPost, type SongKey } from './demo-catalogue.js';

/** Every file of the demo catalogue, made in memory and grouped as they are stored. */
export interface DemoMedia {
  songs: Record<SongKey, GeneratedFile>;
  /** Per card: cover, inside (greeting), back, then the extras. */
  cards: Record<CardKey, { cover: GeneratedFile; inside: GeneratedFile; back: GeneratedFile; extras: GeneratedFile[] }>;
  /** The album's cover first. */
  album: GeneratedFile[];
  /** The collection's collage first, then one picture per season. */
  collection: GeneratedFile[];
  posts: Record<DemoPost['cover'], GeneratedFile>;
}

const picture = async (fileName: string, svg: string): Promise<GeneratedFile> => ({ fileName, bytes: await renderPicture(svg) });

const seconds = (wav: Buffer) => (wav.length - WAV_HEADER_BYTES) / 2 / DEMO_SAMPLE_RATE;

/**
 * Draws every picture and plays every tune. Pictures are rendered concurrently: sharp works on its
 * own threads, so this takes about as long as the slowest few.
 */
export async function makeDemoMedia(): Promise<DemoMedia> {
  const songs = Object.fromEntries(
    Object.entries(DEMO_SONGS).map(([key, song]) => [key, { fileName: `${song.title}.wav`, bytes: tuneToWav(song.tune) }]),
  ) as Record<SongKey, GeneratedFile>;

  const cards = Promise.all(
    DEMO_CARDS.map(async (card) => {
      const art: CardArt = { scene: card.scene, headline: card.headline, title: card.name };
      const [cover, inside, back, ...extras] = await Promise.all([
        picture(`${card.name} - cover.webp`, cardCover(art)),
        picture(`${card.name} - inside.webp`, cardInside(art, card.messageLocation)),
        picture(`${card.name} - back.webp`, cardBack(art)),
        ...card.extras.map((extra) =>
          extra === 'pattern' ? picture(`${card.name} - pattern.webp`, cardPattern(art)) : picture(`${card.name} - illustration.webp`, cardIllustration(art, 'extra')),
        ),
      ]);
      return [card.key, { cover, inside, back, extras }] as const;
    }),
  );

  const tracks = DEMO_ALBUM.tracks.map((key) => ({ title: DEMO_SONGS[key].title, seconds: seconds(songs[key].bytes) }));
  const album = Promise.all([
    picture(`${DEMO_ALBUM.name} - cover.webp`, albumCover(DEMO_ALBUM.name)),
    picture(`${DEMO_ALBUM.name} - back.webp`, albumBack(DEMO_ALBUM.name, tracks)),
    picture(`${DEMO_ALBUM.name} - record.webp`, albumRecord()),
    picture(`${DEMO_ALBUM.name} - sound.webp`, albumWaves()),
  ]);
  const collection = Promise.all([
    picture(`${DEMO_COLLECTION.name}.webp`, seasonsCollage(DEMO_COLLECTION.name)),
    ...SEASONS.map((season) => picture(`${season[0].toUpperCase()}${season.slice(1)}.webp`, seasonPicture(season))),
  ]);
  const posts = Promise.all([picture('Welcome.webp', blogWelcome()), picture('Five ways.webp', blogEnvelope())]);

  const [cardFiles, albumFiles, collectionFiles, [welcome, envelope]] = await Promise.all([cards, album, collection, posts]);
  return {
    songs,
    cards: Object.fromEntries(cardFiles) as DemoMedia['cards'],
    album: albumFiles,
    collection: collectionFiles,
    posts: { welcome, envelope },
  };
}
