import { MessageLocation } from '../modules/catalogue/e-greeting-card.entity.js';
import type { CardScene } from './demo-art-scenes.js';
import type { Tune } from './demo-audio.js';

/** The demo catalogue a fresh shop opens with: what it contains, not how it is stored. */

export type SongKey = 'happyBirthday' | 'birthdayBounce' | 'jingleBells' | 'merryChristmas' | 'auldLangSyne' | 'midnightSparkle' | 'heartstrings' | 'odeToJoy';
export type CategoryKey = 'birthday' | 'holidays' | 'christmas' | 'newYear' | 'love' | 'thanks' | 'albums' | 'collections';

export interface DemoSong {
  title: string;
  tune: Tune;
}

export const DEMO_SONGS: Record<SongKey, DemoSong> = {
  happyBirthday: {
    title: 'Happy Birthday',
    tune: { bpm: 160, melody: 'G4/0.75 G4/0.25 A4 G4 C5 B4/2 G4/0.75 G4/0.25 A4 G4 D5 C5/2', bass: 'C3/3 G2/3 G2/3 C3/3' },
  },
  birthdayBounce: {
    title: 'Birthday Bounce',
    tune: { bpm: 150, melody: 'C4/0.5 F4/0.5 A4/0.5 C5/0.5 A4/0.5 F4/0.5 C5 Bb4/0.5 G4/0.5 E4/0.5 C4/0.5 E4/0.5 G4/0.5 C5 A4/0.5 C5/0.5 F5/2', bass: 'F2/4 C3/4 F2/3' },
  },
  jingleBells: {
    title: 'Jingle Bells',
    tune: { bpm: 200, melody: 'E4 E4 E4/2 E4 E4 E4/2 E4 G4 C4/1.5 D4/0.5 E4/4', bass: 'C3/2 G2/2 C3/2 G2/2 C3/2 G2/2 C3/4' },
  },
  merryChristmas: {
    title: 'We Wish You a Merry Christmas',
    tune: { bpm: 170, melody: 'D4 G4 G4/0.5 A4/0.5 G4/0.5 F#4/0.5 E4 E4 E4 A4 A4/0.5 B4/0.5 A4/0.5 G4/0.5 F#4 D4/2', bass: 'R G2/3 C3/3 D3/3 G2/3' },
  },
  auldLangSyne: {
    title: 'Auld Lang Syne',
    tune: { bpm: 170, melody: 'C4 F4/1.5 F4/0.5 F4 A4 G4/1.5 F4/0.5 G4 A4/0.5 G4/0.5 F4/1.5 F4/0.5 A4 C5 D5/2', bass: 'R F2/4 C3/4 F2/4 Bb2/2' },
  },
  midnightSparkle: {
    title: 'Midnight Sparkle',
    tune: { bpm: 150, melody: 'D5/0.5 A4/0.5 F#5/0.5 A4/0.5 D5/0.5 A5/0.5 F#5 G5/0.5 B4/0.5 E5/0.5 G5/0.5 B5 A5/0.5 F#5/0.5 D5/0.5 A5/0.5 D6/2', bass: 'D3/4 G2/3 D3/4' },
  },
  heartstrings: {
    title: 'Heartstrings',
    tune: { bpm: 96, melody: 'A4/0.5 C5/0.5 E5 D5/0.5 C5/0.5 B4 C5/0.5 E5/0.5 G5 F5/0.5 E5/0.5 E5/2', bass: 'A2/2 G2/2 C3/2 F2/1 C3/2' },
  },
  odeToJoy: {
    title: 'Ode to Joy',
    tune: { bpm: 190, melody: 'E4 E4 F4 G4 G4 F4 E4 D4 C4 C4 D4 E4 E4/1.5 D4/0.5 D4/2', bass: 'C3/4 G2/4 C3/4 G2/4' },
  },
};

export interface DemoCategory {
  key: CategoryKey;
  name: string;
  parent?: CategoryKey;
  /** Whose main image the category shows. */
  image: CardKey | 'album' | 'collection';
}

export type CardKey = 'balloons' | 'cake' | 'pines' | 'snowflakes' | 'fireworks' | 'hearts' | 'flowers';

export const DEMO_CATEGORIES: DemoCategory[] = [
  { key: 'birthday', name: 'Birthday', image: 'balloons' },
  { key: 'holidays', name: 'Holidays', image: 'pines' },
  { key: 'christmas', name: 'Christmas', parent: 'holidays', image: 'snowflakes' },
  { key: 'newYear', name: 'New Year', parent: 'holidays', image: 'fireworks' },
  { key: 'love', name: 'Love & Romance', image: 'hearts' },
  { key: 'thanks', name: 'Thank You', image: 'flowers' },
  { key: 'albums', name: 'Music Albums', image: 'album' },
  { key: 'collections', name: 'Art Collections', image: 'collection' },
];

export interface DemoCard {
  key: CardKey;
  name: string;
  /** The greeting on the cover. */
  headline: string;
  scene: CardScene;
  category: CategoryKey;
  sku: string;
  price: string;
  description: string;
  tags: string[];
  messageLocation: MessageLocation;
  fontName: string;
  songs: SongKey[];
  /** The extra pictures: a fresh illustration of the scene and/or its motif as a pattern. */
  extras: ('illustration' | 'pattern')[];
}

export const DEMO_CARDS: DemoCard[] = [
  {
    key: 'balloons',
    name: 'Balloon Bouquet',
    headline: 'Happy Birthday',
    scene: 'balloons',
    category: 'birthday',
    sku: 'EC-BDAY-001',
    price: '3.99',
    description: 'A bunch of bright balloons drifting through a summer sky, with confetti to spare. Cheerful for any age, and it plays "Happy Birthday" when it opens.',
    tags: ['birthday', 'balloons', 'colourful', 'kids'],
    messageLocation: MessageLocation.TOP_CENTER,
    fontName: 'Pacifico',
    songs: ['happyBirthday', 'birthdayBounce'],
    extras: ['illustration', 'pattern'],
  },
  {
    key: 'cake',
    name: 'Candles & Cake',
    headline: 'Make a Wish',
    scene: 'cake',
    category: 'birthday',
    sku: 'EC-BDAY-002',
    price: '4.49',
    description: 'A two-tier strawberry cake under a string of bunting, three candles lit and waiting. For the friend who never forgets a birthday.',
    tags: ['birthday', 'cake', 'party', 'candles'],
    messageLocation: MessageLocation.BOTTOM_RIGHT,
    fontName: 'Roboto',
    songs: ['happyBirthday'],
    extras: ['pattern'],
  },
  {
    key: 'pines',
    name: 'Snowy Pines',
    headline: 'Merry Christmas',
    scene: 'pines',
    category: 'christmas',
    sku: 'EC-XMAS-001',
    price: '4.99',
    description: 'A moonlit forest after the first snow, with one little fir dressed for the holidays. Warm wishes for a quiet, happy Christmas.',
    tags: ['christmas', 'winter', 'trees', 'snow'],
    messageLocation: MessageLocation.BOTTOM_LEFT,
    fontName: 'Playfair Display',
    songs: ['jingleBells', 'merryChristmas'],
    extras: ['illustration'],
  },
  {
    key: 'snowflakes',
    name: 'Snowflake Waltz',
    headline: 'Season’s Greetings',
    scene: 'snowflakes',
    category: 'christmas',
    sku: 'EC-XMAS-002',
    price: '3.99',
    description: 'Crisp snowflakes twirling on an icy blue sky: a calm, elegant card for colleagues, neighbours and everyone in between.',
    tags: ['christmas', 'winter', 'snowflakes', 'elegant'],
    messageLocation: MessageLocation.MIDDLE_LEFT,
    fontName: 'Dancing Script',
    songs: ['merryChristmas', 'jingleBells'],
    extras: ['pattern'],
  },
  {
    key: 'fireworks',
    name: 'Midnight Fireworks',
    headline: 'Happy New Year',
    scene: 'fireworks',
    category: 'newYear',
    sku: 'EC-NY-001',
    price: '3.49',
    description: 'Fireworks bloom over the city skyline as the clock strikes twelve. Ring in the new year with a card that sparkles.',
    tags: ['new year', 'fireworks', 'celebration', 'night'],
    messageLocation: MessageLocation.TOP_LEFT,
    fontName: 'Lobster',
    songs: ['auldLangSyne', 'midnightSparkle', 'jingleBells'],
    extras: ['illustration', 'pattern'],
  },
  {
    key: 'hearts',
    name: 'Hearts in Bloom',
    headline: 'With All My Love',
    scene: 'hearts',
    category: 'love',
    sku: 'EC-LOVE-001',
    price: '6.99',
    description: 'One big heart surrounded by a flurry of little ones, in every shade of pink. For anniversaries, Valentine’s Day, or simply because.',
    tags: ['love', 'hearts', 'romance', 'valentine', 'anniversary'],
    messageLocation: MessageLocation.MIDDLE_CENTER,
    fontName: 'Great Vibes',
    songs: ['heartstrings', 'odeToJoy'],
    extras: ['illustration', 'pattern'],
  },
  {
    key: 'flowers',
    name: 'Garden of Thanks',
    headline: 'Thank You',
    scene: 'flowers',
    category: 'thanks',
    sku: 'EC-THX-001',
    price: '2.99',
    description: 'A hand-picked garden of cheerful blooms to say what words sometimes cannot. Perfect for teachers, hosts and helpers.',
    tags: ['thank you', 'flowers', 'gratitude', 'spring'],
    messageLocation: MessageLocation.MIDDLE_RIGHT,
    fontName: 'Lora',
    songs: ['odeToJoy'],
    extras: ['illustration'],
  },
];

export const DEMO_ALBUM = {
  name: 'Songs for Every Occasion',
  sku: 'ALB-001',
  price: '9.99',
  tags: ['album', 'music', 'celebration'],
  /** Listed on the album's back cover, in this order. */
  tracks: ['happyBirthday', 'birthdayBounce', 'jingleBells', 'merryChristmas', 'auldLangSyne', 'midnightSparkle', 'heartstrings', 'odeToJoy'] as SongKey[],
  description:
    'Eight little tunes for the moments that matter, from birthday candles to the last chime of the year. The same melodies that play inside our cards, collected on one record.',
};

export const DEMO_COLLECTION = {
  name: 'Seasons in Colour',
  sku: 'ART-001',
  price: '7.99',
  tags: ['art', 'prints', 'landscape', 'seasons'],
  description:
    'Four landscapes, one for each season: cherry blossom in spring, a blazing summer sun, autumn woods on fire with colour and a hushed winter forest. Printable at home or ready for your screen.',
};

export interface DemoPost {
  title: string;
  excerpt: string;
  cover: 'welcome' | 'envelope';
  body: string;
}

export const DEMO_POSTS: DemoPost[] = [
  {
    title: 'Welcome to Art & Song Cards',
    excerpt: 'Greeting cards that arrive in seconds, carry a song and still feel personal. Here is how they work.',
    cover: 'welcome',
    body: `Some greetings cannot wait for the post. **Art & Song Cards** makes cards that arrive the moment you send them, and that still feel chosen with care.

## How a card comes together

1. **Pick a design.** Browse by occasion: birthdays, holidays, love, thanks, and more.
2. **Write your message.** Every card has a place for it on the inside page, set in a font chosen to match the artwork.
3. **Let it sing.** Each card carries up to three short songs that play when it is opened.

Your recipient gets a link to a page of their own: the cover, the inside with your words, the back, and the music.

## More than cards

Alongside the cards you will find **music albums** and **art collections** for anyone who would like to keep the melodies and pictures.

> The best greetings are the ones that arrive right on time.

Have a look around, and happy sending!`,
  },
  {
    title: 'Five Ways to Make an E-Card Unforgettable',
    excerpt: 'A few small touches turn a quick greeting into one that gets saved and shared.',
    cover: 'envelope',
    body: `A card that arrives in seconds can still be remembered for years. Here are five small touches that help.

### 1. Say one specific thing

"Happy birthday" is lovely; "Happy birthday to the person who still laughs at my worst jokes" is unforgettable. One real detail beats a paragraph of generic wishes.

### 2. Match the song to the moment

A playful tune for a child, something gentle for an anniversary. Give each of the card's songs a listen before you choose.

### 3. Keep it short

The inside page has room for a few lines. Two or three sentences, read in the card's own font, say more than a wall of text.

### 4. Send it at the right time

Because e-cards arrive instantly, you can time them exactly: first thing in the morning, or right at midnight on New Year's Eve.

### 5. Sign it like you mean it

End with your name, a nickname, or the inside joke only the two of you share.

*Ready to try?* Browse the **Birthday** or **Thank You** cards and put these ideas to work.`,
  },
];
