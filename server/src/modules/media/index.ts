/** The media module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { MediaFile } from './media-file.entity.js';
export { MediaKind } from './media-formats.js';
export { checkedImage, checkedMediaFiles, existingImage, type WantedMedia } from './media-references.js';
export { type MediaUsageProvider } from './media-usages.js';
