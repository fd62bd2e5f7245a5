import type { MessageDescriptor } from 'react-intl';

/**
 * A message's English as written, for code that knows a text by its English (the server's answers,
 * the shop's own product types): in the built client the texts come already parsed
 * (web/vite/precompiled-messages.ts), and a text without values is its literal elements' words.
 */
export const englishText = ({ defaultMessage }: MessageDescriptor): string =>
  typeof defaultMessage === 'string' ? defaultMessage : (defaultMessage ?? []).map((element) => ('value' in element && element.type === 0 ? element.value : '')).join('');
